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
import { FAILURE_POLICIES, holdMs } from "../../src/upstream/failure-policy.js";
import {
  DEEPSEEK,
  describeFailure,
  type FailureSubject,
  missingKeyNotice,
  UpstreamHealth,
} from "../../src/upstream/health.js";

const OLLAMA: FailureSubject = {
  provider: "ollama",
  label: "Ollama",
  model: "mistral",
  apiKeyEnv: undefined,
};
const LLAMA: FailureSubject = {
  provider: "llamacpp",
  label: "llama.cpp",
  model: undefined,
  apiKeyEnv: undefined,
};
const CODESTRAL: FailureSubject = {
  provider: "codestral",
  label: "Codestral",
  model: "codestral-latest",
  apiKeyEnv: "CODESTRAL_API_KEY",
};

describe("describeFailure", () => {
  it.each([
    [new AuthenticationError(401, "401 Authentication Fails"), "auth"],
    [new InsufficientBalanceError(402, "402 Insufficient Balance"), "balance"],
    [new RateLimitError(429, "429 Rate Limit Reached"), "rate-limit"],
    [new BadRequestError(400, "400 Invalid Format"), "bad-request"],
    [new UnprocessableEntityError(422, "422 Invalid max_tokens value"), "bad-request"],
    [new UnprocessableEntityError(422, "422 Model Not Exist"), "rejected"],
    [new BadRequestError(400, '400 Model Not Exist: "deepseek-coder" is not available'), "rejected"],
    [new ApiError(404, "404 Not Found: no route for POST /v1/completions"), "rejected"],
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

describe("describeFailure names the provider and says what to do", () => {
  it.each<[unknown, FailureSubject, string, RegExp]>([
    [
      new AuthenticationError(401, "401 Unauthorized"),
      CODESTRAL,
      "auth",
      /^infill: Codestral rejected the API key \(401 Unauthorized\)\. Set a valid CODESTRAL_API_KEY/,
    ],
    [
      new AuthenticationError(401, "401 x"),
      DEEPSEEK,
      "auth",
      /^infill: DeepSeek rejected the API key \(401 x\)\. Set a valid DEEPSEEK_API_KEY/,
    ],
    [
      new ApiError(404, '404 model "mistral" not found', { reason: "model-not-found" }),
      OLLAMA,
      "model",
      /Run `ollama pull mistral`; completions resume by themselves\.$/,
    ],
    [
      new BadRequestError(400, "400 Invalid model: x", { reason: "model-not-found" }),
      CODESTRAL,
      "rejected",
      /^infill: Codestral does not know "codestral-latest" .*Check the model setting; completions are off until the settings change\.$/,
    ],
    [
      new BadRequestError(400, '400 "mistral" does not support insert', { reason: "fim-unsupported" }),
      OLLAMA,
      "rejected",
      /^infill: the Ollama model "mistral" cannot fill in the middle/,
    ],
    [
      new ApiError(501, "501 Infill is not supported", { reason: "fim-unsupported" }),
      LLAMA,
      "rejected",
      /^infill: llama\.cpp's model has no fill-in-the-middle tokens/,
    ],
    [
      new ConnectionError("connection failed: connect ECONNREFUSED 127.0.0.1:11434"),
      OLLAMA,
      "unavailable",
      /Is Ollama running \(`ollama serve`\)\?$/,
    ],
    [
      new ConnectionError("connection failed: connect ECONNREFUSED 127.0.0.1:8080"),
      LLAMA,
      "unavailable",
      /Is llama-server running\?$/,
    ],
    [
      new InsufficientBalanceError(402, "402 Payment Required"),
      CODESTRAL,
      "balance",
      /^infill: Codestral says payment is required/,
    ],
    [new RateLimitError(429, "429"), OLLAMA, "rate-limit", /^infill: Ollama is rate limiting requests/],
  ])("%s for %o → %s", (error, subject, kind, message) => {
    const notice = describeFailure(error, subject);
    expect(notice?.kind).toBe(kind);
    expect(notice?.message).toMatch(message);
  });

  it("a missing key names its variable and the provider", () => {
    expect(missingKeyNotice(CODESTRAL).message).toMatch(
      /^infill: CODESTRAL_API_KEY is not set, so there are no completions from Codestral\./,
    );
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

describe("the policy table", () => {
  it.each([
    ["balance", [30_000, 60_000, 120_000, 240_000, 300_000, 300_000]],
    ["unavailable", [1_000, 2_000, 4_000, 8_000, 16_000, 32_000, 60_000]],
    ["bad-request", [1_000, 2_000, 4_000]],
    ["rate-limit", [1_000, 2_000]],
    ["auth", [Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY]],
    ["rejected", [Number.POSITIVE_INFINITY]],
    ["no-key", [Number.POSITIVE_INFINITY]],
  ] as const)("%s holds requests back for %j ms after 1, 2, … failures in a row", (kind, holds) => {
    expect(holds.map((_, i) => holdMs(FAILURE_POLICIES[kind].hold, i + 1))).toEqual(holds);
  });

  it("honours Retry-After for rate limits only, as a lower bound", () => {
    expect(holdMs(FAILURE_POLICIES["rate-limit"].hold, 1, 30_000)).toBe(30_000);
    expect(holdMs(FAILURE_POLICIES["rate-limit"].hold, 7, 5_000)).toBe(60_000);
    expect(holdMs(FAILURE_POLICIES.unavailable.hold, 1, 30_000)).toBe(1_000);
  });

  it("lets invoked requests through everything but what only the settings or environment fix", () => {
    const through = Object.entries(FAILURE_POLICIES)
      .filter(([, policy]) => policy.invokedTries)
      .map(([kind]) => kind)
      .sort();
    expect(through).toEqual(["bad-request", "balance", "model", "rate-limit", "unavailable"]);
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
