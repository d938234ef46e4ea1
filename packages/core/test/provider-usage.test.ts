// The one usage shape from each provider's counts: pure reads of bodies, no I/O.
import { describe, expect, it } from "vitest";
import { codestral } from "../src/providers/codestral.js";
import { llamacpp } from "../src/providers/llamacpp.js";
import { ollama } from "../src/providers/ollama.js";
import { openaiCompatible } from "../src/providers/openai-compatible.js";
import type { Provider } from "../src/providers/provider.js";

const context = { status: 200, secret: undefined };
const read = (provider: Provider, body: unknown) => provider.readResponse(JSON.stringify(body), context);

describe("usage", () => {
  it.each<[string, Provider, unknown, unknown]>([
    [
      "Ollama: prompt_eval_count and eval_count, no cache fields",
      ollama,
      { response: "x", done: true, done_reason: "stop", prompt_eval_count: 30, eval_count: 4 },
      { prompt_tokens: 30, completion_tokens: 4, total_tokens: 34 },
    ],
    ["Ollama without counts: none", ollama, { response: "x", done: true }, undefined],
    [
      "llama.cpp: tokens_evaluated, tokens_predicted, timings.cache_n as the cache hit",
      llamacpp,
      {
        content: "x",
        stop: true,
        tokens_evaluated: 100,
        tokens_predicted: 5,
        timings: { cache_n: 64, prompt_n: 36 },
      },
      {
        prompt_tokens: 100,
        completion_tokens: 5,
        total_tokens: 105,
        prompt_cache_hit_tokens: 64,
        prompt_cache_miss_tokens: 36,
      },
    ],
    [
      "llama.cpp before cache_n: no cache fields",
      llamacpp,
      { content: "x", stop: true, tokens_evaluated: 100, tokens_predicted: 5, timings: { prompt_n: 100 } },
      { prompt_tokens: 100, completion_tokens: 5, total_tokens: 105 },
    ],
    [
      "llama.cpp from timings alone: cache_n + prompt_n prompt tokens",
      llamacpp,
      { content: "x", stop: true, timings: { cache_n: 10, prompt_n: 20, predicted_n: 3 } },
      {
        prompt_tokens: 30,
        completion_tokens: 3,
        total_tokens: 33,
        prompt_cache_hit_tokens: 10,
        prompt_cache_miss_tokens: 20,
      },
    ],
    [
      "Codestral: usage as is, no cache fields",
      codestral,
      {
        choices: [{ message: { content: "x" }, finish_reason: "stop" }],
        usage: { prompt_tokens: 9, completion_tokens: 2, total_tokens: 11 },
      },
      { prompt_tokens: 9, completion_tokens: 2, total_tokens: 11 },
    ],
    [
      "OpenAI-compatible: prompt_tokens_details.cached_tokens as the cache hit",
      openaiCompatible,
      {
        choices: [{ text: "x", finish_reason: "stop" }],
        usage: {
          prompt_tokens: 50,
          completion_tokens: 2,
          total_tokens: 52,
          prompt_tokens_details: { cached_tokens: 32 },
        },
      },
      {
        prompt_tokens: 50,
        completion_tokens: 2,
        total_tokens: 52,
        prompt_cache_hit_tokens: 32,
        prompt_cache_miss_tokens: 18,
      },
    ],
  ])("%s", (_, provider, body, usage) => {
    expect(read(provider, body).usage).toEqual(usage);
  });
});

describe("text and finish reason", () => {
  it.each<[string, Provider, unknown, string, string | null]>([
    ["llama.cpp limit → length", llamacpp, { content: "ab", stop: true, stop_type: "limit" }, "ab", "length"],
    ["llama.cpp word → stop", llamacpp, { content: "ab", stop: true, stop_type: "word" }, "ab", "stop"],
    ["Ollama done_reason", ollama, { response: "ab", done: true, done_reason: "length" }, "ab", "length"],
    [
      "Codestral content as typed chunks",
      codestral,
      {
        choices: [
          {
            message: {
              content: [
                { type: "text", text: "a" },
                { type: "text", text: "b" },
              ],
            },
          },
        ],
      },
      "ab",
      null,
    ],
    ["Codestral null content", codestral, { choices: [{ message: { content: null } }] }, "", null],
  ])("%s", (_, provider, body, text, finishReason) => {
    const completion = read(provider, body);
    expect(completion.text).toBe(text);
    expect(completion.finish_reason).toBe(finishReason);
  });
});
