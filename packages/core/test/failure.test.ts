import { describe, expect, it } from "vitest";
import {
  AbortError,
  ApiError,
  AuthenticationError,
  BadRequestError,
  ConnectionError,
  InsufficientBalanceError,
  InternalServerError,
  NotFoundError,
  RateLimitError,
  ResponseValidationError,
  ServiceUnavailableError,
  TimeoutError,
  UnprocessableEntityError,
  ValidationError,
} from "../src/errors.js";
import { classify, FAILURE_KINDS, type FailureKind } from "../src/failure.js";

describe("classify", () => {
  const cases: Array<[string, unknown, FailureKind | undefined]> = [
    ["401", new AuthenticationError(401, "401 Authentication Fails"), "auth"],
    ["402", new InsufficientBalanceError(402, "402 Insufficient Balance"), "balance"],
    ["429", new RateLimitError(429, "429 Too Many Requests"), "rate-limit"],
    ["404", new NotFoundError(404, "404 Not Found"), "no-endpoint"],
    ["a 404 as a plain ApiError", new ApiError(404, "404 Not Found"), "no-endpoint"],
    ["405 (no class of its own)", new ApiError(405, "405 Method Not Allowed"), "no-endpoint"],
    ["400", new BadRequestError(400, "400 Bad Request: prompt too long"), "bad-request"],
    ["422", new UnprocessableEntityError(422, "422: max_tokens"), "bad-request"],
    [
      "400 naming a model that does not exist",
      new BadRequestError(400, "400: Model Not Exist"),
      "model-not-found",
    ],
    ["422 unknown model", new UnprocessableEntityError(422, "422: unknown model foo"), "model-not-found"],
    [
      "a reason given by the provider",
      new NotFoundError(404, "404: model 'x' not found", { reason: "model-not-found" }),
      "model-not-found",
    ],
    ["fim-unsupported", new ApiError(501, "501", { reason: "fim-unsupported" }), "fim-unsupported"],
    ["500", new InternalServerError(500, "500"), "unavailable"],
    ["503", new ServiceUnavailableError(503, "503"), "unavailable"],
    ["another status", new ApiError(502, "502 Bad Gateway"), "unavailable"],
    ["a refused connection", new ConnectionError("connect ECONNREFUSED 127.0.0.1:11434"), "unavailable"],
    ["a timeout", new TimeoutError("timed out after 10000 ms"), "unavailable"],
    ["a body that is not a completion", new ResponseValidationError("not JSON"), "unavailable"],
    ["refused before sending", new ValidationError("baseURL", "baseURL: plain http"), "invalid-request"],
    ["an abort", new AbortError("aborted"), undefined],
    ["not core's", new TypeError("x is undefined"), undefined],
    ["not an error", "boom", undefined],
    ["null", null, undefined],
  ];
  it.each(cases)("%s", (_, error, kind) => {
    expect(classify(error)?.kind).toBe(kind);
  });

  it("reads errors by shape, as another bundle's classes are", () => {
    expect(
      classify({ name: "RateLimitError", status: 429, message: "slow down", retryAfterMs: 2000 }),
    ).toEqual({
      kind: "rate-limit",
      status: 429,
      message: "slow down",
      retryAfterMs: 2000,
    });
  });

  it("says when the connection was refused", () => {
    expect(classify(new ConnectionError("connect ECONNREFUSED 127.0.0.1:8080"))?.refused).toBe(true);
    expect(classify(new ConnectionError("socket hang up"))?.refused).toBeUndefined();
  });

  it("lists every kind it gives", () => {
    const given = new Set(cases.map(([, , kind]) => kind).filter((kind) => kind !== undefined));
    expect(new Set(FAILURE_KINDS)).toEqual(given);
  });
});
