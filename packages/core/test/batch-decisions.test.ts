import { describe, expect, it } from "vitest";
import { type RateLimitState, rateLimitDecision } from "../src/batch/rate-limit-decision.js";
import { FailureStreak, isAboutTheEndpoint, passesCostCap } from "../src/batch/stop-rules.js";
import {
  AuthenticationError,
  ConnectionError,
  InsufficientBalanceError,
  NotFoundError,
  RateLimitError,
  TimeoutError,
  ValidationError,
} from "../src/errors.js";

// A 429 at t = 1000 ms, the first in a row, under a limit of 7, no pause on, the request's first 429.
const base: RateLimitState = {
  now: 1000,
  retryAfterMs: undefined,
  rateLimitedInARow: 1,
  limit: 7,
  pausedUntil: 0,
  attempts: 0,
  maxRetries: 10,
};
// With random() = 0.5 the backoff after attempt a is half of min(8000, 500 · 2^a): 250, 500, 1000, … 4000.
const half = () => 0.5;

describe("rateLimitDecision", () => {
  it.each<[string, Partial<RateLimitState>, ReturnType<typeof rateLimitDecision>]>([
    ["a first 429 goes again at once", {}, { pause: undefined, retryAt: 1000 }],
    ["a second 429 backs off (attempt 0)", { attempts: 1 }, { pause: undefined, retryAt: 1250 }],
    ["a fourth backs off longer (attempt 2)", { attempts: 3 }, { pause: undefined, retryAt: 2000 }],
    [
      "Retry-After pauses everything and times the retry",
      { retryAfterMs: 2000 },
      { pause: { ms: 2000, reason: "retry-after" }, retryAt: 3000 },
    ],
    [
      "a Retry-After inside the pause already on adds none",
      { retryAfterMs: 2000, pausedUntil: 5000 },
      { pause: undefined, retryAt: 3000 },
    ],
    [
      "Retry-After is capped at a minute",
      { retryAfterMs: 120_000 },
      { pause: { ms: 60_000, reason: "retry-after" }, retryAt: 61_000 },
    ],
    [
      "Retry-After: 0 pauses nothing and retries now",
      { retryAfterMs: 0, attempts: 2 },
      { pause: undefined, retryAt: 1000 },
    ],
    [
      "more 429s in a row than the limit: everyone backs off",
      { rateLimitedInARow: 10, limit: 4 },
      { pause: { ms: 4000, reason: "rate-limited" }, retryAt: 1000 },
    ],
    [
      "the overflow's backoff stops growing at attempt 6",
      { rateLimitedInARow: 30, limit: 4 },
      { pause: { ms: 4000, reason: "rate-limited" }, retryAt: 1000 },
    ],
    [
      "as many in a row as the limit is no overflow",
      { rateLimitedInARow: 7 },
      { pause: undefined, retryAt: 1000 },
    ],
    [
      "an overflow's pause inside the one on adds none",
      { rateLimitedInARow: 10, limit: 4, pausedUntil: 9000 },
      { pause: undefined, retryAt: 1000 },
    ],
    [
      "a Retry-After overrides the overflow's backoff",
      { rateLimitedInARow: 10, limit: 4, retryAfterMs: 1000 },
      { pause: { ms: 1000, reason: "retry-after" }, retryAt: 2000 },
    ],
    ["out of retries, the request fails", { attempts: 10 }, { pause: undefined, retryAt: undefined }],
    [
      "out of retries, the pause still holds",
      { attempts: 10, retryAfterMs: 3000 },
      { pause: { ms: 3000, reason: "retry-after" }, retryAt: undefined },
    ],
    ["no retries allowed", { maxRetries: 0 }, { pause: undefined, retryAt: undefined }],
  ])("%s", (_, state, expected) => {
    expect(rateLimitDecision({ ...base, ...state }, half)).toEqual(expected);
  });

  it("draws the pause's jitter first, then the request's", () => {
    const draws = [0.25, 0.75];
    const random = () => draws.shift() ?? Number.NaN;
    // Overflow 1: backoff(1) = 1000 · 0.25; the request's third 429: backoff(1) = 1000 · 0.75.
    expect(rateLimitDecision({ ...base, rateLimitedInARow: 8, attempts: 2 }, random)).toEqual({
      pause: { ms: 250, reason: "rate-limited" },
      retryAt: 1750,
    });
    expect(draws).toEqual([]);
  });
});

describe("stop rules", () => {
  it.each<[string, unknown, boolean]>([
    ["401", new AuthenticationError(401, "401"), true],
    ["402", new InsufficientBalanceError(402, "402"), true],
    ["404", new NotFoundError(404, "404"), true],
    ["no connection", new ConnectionError("connect ECONNREFUSED"), true],
    ["429", new RateLimitError(429, "429"), false],
    ["a refused request", new ValidationError("prompt", "prompt is required"), false],
    ["a timeout", new TimeoutError("60 s"), false],
    ["a plain error", new Error("boom"), false],
    ["not an error", "ECONNREFUSED", false],
  ])("isAboutTheEndpoint(%s) is %s", (_, error, expected) => {
    expect(isAboutTheEndpoint(error)).toBe(expected);
  });

  it.each<[number | undefined, number, number, number, boolean]>([
    [undefined, 100, 100, 100, false],
    [1, 0.5, 0.25, 0.25, false],
    [1, 0.5, 0.25, 0.26, true],
    [1, 1.5, 0, 0, true],
    [0, 0, 0, 0, false],
    [0, 0, 0, 0.001, true],
  ])(
    "passesCostCap(max %s; spent %s, reserved %s, next %s) is %s",
    (max, spent, reserved, next, expected) => {
      expect(passesCostCap(max, spent, reserved, next)).toBe(expected);
    },
  );

  it("stops after so many failures about the endpoint in a row; an answer breaks the streak", () => {
    const streak = new FailureStreak(3);
    const down = new ConnectionError("connect ECONNREFUSED");
    expect([streak.failed(down), streak.failed(down)]).toEqual([false, false]);
    streak.answered();
    expect([streak.failed(down), streak.failed(down)]).toEqual([false, false]);
    // A failure of the request itself neither counts nor breaks the streak.
    expect(streak.failed(new ValidationError("prompt", "prompt is required"))).toBe(false);
    expect(streak.failed(down)).toBe(true);
    expect(streak.failed(down)).toBe(true);
  });

  it("never stops with 0", () => {
    const streak = new FailureStreak(0);
    const failed = Array.from({ length: 50 }, () => streak.failed(new AuthenticationError(401, "401")));
    expect(failed.some(Boolean)).toBe(false);
  });
});
