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
import {
  DEEPSEEK,
  describeFailure,
  type FailureSubject,
  missingKeyNotice,
  UpstreamHealth,
} from "../src/health.js";

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
      /^infill: Codestral does not know "codestral-latest" .*Check the model setting\.$/,
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
