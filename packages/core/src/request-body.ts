import type * as z from "zod";
import { ValidationError } from "./errors.js";
import { fastRequestBody } from "./request-fast-path.js";
import { type CompletionRequest, CompletionRequestSchema } from "./schemas.js";

const PARSE_PARAMS = { reportInput: true } as const;

/**
 * Validates a request and serialises it for the wire: only the spec's fields, in the spec's order (the schema's
 * output order), built from the parsed value rather than the caller's object.
 *
 * `complete()` never streams: `stream: true` there is refused rather than silently ignored, since the caller
 * would otherwise expect chunks. `stream()` always streams: it sends `stream: true` and refuses `stream: false`.
 *
 * @throws {ValidationError} naming the first offending field; the message lists every problem.
 */
export function serializeRequest(request: CompletionRequest, streaming: boolean): string {
  if (typeof request !== "object" || request === null || Array.isArray(request)) {
    throw new ValidationError("", "the request must be an object with at least model and prompt");
  }
  if (streaming) {
    if (request.stream === false) {
      throw new ValidationError(
        "stream",
        "stream must not be false in client.stream(); use client.complete()",
      );
    }
    if (request.stream !== true) request = { ...request, stream: true };
  } else if (request.stream === true) {
    throw new ValidationError("stream", "stream must not be true in client.complete(); use client.stream()");
  }
  // The schema decides what the hand-written check is not sure of, and words every error.
  const fast = fastRequestBody(request);
  if (fast !== undefined) return fast;
  const result = CompletionRequestSchema.safeParse(request, PARSE_PARAMS);
  if (!result.success) throw toValidationError(result.error.issues, "DeepSeek's FIM request");
  return JSON.stringify(result.data);
}

/**
 * Parses a request with a strict schema, for the wire: the parsed value, or a ValidationError naming the first
 * offending field and listing every problem.
 *
 * @param what the request's name in "unknown field" messages, e.g. `DeepSeek's FIM request`.
 */
export function parseRequest<T>(schema: z.ZodType<T>, request: unknown, what: string): T {
  const result = schema.safeParse(request, PARSE_PARAMS);
  if (!result.success) throw toValidationError(result.error.issues, what);
  return result.data;
}

function toValidationError(issues: readonly z.core.$ZodIssue[], what: string): ValidationError {
  const lines: Array<{ field: string; text: string }> = [];
  for (const issue of issues) collect(issue, [], lines, what);
  const first = lines[0] ?? { field: "", text: "the request is invalid" };
  return new ValidationError(first.field, `invalid request: ${lines.map((line) => line.text).join("; ")}`);
}

function collect(
  issue: z.core.$ZodIssue,
  prefix: readonly PropertyKey[],
  out: Array<{ field: string; text: string }>,
  what: string,
): void {
  const path = [...prefix, ...issue.path];
  if (issue.code === "unrecognized_keys") {
    for (const key of issue.keys) {
      const field = formatPath([...path, key]);
      out.push({ field, text: `unknown field ${field} (not in ${what})` });
    }
    return;
  }
  if (issue.code === "invalid_union" && Array.isArray(issue.input)) {
    // `stop` is string | string[]: when an array was given, report the array branch's finer issue (stop[3]).
    const branch = issue.errors.find((errors) =>
      errors.every((e) => e.path.length > 0 || e.code !== "invalid_type"),
    );
    if (branch && branch.length > 0) {
      for (const inner of branch) {
        if (inner.code === "too_big") {
          out.push({
            field: formatPath(path),
            text: `${formatPath(path)} ${issue.message}${got(issue.input)}`,
          });
        } else {
          collect(inner, path, out, what);
        }
      }
      return;
    }
  }
  const field = formatPath(path);
  let text: string;
  if (issue.code === "custom") text = `${field} ${issue.message}`;
  else if (issue.input === undefined) text = `${field} is required and ${issue.message}`;
  else text = `${field} ${issue.message}${got(issue.input)}`;
  out.push({ field, text });
}

/** `["stop", 3]` → `stop[3]`; `["stream_options", "x"]` → `stream_options.x`. */
function formatPath(path: readonly PropertyKey[]): string {
  let text = "";
  for (const key of path) {
    if (typeof key === "number") text += `[${key}]`;
    else text += text === "" ? String(key) : `.${String(key)}`;
  }
  return text;
}

/** Shows small values; never echoes strings (a prompt can be megabytes, and is the user's code). */
function got(input: unknown): string {
  if (typeof input === "number" || typeof input === "boolean" || input === null)
    return ` (got ${String(input)})`;
  if (typeof input === "string") return input === "" ? ' (got "")' : " (got a string)";
  if (Array.isArray(input)) return ` (got an array of ${input.length})`;
  if (typeof input === "object") return " (got an object)";
  return "";
}
