import * as z from "zod";

// Strict request (it is the spec: an unknown field is a mistake we report before sending), lenient response
// (accept fields DeepSeek adds, check only the ones callers read). Each request field carries its own message
// so a ValidationError reads "logprobs must be an integer between 0 and 20 (got 21)".

/** Optional and nullable, as every request field but model and prompt is. */
export const opt = <T extends z.ZodType>(schema: T) => schema.nullable().optional();

/** An optional, nullable number in [min, max]. */
export const numberIn = (min: number, max: number) =>
  opt(
    z
      .number({ error: `must be a number between ${min} and ${max}` })
      .min(min)
      .max(max),
  );

/** An optional, nullable integer in [min, max]. */
export const integerIn = (min: number, max: number) =>
  opt(
    z
      .int({ error: `must be an integer between ${min} and ${max}` })
      .min(min)
      .max(max),
  );

/** `stop`: a string or up to 16 strings, optional and nullable. */
export const StopSchema = opt(
  z.union([z.string(), z.array(z.string({ error: "must be a string" })).max(16)], {
    error: "must be a string or an array of at most 16 strings",
  }),
);

/**
 * A FIM completion request: the 13 fields of DeepSeek's spec, in the spec's order (which is also the order they
 * are sent in). Unknown fields are rejected. Bounds come from DeepSeek's reference: `logprobs` ≤ 20, penalties
 * in [-2, 2], `temperature` in [0, 2], `top_p` in [0, 1], FIM `max_tokens` ≤ 4096 ("4K"), `stop` up to 16
 * sequences; `stream_options` only together with `stream: true`.
 */
export const CompletionRequestSchema = z
  .strictObject({
    /** Model id, e.g. `deepseek-v4-flash` (see MODELS). */
    model: z.string({ error: "must be a non-empty string (e.g. deepseek-v4-flash)" }).min(1),
    /** The text before the cursor. */
    prompt: z.string({ error: "must be a string" }),
    /** Echo the prompt back before the completion. Default false. */
    echo: opt(z.boolean({ error: "must be a boolean" })),
    /** In [-2, 2]. Positive values penalise tokens by how often they already appear. Default 0. */
    frequency_penalty: numberIn(-2, 2),
    /** Return log probabilities of this many most likely tokens per position, 0–20. */
    logprobs: integerIn(0, 20),
    /** Most tokens to generate, 1–4096 (FIM's limit is 4K). */
    max_tokens: integerIn(1, 4096),
    /** In [-2, 2]. Positive values penalise tokens that already appear. Default 0. */
    presence_penalty: numberIn(-2, 2),
    /** Up to 16 sequences that end the completion; the returned text does not contain them. */
    stop: StopSchema,
    /** Stream server-sent events. Set by the client: false/absent for complete(), true for stream(). */
    stream: opt(z.boolean({ error: "must be a boolean" })),
    /** Only with `stream: true`. `include_usage` adds a final `choices: []` chunk carrying `usage`. */
    stream_options: opt(
      z.strictObject(
        { include_usage: z.boolean({ error: "must be a boolean" }).optional() },
        { error: "must be an object { include_usage?: boolean }" },
      ),
    ),
    /** The text after the cursor. */
    suffix: opt(z.string({ error: "must be a string" })),
    /** Sampling temperature in [0, 2]. Default 1; DeepSeek recommends 0 for code. */
    temperature: numberIn(0, 2),
    /** Nucleus sampling in [0, 1]. Default 1. */
    top_p: numberIn(0, 1),
  })
  .superRefine((request, ctx) => {
    if (request.stream_options != null && request.stream !== true) {
      ctx.addIssue({
        code: "custom",
        path: ["stream_options"],
        message: "is only allowed when streaming (stream: true, i.e. client.stream())",
      });
    }
  });

/** The known `finish_reason` values. */
export const FINISH_REASONS = ["stop", "length", "content_filter", "insufficient_system_resource"] as const;

/**
 * Why generation ended: `stop` (natural end or a stop sequence), `length` (max_tokens), `content_filter`,
 * `insufficient_system_resource` (interrupted by the backend). An unknown string is kept as is, not rejected.
 */
export const FinishReasonSchema = z.union([
  z.enum(FINISH_REASONS),
  z.custom<string & {}>((value) => typeof value === "string"),
]);

/**
 * Per-token log probabilities (only when the request set `logprobs`). Entries may be null for the first echoed
 * prompt token, which has no context.
 */
export const LogprobsSchema = z.looseObject({
  /** The tokens generated (or echoed). */
  tokens: z.array(z.string()),
  /** Log probability of each token. */
  token_logprobs: z.array(z.number().nullable()),
  /** For each position, a `{ token: logprob }` map of the most likely alternatives. */
  top_logprobs: z.array(z.record(z.string(), z.number()).nullable()),
  /** Character offset of each token, counted from the start of the prompt. */
  text_offset: z.array(z.number()),
});

/** One completion. DeepSeek returns exactly one, at index 0. */
export const CompletionChoiceSchema = z.looseObject({
  /** The generated text (in a stream: this chunk's piece; the first chunk's is often empty). */
  text: z.string(),
  /** Position of the choice; optional, as in DeepSeek's spec (which requires no choice field). */
  index: z.number().optional(),
  /** Null in every stream chunk but the last content one. */
  finish_reason: FinishReasonSchema.nullable().optional(),
  /** Null unless the request asked for `logprobs`. */
  logprobs: LogprobsSchema.nullable().optional(),
});

/** Token accounting. `prompt_tokens` = cache hit + cache miss tokens. */
export const UsageSchema = z.looseObject({
  /** Tokens generated. */
  completion_tokens: z.number(),
  /** Tokens in prompt and suffix. */
  prompt_tokens: z.number(),
  /** Prompt tokens served from DeepSeek's context cache (cheaper). */
  prompt_cache_hit_tokens: z.number().optional(),
  /** Prompt tokens not in the cache. */
  prompt_cache_miss_tokens: z.number().optional(),
  /** prompt_tokens + completion_tokens. */
  total_tokens: z.number(),
  /** `{ reasoning_tokens }`; always 0 for FIM (non-thinking only). */
  completion_tokens_details: z.looseObject({ reasoning_tokens: z.number().optional() }).nullable().optional(),
});

const completionShape = {
  /** Identifier of the completion (the same on every chunk of a stream). */
  id: z.string(),
  /** The completions; `[]` on the usage-only chunk of a stream. */
  choices: z.array(CompletionChoiceSchema),
  /** Unix time (seconds) the completion was created. */
  created: z.number(),
  /** The model that produced it. */
  model: z.string(),
  /** Backend configuration fingerprint. */
  system_fingerprint: z.string().nullable().optional(),
  /** Always `text_completion` from DeepSeek. */
  object: z.string(),
};

/** The body of a 200 from `complete()`. Extra fields (e.g. `usage.prompt_tokens_details`) are kept. */
export const CompletionResponseSchema = z.looseObject({ ...completionShape, usage: UsageSchema });

/**
 * One `data:` event of a stream: the same shape as a response, but `usage` is absent or null except on the last
 * chunk (with `stream_options.include_usage`, on an extra chunk with `choices: []`).
 */
export const CompletionChunkSchema = z.looseObject({
  ...completionShape,
  usage: UsageSchema.nullable().optional(),
});

/** Input of `complete()` / `stream()`; see CompletionRequestSchema for bounds. */
export type CompletionRequest = z.input<typeof CompletionRequestSchema>;
/** Parsed body of a non-streamed completion. */
export type CompletionResponse = z.infer<typeof CompletionResponseSchema>;
/** One parsed stream chunk. */
export type CompletionChunk = z.infer<typeof CompletionChunkSchema>;
/** One entry of `choices`. */
export type CompletionChoice = z.infer<typeof CompletionChoiceSchema>;
/** Token accounting of a completion. */
export type Usage = z.infer<typeof UsageSchema>;
/** `stop` | `length` | `content_filter` | `insufficient_system_resource`, or a string DeepSeek adds later. */
export type FinishReason = z.infer<typeof FinishReasonSchema>;
/** Per-token log probabilities. */
export type Logprobs = z.infer<typeof LogprobsSchema>;
