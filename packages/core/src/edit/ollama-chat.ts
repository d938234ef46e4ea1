import * as z from "zod";
import { ollama, ollamaEnd } from "../providers/ollama.js";
import { checkBody, parseJson } from "../response-body.js";
import type { EditChunk, EditWire } from "./edit-wire.js";

// One line of `/api/chat`'s stream, and the whole body when not streaming: `message.content` is the text, the last
// line has `done: true` and the counts.
const ChatLineSchema = z.looseObject({
  model: z.string().optional(),
  message: z.looseObject({ content: z.string().nullish() }).nullish(),
  done: z.boolean(),
  done_reason: z.string().nullish(),
  prompt_eval_count: z.number().nullish(),
  eval_count: z.number().nullish(),
});

type ChatLine = z.infer<typeof ChatLineSchema>;

function chunkOf(line: ChatLine): EditChunk {
  return { text: line.message?.content ?? "", ...ollamaEnd(line), raw: line };
}

/**
 * Ollama's native chat, `POST {base}/api/chat` (Continue's Instinct: `nate/instinct`): the model's chat template,
 * `options.num_predict/temperature/stop`, `keep_alive`; NDJSON lines ended by `done: true`; errors `{"error": "…"}`,
 * also as a line of a stream that already answered 200.
 */
export const ollamaChat: EditWire = {
  name: "ollama",
  shape: "chat",
  endpoint: "/api/chat",
  framing: "ndjson",
  streamType: "application/x-ndjson",
  streamEnd: "done: true",
  body: (request, streaming, { keepAlive }) => ({
    model: request.model,
    messages: request.messages,
    stream: streaming,
    options: { num_predict: request.max_tokens, temperature: request.temperature, stop: request.stop },
    keep_alive: keepAlive,
  }),
  readResponse(text, { status, secret }) {
    const json = parseJson(text, "response body", secret);
    const body = checkBody(ChatLineSchema, json, text, status, secret, "response body", ollama);
    return { ...chunkOf(body), model: body.model };
  },
  readStreamItem(data, { status, secret }) {
    const json = parseJson(data, "stream line", secret);
    const line = checkBody(ChatLineSchema, json, data, status, secret, "stream line", ollama);
    return { item: chunkOf(line), done: line.done };
  },
  reason: (status, message) => ollama.reason?.(status, message),
};
