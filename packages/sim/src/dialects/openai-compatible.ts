import { STATUS_CODES } from "node:http";
import { z } from "zod";
import { maskKey } from "../api-error.js";
import type { FinishReason } from "../generate.js";
import { MAX_STOP_SEQUENCES } from "../validate.js";
import type { Answer, Dialect } from "./dialect.js";
import { firstIssue, fromOpenAIShape, openAIUsage, sse } from "./wire.js";

// OpenAI's legacy completions default: 16 tokens when max_tokens is absent.
const DEFAULT_MAX_TOKENS = 16;

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

/**
 * A host that serves OpenAI's legacy `POST /v1/completions` with `suffix` (SiliconFlow, Ollama's `/v1`): any
 * model name, OpenAI's error envelope, `text_completion` chunks ended by `[DONE]`, usage in a stream only with
 * `stream_options.include_usage`. With `fim: false` it refuses `suffix` as vLLM does.
 */
export const openaiCompatible: Dialect = {
  name: "openai-compatible",
  basePath: "/v1",
  endpoint: "/completions",
  requestIdHeader: "x-request-id",
  cache: "none",
  streamHeaders: { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache" },
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
    return {
      ok: true,
      request: fromOpenAIShape(request, DEFAULT_MAX_TOKENS, {
        includeUsage: request.stream_options?.include_usage === true,
      }),
    };
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
  streamError: () => sse(error("The server had an error while processing your request.", "server_error")),
};
