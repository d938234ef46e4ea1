import { normalizeBaseURL } from "../base-url.js";
import { parseChunkData, parseCompletionBody } from "../response-body.js";
import type { Logprobs } from "../schemas.js";
import { promptWithContext } from "./fim-request.js";
import { PROVIDER_INFO } from "./info.js";
import type { Provider } from "./provider.js";

/**
 * DeepSeek's FIM Completion (Beta): `POST {base}/completions`, `choices[0].text`, SSE ended by `data: [DONE]`.
 * Streams ask for `stream_options.include_usage`, so the counts (with the prompt cache's hits) always arrive.
 * The response schemas are FimClient's, so both clients read DeepSeek alike.
 */
export const deepseek: Provider = {
  name: "deepseek",
  ...PROVIDER_INFO.deepseek,
  endpoint: "/completions",
  framing: "sse",
  streamType: "text/event-stream",
  streamEnd: "[DONE]",
  normalizeBaseURL,
  body(request, streaming) {
    // The order of DeepSeek's spec, as FimClient sends it.
    return {
      model: request.model,
      prompt: promptWithContext(request),
      logprobs: request.logprobs ?? undefined,
      max_tokens: request.max_tokens ?? undefined,
      stop: request.stop ?? undefined,
      stream: streaming || undefined,
      stream_options: streaming ? { include_usage: true } : undefined,
      suffix: request.suffix ?? undefined,
      temperature: request.temperature ?? undefined,
    };
  },
  readResponse(text, { status, secret }) {
    const response = parseCompletionBody(text, status, secret, deepseek);
    const choice = response.choices[0];
    const logprobs = sampled(choice?.logprobs);
    return {
      text: choice?.text ?? "",
      finish_reason: choice?.finish_reason ?? null,
      usage: response.usage,
      model: response.model,
      ...(logprobs ? { logprobs } : {}),
      raw: response,
    };
  },
  readStreamItem(data, { status, secret }) {
    if (data === "[DONE]") return { item: undefined, done: true };
    const chunk = parseChunkData(data, status, secret, deepseek);
    const choice = chunk.choices[0];
    const logprobs = sampled(choice?.logprobs);
    return {
      item: {
        text: choice?.text ?? "",
        finish_reason: choice?.finish_reason ?? null,
        usage: chunk.usage ?? undefined,
        ...(logprobs ? { logprobs } : {}),
        raw: chunk,
      },
      done: false,
    };
  },
};

/** The sampled tokens' log probabilities of a choice, without the nulls of echoed tokens; undefined for none. */
function sampled(logprobs: Logprobs | null | undefined): number[] | undefined {
  const values = logprobs?.token_logprobs.filter((value): value is number => value !== null);
  return values && values.length > 0 ? values : undefined;
}
