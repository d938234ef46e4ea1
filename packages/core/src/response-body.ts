import type * as z from "zod";
import { apiErrorFromResponse, type ErrorSource, ResponseValidationError, redact, snip } from "./errors.js";
import { fastCompletionBody } from "./response-fast-path.js";
import {
  type CompletionChunk,
  CompletionChunkSchema,
  type CompletionResponse,
  CompletionResponseSchema,
} from "./schemas.js";

/**
 * Parses the body of a 2xx non-streamed completion.
 *
 * DeepSeek sends blank lines while a request waits for capacity; JSON.parse already skips leading whitespace
 * (space, tab, CR, LF), which is all those keep-alive lines are, so no stripping is needed before it.
 *
 * @throws {ResponseValidationError} (with the JSON or schema error as `cause`) when the body does not fit.
 * @throws {ApiError} when a 2xx body is an `{"error": …}` object.
 */
export function parseCompletionBody(
  text: string,
  status: number,
  secret: string | undefined,
  source?: ErrorSource,
): CompletionResponse {
  const json = parseJson(text, "response body", secret);
  return (
    fastCompletionBody(json) ??
    checkBody(CompletionResponseSchema, json, text, status, secret, "response body", source)
  );
}

/** Parses one `data:` payload of a stream; throws like parseCompletionBody. */
export function parseChunkData(
  data: string,
  status: number,
  secret: string | undefined,
  source?: ErrorSource,
): CompletionChunk {
  const json = parseJson(data, "stream event", secret);
  return checkBody(CompletionChunkSchema, json, data, status, secret, "stream chunk", source);
}

/**
 * JSON.parse for server bytes: a body that is not JSON throws ResponseValidationError quoting the start of it
 * (with the key cut out, in the message and in the cause).
 */
export function parseJson(text: string, what: string, secret: string | undefined): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    const redacted = redact(text, secret);
    const shown = snip(redacted);
    // V8's message quotes the text's first characters, which redacting the message would miss when they are only
    // part of the key; parsing the redacted text instead gives a SyntaxError that quotes no part of it.
    const cause = redacted === text ? error : syntaxErrorOf(redacted, what);
    throw new ResponseValidationError(`${what} is not JSON: ${shown === "" ? "(empty)" : shown}`, { cause });
  }
}

function syntaxErrorOf(text: string, what: string): SyntaxError {
  try {
    JSON.parse(text);
  } catch (error) {
    return error as SyntaxError;
  }
  // Only when the key itself was what made the text invalid.
  return new SyntaxError(`${what} is not valid JSON`);
}

/**
 * Checks parsed JSON against a (lenient) response schema. An error body under a 2xx status or inside a stream
 * (`{"error": …}`, Mistral's `{"object": "error", …}`) throws ApiError; anything else that does not fit throws
 * ResponseValidationError naming the paths at fault (never the values: they may be the user's code).
 *
 * @param text the JSON's text, for the error's message.
 * @param what what it is, for messages: `response body`, `stream chunk`.
 */
export function checkBody<T>(
  schema: z.ZodType<T>,
  json: unknown,
  text: string,
  status: number,
  secret: string | undefined,
  what: string,
  source?: ErrorSource,
): T {
  const result = schema.safeParse(json);
  if (result.success) return result.data;
  if (isErrorBody(json)) throw apiErrorFromResponse(status, text, undefined, secret, undefined, source);
  throw new ResponseValidationError(
    `${what} does not fit the completion schema: ${summarize(result.error)}`,
    {
      cause: result.error,
    },
  );
}

/** An error object where a completion was expected: `{"error": …}` or Mistral's `{"object": "error", …}`. */
export function isErrorBody(json: unknown): boolean {
  if (typeof json !== "object" || json === null) return false;
  const body = json as { error?: unknown; object?: unknown; choices?: unknown };
  return (body.error != null && body.choices === undefined) || body.object === "error";
}

/** `choices.0.text: Invalid input: expected string, received number` — paths and zod's messages, no values. */
function summarize(error: z.ZodError): string {
  return error.issues
    .slice(0, 3)
    .map((issue) => `${issue.path.map(String).join(".") || "(root)"}: ${issue.message}`)
    .join("; ");
}
