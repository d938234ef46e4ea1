import type { Generation } from "../generate.js";

/** The providers whose wire format the simulator speaks. */
export const DIALECTS = ["deepseek", "openai-compatible", "ollama", "llamacpp", "codestral"] as const;

/** One of {@link DIALECTS}. */
export type DialectName = (typeof DIALECTS)[number];

/** A completion request as the simulator's model needs it, whatever dialect it came in. */
export interface SimCompletionRequest {
  /** The model the request named (or the one the server has loaded). */
  model: string;
  /** What the model sees before the hole: the prompt, with any extra context the dialect puts before it. */
  prompt: string;
  /** What it sees after the hole. */
  suffix: string;
  /** Tokens generated at most. */
  maxTokens: number;
  /** Stop sequences. */
  stop: string[];
  stream: boolean;
  /** DeepSeek and OpenAI: `stream_options.include_usage`. */
  includeUsage: boolean;
  /** DeepSeek: prepend the prompt to the text. */
  echo: boolean;
  /** DeepSeek: log probabilities of this many alternatives, or null. */
  logprobs: number | null;
  /**
   * Sampling temperature (0 where the dialect does not read it). Above 0 the copy comes from a farther occurrence
   * of the matched text: the simulator's stand-in for sampling, so candidates asked at other temperatures differ.
   */
  temperature: number;
  /** A next-edit request: its text comes from the edit model rather than prompt lookup. Undefined for FIM. */
  edit?: SimEdit | undefined;
}

/** One chat message, as the next-edit routes read it. */
export interface ChatMessage {
  role: string;
  content: string;
}

/** What the edit model reads: a raw prompt, or chat messages and the answer's forced start (DeepSeek's prefix). */
export interface EditInput {
  prompt?: string;
  messages?: ChatMessage[];
  prefix?: string;
}

/** The next-edit part of a request. */
export interface SimEdit {
  /** What the edit model reads (`prompt` of the request is the text its tokens are counted on). */
  input: EditInput;
  /** DeepSeek's `thinking: {type: "enabled"}` (its default): the answer reasons before its text. */
  thinking: boolean;
}

/** A request as a dialect read it: the request, or the error its provider answers. */
export type Parsed =
  | { ok: true; request: SimCompletionRequest }
  | { ok: false; status: number; body: unknown };

/** Everything a response is made of. */
export interface Answer {
  /** A UUID per request, the same on every chunk of a stream. */
  id: string;
  /** Unix time, seconds. */
  created: number;
  model: string;
  prompt: string;
  echo: boolean;
  logprobs: number | null;
  generation: Generation;
  /** Prompt tokens as the model counts them: prompt, a hole marker when there is a suffix, suffix. */
  promptTokens: number;
  /** Prompt tokens served from a cache, where the dialect reports one; undefined where it does not. */
  cacheHitTokens: number | undefined;
  includeUsage: boolean;
  /** What the model thought before answering (DeepSeek with thinking enabled); `""` otherwise. */
  reasoning: string;
}

/**
 * How prompt tokens are found in a cache: DeepSeek's disk cache in 64-token units shared by every request of a
 * key (`units`); llama.cpp's slot, which reuses the prefix its previous request shares (`slot`); none reported.
 */
export type CacheModel = "units" | "slot" | "none";

/**
 * A stream's events. The first goes out when the latency has passed, each next one `tokenMs` later, except the
 * last `trailing` ones (a usage chunk, a closing `done` line), which follow the last token at once.
 */
export interface StreamEvents {
  events: string[];
  trailing: number;
}

/** One endpoint of a provider: how it reads a request and writes its answer, whole and streamed. */
export interface Route {
  /** The endpoint under the base: `/completions`, `/api/generate`, `/infill`, `/chat/completions`… */
  readonly endpoint: string;
  /** Headers of a streamed response. */
  readonly streamHeaders: Readonly<Record<string, string>>;
  /** What follows the last event of a complete stream (`data: [DONE]\n\n`), or `""`. */
  readonly streamEnd: string;
  /**
   * What DeepSeek sends while a request waits for capacity: a line before a JSON body, a comment before the first
   * event. Undefined for providers that send nothing while they wait.
   */
  readonly keepAlive: { json: string; stream: string } | undefined;
  /**
   * Reads a parsed JSON body as the provider would.
   *
   * @param fim - whether the served model can fill in the middle (see SimOptions.fim)
   */
  parse(body: unknown, fim: boolean): Parsed;
  /** The body of a request that did not stream. */
  body(answer: Answer): unknown;
  /** The framed events of a stream, without {@link streamEnd}. */
  events(answer: Answer): StreamEvents;
  /** An error inside a stream that already answered 200, framed as the provider sends it. */
  streamError(): string;
}

/** One provider's wire format, as the simulator plays it: its FIM endpoint (the Route it is) and its others. */
export interface Dialect extends Route {
  readonly name: DialectName;
  /** The path of the base URL clients use: `/beta`, `/v1`, or `""`. */
  readonly basePath: string;
  /** The header that carries a unique id per response. */
  readonly requestIdHeader: string;
  readonly cache: CacheModel;
  /** The provider's error body for a status (a fault, a route that does not exist, a bug). */
  errorBody(status: number, message?: string): unknown;
  /** The 401 body for a wrong or missing key (`key` undefined when none was sent). */
  unauthorized(key: string | undefined): unknown;
  /** The answer to a body that is not JSON. */
  invalidJson(): { status: number; body: unknown };
  /** Its next-edit endpoints beside the FIM one (a raw completion, a chat), each answered by the edit model. */
  readonly editRoutes: readonly Route[];
}
