import {
  ApiError,
  AuthenticationError,
  BadRequestError,
  InsufficientBalanceError,
  RateLimitError,
  ServiceUnavailableError,
  UnprocessableEntityError,
} from "@infill/core";
import { describe, expect, it } from "vitest";
import type { FailureSubject } from "../../src/upstream/failure-notice.js";
import { UpstreamHealth } from "../../src/upstream/health.js";

const OLLAMA: FailureSubject = {
  provider: "ollama",
  label: "Ollama",
  model: "mistral",
  apiKeyEnv: undefined,
};

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
  it("a model not pulled backs off (the user pulls it), a model that cannot infill blocks", () => {
    const now = 0;
    const health = new UpstreamHealth(
      () => now,
      () => OLLAMA,
    );
    health.failure(new ApiError(404, "404", { reason: "model-not-found" }));
    expect(health.blockedForMs()).toBe(1_000);
    health.failure(new BadRequestError(400, "400", { reason: "fim-unsupported" }));
    expect(health.blockedForMs()).toBe(Number.POSITIVE_INFINITY);
  });

  it("keeps the last failure until a success, told or not", () => {
    let now = 0;
    const health = new UpstreamHealth(() => now);
    const outage = new ServiceUnavailableError(503, "503 Server Overloaded");
    health.failure(outage);
    now += 1_000;
    expect(health.failure(outage)).toBeUndefined();
    expect(health.last?.kind).toBe("unavailable");
    health.success();
    expect(health.last).toBeUndefined();
  });
});

describe("UpstreamHealth and invoked requests", () => {
  it("rechecks an empty balance after 30 s, doubling up to 5 min, and lets invoked requests try", () => {
    let now = 0;
    const health = new UpstreamHealth(() => now);
    const empty = new InsufficientBalanceError(402, "402 Insufficient Balance");
    expect(health.failure(empty)?.kind).toBe("balance");
    expect(health.blockedForMs()).toBe(30_000);
    expect(health.isBlocked()).toBe(true);
    expect(health.isBlocked(true)).toBe(false);
    now += 30_000;
    expect(health.isBlocked()).toBe(false);
    expect(health.failure(empty)).toBeUndefined();
    expect(health.blockedForMs()).toBe(60_000);
  });

  it("backs a refused request off like an outage, told once", () => {
    let now = 0;
    const health = new UpstreamHealth(() => now);
    const refused = new BadRequestError(400, "400 Invalid Format");
    expect(health.failure(refused)?.severity).toBe("warning");
    expect(health.blockedForMs()).toBe(1_000);
    now += 1_000;
    expect(health.failure(refused)).toBeUndefined();
    expect(health.blockedForMs()).toBe(2_000);
  });

  it("holds invoked requests back only for what a settings change fixes", () => {
    const health = new UpstreamHealth(() => 0);
    health.failure(new AuthenticationError(401, "401"));
    expect(health.isBlocked(true)).toBe(true);
    const noKey = new UpstreamHealth(() => 0);
    noKey.block({ kind: "no-key", severity: "warning", message: "no key" });
    expect(noKey.isBlocked(true)).toBe(true);
    const model = new UpstreamHealth(() => 0);
    model.failure(new UnprocessableEntityError(422, "422 Model Not Exist"));
    expect(model.isBlocked(true)).toBe(true);
  });

  it("keeps a longer block when an invoked request fails meanwhile with a shorter one", () => {
    let now = 0;
    const health = new UpstreamHealth(() => now);
    health.failure(new RateLimitError(429, "429", { retryAfterMs: 30_000 }));
    now += 1_000;
    health.failure(new ServiceUnavailableError(503, "503"));
    expect(health.blockedForMs()).toBe(29_000);
  });
});
