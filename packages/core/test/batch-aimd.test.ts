import { describe, expect, it } from "vitest";
import { AimdController } from "../src/batch/aimd.js";
import { TokenBucket } from "../src/batch/token-bucket.js";

describe("AimdController", () => {
  it("starts at initial, within [min, max], with defaults 8, 1, 128", () => {
    expect(new AimdController().limit).toBe(8);
    expect(new AimdController({ max: 4 }).limit).toBe(4);
    expect(new AimdController({ min: 16 }).limit).toBe(16);
    expect(new AimdController({ initial: 3, min: 2, max: 5 }).limit).toBe(3);
  });

  it.each([
    [{ initial: 0 }, /initial must be a positive integer/],
    [{ min: 1.5 }, /min must be a positive integer/],
    [{ min: 4, max: 2 }, /max \(2\) must be at least min \(4\)/],
    [{ initial: 9, max: 8 }, /initial \(9\) must be between/],
    [{ decreaseFactor: 1 }, /decreaseFactor/],
  ])("refuses %j", (options, message) => {
    expect(() => new AimdController(options)).toThrow(message);
  });

  it("doubles every round trip in slow start, while the limit is in use", () => {
    const aimd = new AimdController({ initial: 4 });
    const changes = [];
    // A round trip: each of the 4 comes back with the limit in use (another sent in its place at once).
    for (let i = 0; i < 4; i++) changes.push(aimd.succeeded(aimd.limit - 1));
    expect(aimd.limit).toBe(8);
    expect(changes[0]).toEqual({ from: 4, to: 5, reason: "increase" });
  });

  it("does not grow on successes while fewer than the limit are in flight", () => {
    const aimd = new AimdController({ initial: 8 });
    for (let i = 0; i < 100; i++) expect(aimd.succeeded(2)).toBeUndefined();
    expect(aimd.limit).toBe(8);
    expect(aimd.succeeded(7)).toEqual({ from: 8, to: 9, reason: "increase" });
  });

  it("stops at max", () => {
    const aimd = new AimdController({ initial: 3, max: 4 });
    aimd.succeeded(10);
    expect(aimd.succeeded(10)).toBeUndefined();
    expect(aimd.limit).toBe(4);
  });

  // Each row: the limit before, the requests sent before the 429'd one still in flight, the limit after.
  it.each([
    ["slow start overshot twice a limit of 8", 16, 8, 8],
    ["slow start overshot a limit of 100 on its way to 128", 128, 100, 100],
    ["slow start: no more than the factor's decrease", 10, 9, 9],
    ["slow start: other clients hold the account", 16, 0, 1],
  ])("ends slow start at the requests the server held: %s", (_, before, older, after) => {
    const aimd = new AimdController({ initial: before, max: 256 });
    const ticket = aimd.send();
    expect(aimd.rateLimited(ticket, older)?.to).toBe(after);
    expect(aimd.slowStart).toBe(false);
  });

  it("then adds one per round trip and multiplies by 0.9 on a 429, once per round", () => {
    const aimd = new AimdController({ initial: 9 });
    const first = aimd.send();
    const second = aimd.send();
    expect(aimd.rateLimited(first, 8)).toEqual({ from: 9, to: 8, reason: "rate-limited" });
    // Sent before the decrease: it says nothing new.
    expect(aimd.rateLimited(second, 8)).toBeUndefined();
    expect(aimd.limit).toBe(8);
    // 8 → 9 takes a round trip's worth of successes with the limit in use, 1/limit each.
    let successes = 0;
    while (aimd.limit === 8) {
      aimd.succeeded(7);
      successes++;
    }
    expect(successes).toBe(9);
    const third = aimd.send();
    expect(aimd.rateLimited(third, 8)).toEqual({ from: 9, to: 8, reason: "rate-limited" });
  });

  it("never goes under min", () => {
    const aimd = new AimdController({ initial: 2, min: 2 });
    for (let i = 0; i < 5; i++) aimd.rateLimited(aimd.send(), 0);
    expect(aimd.limit).toBe(2);
  });
});

describe("TokenBucket", () => {
  it("holds a second's worth by default", () => {
    expect(new TokenBucket(6000, 0).capacity).toBe(100);
    expect(new TokenBucket(6000, 0, 60_000).capacity).toBe(6000);
  });

  it("starts full, and lets a request through while it is not in debt", () => {
    const bucket = new TokenBucket(600, 0, 60_000);
    expect(bucket.take(500, 0)).toBe(0);
    expect(bucket.level(0)).toBe(100);
    // 200 needed, 100 there: 100 more come in 10 s at 600 a minute.
    expect(bucket.take(200, 0)).toBe(10_000);
    expect(bucket.take(200, 10_000)).toBe(0);
    expect(bucket.level(10_000)).toBe(0);
  });

  it("refills continuously, up to its capacity", () => {
    const bucket = new TokenBucket(60, 0, 60_000);
    bucket.take(60, 0);
    expect(bucket.level(30_000)).toBe(30);
    expect(bucket.level(600_000)).toBe(60);
  });

  it("lets a request larger than its capacity go when full, in debt after it", () => {
    const bucket = new TokenBucket(100, 0, 60_000);
    expect(bucket.take(250, 0)).toBe(0);
    expect(bucket.level(0)).toBe(-150);
    expect(bucket.take(10, 0)).toBe(96_000);
  });

  it("settles an estimate with what was used", () => {
    const bucket = new TokenBucket(1000, 0, 60_000);
    bucket.take(300, 0);
    bucket.settle(300, 100, 0);
    expect(bucket.level(0)).toBe(900);
    bucket.settle(0, 1000, 0);
    expect(bucket.level(0)).toBe(-100);
    bucket.settle(5000, 0, 0);
    expect(bucket.level(0)).toBe(1000);
  });

  it("refuses a cap that is not a positive number", () => {
    expect(() => new TokenBucket(0, 0)).toThrow(RangeError);
    expect(() => new TokenBucket(Number.POSITIVE_INFINITY, 0)).toThrow(RangeError);
  });
});
