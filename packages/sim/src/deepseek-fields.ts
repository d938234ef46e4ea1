import { z } from "zod";

// How DeepSeek words what is wrong with a request body, for the schemas of its endpoints (FIM, chat): serde's
// messages (behind axum's prefix) for a field of the wrong type, its own for a value out of range.

/** The prefix of what DeepSeek answers a body its deserializer rejects (with status 422). */
export const DESERIALIZE = "Failed to deserialize the JSON body into the target type: ";

/** A JSON value as serde names it in its messages: `integer \`3\``, `string "x"`, `map`, `sequence`. */
export function describe(value: unknown): string {
  if (value === null) return "null";
  if (typeof value === "boolean") return `boolean \`${value}\``;
  if (typeof value === "number")
    return `${Number.isInteger(value) ? "integer" : "floating point"} \`${value}\``;
  if (typeof value === "string")
    return `string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
  return Array.isArray(value) ? "sequence" : "map";
}

/** zod's error for a field of the wrong type (or missing), as serde words it. */
export const typeError =
  (field: string, expected: string) =>
  (issue: { input?: unknown }): string =>
    issue.input === undefined
      ? `${DESERIALIZE}missing field \`${field}\``
      : `${DESERIALIZE}${field}: invalid type: ${describe(issue.input)}, expected ${expected}`;

const rangeError = (field: string, min: number, max: number): string =>
  `Invalid ${field} value, the valid range of ${field} is [${min}, ${max}]`;

/** An optional, nullable number in [min, max]. */
export const numberIn = (field: string, min: number, max: number) =>
  z
    .number({ error: typeError(field, "a number") })
    .min(min, { error: rangeError(field, min, max) })
    .max(max, { error: rangeError(field, min, max) })
    .nullish();

/** An optional, nullable integer in [min, max]. */
export const integerIn = (field: string, min: number, max: number) =>
  z
    .number({ error: typeError(field, "an integer") })
    .int({ error: typeError(field, "an integer") })
    .min(min, { error: rangeError(field, min, max) })
    .max(max, { error: rangeError(field, min, max) })
    .nullish();

/** An optional, nullable boolean. */
export const booleanField = (field: string) => z.boolean({ error: typeError(field, "a boolean") }).nullish();

/** `stop`: a string or at most `max` strings, optional and nullable. */
export const stopField = (max: number) =>
  z
    .custom<string | string[]>(
      (value) =>
        typeof value === "string" ||
        (Array.isArray(value) && value.length <= max && value.every((item) => typeof item === "string")),
      { error: `Invalid stop value, stop must be a string or an array of at most ${max} strings` },
    )
    .nullish();

/** `stream_options`: `{ include_usage?: boolean }`, optional and nullable. */
export const streamOptionsField = () =>
  z
    .object(
      { include_usage: booleanField("stream_options.include_usage") },
      { error: typeError("stream_options", "a map") },
    )
    .nullish();

/** What DeepSeek answers a `stream_options` sent without `stream: true`. */
export const STREAM_OPTIONS_ALONE =
  "Invalid stream_options value, stream_options is only allowed when stream is true";
