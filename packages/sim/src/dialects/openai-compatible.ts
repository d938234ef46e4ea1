import { STATUS_CODES } from "node:http";
import { z } from "zod";
import { maskKey } from "../api-error.js";
import type { FinishReason } from "../generate.js";
import { MAX_STOP_SEQUENCES, MAX_TOKENS_LIMIT } from "../validate.js";
import { type ChatStyle, chatBody, chatEvents, readOpenAIChat } from "./chat.js";
import type { Answer, Dialect, Route } from "./dialect.js";
import { firstIssue, fromOpenAIShape, openAIUsage, sse } from "./wire.js";

// OpenAI's legacy completions default: 16 tokens when max_tokens is absent.
const DEFAULT_MAX_TOKENS = 16;
// Chat has none: the model writes until it stops (the simulator's edit model stops within FIM's limit).
const DEFAULT_CHAT_MAX_TOKENS = MAX_TOKENS_LIMIT;

function error(
  message: string,
  type = "invalid_request_error",
  param: string | null = null,
  code: string | null = null,
) {
  return { error: { message, type, param, code } };
}

const schema = z.object({
  model: z.string().min(1),
  prompt: z.string(),
  suffix: z.string().nullish(),
  max_tokens: z.int().min(1).nullish(),
  temperature: z.number().min(0).max(2).nullish(),
  stop: z.union([z.string(), z.array(z.string()).max(MAX_STOP_SEQUENCES)]).nullish(),
  stream: z.boolean().nullish(),
  stream_options: z.object({ include_usage: z.boolean().nullish() }).nullish(),
});

function chunk(answer: Answer, text: string, finishReason: FinishReason | null): string {
  return sse({
    id: `cmpl-${answer.id}`,
    object: "text_completion",
    created: answer.created,
    model: answer.model,
    choices: [{ text, index: 0, logprobs: null, finish_reason: finishReason }],
  });
}

const SSE_HEADERS = { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache" };

const streamError = () =>
  sse(error("The server had an error while processing your request.", "server_error"));

/** `POST /v1/chat/completions`: any model name, the edit model's text as `chat.completion` (chunks). */
const chat: Route = {
  endpoint: "/chat/completions",
  streamHeaders: SSE_HEADERS,
  streamEnd: "data: [DONE]\n\n",
  keepAlive: undefined,
  parse(body) {
    const read = readOpenAIChat(body, undefined, DEFAULT_CHAT_MAX_TOKENS);
    if (read.ok) return read;
    return {
      ok: false,
      status: 400,
      body: error(`Invalid '${read.field}': ${read.message}`, "invalid_request_error", read.field),
    };
  },
  body: (answer) => chatBody(answer, style(answer)),
  events: (answer) => chatEvents(answer, style(answer)),
  streamError,
};

function style(answer: Answer): ChatStyle {
  return { id: `chatcmpl-${answer.id}`, usage: openAIUsage(answer) };
}

/**
 * A host that serves OpenAI's legacy `POST /v1/completions` with `suffix` (SiliconFlow, Ollama's `/v1`): any
 * model name, OpenAI's error envelope, `text_completion` chunks ended by `[DONE]`, usage in a stream only with
 * `stream_options.include_usage`. With `fim: false` it refuses `suffix` as vLLM does. A request without `suffix`
 * is a raw completion (a next edit: the edit model's text), and `POST /v1/chat/completions` a chat one.
 */
export const openaiCompatible: Dialect = {
  name: "openai-compatible",
  basePath: "/v1",
  endpoint: "/completions",
  requestIdHeader: "x-request-id",
  cache: "none",
  streamHeaders: SSE_HEADERS,
  streamEnd: "data: [DONE]\n\n",
  keepAlive: undefined,
  errorBody: (status, message) =>
    error(
      message ?? STATUS_CODES[status] ?? "Error",
      status >= 500 ? "server_error" : "invalid_request_error",
    ),
  unauthorized: (key) =>
    error(
      key === undefined ? "You didn't provide an API key." : `Incorrect API key provided: ${maskKey(key)}.`,
      "invalid_request_error",
      null,
      "invalid_api_key",
    ),
  invalidJson: () => ({ status: 400, body: error("We could not parse the JSON body of your request.") }),
  parse(body, fim) {
    const parsed = schema.safeParse(body);
    if (!parsed.success) {
      const { field, message } = firstIssue(parsed.error);
      return {
        ok: false,
        status: 400,
        body: error(`Invalid '${field}': ${message}`, "invalid_request_error", field),
      };
    }
    const request = parsed.data;
    if (!fim && request.suffix) {
      return {
        ok: false,
        status: 400,
        body: error("suffix is not currently supported", "invalid_request_error", "suffix"),
      };
    }
    const read = fromOpenAIShape(request, DEFAULT_MAX_TOKENS, {
      includeUsage: request.stream_options?.include_usage === true,
    });
    // No suffix at all (not even ""): a raw completion, as next-edit models (Zeta, Sweep) are asked.
    if (request.suffix == null) read.edit = { input: { prompt: request.prompt }, thinking: false };
    return { ok: true, request: read };
  },
  body: (answer) => ({
    id: `cmpl-${answer.id}`,
    object: "text_completion",
    created: answer.created,
    model: answer.model,
    choices: [
      {
        text: answer.generation.text,
        index: 0,
        logprobs: null,
        finish_reason: answer.generation.finishReason,
      },
    ],
    usage: openAIUsage(answer),
  }),
  events(answer) {
    const tokens = answer.generation.tokens;
    const reason = answer.generation.finishReason;
    const events =
      tokens.length === 0
        ? [chunk(answer, "", reason)]
        : tokens.map((token, k) => chunk(answer, token, k === tokens.length - 1 ? reason : null));
    if (!answer.includeUsage) return { events, trailing: 0 };
    events.push(
      sse({
        id: `cmpl-${answer.id}`,
        object: "text_completion",
        created: answer.created,
        model: answer.model,
        choices: [],
        usage: openAIUsage(answer),
      }),
    );
    return { events, trailing: 1 };
  },
  streamError,
  editRoutes: [chat],
};
