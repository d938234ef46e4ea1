import { z } from "zod";
import { tokenize } from "../tokenize.js";
import { MAX_STOP_SEQUENCES } from "../validate.js";
import type { Answer, ChatMessage, SimCompletionRequest, StreamEvents } from "./dialect.js";
import { firstIssue, simRequest, sse, stopList } from "./wire.js";

// OpenAI's Chat Completions as the simulator answers it on every chat route (DeepSeek's, an OpenAI-compatible
// host's, llama.cpp's `/v1/chat/completions`): the request read, the text its tokens are counted on,
// `chat.completion` bodies and `chat.completion.chunk` streams. Each dialect adds its own ids, usage, fields and
// error bodies.

// A message's content: a string, or a list of typed parts whose texts join; null for an assistant's tool call.
const ContentSchema = z
  .union([z.string(), z.array(z.object({ type: z.string(), text: z.string().optional() }))], {
    error: "must be a string or an array of content parts",
  })
  .nullish();

const OpenAIChatSchema = z.object({
  model: z.string({ error: "must be a string" }).min(1).optional(),
  messages: z
    .array(
      z.object({
        role: z.enum(["system", "developer", "user", "assistant", "tool"], {
          error: "must be one of system, developer, user, assistant, tool",
        }),
        content: ContentSchema,
      }),
      { error: "must be an array" },
    )
    .min(1, { error: "must contain at least one message" }),
  max_tokens: z.int({ error: "must be an integer" }).min(1).nullish(),
  max_completion_tokens: z.int({ error: "must be an integer" }).min(1).nullish(),
  temperature: z.number({ error: "must be a number" }).min(0).max(2).nullish(),
  stop: z
    .union([z.string(), z.array(z.string()).max(MAX_STOP_SEQUENCES)], {
      error: `must be a string or an array of at most ${MAX_STOP_SEQUENCES} strings`,
    })
    .nullish(),
  stream: z.boolean({ error: "must be a boolean" }).nullish(),
  stream_options: z.object({ include_usage: z.boolean().nullish() }).nullish(),
});

/** The text of a message's content. */
export function contentText(content: z.infer<typeof ContentSchema>): string {
  if (content == null) return "";
  return typeof content === "string" ? content : content.map((part) => part.text ?? "").join("");
}

/** An OpenAI Chat Completions body as a next-edit request, or the field at fault and what is wrong with it. */
export type ChatRead =
  | { ok: true; request: SimCompletionRequest }
  | { ok: false; field: string; message: string };

/**
 * Reads an OpenAI Chat Completions body (an OpenAI-compatible host's, llama.cpp's): the messages go to the edit
 * model, their rendering ({@link chatPrompt}) is what the prompt tokens are counted on.
 *
 * @param defaultModel the model a body without one is answered as; undefined when a body must name one.
 * @param defaultMaxTokens tokens at most when the body names no limit.
 */
export function readOpenAIChat(
  body: unknown,
  defaultModel: string | undefined,
  defaultMaxTokens: number,
): ChatRead {
  const parsed = OpenAIChatSchema.safeParse(body);
  if (!parsed.success) return { ok: false, ...firstIssue(parsed.error) };
  const request = parsed.data;
  const model = request.model ?? defaultModel;
  if (model === undefined)
    return { ok: false, field: "model", message: "you must provide a model parameter" };
  const messages = request.messages.map((m) => ({ role: m.role, content: contentText(m.content) }));
  return {
    ok: true,
    request: simRequest({
      model,
      prompt: chatPrompt(messages),
      maxTokens: request.max_completion_tokens ?? request.max_tokens ?? defaultMaxTokens,
      stop: stopList(request.stop),
      stream: request.stream === true,
      includeUsage: request.stream_options?.include_usage === true,
      temperature: request.temperature ?? 0,
      edit: { input: { messages }, thinking: false },
    }),
  };
}

/**
 * The text a chat's prompt tokens are counted on (and DeepSeek's cache is keyed by): each message under its role,
 * then the assistant's turn with its forced start. A stand-in for a model's chat template: the same conversation
 * always gives the same text, and a conversation that only grows keeps its start.
 */
export function chatPrompt(messages: readonly ChatMessage[], prefix = ""): string {
  let text = "";
  for (const message of messages) text += `<|${message.role}|>\n${message.content}\n`;
  return `${text}<|assistant|>\n${prefix}`;
}

/** How one host words its chat answers. */
export interface ChatStyle {
  /** The answer's id (`chatcmpl-…`, DeepSeek's UUID). */
  id: string;
  /** Its `usage` object. */
  usage: unknown;
  /** Fields after `model` in every body and chunk (DeepSeek's `system_fingerprint`). */
  extra?: Record<string, unknown>;
}

function head(answer: Answer, style: ChatStyle, object: string) {
  return { id: style.id, object, created: answer.created, model: answer.model, ...style.extra };
}

/** A `chat.completion` body: the text at `choices[0].message.content`, the reasoning beside it when there is any. */
export function chatBody(answer: Answer, style: ChatStyle): unknown {
  const message: Record<string, unknown> = { role: "assistant", content: answer.generation.text };
  if (answer.reasoning !== "") message.reasoning_content = answer.reasoning;
  return {
    ...head(answer, style, "chat.completion"),
    choices: [{ index: 0, message, logprobs: null, finish_reason: answer.generation.finishReason }],
    usage: style.usage,
  };
}

/**
 * The `chat.completion.chunk` events of a streamed answer: the role with empty content first, one chunk per token
 * of reasoning (`delta.reasoning_content`) then of text (`delta.content`), `finish_reason` on the last; with
 * `includeUsage`, `usage: null` on all of them and one more chunk with `choices: []` and the usage.
 */
export function chatEvents(answer: Answer, style: ChatStyle): StreamEvents {
  const top = head(answer, style, "chat.completion.chunk");
  const usage = answer.includeUsage ? { usage: null } : {};
  const chunk = (delta: Record<string, unknown>, finish: string | null) =>
    sse({ ...top, choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }], ...usage });
  const events = [chunk({ role: "assistant", content: "" }, null)];
  for (const token of tokenize(answer.reasoning)) events.push(chunk({ reasoning_content: token }, null));
  const tokens = answer.generation.tokens;
  const reason = answer.generation.finishReason;
  if (tokens.length === 0) events.push(chunk({ content: "" }, reason));
  tokens.forEach((token, k) => {
    events.push(chunk({ content: token }, k === tokens.length - 1 ? reason : null));
  });
  if (!answer.includeUsage) return { events, trailing: 0 };
  events.push(sse({ ...top, choices: [], usage: style.usage }));
  return { events, trailing: 1 };
}
