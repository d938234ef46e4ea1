import * as z from "zod";
import { normalizeProviderBaseURL } from "../base-url.js";
import { ValidationError } from "../errors.js";
import { checkBody, parseJson } from "../response-body.js";
import { promptWithContext, stopList } from "./fim-request.js";
import { PROVIDER_INFO } from "./info.js";
import { type FimChunk, type Provider, usageOf } from "./provider.js";

/**
 * How long Ollama keeps the model loaded after a request unless told. Its own default (5 minutes) unloads it
 * during a pause in typing, and the next completion then waits seconds for the load; editors' assistants such
 * as Continue ask for 30 minutes.
 */
export const OLLAMA_DEFAULT_KEEP_ALIVE = "30m";

// One line of the stream, and the whole body when not streaming: the same object, `done: true` on the last.
const GenerateSchema = z.looseObject({
  model: z.string().optional(),
  response: z.string(),
  done: z.boolean(),
  done_reason: z.string().nullish(),
  prompt_eval_count: z.number().nullish(),
  eval_count: z.number().nullish(),
});

type Generate = z.infer<typeof GenerateSchema>;

/** The counts and reason an Ollama line (of `/api/generate` or `/api/chat`) ends with: only on its `done` line. */
export interface OllamaEnd {
  done: boolean;
  done_reason?: string | null | undefined;
  prompt_eval_count?: number | null | undefined;
  eval_count?: number | null | undefined;
}

/** A line's finish reason (`done_reason`, else `stop`) and usage, or nulls before the `done` line. */
export function ollamaEnd(line: OllamaEnd): Pick<FimChunk, "finish_reason" | "usage"> {
  return {
    finish_reason: line.done ? (line.done_reason ?? "stop") : null,
    // Ollama has a prompt cache but does not say how much of a prompt it served: no cache fields.
    usage:
      line.done && line.prompt_eval_count != null && line.eval_count != null
        ? usageOf(line.prompt_eval_count, line.eval_count)
        : undefined,
  };
}

function chunkOf(line: Generate): FimChunk {
  return { text: line.response, ...ollamaEnd(line), raw: line };
}

/**
 * Ollama's native API: `POST {base}/api/generate` with `prompt`, `suffix` and `options`; NDJSON lines ended by
 * `done: true`; errors `{"error": "…"}`, also as a line of a stream that already answered 200. A model that is not
 * pulled is 404 (`model-not-found`); one whose template has no suffix, 400 "does not support insert"
 * (`fim-unsupported`).
 */
export const ollama: Provider = {
  name: "ollama",
  ...PROVIDER_INFO.ollama,
  endpoint: "/api/generate",
  framing: "ndjson",
  streamType: "application/x-ndjson",
  streamEnd: "done: true",
  normalizeBaseURL: (url, name) =>
    normalizeProviderBaseURL(
      {
        endpoint: "/api/generate",
        bareHostPath: "",
        example: "http://127.0.0.1:11434",
        check(origin, path) {
          // Ollama's OpenAI-compatible API lives under /v1; its native one, which this provider speaks, does not.
          const api = /\/(v1|api)$/.exec(path);
          if (api) {
            throw new ValidationError(
              "baseURL",
              `${name} must be Ollama's address, not its /${api[1]} API: pass ${origin}${path.slice(0, api.index)}` +
                (api[1] === "v1" ? ' (or use provider "openai-compatible" with /v1)' : ""),
            );
          }
        },
      },
      url,
      name,
    ),
  body(request, streaming, { keepAlive }) {
    const stop = stopList(request.stop);
    const options = {
      num_predict: request.max_tokens ?? undefined,
      temperature: request.temperature ?? undefined,
      stop,
    };
    return {
      model: request.model,
      prompt: promptWithContext(request),
      suffix: request.suffix ?? undefined,
      stream: streaming,
      options,
      keep_alive: keepAlive,
    };
  },
  readResponse(text, { status, secret }) {
    const json = parseJson(text, "response body", secret);
    const body = checkBody(GenerateSchema, json, text, status, secret, "response body", ollama);
    return { ...chunkOf(body), model: body.model };
  },
  readStreamItem(data, { status, secret }) {
    const json = parseJson(data, "stream line", secret);
    const line = checkBody(GenerateSchema, json, data, status, secret, "stream line", ollama);
    return { item: chunkOf(line), done: line.done };
  },
  reason(status, message) {
    if (status === 404 && /not found/i.test(message)) return "model-not-found";
    if (status === 400 && /does not support (insert|generate)/i.test(message)) return "fim-unsupported";
    return undefined;
  },
};
