import * as z from "zod";
import { normalizeProviderBaseURL } from "../base-url.js";
import { checkBody, parseJson } from "../response-body.js";
import { chatChunkSchema, chatResponseSchema, chatText } from "./chat-shape.js";
import { openAIShapedBody } from "./fim-request.js";
import { PROVIDER_INFO } from "./info.js";
import { type FimChunk, type Provider, usageOf } from "./provider.js";

const MistralUsageSchema = z.looseObject({ prompt_tokens: z.number(), completion_tokens: z.number() });

const FimResponseSchema = chatResponseSchema(MistralUsageSchema);

const FimChunkSchema = chatChunkSchema(MistralUsageSchema);

function usage(value: z.infer<typeof MistralUsageSchema> | null | undefined) {
  return value == null ? undefined : usageOf(value.prompt_tokens, value.completion_tokens);
}

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
  readResponse(text, { status, secret }) {
    const json = parseJson(text, "response body", secret);
    const body = checkBody(FimResponseSchema, json, text, status, secret, "response body", codestral);
    const choice = body.choices[0];
    return {
      text: chatText(choice?.message.content),
      finish_reason: choice?.finish_reason ?? null,
      usage: usage(body.usage),
      model: body.model,
      raw: body,
    };
  },
  readStreamItem(data, { status, secret }) {
    if (data === "[DONE]") return { item: undefined, done: true };
    const json = parseJson(data, "stream event", secret);
    const body = checkBody(FimChunkSchema, json, data, status, secret, "stream chunk", codestral);
    const choice = body.choices[0];
    const item: FimChunk = {
      text: chatText(choice?.delta?.content),
      finish_reason: choice?.finish_reason ?? null,
      usage: usage(body.usage),
      raw: body,
    };
    return { item, done: false };
  },
  reason(status, message) {
    if (
      (status === 400 || status === 404) &&
      /model/i.test(message) &&
      /invalid|not found|no such/i.test(message)
    ) {
      return "model-not-found";
    }
    return undefined;
  },
};
