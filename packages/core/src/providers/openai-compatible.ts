import * as z from "zod";
import { normalizeProviderBaseURL } from "../base-url.js";
import { checkBody, parseJson } from "../response-body.js";
import type { Usage } from "../schemas.js";
import { openAIShapedBody } from "./fim-request.js";
import { PROVIDER_INFO } from "./info.js";
import { type FimChunk, type Provider, usageOf } from "./provider.js";

// Only what we read is checked: hosts differ in everything else (ids, fingerprints, logprobs).
const OpenAIUsageSchema = z.looseObject({
  prompt_tokens: z.number(),
  completion_tokens: z.number(),
  prompt_tokens_details: z.looseObject({ cached_tokens: z.number().nullish() }).nullish(),
});

const TextCompletionSchema = z.looseObject({
  model: z.string().optional(),
  choices: z.array(z.looseObject({ text: z.string(), finish_reason: z.string().nullish() })),
  usage: OpenAIUsageSchema.nullish(),
});

type TextCompletion = z.infer<typeof TextCompletionSchema>;

/** OpenAI's usage in the one shape; `prompt_tokens_details.cached_tokens` is the cache hit where a host says. */
function usage(value: TextCompletion["usage"]): Usage | undefined {
  if (value == null) return undefined;
  const cached = value.prompt_tokens_details?.cached_tokens;
  return usageOf(value.prompt_tokens, value.completion_tokens, cached ?? undefined);
}

function chunkOf(body: TextCompletion): FimChunk {
  const choice = body.choices[0];
  return {
    text: choice?.text ?? "",
    finish_reason: choice?.finish_reason ?? null,
    usage: usage(body.usage),
    raw: body,
  };
}

/**
 * Any host that serves OpenAI's legacy `POST {base}/completions` and honours `suffix` (SiliconFlow, Ollama's
 * `/v1`, DeepSeek itself). Streams ask for `stream_options.include_usage`, as OpenAI requires for the counts. No
 * default base, model or key: the user names them (`apiKeyEnv` for the key). Hosts
 * that refuse `suffix` (vLLM, llama.cpp's `/v1`) cannot fill in the middle: that is `fim-unsupported`.
 */
export const openaiCompatible: Provider = {
  name: "openai-compatible",
  ...PROVIDER_INFO["openai-compatible"],
  endpoint: "/completions",
  framing: "sse",
  streamType: "text/event-stream",
  streamEnd: "[DONE]",
  normalizeBaseURL: (url, name) =>
    normalizeProviderBaseURL(
      { endpoint: "/completions", bareHostPath: "/v1", example: "https://api.siliconflow.cn/v1" },
      url,
      name,
    ),
  body(request, streaming) {
    // The counts come on a last `choices: []` chunk only when asked for (OpenAI's rule, which hosts follow).
    const body = openAIShapedBody(request, streaming);
    return streaming ? { ...body, stream_options: { include_usage: true } } : body;
  },
  readResponse(text, { status, secret }) {
    const json = parseJson(text, "response body", secret);
    const body = checkBody(
      TextCompletionSchema,
      json,
      text,
      status,
      secret,
      "response body",
      openaiCompatible,
    );
    return { ...chunkOf(body), model: body.model };
  },
  readStreamItem(data, { status, secret }) {
    if (data === "[DONE]") return { item: undefined, done: true };
    const json = parseJson(data, "stream event", secret);
    const body = checkBody(
      TextCompletionSchema,
      json,
      data,
      status,
      secret,
      "stream chunk",
      openaiCompatible,
    );
    return { item: chunkOf(body), done: false };
  },
  reason(status, message) {
    if ((status === 400 || status === 422) && /suffix|does not support insert/i.test(message)) {
      return "fim-unsupported";
    }
    if (status === 404 && /model/i.test(message)) return "model-not-found";
    return undefined;
  },
};
