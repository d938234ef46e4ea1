import {
  ApiError,
  AuthenticationError,
  BadRequestError,
  ConnectionError,
  InsufficientBalanceError,
  RateLimitError,
  ServiceUnavailableError,
  UnprocessableEntityError,
  ValidationError,
} from "@infill/core";
import { classify } from "@infill/core/failure";
import { describe, expect, it } from "vitest";
import {
  DEEPSEEK,
  type FailureSubject,
  missingKeyNotice,
  noticeFor,
} from "../../src/upstream/failure-notice.js";

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

describe("noticeFor names the provider and says what to do", () => {
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
      "model-not-found",
      /Run `ollama pull mistral`; completions resume by themselves\.$/,
    ],
    [
      new BadRequestError(400, "400 Invalid model: x", { reason: "model-not-found" }),
      CODESTRAL,
      "model-not-found",
      /^infill: Codestral does not know "codestral-latest" .*Check the model setting; completions are off until the settings change\.$/,
    ],
    [
      new BadRequestError(400, '400 "mistral" does not support insert', { reason: "fim-unsupported" }),
      OLLAMA,
      "fim-unsupported",
      /^infill: the Ollama model "mistral" cannot fill in the middle/,
    ],
    [
      new ApiError(501, "501 Infill is not supported", { reason: "fim-unsupported" }),
      LLAMA,
      "fim-unsupported",
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
    [
      new UnprocessableEntityError(422, "422 Model Not Exist"),
      DEEPSEEK,
      "model-not-found",
      /^infill: DeepSeek does not know the model .*Check the model setting \(or INFILL_MODEL\)/,
    ],
    [
      new ApiError(404, "404 Not Found: no route for POST /v1/completions"),
      DEEPSEEK,
      "no-endpoint",
      /^infill: the base URL serves no FIM completions .*Check the baseUrl setting/,
    ],
    [
      new ValidationError("baseURL", "plain http to a remote host is refused"),
      DEEPSEEK,
      "invalid-request",
      /^infill: plain http to a remote host is refused\. Check the settings and the environment\.$/,
    ],
    [
      new ServiceUnavailableError(503, "503 Server Overloaded"),
      OLLAMA,
      "unavailable",
      /^infill: Ollama is unavailable \(503 Server Overloaded\); retrying with backoff\.$/,
    ],
  ])("%s for %o → %s", (error, subject, kind, message) => {
    const failure = classify(error);
    expect(failure).toBeDefined();
    const notice = noticeFor(failure!, subject);
    expect(notice.kind).toBe(kind);
    expect(notice.message).toMatch(message);
  });

  it("a missing key names its variable and the provider", () => {
    expect(missingKeyNotice(CODESTRAL).message).toMatch(
      /^infill: CODESTRAL_API_KEY is not set, so there are no completions from Codestral\./,
    );
  });
});
