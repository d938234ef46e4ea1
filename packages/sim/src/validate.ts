import { z } from "zod";
import {
  booleanField,
  DESERIALIZE,
  describe,
  integerIn,
  numberIn,
  STREAM_OPTIONS_ALONE,
  stopField,
  streamOptionsField,
  typeError,
} from "./deepseek-fields.js";

/** Model ids the FIM endpoint accepts (DeepSeek V4; FIM is "non-thinking mode only"). */
export const ACCEPTED_MODELS = ["deepseek-v4-flash", "deepseek-v4-pro"] as const;

/** FIM's documented output limit: "The max tokens of FIM completion is 4K." */
export const MAX_TOKENS_LIMIT = 4096;

/** Stop sequences allowed at most. */
export const MAX_STOP_SEQUENCES = 16;

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
  stop: stopField(MAX_STOP_SEQUENCES),
  stream: booleanField("stream"),
  stream_options: streamOptionsField(),
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
      message: STREAM_OPTIONS_ALONE,
    };
  }
  return { ok: true, request };
}
