import * as z from "zod";
import { ValidationError } from "../errors.js";
import type { ProviderName } from "../providers/info.js";
import { parseRequest } from "../request-body.js";

// A next-edit request is checked in two steps: the schema (the fields and their bounds, whoever the provider), then
// what the provider can honour (DeepSeek has no raw completion to send a prompt to; only DeepSeek continues a
// forced prefix). Both before any I/O, naming the field.

/** Most tokens a next edit may ask for: a rewritten region is a few hundred; 8K is DeepSeek chat's V3 limit. */
export const EDIT_MAX_TOKENS = 8192;

/** One chat message of a next-edit request. */
export const EditMessageSchema = z.strictObject(
  {
    /** Who speaks: `system` (the instructions), `user` (the edits and the excerpt), `assistant` (an earlier answer). */
    role: z.enum(["system", "user", "assistant"], { error: 'must be "system", "user" or "assistant"' }),
    /** What the message says. */
    content: z.string({ error: "must be a string" }),
  },
  { error: "must be an object { role, content }" },
);

/**
 * A next-edit request: a raw prompt (Zeta, Sweep: the whole prompt text, sent without a suffix) or chat messages
 * (Instinct, DeepSeek), exactly one of the two. Strict: an unknown field is refused before anything is sent.
 */
export const EditRequestSchema = z
  .strictObject({
    /**
     * Model id. Default: the client's `model` option, else DeepSeek's `deepseek-v4-flash`; Ollama and
     * OpenAI-compatible hosts need one named, llama.cpp serves the model it loaded.
     */
    model: z.string({ error: "must be a non-empty string" }).min(1).optional(),
    /** Raw shape: the whole prompt text; the model writes on after it. Not with `messages`. */
    prompt: z.string({ error: "must be a string" }).optional(),
    /** Chat shape: the conversation, at least one message. Not with `prompt`. */
    messages: z
      .array(EditMessageSchema, { error: "must be an array of { role, content }" })
      .min(1, { error: "must hold at least one message" })
      .optional(),
    /**
     * Chat shape, DeepSeek only: the answer's forced start, sent as a last assistant message with `prefix: true`
     * (Chat Prefix Completion). The answer's text is what follows it, never the prefix itself.
     */
    prefix: z.string({ error: "must be a string" }).optional(),
    /** Most tokens to generate, 1–8192. Default: the provider's. */
    max_tokens: z
      .int({ error: `must be an integer between 1 and ${EDIT_MAX_TOKENS}` })
      .min(1)
      .max(EDIT_MAX_TOKENS)
      .optional(),
    /** Sampling temperature, 0–2. Default: the provider's. */
    temperature: z.number({ error: "must be a number between 0 and 2" }).min(0).max(2).optional(),
    /** Up to 16 sequences that end the answer; the text does not contain them. */
    stop: z
      .array(z.string({ error: "must be a string" }), { error: "must be an array of at most 16 strings" })
      .max(16, { error: "must be an array of at most 16 strings" })
      .optional(),
  })
  .superRefine((request, ctx) => {
    if (request.prompt !== undefined && request.messages !== undefined) {
      ctx.addIssue({
        code: "custom",
        path: ["messages"],
        message: "cannot go with prompt: a request is a raw prompt or chat messages, not both",
      });
    } else if (request.prompt === undefined && request.messages === undefined) {
      ctx.addIssue({
        code: "custom",
        path: ["prompt"],
        message: "is required unless messages is given (a request is a raw prompt or chat messages)",
      });
    }
    if (request.prefix !== undefined && request.messages === undefined) {
      ctx.addIssue({
        code: "custom",
        path: ["prefix"],
        message: "is only for chat requests (with messages): it starts the assistant's answer",
      });
    }
  });

/** Input of EditClient's `complete()` and `stream()`. */
export type EditRequest = z.input<typeof EditRequestSchema>;
/** A checked EditRequest. */
export type CheckedEditRequest = z.infer<typeof EditRequestSchema>;
/** One message of a chat EditRequest. */
export type EditMessage = z.infer<typeof EditMessageSchema>;
/** The two shapes of a next-edit request: `raw` (a prompt) and `chat` (messages). */
export type EditShape = "raw" | "chat";

/** The shape of a checked request. */
export function shapeOf(request: CheckedEditRequest): EditShape {
  return request.messages === undefined ? "raw" : "chat";
}

/** What a provider can honour of a next-edit request. */
export interface EditSupport {
  readonly provider: ProviderName;
  /** How people call it, for messages. */
  readonly label: string;
  /** The shapes it has an endpoint for. */
  readonly shapes: readonly EditShape[];
  /** Whether it continues a forced prefix (DeepSeek's Chat Prefix Completion). */
  readonly prefix: boolean;
  /** An example model when requests must name one; undefined when they need not. */
  readonly requiredModel: string | undefined;
}

/**
 * Checks a next-edit request before anything is sent: the schema, then what the provider can honour.
 *
 * @throws {ValidationError} naming the first offending field.
 */
export function checkEditRequest(request: EditRequest, support: EditSupport): CheckedEditRequest {
  if (typeof request !== "object" || request === null || Array.isArray(request)) {
    throw new ValidationError("", "the request must be an object with prompt or messages");
  }
  const checked = parseRequest(EditRequestSchema, request, "a next-edit request");
  const shape = shapeOf(checked);
  if (!support.shapes.includes(shape)) {
    const field = shape === "raw" ? "prompt" : "messages";
    const other = shape === "raw" ? "messages (chat)" : "prompt (a raw prompt)";
    throw new ValidationError(
      field,
      `invalid request: ${support.label} takes no ${field} for a next edit; send ${other} instead`,
    );
  }
  if (checked.prefix !== undefined && !support.prefix) {
    throw new ValidationError(
      "prefix",
      `invalid request: ${support.label} cannot continue a forced prefix (only DeepSeek's Chat Prefix Completion does); ` +
        "leave prefix out",
    );
  }
  if (support.requiredModel !== undefined && checked.model === undefined) {
    throw new ValidationError(
      "model",
      `invalid request: model is required for ${support.provider} next edits (e.g. ${support.requiredModel})`,
    );
  }
  return checked;
}
