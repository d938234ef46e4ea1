import {
  ApiError,
  ConnectionError,
  ResponseValidationError,
  TimeoutError,
  ValidationError,
} from "../errors.js";
import type { FimRequest } from "../providers/fim-request.js";
import type { CompletionRequest, Logprobs, Usage } from "../schemas.js";
import type { BatchTarget } from "./batch-target.js";

// The records of a batch: what goes in (an id and a request), what comes out (an answer or an error), and the
// check every input record passes before anything is sent.

/** A request's id in a batch: a non-empty string or an integer, echoed in its result as given. */
export type BatchId = string | number;

/**
 * One request of a batch: an `id` and the request its client takes, `model` optional (the batch's `model`
 * option, else the client's default). With FimClient (DeepSeek) every field of DeepSeek's spec but `stream` and
 * `stream_options`; with ProviderClient, a FimRequest (`prompt`, `suffix`, `max_tokens`, `temperature`, `stop`,
 * `context`).
 */
export type BatchRequest = { id: BatchId; model?: string | undefined } & (
  | Omit<CompletionRequest, "model" | "stream" | "stream_options">
  | Omit<FimRequest, "model">
);

/** A request that was answered. */
export interface BatchAnswer {
  id: BatchId;
  /** The completion's text. */
  text: string;
  /** Why generation ended (`stop`, `length`, …); null when the provider does not say. */
  finish_reason: string | null;
  /** The provider's token counts; null when it gave none. */
  usage: Usage | null;
  /** Milliseconds from sending the request to its whole answer (the attempt that succeeded). */
  latency_ms: number;
  /** DeepSeek's log probabilities, when the request asked for them. */
  logprobs?: Logprobs;
}

/** A request that got no answer, or an input record that is not a request. */
export interface BatchFailure {
  /** The record's id; null when it has none that can be read. */
  id: BatchId | null;
  /** The input line (1-based), for a record that could not be read or checked. */
  line?: number;
  error: {
    /** The HTTP status of an API error; null for any other failure. */
    status: number | null;
    /**
     * What kind: the API's own `error.type` (`rate_limit_error`, `authentication_error`…) or `api_error`;
     * `invalid_request` (the record, checked before sending), `invalid_response`, `connection_error`, `timeout`.
     */
    type: string;
    /** One line that says what went wrong; never the API key. */
    message: string;
  };
}

/** What a batch gives for each request. */
export type BatchResult = BatchAnswer | BatchFailure;

/** Whether a result (or a checked record) is a failure. */
export function isFailure<T extends object>(result: T | BatchFailure): result is BatchFailure {
  return "error" in result;
}

/** Whether a record's id can be used: a non-empty string or a safe integer. */
export function isBatchId(id: unknown): id is BatchId {
  return (typeof id === "string" && id !== "") || Number.isSafeInteger(id);
}

/** The key of an id in sets and maps: its JSON text, so `1` and `"1"` are two ids. */
export function idKey(id: BatchId): string {
  return JSON.stringify(id);
}

/** A record read from the input: what to send and what the batch needs to know about it. */
export interface CheckedRecord {
  id: BatchId;
  /** Its input line (1-based), or its position among the requests. */
  line: number;
  /** The record as read, its id included: the target's prepare() makes the request of it. */
  record: Record<string, unknown>;
  /** The model it goes to (its own, else the default); undefined when the provider serves its own (llama.cpp). */
  model: string | undefined;
  /** Characters of its prompt, suffix and context, for the token estimate. */
  chars: number;
  /** Its `max_tokens`, when set. */
  maxTokens: number | undefined;
}

/**
 * Reads an input record: an object with a usable `id`; the rest is the request, whose `model` is `model` when it
 * names none. The request itself is not checked here (see checkRecord), nor copied.
 *
 * @param line the record's line (1-based), named in failures.
 * @param model the model for records that name none; undefined to leave it to the client.
 */
export function readRecord(
  record: unknown,
  line: number,
  model: string | undefined,
): CheckedRecord | BatchFailure {
  if (typeof record !== "object" || record === null || Array.isArray(record)) {
    return invalid(null, line, `line ${line}: a record must be a JSON object with an id and a prompt`);
  }
  const fields = record as Record<string, unknown>;
  const id = fields.id;
  if (!isBatchId(id)) {
    const what =
      id === undefined ? "has no id" : "has an id that is neither a non-empty string nor an integer";
    return invalid(null, line, `line ${line}: the record ${what}`);
  }
  const named = fields.model === undefined ? model : fields.model;
  const context = fields.context as { text?: unknown } | null | undefined;
  return {
    id,
    line,
    record: fields,
    model: typeof named === "string" ? named : undefined,
    chars: length(fields.prompt) + length(fields.suffix) + length(context?.text),
    maxTokens: typeof fields.max_tokens === "number" ? fields.max_tokens : undefined,
  };
}

/**
 * Reads an input record (see readRecord) and checks its request as the client will before sending it. Sends
 * nothing.
 *
 * @param model the batch's model for records that name none; undefined for the client's default.
 */
export function checkRecord(
  record: unknown,
  line: number,
  target: BatchTarget,
  model: string | undefined,
): CheckedRecord | BatchFailure {
  const read = readRecord(record, line, model ?? target.defaultModel);
  if (isFailure(read)) return read;
  try {
    target.prepare(read.record, model ?? target.defaultModel);
  } catch (error) {
    return invalidRequest(read, error);
  }
  return read;
}

/** The failure record of a request its client refused before sending it: `line N: <what is wrong>`. */
export function invalidRequest(record: { id: BatchId; line: number }, error: unknown): BatchFailure {
  const message =
    error instanceof ValidationError ? error.message.replace(/^invalid request: /, "") : String(error);
  return invalid(record.id, record.line, `line ${record.line}: ${message}`);
}

function length(text: unknown): number {
  return typeof text === "string" ? text.length : 0;
}

/** Parses one input line: its record, or the failure of a line that is not JSON. */
export function parseLine(text: string, line: number): { record: unknown } | BatchFailure {
  try {
    return { record: JSON.parse(text) };
  } catch (error) {
    return invalid(null, line, `line ${line}: not JSON (${(error as Error).message})`);
  }
}

/** Reads and checks one input line (see {@link checkRecord}): a line that is not JSON is a failure too. */
export function checkLine(
  text: string,
  line: number,
  target: BatchTarget,
  model: string | undefined,
): CheckedRecord | BatchFailure {
  const parsed = parseLine(text, line);
  return isFailure(parsed) ? parsed : checkRecord(parsed.record, line, target, model);
}

/** The record of an answer. @param latencyMs from sending the request to its whole answer. */
export function answerOf(
  id: BatchId,
  answer: {
    text: string;
    finish_reason: string | null;
    usage: Usage | undefined;
    logprobs?: Logprobs | undefined;
  },
  latencyMs: number,
): BatchAnswer {
  const result: BatchAnswer = {
    id,
    text: answer.text,
    finish_reason: answer.finish_reason,
    usage: answer.usage ?? null,
    latency_ms: Math.round(latencyMs),
  };
  if (answer.logprobs !== undefined) result.logprobs = answer.logprobs;
  return result;
}

/** The failure record of an input record that is not a request. */
export function invalid(id: BatchId | null, line: number, message: string): BatchFailure {
  return { id, line, error: { status: null, type: "invalid_request", message } };
}

/** The failure record of a request that got no answer. */
export function failureOf(id: BatchId, error: unknown): BatchFailure {
  return { id, error: describeFailure(error) };
}

function describeFailure(error: unknown): BatchFailure["error"] {
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof ApiError) return { status: error.status, type: error.type ?? "api_error", message };
  let type = "error";
  if (error instanceof ValidationError) type = "invalid_request";
  else if (error instanceof ResponseValidationError) type = "invalid_response";
  else if (error instanceof ConnectionError) type = "connection_error";
  else if (error instanceof TimeoutError) type = "timeout";
  return { status: null, type, message };
}
