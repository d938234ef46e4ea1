import type { CompletionRequest } from "./schemas.js";

// The wire text of a FIM request of the common shape, checked by hand: a batch sends millions of requests that
// CompletionRequestSchema would each parse for 5–10 µs, more than the rest of the batch's own work on one. It only
// ever says yes when the schema says yes, with the same bytes (property-tested against the schema), and declines
// whatever it is not sure of (a stream_options object, any value out of bounds): the schema then decides, and words the
// error.

/** A finite number in [min, max], null or absent (zod's number refuses NaN and ±Infinity). */
function numberIn(value: unknown, min: number, max: number): boolean {
  return value == null || (typeof value === "number" && value >= min && value <= max);
}

/** A safe integer in [min, max], null or absent (zod's int). */
function integerIn(value: unknown, min: number, max: number): boolean {
  return (
    value == null || (Number.isSafeInteger(value) && (value as number) >= min && (value as number) <= max)
  );
}

function isStop(value: unknown): boolean {
  if (value == null || typeof value === "string") return true;
  if (!Array.isArray(value) || value.length > 16) return false;
  for (const entry of value) if (typeof entry !== "string") return false;
  return true;
}

function optionalString(value: unknown): boolean {
  return value == null || typeof value === "string";
}

function optionalBoolean(value: unknown): boolean {
  return value == null || typeof value === "boolean";
}

/**
 * The JSON text CompletionRequestSchema's output would give for `request`, when the request is plainly valid;
 * undefined when the schema must decide (it may be valid all the same).
 *
 * @param model the model when the request names none (a batch's default); default none.
 * @param skip a key that is not the request's and is left out (a batch record's `id`); default none.
 */
export function fastRequestBody(
  request: CompletionRequest | Record<string, unknown>,
  model?: string | undefined,
  skip?: string | undefined,
): string | undefined {
  // A plain object only: its keys are its own (the schema's check for unknown keys counts inherited ones, a copy
  // of a batch record's own keys does not).
  const prototype = Object.getPrototypeOf(request);
  if (prototype !== Object.prototype && prototype !== null) return undefined;
  for (const key in request) {
    if (key === skip) continue;
    switch (key) {
      case "model":
      case "prompt":
      case "echo":
      case "frequency_penalty":
      case "logprobs":
      case "max_tokens":
      case "presence_penalty":
      case "stop":
      case "stream":
      case "suffix":
      case "temperature":
      case "top_p":
        continue;
      case "stream_options":
        // Whether one is allowed depends on stream: the schema decides, unless there is none.
        if (request.stream_options == null) continue;
        return undefined;
      default:
        return undefined;
    }
  }
  const r = request as CompletionRequest;
  const named = r.model === undefined ? model : r.model;
  if (
    typeof named !== "string" ||
    named === "" ||
    typeof r.prompt !== "string" ||
    !optionalBoolean(r.echo) ||
    !numberIn(r.frequency_penalty, -2, 2) ||
    !integerIn(r.logprobs, 0, 20) ||
    !integerIn(r.max_tokens, 1, 4096) ||
    !numberIn(r.presence_penalty, -2, 2) ||
    !isStop(r.stop) ||
    !optionalBoolean(r.stream) ||
    !optionalString(r.suffix) ||
    !numberIn(r.temperature, 0, 2) ||
    !numberIn(r.top_p, 0, 1)
  ) {
    return undefined;
  }
  // Every field in the spec's order; JSON.stringify leaves out the undefined ones, as the schema's output does the
  // absent ones.
  return JSON.stringify({
    model: named,
    prompt: r.prompt,
    echo: r.echo,
    frequency_penalty: r.frequency_penalty,
    logprobs: r.logprobs,
    max_tokens: r.max_tokens,
    presence_penalty: r.presence_penalty,
    stop: r.stop,
    stream: r.stream,
    stream_options: r.stream_options,
    suffix: r.suffix,
    temperature: r.temperature,
    top_p: r.top_p,
  });
}
