import type * as z from "zod";
import { apiErrorFromResponse, ResponseValidationError, redact, snip } from "./errors.js";
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
): CompletionResponse {
  const json = parseJson(text, "response body", secret);
  return check(CompletionResponseSchema, json, text, status, secret, "response body");
}

/** Parses one `data:` payload of a stream; throws like parseCompletionBody. */
export function parseChunkData(data: string, status: number, secret: string | undefined): CompletionChunk {
  const json = parseJson(data, "stream event", secret);
  return check(CompletionChunkSchema, json, data, status, secret, "stream chunk");
}

function parseJson(text: string, what: string, secret: string | undefined): unknown {
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

function check<T>(
  schema: z.ZodType<T>,
  json: unknown,
  text: string,
  status: number,
  secret: string | undefined,
  what: string,
): T {
  const result = schema.safeParse(json);
  if (result.success) return result.data;
  if (typeof json === "object" && json !== null && "error" in json && !("choices" in json)) {
    throw apiErrorFromResponse(status, text, undefined, secret);
  }
  throw new ResponseValidationError(
    `${what} does not fit the completion schema: ${summarize(result.error)}`,
    {
      cause: result.error,
    },
  );
}

/** `choices.0.text: Invalid input: expected string, received number` — paths and zod's messages, no values. */
function summarize(error: z.ZodError): string {
  return error.issues
    .slice(0, 3)
    .map((issue) => `${issue.path.map(String).join(".") || "(root)"}: ${issue.message}`)
    .join("; ");
}
