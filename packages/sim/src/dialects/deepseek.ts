import { apiErrorBody, maskKey } from "../api-error.js";
import { completionBody, streamEvents } from "../response.js";
import { MAX_TOKENS_LIMIT, validateRequest } from "../validate.js";
import { deepseekChat } from "./deepseek-chat.js";
import type { Dialect } from "./dialect.js";
import { fromOpenAIShape } from "./wire.js";

/**
 * DeepSeek's FIM Completion (Beta), `POST /beta/completions`: its validation and error bodies, `text_completion`
 * chunks ended by `data: [DONE]`, the prompt cache in 64-token units, keep-alive lines while it waits. Beside it,
 * Chat Prefix Completion for next edits, `POST /beta/chat/completions` (see deepseek-chat.ts).
 */
export const deepseek: Dialect = {
  name: "deepseek",
  basePath: "/beta",
  endpoint: "/completions",
  requestIdHeader: "x-ds-trace-id",
  cache: "units",
  streamHeaders: { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache" },
  streamEnd: "data: [DONE]\n\n",
  keepAlive: { json: "\n", stream: ": keep-alive\n\n" },
  errorBody: apiErrorBody,
  unauthorized: (key) =>
    apiErrorBody(
      401,
      key === undefined
        ? "Authentication Fails (auth header format should be Bearer sk-...)"
        : `Authentication Fails, Your api key: ${maskKey(key)} is invalid`,
    ),
  invalidJson: () => ({ status: 400, body: apiErrorBody(400, "Failed to parse the request body as JSON") }),
  parse(body) {
    const validation = validateRequest(body);
    if (!validation.ok) {
      return {
        ok: false,
        status: validation.status,
        body: apiErrorBody(validation.status, validation.message),
      };
    }
    const request = validation.request;
    return {
      ok: true,
      request: fromOpenAIShape(request, MAX_TOKENS_LIMIT, {
        includeUsage: request.stream_options?.include_usage === true,
        echo: request.echo === true,
        logprobs: request.logprobs ?? null,
      }),
    };
  },
  body: completionBody,
  events: (answer) => ({
    events: streamEvents(answer, answer.includeUsage),
    trailing: answer.includeUsage ? 1 : 0,
  }),
  streamError: () => `data: ${JSON.stringify(apiErrorBody(500))}\n\n`,
  editRoutes: [deepseekChat],
};
