import { z } from "zod";

/** Model ids the FIM endpoint accepts (DeepSeek V4; FIM is "non-thinking mode only"). */
export const ACCEPTED_MODELS = ["deepseek-v4-flash", "deepseek-v4-pro"] as const;

/** FIM's documented output limit: "The max tokens of FIM completion is 4K." */
export const MAX_TOKENS_LIMIT = 4096;

/** Stop sequences allowed at most. */
export const MAX_STOP_SEQUENCES = 16;

// DeepSeek answers a body its deserializer rejects with this prefix and serde's wording.
const DESERIALIZE = "Failed to deserialize the JSON body into the target type: ";

function describe(value: unknown): string {
  if (value === null) return "null";
  if (typeof value === "boolean") return `boolean \`${value}\``;
  if (typeof value === "number")
    return `${Number.isInteger(value) ? "integer" : "floating point"} \`${value}\``;
  if (typeof value === "string")
    return `string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
  return Array.isArray(value) ? "sequence" : "map";
}

const typeError =
  (field: string, expected: string) =>
  (issue: { input?: unknown }): string =>
    issue.input === undefined
      ? `${DESERIALIZE}missing field \`${field}\``
      : `${DESERIALIZE}${field}: invalid type: ${describe(issue.input)}, expected ${expected}`;

const rangeError = (field: string, min: number, max: number): string =>
  `Invalid ${field} value, the valid range of ${field} is [${min}, ${max}]`;

const numberIn = (field: string, min: number, max: number) =>
  z
    .number({ error: typeError(field, "a number") })
    .min(min, { error: rangeError(field, min, max) })
    .max(max, { error: rangeError(field, min, max) })
    .nullish();

const integerIn = (field: string, min: number, max: number) =>
  z
    .number({ error: typeError(field, "an integer") })
    .int({ error: typeError(field, "an integer") })
    .min(min, { error: rangeError(field, min, max) })
    .max(max, { error: rangeError(field, min, max) })
    .nullish();

const booleanField = (field: string) => z.boolean({ error: typeError(field, "a boolean") }).nullish();

const isModel = (model: string): boolean => (ACCEPTED_MODELS as readonly string[]).includes(model);

/**
 * The request body of `POST /beta/completions`, in DeepSeek's field order. Every optional field
 * may be null (same as absent). Fields not listed are accepted and ignored, as OpenAI-compatible
 * servers do with fields they do not know (e.g. `user`, `seed`).
 */
export const completionRequestSchema = z.object({
  model: z.string({ error: typeError("model", "a string") }).refine(isModel, {
    error: (issue) =>
      `Model Not Exist: ${JSON.stringify(issue.input)} is not available for FIM completion; use one of ${ACCEPTED_MODELS.join(", ")}`,
  }),
  prompt: z.string({ error: typeError("prompt", "a string") }),
  echo: booleanField("echo"),
  frequency_penalty: numberIn("frequency_penalty", -2, 2),
  logprobs: integerIn("logprobs", 0, 20),
  max_tokens: integerIn("max_tokens", 1, MAX_TOKENS_LIMIT),
  presence_penalty: numberIn("presence_penalty", -2, 2),
  stop: z
    .custom<string | string[]>(
      (value) =>
        typeof value === "string" ||
        (Array.isArray(value) &&
          value.length <= MAX_STOP_SEQUENCES &&
          value.every((item) => typeof item === "string")),
      {
        error: `Invalid stop value, stop must be a string or an array of at most ${MAX_STOP_SEQUENCES} strings`,
      },
    )
    .nullish(),
  stream: booleanField("stream"),
  stream_options: z
    .object(
      { include_usage: booleanField("stream_options.include_usage") },
      { error: typeError("stream_options", "a map") },
    )
    .nullish(),
  suffix: z.string({ error: typeError("suffix", "a string") }).nullish(),
  temperature: numberIn("temperature", 0, 2),
  top_p: numberIn("top_p", 0, 1),
});

/** A valid request, as the simulator reads it. */
export type CompletionRequest = z.infer<typeof completionRequestSchema>;

/** Outcome of {@link validateRequest}: the request, or the status and message DeepSeek would answer. */
export type Validation =
  | { ok: true; request: CompletionRequest }
  | { ok: false; status: 400 | 422; message: string };

/**
 * Checks a parsed JSON body like the real service: 400 when it is not a JSON object, 422 naming
 * the first offending field (in the request's field order) otherwise.
 */
export function validateRequest(body: unknown): Validation {
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    return {
      ok: false,
      status: 400,
      message: `${DESERIALIZE}invalid type: ${describe(body)}, expected a JSON object`,
    };
  }
  const parsed = completionRequestSchema.safeParse(body);
  if (!parsed.success) {
    return { ok: false, status: 422, message: parsed.error.issues[0]?.message ?? "Invalid Parameters" };
  }
  const request = parsed.data;
  if (request.stream_options != null && request.stream !== true) {
    return {
      ok: false,
      status: 422,
      message: "Invalid stream_options value, stream_options is only allowed when stream is true",
    };
  }
  return { ok: true, request };
}
