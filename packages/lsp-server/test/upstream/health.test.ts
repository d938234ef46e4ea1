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
  it("blocks with backoff, honours Retry-After, and forgets the backoff on success", () => {
    let now = 0;
    const health = new UpstreamHealth(() => now);
    const outage = new ServiceUnavailableError(503, "503 Server Overloaded");
    health.failure(outage);
    expect(health.isBlocked()).toBe(true);
    expect(health.blockedForMs()).toBe(1_000);
    now += 1_000;
    expect(health.isBlocked()).toBe(false);
    health.failure(outage);
    expect(health.blockedForMs()).toBe(2_000);
    health.failure(new RateLimitError(429, "429", { retryAfterMs: 30_000 }));
    expect(health.blockedForMs()).toBe(30_000);
    health.success();
    expect(health.isBlocked()).toBe(false);
  });

  it("tells a transient failure only once it persists: three in a row", () => {
    let now = 0;
    const health = new UpstreamHealth(() => now);
    const outage = new ServiceUnavailableError(503, "503 Server Overloaded");
    expect(health.failure(outage)).toBeUndefined();
    now += 1_000;
    expect(health.failure(outage)).toBeUndefined();
    now += 2_000;
    expect(health.failure(outage)?.kind).toBe("unavailable");
    now += 4_000;
    expect(health.failure(outage)).toBeUndefined();
  });

  it("tells a transient failure only once it persists: ten seconds of it without a success", () => {
    let now = 0;
    const health = new UpstreamHealth(() => now);
    const limited = new RateLimitError(429, "429", { retryAfterMs: 12_000 });
    expect(health.failure(limited)).toBeUndefined();
    now += 12_000;
    expect(health.failure(limited)?.kind).toBe("rate-limit");
  });

  it("short blips between successes go unannounced, and a kind is told at most once in ten minutes", () => {
    let now = 0;
    const health = new UpstreamHealth(() => now);
    const blip = new ServiceUnavailableError(503, "503");
    const told: string[] = [];
    // 5 % of requests fail, one at a time, for an hour: never three in a row, never ten seconds long.
    for (let i = 0; i < 4_000; i++, now += 900) {
      if (i % 20 === 7) {
        const notice = health.failure(blip);
        if (notice) told.push(notice.kind);
      } else health.success();
    }
    expect(told).toEqual([]);
    // A real outage, twice within ten minutes: told the first time only.
    for (const _ of [1, 2]) {
      for (let i = 0; i < 3; i++, now += 1_000) {
        const notice = health.failure(blip);
        if (notice) told.push(notice.kind);
      }
      health.success();
      now += 60_000;
    }
    expect(told).toEqual(["unavailable"]);
    now += 10 * 60_000;
    for (let i = 0; i < 3; i++, now += 1_000) {
      const notice = health.failure(blip);
      if (notice) told.push(notice.kind);
    }
    expect(told).toEqual(["unavailable", "unavailable"]);
  });

  it("tells configuration failures at once, once until a success or a settings change", () => {
    const health = new UpstreamHealth(() => 0);
    expect(health.failure(new AuthenticationError(401, "401"))?.kind).toBe("auth");
    expect(health.failure(new AuthenticationError(401, "401"))).toBeUndefined();
    health.reset();
    expect(health.failure(new AuthenticationError(401, "401"))?.kind).toBe("auth");
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

  it("backs a refused request off like an outage, told once it persists", () => {
    let now = 0;
    const health = new UpstreamHealth(() => now);
    const refused = new BadRequestError(400, "400 Invalid Format");
    expect(health.failure(refused)).toBeUndefined();
    expect(health.blockedForMs()).toBe(1_000);
    now += 1_000;
    expect(health.failure(refused)).toBeUndefined();
    expect(health.blockedForMs()).toBe(2_000);
    now += 2_000;
    expect(health.failure(refused)?.severity).toBe("warning");
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
