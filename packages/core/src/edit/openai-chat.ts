import * as z from "zod";
import type { ErrorSource } from "../errors.js";
import { chatReaders } from "../providers/chat-shape.js";
import type { ProviderName } from "../providers/info.js";
import { llamacpp } from "../providers/llamacpp.js";
import { openaiCompatible } from "../providers/openai-compatible.js";
import { usageOf } from "../providers/provider.js";
import type { Usage } from "../schemas.js";
import type { CheckedEditRequest } from "./edit-request.js";
import type { EditWire } from "./edit-wire.js";

// OpenAI's Chat Completions as DeepSeek, OpenAI-compatible hosts and llama.cpp's server speak it, for chat-shaped
// next edits. Only what we read is checked: hosts differ in everything else (ids, fingerprints, reasoning).

const ChatUsageSchema = z.looseObject({
  prompt_tokens: z.number(),
  completion_tokens: z.number(),
  /** DeepSeek's cache hit. */
  prompt_cache_hit_tokens: z.number().nullish(),
  /** OpenAI's (and DeepSeek V4's) name for it. */
  prompt_tokens_details: z.looseObject({ cached_tokens: z.number().nullish() }).nullish(),
});

/** The one usage shape; the cache fields where the host says (DeepSeek's hit, else `cached_tokens`). */
function usage(value: z.infer<typeof ChatUsageSchema> | null | undefined): Usage | undefined {
  if (value == null) return undefined;
  const hit = value.prompt_cache_hit_tokens ?? value.prompt_tokens_details?.cached_tokens ?? undefined;
  return usageOf(value.prompt_tokens, value.completion_tokens, hit);
}

/** How one provider speaks Chat Completions. */
interface ChatDialect {
  readonly name: ProviderName;
  /** The path appended to the base URL. */
  readonly endpoint: string;
  /** The provider's error reasons, if it has any. */
  readonly source: ErrorSource;
  /** Fields the provider's body adds after the common ones. */
  readonly extra?: Record<string, unknown>;
}

/** The messages sent: the request's, then (DeepSeek) the forced start as an assistant message with `prefix: true`. */
function messagesOf(request: CheckedEditRequest): unknown[] {
  const messages: unknown[] = [...(request.messages ?? [])];
  if (request.prefix !== undefined)
    messages.push({ role: "assistant", content: request.prefix, prefix: true });
  return messages;
}

/** A Chat Completions wire: SSE ended by `data: [DONE]`; streams ask for the usage chunk. */
function chatWire(dialect: ChatDialect): EditWire {
  const source = dialect.source;
  const readers = chatReaders(ChatUsageSchema, usage, source);
  const wire: EditWire = {
    name: dialect.name,
    shape: "chat",
    endpoint: dialect.endpoint,
    framing: "sse",
    streamType: "text/event-stream",
    streamEnd: "[DONE]",
    body: (request, streaming) => ({
      model: request.model,
      messages: messagesOf(request),
      max_tokens: request.max_tokens,
      stop: request.stop,
      stream: streaming,
      stream_options: streaming ? { include_usage: true } : undefined,
      temperature: request.temperature,
      ...dialect.extra,
    }),
    ...readers,
  };
  if (source.reason) {
    const reason = source.reason;
    wire.reason = (status, message) => reason(status, message);
  }
  return wire;
}

/**
 * DeepSeek's Chat Prefix Completion (Beta), `POST {base}/chat/completions` under the `/beta` base: the answer
 * continues the last assistant message (`prefix: true`), thinking disabled (a next edit wants its first token
 * soon, and no reasoning tokens billed). Usage has the prompt cache's hits.
 */
export const deepseekChat = chatWire({
  name: "deepseek",
  endpoint: "/chat/completions",
  source: { name: "deepseek" },
  extra: { thinking: { type: "disabled" } },
});

/** An OpenAI-compatible host's `POST {base}/chat/completions` (vLLM, LM Studio, Ollama's `/v1`). */
export const openaiCompatibleChat = chatWire({
  name: "openai-compatible",
  endpoint: "/chat/completions",
  source: openaiCompatible,
});

/** llama.cpp's server, `POST {base}/v1/chat/completions` (the model's own chat template). */
export const llamacppChat: EditWire = {
  ...chatWire({ name: "llamacpp", endpoint: "/v1/chat/completions", source: llamacpp }),
  // Its SSE may carry an `error:` field (servers before 2025), as on `/completion`.
  readErrorField: (value, context) => llamacpp.readErrorField!(value, context),
};
