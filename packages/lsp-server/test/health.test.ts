import {
  AbortError,
  ApiError,
  AuthenticationError,
  BadRequestError,
  ConnectionError,
  InsufficientBalanceError,
  RateLimitError,
  ResponseValidationError,
  ServiceUnavailableError,
  TimeoutError,
  UnprocessableEntityError,
  ValidationError,
} from "@infill/core";
import { describe, expect, it } from "vitest";
import { describeFailure, UpstreamHealth } from "../src/health.js";

describe("describeFailure", () => {
  it.each([
    [new AuthenticationError(401, "401 Authentication Fails"), "auth"],
    [new InsufficientBalanceError(402, "402 Insufficient Balance"), "balance"],
    [new RateLimitError(429, "429 Rate Limit Reached"), "rate-limit"],
    [new BadRequestError(400, "400 bad"), "rejected"],
    [new UnprocessableEntityError(422, "422 Model Not Exist"), "rejected"],
    [new ServiceUnavailableError(503, "503 Server Overloaded"), "unavailable"],
    [new ApiError(502, "502 Bad Gateway"), "unavailable"],
    [new ConnectionError("connect ECONNREFUSED"), "unavailable"],
    [new TimeoutError("timed out"), "unavailable"],
    [new ResponseValidationError("not a completion"), "unavailable"],
    [new AbortError("aborted"), undefined],
    [new ValidationError("baseURL", "plain http to a remote host is refused"), "rejected"],
    [new Error("boom"), undefined],
    ["a string", undefined],
  ])("%s → %s", (error, kind) => {
    expect(describeFailure(error)?.kind).toBe(kind);
  });
});

describe("UpstreamHealth", () => {
  it("tells each kind once, blocks with backoff, honours Retry-After, and forgets on success", () => {
    let now = 0;
    const health = new UpstreamHealth(() => now);
    const outage = new ServiceUnavailableError(503, "503 Server Overloaded");
    expect(health.failure(outage)?.kind).toBe("unavailable");
    expect(health.isBlocked()).toBe(true);
    expect(health.blockedForMs()).toBe(1_000);
    now += 1_000;
    expect(health.isBlocked()).toBe(false);
    expect(health.failure(outage)).toBeUndefined();
    expect(health.blockedForMs()).toBe(2_000);
    const limited = new RateLimitError(429, "429", { retryAfterMs: 30_000 });
    expect(health.failure(limited)?.kind).toBe("rate-limit");
    expect(health.blockedForMs()).toBe(30_000);
    health.success();
    expect(health.isBlocked()).toBe(false);
    expect(health.failure(outage)?.kind).toBe("unavailable");
  });

  it("blocks a rejected key until reset", () => {
    let now = 0;
    const health = new UpstreamHealth(() => now);
    expect(health.failure(new AuthenticationError(401, "401"))?.kind).toBe("auth");
    now += 24 * 3_600_000;
    expect(health.isBlocked()).toBe(true);
    health.reset();
    expect(health.isBlocked()).toBe(false);
  });
});
