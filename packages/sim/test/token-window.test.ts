import { describe, expect, it } from "vitest";
import { TokenWindow } from "../src/token-window.js";
import { ADD_SUB, MODEL, rawCompletion, sim } from "./helpers.js";

describe("TokenWindow", () => {
  it("lets requests in while the minute's tokens stay within the limit", () => {
    const window = new TokenWindow(100);
    expect(window.admit(60, 0)).toBe(0);
    window.record(70, 0);
    expect(window.admit(30, 1_000)).toBe(0);
    window.record(30, 1_000);
    expect(window.used(1_000)).toBe(100);
    // Full: the 70 of t=0 leave at t=60 s, which is enough for 50.
    expect(window.admit(50, 2_000)).toBe(58_000);
    // One token more waits for the oldest to leave, a millisecond before it does.
    expect(window.admit(1, 59_999)).toBe(1);
    expect(window.admit(50, 60_000)).toBe(0);
    expect(window.used(60_000)).toBe(30);
  });

  it("says when the window empties for a request the others leave no room for", () => {
    const window = new TokenWindow(100);
    window.record(40, 0);
    window.record(40, 10_000);
    expect(window.admit(90, 20_000)).toBe(50_000);
  });

  it("lets a request larger than the limit in alone, once the window is empty", () => {
    const window = new TokenWindow(100);
    expect(window.admit(500, 0)).toBe(0);
    window.record(520, 0);
    expect(window.admit(1, 30_000)).toBe(30_000);
    expect(window.admit(500, 60_000)).toBe(0);
  });

  it("counts over another window when given one", () => {
    const window = new TokenWindow(10, 1_000);
    window.record(10, 0);
    expect(window.admit(5, 400)).toBe(600);
  });

  it.each([
    [0, undefined, /tokensPerMinute must be ≥ 1/],
    [10, 0, /tokenWindowMs must be a positive number/],
  ])("refuses limit %j, window %j", (limit, windowMs, message) => {
    expect(() => new TokenWindow(limit, windowMs)).toThrow(message);
  });
});

describe("tokensPerMinute", () => {
  it("answers 429 with Retry-After once the minute's tokens would pass the limit", async () => {
    const s = await sim({ tokensPerMinute: 40 });
    const first = await rawCompletion(s, { model: MODEL, prompt: ADD_SUB, max_tokens: 4 });
    expect(first.status).toBe(200);
    const usage = JSON.parse(first.body).usage;
    expect(usage.total_tokens).toBeGreaterThan(20);
    const second = await rawCompletion(s, { model: MODEL, prompt: ADD_SUB, max_tokens: 4 });
    expect(second.status).toBe(429);
    expect(JSON.parse(second.body).error.message).toBe("Rate Limit Reached");
    const retryAfter = Number(second.headers["retry-after"]);
    expect(retryAfter).toBeGreaterThanOrEqual(50);
    expect(retryAfter).toBeLessThanOrEqual(60);
    // A refused request counts nothing: a small one still fits.
    expect((await rawCompletion(s, { model: MODEL, prompt: "x", max_tokens: 1 })).status).toBe(200);
  });

  it("refuses a limit below 1", async () => {
    await expect(sim({ tokensPerMinute: 0 })).rejects.toThrow(/tokensPerMinute/);
  });
});
