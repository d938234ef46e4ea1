import { inspect } from "node:util";
import { describe, expect, it } from "vitest";
import { apiErrorFromResponse, redact, snip } from "../src/errors.js";
import {
  AbortError,
  ApiError,
  AuthenticationError,
  BadRequestError,
  ConnectionError,
  FimError,
  InsufficientBalanceError,
  InternalServerError,
  NotFoundError,
  RateLimitError,
  ResponseValidationError,
  ServiceUnavailableError,
  TimeoutError,
  UnprocessableEntityError,
  ValidationError,
} from "../src/index.js";

const body = (message: string, type = "invalid_request_error") =>
  JSON.stringify({ error: { message, type, param: null, code: "invalid_request_error" } });

describe("apiErrorFromResponse", () => {
  it.each([
    [400, BadRequestError, "BadRequestError", false],
    [401, AuthenticationError, "AuthenticationError", false],
    [402, InsufficientBalanceError, "InsufficientBalanceError", false],
    [422, UnprocessableEntityError, "UnprocessableEntityError", false],
    [429, RateLimitError, "RateLimitError", true],
    [500, InternalServerError, "InternalServerError", true],
    [503, ServiceUnavailableError, "ServiceUnavailableError", true],
    [404, NotFoundError, "NotFoundError", false],
    [502, ApiError, "ApiError", false],
  ])("status %i", (status, Class, name, retryable) => {
    const error = apiErrorFromResponse(status, body("boom"), "trace-1", undefined);
    expect(error).toBeInstanceOf(Class);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toBeInstanceOf(FimError);
    expect(error.name).toBe(name);
    expect(error.status).toBe(status);
    expect(error.retryable).toBe(retryable);
    expect(error.requestId).toBe("trace-1");
    expect(error.message).toBe(`${status} boom`);
  });

  it("parses DeepSeek's error body", () => {
    const error = apiErrorFromResponse(
      401,
      body("Authentication Fails, Your api key: ****abcd is invalid", "authentication_error"),
      undefined,
      undefined,
    );
    expect(error.message).toBe("401 Authentication Fails, Your api key: ****abcd is invalid");
    expect(error.type).toBe("authentication_error");
    expect(error.code).toBe("invalid_request_error");
    expect(error.param).toBeUndefined();
    expect(error.error).toEqual({
      message: "Authentication Fails, Your api key: ****abcd is invalid",
      type: "authentication_error",
      param: null,
      code: "invalid_request_error",
    });
  });

  it.each([
    ["<html><body>Bad Gateway</body></html>", "502 Bad Gateway"],
    ["<html><body>Upstream timed out</body></html>", "502 Bad Gateway: an HTML page: Upstream timed out"],
    ["", "502 Bad Gateway"],
    ["\n\n", "502 Bad Gateway"],
    ['{"error":"upstream down"}', "502 upstream down"],
    ['{"message":"nope"}', "502 nope"],
    ['{"error":{"code":"x"}}', '502 Bad Gateway: {"error":{"code":"x"}}'],
  ])("a non-DeepSeek body %j still gives a useful message", (text, message) => {
    expect(apiErrorFromResponse(502, text, undefined, undefined).message).toBe(message);
  });

  it.each([
    [
      "Mistral's validation detail",
      422,
      {
        object: "error",
        message: {
          detail: [
            { type: "extra_forbidden", loc: ["body", "echo"], msg: "Extra inputs are not permitted" },
            { type: "missing", loc: ["body", "prompt"], msg: "Field required" },
          ],
        },
        type: "invalid_request_message_error",
        param: null,
        code: null,
      },
      "422 echo: Extra inputs are not permitted; prompt: Field required",
      "invalid_request_message_error",
    ],
    [
      "Mistral's top-level error",
      400,
      { object: "error", message: "Invalid model: x", type: "invalid_model", param: null, code: "1500" },
      "400 Invalid model: x",
      "invalid_model",
    ],
    ["Mistral's gateway", 401, { message: "Unauthorized", request_id: "abc" }, "401 Unauthorized", undefined],
    [
      "Ollama's",
      404,
      { error: 'model "x" not found, try pulling it first' },
      '404 model "x" not found, try pulling it first',
      undefined,
    ],
    [
      "llama.cpp's",
      501,
      { error: { code: 501, message: "Infill is not supported by this model", type: "not_supported_error" } },
      "501 Infill is not supported by this model",
      "not_supported_error",
    ],
  ])("reads %s body", (_, status, payload, message, type) => {
    const error = apiErrorFromResponse(status, JSON.stringify(payload), undefined, undefined);
    expect(error.message).toBe(message);
    expect(error.type).toBe(type);
  });

  it("takes the provider and the reason from its source", () => {
    const error = apiErrorFromResponse(404, '{"error":"model not found"}', undefined, undefined, undefined, {
      name: "ollama",
      reason: (status, message) =>
        status === 404 && message.includes("not found") ? "model-not-found" : undefined,
    });
    expect(error.provider).toBe("ollama");
    expect(error.reason).toBe("model-not-found");
  });

  it("cuts a long body down", () => {
    const message = apiErrorFromResponse(500, "x".repeat(10_000), undefined, undefined).message;
    expect(message.length).toBeLessThan(250);
  });

  it("scrubs the API key out of the message, the parsed body and the request id", () => {
    const key = "sk-0123456789abcdef";
    const error = apiErrorFromResponse(401, body(`bad key ${key}!`), `id-${key}`, key);
    expect(error.message).toBe("401 bad key [redacted]!");
    for (const text of [
      error.message,
      JSON.stringify(error),
      inspect(error, { depth: 10 }),
      String(error.requestId),
    ]) {
      expect(text).not.toContain(key);
    }
  });
});

describe("the error tree", () => {
  it("names every class and passes cause", () => {
    const cause = new Error("root");
    for (const [Class, name] of [
      [ResponseValidationError, "ResponseValidationError"],
      [ConnectionError, "ConnectionError"],
      [TimeoutError, "TimeoutError"],
      [AbortError, "AbortError"],
      [FimError, "FimError"],
    ] as const) {
      const error = new Class("m", { cause });
      expect(error).toBeInstanceOf(FimError);
      expect(error.name).toBe(name);
      expect(error.cause).toBe(cause);
    }
    const validation = new ValidationError("stop[3]", "stop[3] must be a string", { cause });
    expect(validation.field).toBe("stop[3]");
    expect(validation.cause).toBe(cause);
  });

  it("redact is a no-op without a secret", () => {
    expect(redact("abc", undefined)).toBe("abc");
    expect(redact("abc", "")).toBe("abc");
    expect(redact("a-b-a", "a")).toBe("[redacted]-b-[redacted]");
  });
});

describe("snip", () => {
  it.each([
    ["a JSON-ish text on one line", '  {"a":\n 1}  ', '{"a": 1}'],
    [
      "a proxy's page, by its title",
      "<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body><center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx</center></body></html>",
      "an HTML page: 502 Bad Gateway",
    ],
    [
      "a page without a title, by its text",
      "<!DOCTYPE html><body><p>Sign in to the Wi-Fi</p></body>",
      "an HTML page: Sign in to the Wi-Fi",
    ],
    ["a page of nothing", "<html></html>", "an HTML page"],
    ["a long text, cut", "x".repeat(250), `${"x".repeat(200)}…`],
  ])("%s", (_, text, shown) => {
    expect(snip(text)).toBe(shown);
  });
});
