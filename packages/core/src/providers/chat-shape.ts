import * as z from "zod";

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
