import { randomBytes } from "node:crypto";
import { STATUS_CODES } from "node:http";
import { z } from "zod";
import type { FinishReason } from "../generate.js";
import { MAX_TOKENS_LIMIT } from "../validate.js";
import type { Answer, Dialect } from "./dialect.js";
import { fromOpenAIShape, openAIUsage, sse } from "./wire.js";

/** The models Codestral's FIM endpoint serves. */
export const CODESTRAL_MODELS = ["codestral-latest", "codestral-2501", "codestral-2508"] as const;

/** Mistral's application errors: a top-level object. */
function error(message: unknown, type: string, code: string | null = null) {
  return { object: "error", message, type, param: null, code };
}

/** What its API gateway answers (a wrong key, a rate limit): only a message and a request id. */
function gateway(message: string) {
  return { message, request_id: randomBytes(16).toString("hex") };
}

// Pydantic's checks, as Mistral's API reports them in `message.detail`; unknown fields are refused.
const schema = z.strictObject({
  model: z.string({ error: "Input should be a valid string" }),
  prompt: z.string({ error: "Input should be a valid string" }),
  suffix: z.string({ error: "Input should be a valid string" }).nullish(),
  max_tokens: z.int({ error: "Input should be a valid integer" }).min(0).nullish(),
  min_tokens: z.int({ error: "Input should be a valid integer" }).min(0).nullish(),
  temperature: z.number({ error: "Input should be a valid number" }).min(0).nullish(),
  top_p: z.number({ error: "Input should be a valid number" }).min(0).max(1).nullish(),
  stream: z.boolean({ error: "Input should be a valid boolean" }).nullish(),
  stop: z
    .union([z.string(), z.array(z.string())], { error: "Input should be a valid string or list" })
    .nullish(),
  random_seed: z.int({ error: "Input should be a valid integer" }).min(0).nullish(),
});

function chunk(
  answer: Answer,
  delta: Record<string, unknown>,
  finishReason: FinishReason | null,
  withUsage: boolean,
): string {
  return sse({
    id: answer.id.replaceAll("-", ""),
    object: "chat.completion.chunk",
    created: answer.created,
    model: answer.model,
    choices: [{ index: 0, delta, finish_reason: finishReason }],
    ...(withUsage ? { usage: openAIUsage(answer) } : {}),
  });
}

/**
 * Mistral's Codestral FIM API, `POST /v1/fim/completions`: strict bodies (422 with pydantic's `detail` for an
 * unknown or mistyped field), 400 "Invalid model", `chat.completion` bodies with the text at
 * `choices[0].message.content`, streamed `delta.content` chunks (usage on the last) ended by `[DONE]`, errors as
 * top-level objects.
 */
export const codestral: Dialect = {
  name: "codestral",
  basePath: "/v1",
  endpoint: "/fim/completions",
  requestIdHeader: "x-request-id",
  cache: "none",
  streamHeaders: { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache" },
  streamEnd: "data: [DONE]\n\n",
  keepAlive: undefined,
  errorBody(status, message) {
    if (status === 429) return gateway(message ?? "Requests rate limit exceeded");
    const text = message ?? STATUS_CODES[status] ?? "Error";
    return error(text, status >= 500 ? "internal_server_error" : "invalid_request_error");
  },
  unauthorized: () => gateway("Unauthorized"),
  invalidJson: () => ({
    status: 400,
    body: error("Invalid JSON body", "invalid_request_error"),
  }),
  parse(body) {
    const parsed = schema.safeParse(body);
    if (!parsed.success) {
      const detail = parsed.error.issues.slice(0, 5).flatMap((issue) =>
        issue.code === "unrecognized_keys"
          ? issue.keys.map((key) => ({
              type: "extra_forbidden",
              loc: ["body", key],
              msg: "Extra inputs are not permitted",
            }))
          : [
              {
                type: issue.code,
                loc: ["body", ...issue.path.map(String)],
                msg: issue.input === undefined ? "Field required" : issue.message,
              },
            ],
      );
      return { ok: false, status: 422, body: error({ detail }, "invalid_request_message_error") };
    }
    const request = parsed.data;
    if (!(CODESTRAL_MODELS as readonly string[]).includes(request.model)) {
      return {
        ok: false,
        status: 400,
        body: error(`Invalid model: ${request.model}`, "invalid_model", "1500"),
      };
    }
    // Mistral sends the counts on the last chunk of every stream.
    return { ok: true, request: fromOpenAIShape(request, MAX_TOKENS_LIMIT, { includeUsage: true }) };
  },
  body: (answer) => ({
    id: answer.id.replaceAll("-", ""),
    object: "chat.completion",
    model: answer.model,
    usage: openAIUsage(answer),
    created: answer.created,
    choices: [
      {
        index: 0,
        message: { role: "assistant", tool_calls: null, content: answer.generation.text },
        finish_reason: answer.generation.finishReason,
      },
    ],
  }),
  events(answer) {
    const tokens = answer.generation.tokens;
    const reason = answer.generation.finishReason;
    const events = [chunk(answer, { role: "assistant", content: "" }, null, false)];
    if (tokens.length === 0) events.push(chunk(answer, { content: "" }, reason, true));
    tokens.forEach((token, k) => {
      const last = k === tokens.length - 1;
      events.push(chunk(answer, { content: token }, last ? reason : null, last));
    });
    return { events, trailing: 0 };
  },
  streamError: () => sse(error("Internal server error", "internal_server_error")),
  // Codestral's API has no endpoint for next edits.
  editRoutes: [],
};
