import * as z from "zod";
import type { ErrorSource } from "../errors.js";
import { checkBody, parseJson } from "../response-body.js";
import type { Usage } from "../schemas.js";
import type { StreamStep } from "../stream-decoder.js";
import type { FimChunk, FimCompletion, ReadContext } from "./provider.js";

// The shape of an OpenAI-style chat answer, which Codestral's FIM endpoint answers in too: the text at
// `choices[0].message.content`, in a stream at `choices[0].delta.content`. Lenient: only what is read is checked.

/** A message's content: a string, or a list of typed parts (Mistral's chat API); null when there is none. */
export const ChatContentSchema = z
  .union([z.string(), z.array(z.looseObject({ text: z.string().optional() }))])
  .nullish();

/** The text of a message's content: the string, or its parts' texts joined; `""` for none. */
export function chatText(content: z.infer<typeof ChatContentSchema>): string {
  if (content == null) return "";
  return typeof content === "string" ? content : content.map((part) => part.text ?? "").join("");
}

/** A whole chat answer, with the host's usage schema. */
export function chatResponseSchema<U extends z.ZodType>(usage: U) {
  return z.looseObject({
    model: z.string().optional(),
    choices: z.array(
      z.looseObject({
        message: z.looseObject({ content: ChatContentSchema }),
        finish_reason: z.string().nullish(),
      }),
    ),
    usage: usage.nullish(),
  });
}

/** One chunk of a streamed chat answer (the usage-only chunk has `choices: []`), with the host's usage schema. */
export function chatChunkSchema<U extends z.ZodType>(usage: U) {
  return z.looseObject({
    model: z.string().optional(),
    choices: z.array(
      z.looseObject({
        delta: z.looseObject({ content: ChatContentSchema }).nullish(),
        finish_reason: z.string().nullish(),
      }),
    ),
    usage: usage.nullish(),
  });
}

/** How a chat-shaped answer is read: the whole body, and each stream item (`[DONE]` ends the stream). */
export interface ChatReaders {
  readResponse(text: string, context: ReadContext): FimCompletion;
  readStreamItem(data: string, context: ReadContext): StreamStep<FimChunk>;
}

/**
 * The readers of a host's chat-shaped answers, given its usage schema and how its usage reads in the one shape;
 * errors name `source`.
 */
export function chatReaders<U extends z.ZodType>(
  usageSchema: U,
  usage: (value: z.infer<U> | null | undefined) => Usage | undefined,
  source: ErrorSource,
): ChatReaders {
  const responseSchema = chatResponseSchema(usageSchema);
  const chunkSchema = chatChunkSchema(usageSchema);
  return {
    readResponse(text, { status, secret }) {
      const json = parseJson(text, "response body", secret);
      const body = checkBody(responseSchema, json, text, status, secret, "response body", source);
      const choice = body.choices[0];
      return {
        text: chatText(choice?.message.content),
        finish_reason: choice?.finish_reason ?? null,
        usage: usage(body.usage as z.infer<U> | null | undefined),
        model: body.model,
        raw: body,
      };
    },
    readStreamItem(data, { status, secret }) {
      if (data === "[DONE]") return { item: undefined, done: true };
      const json = parseJson(data, "stream event", secret);
      const body = checkBody(chunkSchema, json, data, status, secret, "stream chunk", source);
      const choice = body.choices[0];
      const item: FimChunk = {
        text: chatText(choice?.delta?.content),
        finish_reason: choice?.finish_reason ?? null,
        usage: usage(body.usage as z.infer<U> | null | undefined),
        raw: body,
      };
      return { item, done: false };
    },
  };
}
