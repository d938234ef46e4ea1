import type { Answer } from "./dialects/dialect.js";
import type { FinishReason } from "./generate.js";
import { type Logprobs, tokenLogprobs } from "./logprobs.js";

/** `system_fingerprint` of every simulated response. */
export const SYSTEM_FINGERPRINT = "fp_infill_sim";

/** Token accounting of a completion, DeepSeek's `usage` object. */
export interface Usage {
  completion_tokens: number;
  prompt_tokens: number;
  /** Prompt tokens served from the context cache (a multiple of 64). */
  prompt_cache_hit_tokens: number;
  /** `prompt_tokens - prompt_cache_hit_tokens`. */
  prompt_cache_miss_tokens: number;
  total_tokens: number;
  completion_tokens_details: { reasoning_tokens: number };
  /** V4-era field, the same number as `prompt_cache_hit_tokens`. */
  prompt_tokens_details: { cached_tokens: number };
}

/** One entry of `choices`. */
export interface CompletionChoice {
  /** Generated text (with `echo`, after the prompt); a streamed chunk's share of it. */
  text: string;
  /** Always 0: one choice per request. */
  index: number;
  /** Null unless the request asked for `logprobs`. */
  logprobs: Logprobs | null;
  /** Null on every streamed chunk but the last content one. */
  finish_reason: FinishReason | null;
}

/** A response body, or one streamed chunk: they share this shape. */
export interface TextCompletion {
  /** A UUID per request, the same on every chunk of a stream. */
  id: string;
  object: "text_completion";
  /** Unix time, seconds. */
  created: number;
  /** The model the request named. */
  model: string;
  system_fingerprint: string;
  /** One choice; empty on the usage chunk of a stream. */
  choices: CompletionChoice[];
  /** Always in a body; in a stream only with `include_usage` (null but on the last chunk). */
  usage?: Usage | null;
}

/** The `usage` object for a request. */
export function usageOf(promptTokens: number, cacheHitTokens: number, completionTokens: number): Usage {
  return {
    completion_tokens: completionTokens,
    prompt_tokens: promptTokens,
    prompt_cache_hit_tokens: cacheHitTokens,
    prompt_cache_miss_tokens: promptTokens - cacheHitTokens,
    total_tokens: promptTokens + completionTokens,
    completion_tokens_details: { reasoning_tokens: 0 },
    prompt_tokens_details: { cached_tokens: cacheHitTokens },
  };
}

function logprobsOf(answer: Answer): Logprobs | null {
  return answer.logprobs === null
    ? null
    : tokenLogprobs(answer.generation.tokens, answer.logprobs, answer.prompt.length);
}

/** The non-streaming response body. With `echo`, the prompt precedes the text; logprobs cover the generated tokens only. */
export function completionBody(answer: Answer): TextCompletion {
  return {
    id: answer.id,
    object: "text_completion",
    created: answer.created,
    model: answer.model,
    system_fingerprint: SYSTEM_FINGERPRINT,
    choices: [
      {
        text: answer.echo ? answer.prompt + answer.generation.text : answer.generation.text,
        index: 0,
        logprobs: logprobsOf(answer),
        finish_reason: answer.generation.finishReason,
      },
    ],
    usage: usageOfAnswer(answer),
  };
}

function usageOfAnswer(answer: Answer): Usage {
  return usageOf(answer.promptTokens, answer.cacheHitTokens ?? 0, answer.generation.tokens.length);
}

/**
 * The streamed events, each `data: {...}\n\n`, without the final `data: [DONE]`: first a chunk
 * with empty text and null logprobs, then with `echo` one chunk carrying the prompt, then one
 * chunk per token (logprobs for that token only), `finish_reason` on the last of these; with
 * `includeUsage`, `usage: null` on all of them and one more chunk with `choices: []` and the usage.
 */
export function streamEvents(answer: Answer, includeUsage: boolean): string[] {
  // The fields before `choices` are the same in every chunk: serialize them once. The result is
  // byte for byte what JSON.stringify gives for the whole chunk object.
  const head =
    `data: {"id":${JSON.stringify(answer.id)},"object":"text_completion","created":${answer.created},` +
    `"model":${JSON.stringify(answer.model)},"system_fingerprint":${JSON.stringify(SYSTEM_FINGERPRINT)},"choices":`;
  const end = includeUsage ? ',"usage":null}\n\n' : "}\n\n";
  const event = (choices: CompletionChoice[], usage?: Usage): string =>
    usage === undefined
      ? head + JSON.stringify(choices) + end
      : `${head}${JSON.stringify(choices)},"usage":${JSON.stringify(usage)}}\n\n`;
  const logprobs = logprobsOf(answer);
  const pieces: { text: string; logprobs: Logprobs | null }[] = [];
  if (answer.echo) pieces.push({ text: answer.prompt, logprobs: null });
  answer.generation.tokens.forEach((text, k) => {
    pieces.push({
      text,
      logprobs:
        logprobs === null
          ? null
          : {
              tokens: [text],
              token_logprobs: logprobs.token_logprobs.slice(k, k + 1),
              top_logprobs: logprobs.top_logprobs.slice(k, k + 1),
              text_offset: logprobs.text_offset.slice(k, k + 1),
            },
    });
  });
  if (pieces.length === 0) {
    pieces.push({
      text: "",
      logprobs:
        logprobs === null ? null : { tokens: [], token_logprobs: [], top_logprobs: [], text_offset: [] },
    });
  }
  const events = [event([{ text: "", index: 0, logprobs: null, finish_reason: null }])];
  pieces.forEach((piece, k) => {
    const last = k === pieces.length - 1;
    events.push(
      event([
        {
          text: piece.text,
          index: 0,
          logprobs: piece.logprobs,
          finish_reason: last ? answer.generation.finishReason : null,
        },
      ]),
    );
  });
  if (includeUsage) events.push(event([], usageOfAnswer(answer)));
  return events;
}
