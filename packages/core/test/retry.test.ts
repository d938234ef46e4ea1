import { describe, expect, it } from "vitest";
import {
  BASE_DELAY_MS,
  backoffDelay,
  isRetryableErrorCode,
  isRetryableStatus,
  MAX_BACKOFF_MS,
  MAX_RETRY_AFTER_MS,
  nextRetryDelay,
  parseRetryAfter,
} from "../src/retry.js";

describe("backoffDelay (full jitter)", () => {
  it.each([
    [0, 0, 0],
    [0, 0.5, 250],
    [0, 0.999, 499],
    [1, 0.5, 500],
    [2, 0.5, 1000],
    [3, 0.999, 3996],
    [4, 0.5, 4000],
    [5, 0.5, 4000], // capped at 8 s
    [30, 0.999, 7992],
  ])("attempt %i, random %f → %i ms", (attempt, random, expected) => {
    expect(backoffDelay(attempt, random)).toBe(expected);
  });

  it("stays within [0, ceiling)", () => {
    for (let attempt = 0; attempt < 12; attempt++) {
      const ceiling = Math.min(MAX_BACKOFF_MS, BASE_DELAY_MS * 2 ** attempt);
      expect(backoffDelay(attempt, 0)).toBe(0);
      expect(backoffDelay(attempt, 0.9999999)).toBeLessThan(ceiling);
    }
  });
});

describe("parseRetryAfter", () => {
  const now = Date.parse("2026-11-21T12:00:00Z");
  it.each<[string | undefined, number | undefined]>([
    [undefined, undefined],
    ["", undefined],
    ["0", 0],
    ["2", 2000],
    [" 3 ", 3000],
    ["1.5", 1500],
    ["120", 120_000],
    ["-1", undefined],
    ["soon", undefined],
    ["Sat, 21 Nov 2026 12:00:05 GMT", 5000],
    ["Sat, 21 Nov 2026 11:59:00 GMT", 0],
    ["Sat, 21 Nov 2026 12:02:00 GMT", 120_000],
  ])("%j → %j", (value, expected) => {
    expect(parseRetryAfter(value, now)).toBe(expected);
  });
});

describe("nextRetryDelay", () => {
  it.each<[string, [number, number, number | undefined, number, number], number | undefined]>([
    ["first retry uses backoff", [0, 2, undefined, 60_000, 0.5], 250],
    ["second retry doubles the ceiling", [1, 2, undefined, 60_000, 0.5], 500],
    ["no retries left", [2, 2, undefined, 60_000, 0.5], undefined],
    ["maxRetries 0 never retries", [0, 0, undefined, 60_000, 0.5], undefined],
    ["Retry-After wins over backoff", [0, 2, 3000, 60_000, 0.5], 3000],
    ["Retry-After 0 retries at once", [0, 2, 0, 60_000, 0.5], 0],
    ["Retry-After is clamped", [0, 2, 3_600_000, 120_000, 0.5], MAX_RETRY_AFTER_MS],
    ["Retry-After past the deadline gives up", [0, 2, 10_000, 5_000, 0.5], undefined],
    ["backoff past the deadline gives up", [0, 2, undefined, 100, 0.5], undefined],
    ["clamped Retry-After past the deadline gives up", [0, 2, 3_600_000, 60_000, 0.5], undefined],
  ])("%s", (_name, [attempt, maxRetries, retryAfter, remaining, random], expected) => {
    expect(nextRetryDelay(attempt, maxRetries, retryAfter, remaining, random)).toBe(expected);
  });
});

describe("what is retryable", () => {
  it.each([
    [400, false],
    [401, false],
    [402, false],
    [404, false],
    [422, false],
    [429, true],
    [500, true],
    [502, false],
    [503, true],
  ])("status %i → %s", (status, expected) => {
    expect(isRetryableStatus(status)).toBe(expected);
  });

  it.each([
    ["ECONNRESET", true],
    ["ECONNREFUSED", true],
    ["UND_ERR_SOCKET", true],
    ["UND_ERR_CONNECT_TIMEOUT", true],
    ["EPIPE", true],
    ["UND_ERR_ABORTED", false],
    ["ABORT_ERR", false],
    ["UND_ERR_INVALID_ARG", false],
    ["ENOTFOUND", false],
    [undefined, false],
  ])("code %s → %s", (code, expected) => {
    expect(isRetryableErrorCode(code)).toBe(expected);
  });
});
