import { describe, expect, it } from "vitest";
import { type CompletionRequest, ValidationError } from "../src/index.js";
import { serializeRequest } from "../src/request-body.js";

const base = { model: "deepseek-v4-flash", prompt: "def fib(n):" };

function invalid(request: unknown, streaming = false): ValidationError {
  try {
    serializeRequest(request as CompletionRequest, streaming);
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    return error as ValidationError;
  }
  throw new Error(`expected ${JSON.stringify(request)} to be refused`);
}

describe("request validation", () => {
  it.each<[string, Record<string, unknown>, string, string]>([
    ["model missing", { model: undefined }, "model", "model is required"],
    ["model empty", { model: "" }, "model", "model must be a non-empty string"],
    ["model not a string", { model: 4 }, "model", "model must be a non-empty string"],
    ["prompt missing", { model: "m", prompt: undefined }, "prompt", "prompt is required"],
    ["prompt not a string", { prompt: ["a"] }, "prompt", "prompt must be a string"],
    ["echo", { echo: "yes" }, "echo", "echo must be a boolean"],
    ["frequency_penalty high", { frequency_penalty: 2.5 }, "frequency_penalty", "between -2 and 2 (got 2.5)"],
    [
      "frequency_penalty low",
      { frequency_penalty: -2.01 },
      "frequency_penalty",
      "between -2 and 2 (got -2.01)",
    ],
    ["presence_penalty high", { presence_penalty: 3 }, "presence_penalty", "between -2 and 2 (got 3)"],
    ["presence_penalty low", { presence_penalty: -3 }, "presence_penalty", "between -2 and 2 (got -3)"],
    [
      "logprobs above 20",
      { logprobs: 21 },
      "logprobs",
      "logprobs must be an integer between 0 and 20 (got 21)",
    ],
    ["logprobs negative", { logprobs: -1 }, "logprobs", "between 0 and 20 (got -1)"],
    ["logprobs fractional", { logprobs: 1.5 }, "logprobs", "an integer between 0 and 20 (got 1.5)"],
    ["logprobs as a string", { logprobs: "5" }, "logprobs", "between 0 and 20 (got a string)"],
    [
      "max_tokens 0",
      { max_tokens: 0 },
      "max_tokens",
      "max_tokens must be an integer between 1 and 4096 (got 0)",
    ],
    ["max_tokens above 4K", { max_tokens: 4097 }, "max_tokens", "between 1 and 4096 (got 4097)"],
    ["max_tokens NaN", { max_tokens: Number.NaN }, "max_tokens", "between 1 and 4096"],
    ["max_tokens Infinity", { max_tokens: Number.POSITIVE_INFINITY }, "max_tokens", "between 1 and 4096"],
    [
      "temperature high",
      { temperature: 2.1 },
      "temperature",
      "temperature must be a number between 0 and 2 (got 2.1)",
    ],
    ["temperature negative", { temperature: -0.1 }, "temperature", "between 0 and 2 (got -0.1)"],
    ["top_p high", { top_p: 1.01 }, "top_p", "top_p must be a number between 0 and 1 (got 1.01)"],
    ["top_p negative", { top_p: -1 }, "top_p", "between 0 and 1 (got -1)"],
    ["stop a number", { stop: 4 }, "stop", "stop must be a string or an array of at most 16 strings (got 4)"],
    ["stop entry not a string", { stop: ["a", "b", "c", 3] }, "stop[3]", "stop[3] must be a string (got 3)"],
    [
      "17 stops",
      { stop: Array.from({ length: 17 }, (_, i) => `s${i}`) },
      "stop",
      "at most 16 strings (got an array of 17)",
    ],
    ["suffix", { suffix: 1 }, "suffix", "suffix must be a string"],
    [
      "stream_options without stream",
      { stream_options: { include_usage: true } },
      "stream_options",
      "only allowed when streaming",
    ],
    ["unknown field", { n: 2 }, "n", "unknown field n"],
    ["misspelt field", { max_token: 10 }, "max_token", "unknown field max_token"],
  ])("%s", (_name, patch, field, message) => {
    const error = invalid({ ...base, ...patch });
    expect(error.field).toBe(field);
    expect(error.message).toContain(message);
  });

  it("rejects unknown keys inside stream_options and a non-boolean include_usage", () => {
    expect(invalid({ ...base, stream_options: { include_usage: true, x: 1 } }, true).field).toBe(
      "stream_options.x",
    );
    expect(invalid({ ...base, stream_options: { include_usage: "yes" } }, true).field).toBe(
      "stream_options.include_usage",
    );
  });

  it("lists every problem, naming the first in field", () => {
    const error = invalid({ ...base, logprobs: 30, temperature: 5, foo: 1 });
    expect(error.field).toBe("logprobs");
    expect(error.message).toMatch(/logprobs .*; temperature .*; unknown field foo/);
  });

  it("never echoes string values (prompts are the user's code)", () => {
    const error = invalid({ model: "m", prompt: "SECRET-CODE", logprobs: "SECRET-CODE" });
    expect(error.message).not.toContain("SECRET-CODE");
  });

  it("refuses non-objects", () => {
    expect(invalid(null).message).toContain("must be an object");
    expect(invalid("prompt").message).toContain("must be an object");
  });

  it("accepts every bound inclusive, null for optional fields, and a lone stop string", () => {
    for (const patch of [
      { frequency_penalty: -2, presence_penalty: 2, logprobs: 0, max_tokens: 1, temperature: 0, top_p: 0 },
      {
        frequency_penalty: 2,
        presence_penalty: -2,
        logprobs: 20,
        max_tokens: 4096,
        temperature: 2,
        top_p: 1,
      },
      { presence_penalty: 0.5 }, // the spec's "integer" is a doc artefact
      {
        echo: null,
        frequency_penalty: null,
        logprobs: null,
        max_tokens: null,
        presence_penalty: null,
        stop: null,
        stream: null,
        stream_options: null,
        suffix: null,
        temperature: null,
        top_p: null,
      },
      { stop: "\n\n" },
      { stop: Array.from({ length: 16 }, (_, i) => `s${i}`) },
      { prompt: "", suffix: "" },
    ]) {
      expect(() => serializeRequest({ ...base, ...patch }, false)).not.toThrow();
    }
  });
});

describe("request serialisation", () => {
  it("sends the spec's fields in the spec's order, whatever order they were given in", () => {
    const body = serializeRequest(
      {
        top_p: 0.9,
        temperature: 0,
        suffix: "return",
        stream: false,
        stop: ["\n\n"],
        presence_penalty: 0,
        max_tokens: 64,
        logprobs: 2,
        frequency_penalty: 0,
        echo: false,
        prompt: "def f():",
        model: "deepseek-v4-pro",
      },
      false,
    );
    expect(Object.keys(JSON.parse(body))).toEqual([
      "model",
      "prompt",
      "echo",
      "frequency_penalty",
      "logprobs",
      "max_tokens",
      "presence_penalty",
      "stop",
      "stream",
      "suffix",
      "temperature",
      "top_p",
    ]);
  });

  it("omits what was not given and keeps explicit nulls", () => {
    expect(serializeRequest({ ...base, suffix: null, temperature: undefined }, false)).toBe(
      '{"model":"deepseek-v4-flash","prompt":"def fib(n):","suffix":null}',
    );
  });

  it("complete() refuses stream: true; stream() sends stream: true and refuses stream: false", () => {
    expect(invalid({ ...base, stream: true }).field).toBe("stream");
    expect(invalid({ ...base, stream: false }, true).field).toBe("stream");
    expect(JSON.parse(serializeRequest(base, true))).toEqual({ ...base, stream: true });
    const streamed = serializeRequest({ stream_options: { include_usage: true }, ...base }, true);
    expect(Object.keys(JSON.parse(streamed))).toEqual(["model", "prompt", "stream", "stream_options"]);
    expect(serializeRequest({ ...base, stream: false }, false)).toContain('"stream":false');
  });
});
