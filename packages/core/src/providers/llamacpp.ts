import * as z from "zod";
import { normalizeProviderBaseURL } from "../base-url.js";
import { apiErrorFromResponse, ValidationError } from "../errors.js";
import { checkBody, parseJson } from "../response-body.js";
import { type ContextSnippet, stopList } from "./fim-request.js";
import { PROVIDER_INFO } from "./info.js";
import { type FimChunk, type Provider, usageOf } from "./provider.js";

const TimingsSchema = z.looseObject({
  cache_n: z.number().nullish(),
  prompt_n: z.number().nullish(),
  predicted_n: z.number().nullish(),
});

// A stream event, and the whole body when not streaming: `stop: true` and the counts on the last.
const InfillSchema = z.looseObject({
  content: z.string(),
  stop: z.boolean().optional(),
  stop_type: z.string().nullish(),
  model: z.string().optional(),
  tokens_predicted: z.number().nullish(),
  tokens_evaluated: z.number().nullish(),
  timings: TimingsSchema.nullish(),
});

type Infill = z.infer<typeof InfillSchema>;

/** `eos` (end of sequence) and `word` (a stop string) are natural ends; `limit` is `n_predict`. */
function finishReason(body: Infill, last: boolean): string | null {
  if (!last) return null;
  switch (body.stop_type) {
    case "eos":
    case "word":
    case undefined:
    case null:
      return "stop";
    case "limit":
      return "length";
    default:
      return body.stop_type;
  }
}

/**
 * llama.cpp's counts in the one shape: `tokens_evaluated` prompt tokens (else `cache_n + prompt_n`),
 * `tokens_predicted` generated ones, and `timings.cache_n`, the prompt tokens its slot reused, as the cache hit
 * (servers before 2025 do not send it, and then there are no cache fields).
 */
function usage(body: Infill): ReturnType<typeof usageOf> | undefined {
  const timings = body.timings;
  const cached = timings?.cache_n != null && timings.cache_n >= 0 ? timings.cache_n : undefined;
  const prompt =
    body.tokens_evaluated ??
    (cached !== undefined && timings?.prompt_n != null ? cached + timings.prompt_n : undefined);
  const completion = body.tokens_predicted ?? timings?.predicted_n ?? undefined;
  if (prompt == null || completion == null) return undefined;
  return usageOf(prompt, completion, cached);
}

function chunkOf(body: Infill, last: boolean): FimChunk {
  return {
    text: body.content,
    finish_reason: finishReason(body, last),
    usage: last ? usage(body) : undefined,
    raw: body,
  };
}

/**
 * One `input_extra` chunk per file: the server names each chunk's file once (`<FIM_SEP>filename`), so a file's
 * neighbouring snippets go together, a blank line between them, as the prompt block lays them out.
 */
function fileChunks(snippets: readonly ContextSnippet[]): Array<{ filename: string; text: string }> {
  const chunks: Array<{ filename: string; text: string }> = [];
  for (const { path, text } of snippets) {
    const last = chunks.at(-1);
    if (last?.filename === path) last.text += `\n\n${text}`;
    else chunks.push({ filename: path, text });
  }
  return chunks;
}

/**
 * llama.cpp's server: `POST {base}/infill` with `input_prefix`, `input_suffix` and the repository context as
 * `input_extra` chunks, which the server lays out in the model's repo-level FIM format (`<FIM_REP>`, a
 * `<FIM_SEP>filename` per chunk) when the model has those tokens. The current file's path line still goes at the
 * start of `input_prefix`: the server names the current file only with a placeholder. `cache_prompt` lets the
 * slot reuse the common prefix of consecutive requests. SSE whose last event has `stop: true` (no `[DONE]`);
 * errors `{"error":{"code","message","type"}}`, 501 when the model has no FIM tokens (`fim-unsupported`).
 */
export const llamacpp: Provider = {
  name: "llamacpp",
  ...PROVIDER_INFO.llamacpp,
  endpoint: "/infill",
  framing: "sse",
  streamType: "text/event-stream",
  streamEnd: "stop: true",
  normalizeBaseURL: (url, name) =>
    normalizeProviderBaseURL(
      {
        endpoint: "/infill",
        bareHostPath: "",
        example: "http://127.0.0.1:8080",
        check(origin, path) {
          if (path.endsWith("/v1")) {
            throw new ValidationError(
              "baseURL",
              `${name} must be llama-server's address, not its /v1 API (which does not fill in the middle): ` +
                `pass ${origin}${path.slice(0, -3)}`,
            );
          }
        },
      },
      url,
      name,
    ),
  body(request, streaming) {
    const chunks = fileChunks(request.context?.snippets ?? []);
    return {
      model: request.model ?? undefined,
      input_prefix: (request.context?.pathLine ?? "") + request.prompt,
      input_suffix: request.suffix ?? "",
      input_extra: chunks.length === 0 ? undefined : chunks,
      n_predict: request.max_tokens ?? undefined,
      temperature: request.temperature ?? undefined,
      stop: stopList(request.stop),
      stream: streaming,
      cache_prompt: true,
    };
  },
  readResponse(text, { status, secret }) {
    const json = parseJson(text, "response body", secret);
    const body = checkBody(InfillSchema, json, text, status, secret, "response body", llamacpp);
    return { ...chunkOf(body, true), model: body.model };
  },
  readStreamItem(data, { status, secret }) {
    const json = parseJson(data, "stream event", secret);
    const body = checkBody(InfillSchema, json, data, status, secret, "stream event", llamacpp);
    const last = body.stop === true;
    return { item: chunkOf(body, last), done: last };
  },
  readErrorField(value, { secret }) {
    // `error: {"code":500,"message":…,"type":…}`: the status the server would have sent, had it not already.
    let code = 500;
    let body = JSON.stringify({ error: value });
    try {
      const parsed = JSON.parse(value) as { code?: unknown };
      if (typeof parsed.code === "number" && parsed.code >= 400 && parsed.code <= 599) code = parsed.code;
      body = `{"error":${value}}`;
    } catch {
      // Not JSON: the text is the message.
    }
    return apiErrorFromResponse(code, body, undefined, secret, undefined, llamacpp);
  },
  reason(status) {
    return status === 501 ? "fim-unsupported" : undefined;
  },
};
