import * as z from "zod";
import { normalizeProviderBaseURL } from "../base-url.js";
import type { ErrorReason } from "../errors.js";
import { chatReaders } from "./chat-shape.js";
import { openAIShapedBody } from "./fim-request.js";
import { PROVIDER_INFO } from "./info.js";
import { type Provider, usageOf } from "./provider.js";

const MistralUsageSchema = z.looseObject({ prompt_tokens: z.number(), completion_tokens: z.number() });

function usage(value: z.infer<typeof MistralUsageSchema> | null | undefined) {
  return value == null ? undefined : usageOf(value.prompt_tokens, value.completion_tokens);
}

/** An unknown model: 400 `Invalid model: x` (Mistral), or a 404 saying so. */
function reason(status: number, message: string): ErrorReason | undefined {
  if (
    (status === 400 || status === 404) &&
    /model/i.test(message) &&
    /invalid|not found|no such/i.test(message)
  ) {
    return "model-not-found";
  }
  return undefined;
}

const readers = chatReaders(MistralUsageSchema, usage, { name: "codestral", reason });

/**
 * Mistral's Codestral FIM API: `POST {base}/fim/completions` (base `https://codestral.mistral.ai/v1`, or
 * `https://api.mistral.ai/v1` with a key from there: the two keys are not interchangeable). The text is at
 * `choices[0].message.content`, in a stream `choices[0].delta.content`; SSE ended by `[DONE]`; errors are
 * top-level `{"object":"error","message",…}` (a validation error's message is `{"detail":[…]}`).
 */
export const codestral: Provider = {
  name: "codestral",
  ...PROVIDER_INFO.codestral,
  endpoint: "/fim/completions",
  framing: "sse",
  streamType: "text/event-stream",
  streamEnd: "[DONE]",
  normalizeBaseURL: (url, name) =>
    normalizeProviderBaseURL(
      { endpoint: "/fim/completions", bareHostPath: "/v1", example: "https://codestral.mistral.ai/v1" },
      url,
      name,
    ),
  body: openAIShapedBody,
  ...readers,
  reason,
};
