import { llamacpp } from "../providers/llamacpp.js";
import { ollama } from "../providers/ollama.js";
import { openaiCompatible } from "../providers/openai-compatible.js";
import type { Provider } from "../providers/provider.js";
import type { EditWire } from "./edit-wire.js";

// Raw next-edit prompts (Zeta, Sweep) go to a provider's plain completion endpoint, without a suffix. Those answer
// in the very shapes of the FIM endpoints beside them, so the FIM adapters' readers read them.

/** A raw wire that reads its responses, stream items and errors as `provider`'s FIM endpoint does. */
function rawWire(provider: Provider, endpoint: string, body: EditWire["body"]): EditWire {
  const { readErrorField, reason } = provider;
  return {
    name: provider.name,
    shape: "raw",
    endpoint,
    framing: provider.framing,
    streamType: provider.streamType,
    streamEnd: provider.streamEnd,
    body,
    readResponse: (text, context) => provider.readResponse(text, context),
    readStreamItem: (data, context) => provider.readStreamItem(data, context),
    ...(readErrorField ? { readErrorField: (value, context) => readErrorField(value, context) } : {}),
    ...(reason ? { reason: (status, message) => reason(status, message) } : {}),
  };
}

/**
 * OpenAI's legacy `POST {base}/completions` with `prompt` and no `suffix` (vLLM serving Zeta, any OpenAI-compatible
 * host). Streams ask for the usage chunk, as OpenAI requires for the counts.
 */
export const openaiCompatibleRaw = rawWire(openaiCompatible, "/completions", (request, streaming) => ({
  model: request.model,
  prompt: request.prompt,
  max_tokens: request.max_tokens,
  temperature: request.temperature,
  stop: request.stop,
  stream: streaming,
  stream_options: streaming ? { include_usage: true } : undefined,
}));

/** Ollama's `POST {base}/api/generate` with `raw: true`: the prompt as is, no template; NDJSON. */
export const ollamaRaw = rawWire(ollama, "/api/generate", (request, streaming, { keepAlive }) => ({
  model: request.model,
  prompt: request.prompt,
  raw: true,
  stream: streaming,
  options: { num_predict: request.max_tokens, temperature: request.temperature, stop: request.stop },
  keep_alive: keepAlive,
}));

/**
 * llama.cpp's `POST {base}/completion`: `prompt`, `n_predict`, `stop`, `cache_prompt: true` (the slot reuses the
 * prompt's unchanged start); SSE whose last event has `stop: true`.
 */
export const llamacppRaw = rawWire(llamacpp, "/completion", (request, streaming) => ({
  model: request.model,
  prompt: request.prompt,
  n_predict: request.max_tokens,
  temperature: request.temperature,
  stop: request.stop,
  stream: streaming,
  cache_prompt: true,
}));
