import { STATUS_CODES } from "node:http";
import { MAX_TOKENS_LIMIT } from "../validate.js";
import { type ChatStyle, chatBody, chatEvents, readOpenAIChat } from "./chat.js";
import type { Answer, Dialect, Parsed, Route, StreamEvents } from "./dialect.js";
import { openAIUsage, simRequest, sse } from "./wire.js";

/** The model file the simulated llama-server has loaded (its responses name it). */
export const LLAMACPP_MODEL = "sim-coder-1.5b-q8_0.gguf";

const TYPES: Readonly<Record<number, string>> = {
  400: "invalid_request_error",
  401: "authentication_error",
  404: "not_found_error",
  501: "not_supported_error",
  503: "unavailable_error",
};

function error(status: number, message: string) {
  return { error: { code: status, message, type: TYPES[status] ?? "server_error" } };
}

const MESSAGES: Readonly<Record<number, string>> = { 503: "Loading model" };

const invalid = (message: string): Parsed => ({ ok: false, status: 400, body: error(400, message) });

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function stopType(answer: Answer): string {
  return answer.generation.finishReason === "length" ? "limit" : "eos";
}

/** The closing object: the last stream event, and the whole body when not streaming. */
function final(answer: Answer, content: string) {
  const predicted = answer.generation.tokens.length;
  const cached = answer.cacheHitTokens ?? 0;
  return {
    index: 0,
    content,
    tokens: [],
    id_slot: 0,
    stop: true,
    model: LLAMACPP_MODEL,
    tokens_predicted: predicted,
    tokens_evaluated: answer.promptTokens,
    has_new_line: content.includes("\n"),
    truncated: false,
    stop_type: stopType(answer),
    stopping_word: "",
    tokens_cached: answer.promptTokens + predicted,
    // The simulator's timings are nominal; the token counts are what a client reads.
    timings: {
      cache_n: cached,
      prompt_n: answer.promptTokens - cached,
      prompt_ms: 0,
      prompt_per_token_ms: 0,
      prompt_per_second: 0,
      predicted_n: predicted,
      predicted_ms: 0,
      predicted_per_token_ms: 0,
      predicted_per_second: 0,
    },
  };
}

/**
 * A request's generation settings (`n_predict`, `stop`, `stream`) checked, with its prompt and suffix: the request,
 * or the server's 400.
 */
function read(body: Record<string, unknown>, prompt: string, suffix: string): Parsed {
  const nPredict = body.n_predict;
  if (nPredict !== undefined && !Number.isInteger(nPredict)) return invalid('"n_predict" must be an integer');
  if (
    body.stop !== undefined &&
    !(Array.isArray(body.stop) && body.stop.every((s) => typeof s === "string"))
  ) {
    return invalid('"stop" must be an array of strings');
  }
  return {
    ok: true,
    request: simRequest({
      model: LLAMACPP_MODEL,
      prompt,
      suffix,
      // -1 (the default) is "until the model stops"; the simulator's model stops within FIM's limit.
      maxTokens: typeof nPredict === "number" && nPredict >= 0 ? nPredict : MAX_TOKENS_LIMIT,
      stop: (body.stop as string[] | undefined) ?? [],
      stream: body.stream === true,
    }),
  };
}

const events = (answer: Answer): StreamEvents => {
  const tokens = answer.generation.tokens.map((token, k) =>
    sse({
      index: 0,
      content: token,
      tokens: [],
      stop: false,
      id_slot: -1,
      tokens_predicted: k + 1,
      tokens_evaluated: answer.promptTokens,
    }),
  );
  tokens.push(sse(final(answer, "")));
  return { events: tokens, trailing: 1 };
};

const streamError = () => sse(error(500, "the slot was cancelled while generating"));

/** `POST /completion`: a raw prompt (a next edit: the edit model's text), answered as `/infill` answers. */
const completion: Route = {
  endpoint: "/completion",
  streamHeaders: { "content-type": "text/event-stream" },
  streamEnd: "",
  keepAlive: undefined,
  parse(body) {
    if (!isRecord(body)) return invalid("the request body must be a JSON object");
    if (!("prompt" in body)) return invalid('"prompt" must be provided');
    if (typeof body.prompt !== "string") return invalid('"prompt" must be a string');
    const parsed = read(body, body.prompt, "");
    if (parsed.ok) parsed.request.edit = { input: { prompt: body.prompt }, thinking: false };
    return parsed;
  },
  body: (answer) => final(answer, answer.generation.text),
  events,
  streamError,
};

/** `POST /v1/chat/completions`: the loaded model's chat, with the slot's cache as `cached_tokens`. */
const chat: Route = {
  endpoint: "/v1/chat/completions",
  streamHeaders: { "content-type": "text/event-stream" },
  streamEnd: "data: [DONE]\n\n",
  keepAlive: undefined,
  parse(body) {
    const read = readOpenAIChat(body, LLAMACPP_MODEL, MAX_TOKENS_LIMIT);
    return read.ok ? read : invalid(`${read.field}: ${read.message}`);
  },
  body: (answer) => chatBody(answer, chatStyle(answer)),
  events: (answer) => chatEvents(answer, chatStyle(answer)),
  streamError,
};

function chatStyle(answer: Answer): ChatStyle {
  const usage = {
    ...openAIUsage(answer),
    prompt_tokens_details: { cached_tokens: answer.cacheHitTokens ?? 0 },
  };
  return { id: `chatcmpl-${answer.id}`, usage };
}

/**
 * llama.cpp's server, `POST /infill`: 501 when the model has no FIM tokens (`fim: false`), its input checks and
 * their messages, `input_extra` chunks laid out before the prefix, one slot that reuses the prefix its previous
 * request shares (`timings.cache_n`), SSE whose last event has `stop: true` and no `[DONE]`, errors
 * `{"error":{"code","message","type"}}`. For next edits, `POST /completion` (a raw prompt) and
 * `POST /v1/chat/completions`, which share the slot.
 */
export const llamacpp: Dialect = {
  name: "llamacpp",
  basePath: "",
  endpoint: "/infill",
  requestIdHeader: "x-request-id",
  cache: "slot",
  streamHeaders: { "content-type": "text/event-stream" },
  streamEnd: "",
  keepAlive: undefined,
  errorBody: (status, message) =>
    error(status, message ?? MESSAGES[status] ?? STATUS_CODES[status] ?? "Error"),
  unauthorized: () => error(401, "Invalid API Key"),
  // nlohmann::json throws, and the server's exception handler answers 500.
  invalidJson: () => ({
    status: 500,
    body: error(500, "[json.exception.parse_error.101] parse error: syntax error while parsing value"),
  }),
  parse(body, fim) {
    if (!fim) {
      return {
        ok: false,
        status: 501,
        body: error(
          501,
          "Infill is not supported by this model: prefix token is missing. suffix token is missing. middle token is missing. ",
        ),
      };
    }
    if (!isRecord(body)) return invalid("the request body must be a JSON object");
    if ("prompt" in body && typeof body.prompt !== "string") return invalid('"prompt" must be a string');
    if (!("input_prefix" in body)) return invalid('"input_prefix" is required');
    if (!("input_suffix" in body)) return invalid('"input_suffix" is required');
    if (typeof body.input_prefix !== "string") return invalid('"input_prefix" must be a string');
    if (typeof body.input_suffix !== "string") return invalid('"input_suffix" must be a string');
    const extra = body.input_extra ?? [];
    if (!Array.isArray(extra)) {
      return invalid('"input_extra" must be an array of {"filename": string, "text": string}');
    }
    const chunks: string[] = [];
    for (const chunk of extra) {
      if (!isRecord(chunk))
        return invalid('"input_extra" must be an array of {"filename": string, "text": string}');
      if ("text" in chunk && typeof chunk.text !== "string") {
        return invalid('extra_context chunk\'s "text" field must be a string');
      }
      if ("filename" in chunk && typeof chunk.filename !== "string") {
        return invalid('extra_context chunk\'s "filename" field must be a string');
      }
      chunks.push(`${(chunk.text as string | undefined) ?? ""}\n`);
    }
    // The extra context comes before the prefix, as the server lays it out for the model.
    return read(body, chunks.join("") + body.input_prefix, body.input_suffix);
  },
  body: (answer) => final(answer, answer.generation.text),
  events,
  streamError,
  editRoutes: [completion, chat],
};
