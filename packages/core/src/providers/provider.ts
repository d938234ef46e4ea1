import type { ErrorReason, ErrorSource, FimError } from "../errors.js";
import type { Usage } from "../schemas.js";
import type { Framing, StreamFormat, StreamStep } from "../stream-decoder.js";
import type { CheckedFimRequest } from "./fim-request.js";
import type { ProviderInfo, ProviderName } from "./info.js";

export type { ProviderName } from "./info.js";

/** A whole completion, whatever the provider. */
export interface FimCompletion {
  /** The text to insert. */
  text: string;
  /** Why generation ended: `stop`, `length`, or the provider's own word; null when it does not say. */
  finish_reason: string | null;
  /**
   * Token accounting in one shape: `prompt_tokens`, `completion_tokens`, `total_tokens`, and the cache fields
   * (`prompt_cache_hit_tokens`, `prompt_cache_miss_tokens`) only where the provider reports them (DeepSeek;
   * llama.cpp's `timings.cache_n`; an OpenAI-compatible host's `prompt_tokens_details.cached_tokens`).
   * Undefined when the provider gave no counts.
   */
  usage: Usage | undefined;
  /** The model that answered, when the provider says. */
  model: string | undefined;
  /** The log probability of each sampled token, when the request asked for `logprobs` and the provider gives them. */
  logprobs?: number[];
  /** The provider's response body as parsed, for debugging and provider-specific fields. */
  raw: unknown;
}

/** One piece of a streamed completion. */
export interface FimChunk {
  /** This piece's text (often empty on the first and last items). */
  text: string;
  /** Null on every item but the last one that says why generation ended. */
  finish_reason: string | null;
  /** On the item that carries the counts (the last one, usually); otherwise undefined. */
  usage: Usage | undefined;
  /** The log probability of each token of this piece, when the request asked for `logprobs`. */
  logprobs?: number[];
  /** The stream item as parsed (an SSE event's JSON, an NDJSON line). */
  raw: unknown;
}

/** What reading a body needs to know: its status (for in-body errors) and the key to cut out of messages. */
export interface ReadContext {
  status: number;
  secret: string | undefined;
}

/** How an adapter reads the stream of one endpoint: its framing, its items, what ends it, its errors. */
export interface StreamAdapter<T> {
  /** The path appended to the base URL, e.g. `/api/generate`. */
  readonly endpoint: string;
  /** How a stream is framed, its content type and what ends it (for messages). */
  readonly framing: Framing;
  readonly streamType: string;
  readonly streamEnd: string;
  /**
   * Reads one stream item (an SSE event's data, an NDJSON line): the chunk to yield, if any, and whether the
   * stream ends with it.
   * @throws {ResponseValidationError} when it does not fit; {ApiError} for an error item.
   */
  readStreamItem(data: string, context: ReadContext): StreamStep<T>;
  /** For SSE: an error sent as an `error:` field (llama.cpp until 2025), as the error to throw. */
  readErrorField?(value: string, context: ReadContext): FimError;
}

/** The stream format of an adapter's responses of one status (errors inside the stream carry it). */
export function streamFormatOf<T>(adapter: StreamAdapter<T>, context: ReadContext): StreamFormat<T> {
  const readErrorField = adapter.readErrorField;
  return {
    framing: adapter.framing,
    end: adapter.streamEnd,
    read: (data) => adapter.readStreamItem(data, context),
    ...(readErrorField ? { fieldError: (value: string) => readErrorField(value, context) } : {}),
  };
}

/**
 * One FIM provider's wire format: how to build its request, read its response and its stream items, and what its
 * errors mean. Adapters are plain objects; the HTTP (retries, timeouts, abort, pooling) is the client's.
 */
export interface Provider extends ErrorSource, ProviderInfo, StreamAdapter<FimChunk> {
  readonly name: ProviderName;
  /**
   * Reads a base URL as a user typed it (see normalizeProviderBaseURL).
   * @throws {ValidationError} with `field: "baseURL"`.
   */
  normalizeBaseURL(url: string, name: string): string;
  /** The JSON body for a checked request. `options.keepAlive` is Ollama's `keep_alive`. */
  body(request: CheckedFimRequest, streaming: boolean, options: BodyOptions): Record<string, unknown>;
  /**
   * Reads the 2xx body of a request that did not stream.
   * @throws {ResponseValidationError} when it does not fit; {ApiError} for an error body.
   */
  readResponse(text: string, context: ReadContext): FimCompletion;
  reason?(status: number, message: string): ErrorReason | undefined;
}

/** Options that shape a body beyond the request. */
export interface BodyOptions {
  /** Ollama's `keep_alive`: how long the model stays loaded after the request. */
  keepAlive: string | number | undefined;
}

/**
 * The one usage shape from a provider's counts. The cache fields are set only when `cacheHit` is known: a
 * provider that does not report its cache gets none rather than a made-up zero.
 */
export function usageOf(promptTokens: number, completionTokens: number, cacheHit?: number): Usage {
  const usage: Usage = {
    prompt_tokens: promptTokens,
    completion_tokens: completionTokens,
    total_tokens: promptTokens + completionTokens,
  };
  if (cacheHit !== undefined) {
    usage.prompt_cache_hit_tokens = cacheHit;
    usage.prompt_cache_miss_tokens = promptTokens - cacheHit;
  }
  return usage;
}
