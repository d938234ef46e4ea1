import * as z from "zod";
import { ValidationError } from "../errors.js";
import { parseRequest } from "../request-body.js";
import { integerIn, numberIn, opt, StopSchema } from "../schemas.js";

/** One piece of repository context: text from another file of the workspace. */
export const ContextSnippetSchema = z.strictObject({
  /** The file's path, relative to its workspace folder (`src/util/math.ts`). */
  path: z.string({ error: "must be a string" }),
  /** The text taken from it (a declaration, a signature, a few lines). */
  text: z.string({ error: "must be a string" }),
});

/**
 * Repository context for a request, as the server computed it. Each provider sends it its own way: llama.cpp gets
 * `snippets` as `input_extra` chunks (its server renders them with the model's repo-level FIM tokens) and only
 * `pathLine` before the prompt; every other provider gets `text` before the prompt.
 */
export const FimContextSchema = z.strictObject(
  {
    /** Snippets of other files, in the order they appear in `text`. */
    snippets: z.array(ContextSnippetSchema, { error: "must be an array of { path, text }" }),
    /**
     * The context as prompt text: each snippet under a comment line naming its file, then `pathLine`. It goes
     * right before `prompt`, so it ends with a line break.
     */
    text: z.string({ error: "must be a string" }),
    /**
     * The comment line naming the current file, line break included (`// src/app.ts\n`): the end of `text`, and
     * all of it that llama.cpp gets in the prompt. Default none.
     */
    pathLine: z.string({ error: "must be a string" }).optional(),
  },
  { error: "must be an object { snippets, text, pathLine? }" },
);

/**
 * A FIM request every provider understands: the portable part of DeepSeek's request (named as there) plus the
 * repository context. Strict: an unknown field is refused before anything is sent. Bounds are the common ones:
 * `max_tokens` 1–4096, `temperature` 0–2, `stop` a string or up to 16.
 */
export const FimRequestSchema = z.strictObject({
  /**
   * Model id. Required by every provider but llama.cpp (whose server serves the model it loaded); the client
   * names the provider's default in its message when it is missing.
   */
  model: opt(z.string({ error: "must be a non-empty string" }).min(1)),
  /** The text before the cursor (the current file's window). */
  prompt: z.string({ error: "must be a string" }),
  /** The text after the cursor. */
  suffix: opt(z.string({ error: "must be a string" })),
  /** Most tokens to generate, 1–4096. Default: the provider's. */
  max_tokens: integerIn(1, 4096),
  /** Sampling temperature, 0–2. Default: the provider's. */
  temperature: numberIn(0, 2),
  /** Up to 16 sequences that end the completion; the returned text does not contain them. */
  stop: StopSchema,
  /**
   * Return the log probabilities of the sampled tokens (and of the `logprobs` most likely ones), 0–20: DeepSeek
   * takes it; the other providers ignore it. Default none.
   */
  logprobs: integerIn(0, 20),
  /** Repository context (see FimContextSchema). Default none. */
  context: opt(FimContextSchema),
});

/** Input of ProviderClient's `complete()` and `stream()`. */
export type FimRequest = z.input<typeof FimRequestSchema>;
/** A checked FimRequest. */
export type CheckedFimRequest = z.infer<typeof FimRequestSchema>;
/** Repository context of a request. */
export type FimContext = z.infer<typeof FimContextSchema>;
/** One snippet of repository context. */
export type ContextSnippet = z.infer<typeof ContextSnippetSchema>;

/**
 * Checks a request before anything is sent.
 *
 * @param requiredModel when the provider needs a model: an example of one, for the message.
 * @throws {ValidationError} naming the first offending field.
 */
export function checkFimRequest(
  request: FimRequest,
  provider: string,
  requiredModel: string | undefined,
): CheckedFimRequest {
  if (typeof request !== "object" || request === null || Array.isArray(request)) {
    throw new ValidationError("", "the request must be an object with at least prompt");
  }
  if (request.model === "" && requiredModel !== undefined) {
    throw new ValidationError(
      "model",
      `invalid request: model must be a non-empty string (e.g. ${requiredModel}) (got "")`,
    );
  }
  const checked = parseRequest(FimRequestSchema, request, "a FIM request");
  if (requiredModel !== undefined && checked.model == null) {
    throw new ValidationError(
      "model",
      `invalid request: model is required for ${provider} (e.g. ${requiredModel})`,
    );
  }
  return checked;
}

/** The prompt as providers without a context field get it: the context's text (path line included), the window. */
export function promptWithContext(request: CheckedFimRequest): string {
  const context = request.context;
  return context == null ? request.prompt : context.text + request.prompt;
}

/** `stop` as a list, for providers that take only arrays; undefined when there is none. */
export function stopList(stop: CheckedFimRequest["stop"]): string[] | undefined {
  if (stop == null) return undefined;
  return typeof stop === "string" ? [stop] : stop;
}

/**
 * The body of the providers that take OpenAI's names (OpenAI-compatible hosts, Codestral): the context goes before
 * the prompt, and only these fields are sent (Codestral refuses any other with 422).
 */
export function openAIShapedBody(request: CheckedFimRequest, streaming: boolean): Record<string, unknown> {
  return {
    model: request.model,
    prompt: promptWithContext(request),
    suffix: request.suffix ?? undefined,
    max_tokens: request.max_tokens ?? undefined,
    temperature: request.temperature ?? undefined,
    stop: request.stop ?? undefined,
    stream: streaming,
  };
}
