import { z } from "zod";
import { apiErrorBody } from "../api-error.js";
import {
  DESERIALIZE,
  describe,
  integerIn,
  numberIn,
  STREAM_OPTIONS_ALONE,
  stopField,
  streamOptionsField,
  typeError,
} from "../deepseek-fields.js";
import { SYSTEM_FINGERPRINT, usageOf } from "../response.js";
import { tokenize } from "../tokenize.js";
import { ACCEPTED_MODELS, MAX_STOP_SEQUENCES } from "../validate.js";
import { type ChatStyle, chatBody, chatEvents, chatPrompt } from "./chat.js";
import type { Answer, ChatMessage, Parsed, Route } from "./dialect.js";
import { simRequest, stopList } from "./wire.js";

// DeepSeek's Chat Completions under the beta base, `POST /beta/chat/completions`, for Chat Prefix Completion: the
// last message may be the assistant's with `prefix: true`, and the answer continues it. Validated as DeepSeek
// does: a field of the wrong type is serde's 422, a value it refuses its own 400.

/** V4's output limit on chat, as DeepSeek's 400 states it ("the valid range of max_tokens is [1, 393216]"). */
export const CHAT_MAX_TOKENS_LIMIT = 393_216;

/** The chat guide DeepSeek's messages about prefix mode point to. */
const PREFIX_GUIDE = "https://api-docs.deepseek.com/guides/chat_prefix_completion";

const ROLES = ["system", "user", "assistant", "tool"] as const;

const roleError = (issue: { input?: unknown }): string =>
  typeof issue.input === "string"
    ? `${DESERIALIZE}messages: unknown variant \`${issue.input}\`, expected one of ${ROLES.map((r) => `\`${r}\``).join(", ")}`
    : typeError("messages.role", "a string")(issue);

const MessageSchema = z.object(
  {
    role: z.enum(ROLES, { error: roleError }),
    content: z.string({ error: typeError("messages.content", "a string") }).nullish(),
    prefix: z.boolean({ error: typeError("messages.prefix", "a boolean") }).nullish(),
  },
  { error: typeError("messages", "a map") },
);

const ChatRequestSchema = z.object({
  model: z.string({ error: typeError("model", "a string") }),
  messages: z.array(MessageSchema, { error: typeError("messages", "a sequence") }),
  frequency_penalty: numberIn("frequency_penalty", -2, 2),
  max_tokens: integerIn("max_tokens", 1, CHAT_MAX_TOKENS_LIMIT),
  presence_penalty: numberIn("presence_penalty", -2, 2),
  stop: stopField(MAX_STOP_SEQUENCES),
  stream: z.boolean({ error: typeError("stream", "a boolean") }).nullish(),
  stream_options: streamOptionsField(),
  temperature: numberIn("temperature", 0, 2),
  top_p: numberIn("top_p", 0, 1),
  thinking: z
    .object(
      {
        type: z.enum(["enabled", "disabled"], {
          error: (issue) =>
            typeof issue.input === "string"
              ? `${DESERIALIZE}thinking.type: unknown variant \`${issue.input}\`, expected \`enabled\` or \`disabled\``
              : typeError("thinking.type", "a string")(issue),
        }),
      },
      { error: typeError("thinking", "a map") },
    )
    .nullish(),
});

type ChatRequest = z.infer<typeof ChatRequestSchema>;

const refuse = (status: number, message: string): Parsed => ({
  ok: false,
  status,
  body: apiErrorBody(status, message),
});

/** What DeepSeek refuses in a request that deserialized: the model, the messages' order, prefix mode, the options. */
function refusal(request: ChatRequest, thinking: boolean): Parsed | undefined {
  if (!(ACCEPTED_MODELS as readonly string[]).includes(request.model)) return refuse(400, "Model Not Exist");
  const messages = request.messages;
  if (messages.length === 0) return refuse(400, "Invalid messages value, messages must not be empty");
  const last = messages.length - 1;
  for (const [k, message] of messages.entries()) {
    if (message.prefix !== true) continue;
    if (k !== last) {
      return refuse(400, `Only the last message can have prefix mode on (refer to ${PREFIX_GUIDE}).`);
    }
    if (message.role !== "assistant") {
      return refuse(400, `Prefix mode is only for an assistant message (refer to ${PREFIX_GUIDE}).`);
    }
  }
  const final = messages[last]!;
  if (thinking && final.role === "assistant" && final.prefix !== true) {
    return refuse(
      400,
      `The last message of ${request.model} must be a user message, or an assistant message with prefix mode on ` +
        `(refer to ${PREFIX_GUIDE}).`,
    );
  }
  if (request.stream_options != null && request.stream !== true) return refuse(400, STREAM_OPTIONS_ALONE);
  return undefined;
}

/** Reads a chat body as DeepSeek does: 400 for a body that is not an object, 422 for a field's type, 400 else. */
function parse(body: unknown): Parsed {
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    return refuse(400, `${DESERIALIZE}invalid type: ${describe(body)}, expected a JSON object`);
  }
  const parsed = ChatRequestSchema.safeParse(body);
  if (!parsed.success) {
    const message = parsed.error.issues[0]?.message ?? "Invalid Parameters";
    return refuse(message.startsWith(DESERIALIZE) ? 422 : 400, message);
  }
  const request = parsed.data;
  // V4 models think unless told not to.
  const thinking = request.thinking?.type !== "disabled";
  const refused = refusal(request, thinking);
  if (refused) return refused;
  const all: ChatMessage[] = request.messages.map((m) => ({ role: m.role, content: m.content ?? "" }));
  const final = request.messages.at(-1);
  const prefix = final?.prefix === true ? (final.content ?? "") : undefined;
  const messages = prefix === undefined ? all : all.slice(0, -1);
  return {
    ok: true,
    request: simRequest({
      model: request.model,
      prompt: chatPrompt(messages, prefix),
      maxTokens: request.max_tokens ?? CHAT_MAX_TOKENS_LIMIT,
      stop: stopList(request.stop),
      stream: request.stream === true,
      includeUsage: request.stream_options?.include_usage === true,
      temperature: request.temperature ?? 0,
      edit: { input: prefix === undefined ? { messages } : { messages, prefix }, thinking },
    }),
  };
}

/** DeepSeek's usage: the prompt cache's hit and miss, and the reasoning's tokens within the completion's. */
function chatUsage(answer: Answer) {
  const reasoning = tokenize(answer.reasoning).length;
  const usage = usageOf(
    answer.promptTokens,
    answer.cacheHitTokens ?? 0,
    answer.generation.tokens.length + reasoning,
  );
  usage.completion_tokens_details.reasoning_tokens = reasoning;
  return usage;
}

function style(answer: Answer): ChatStyle {
  return { id: answer.id, usage: chatUsage(answer), extra: { system_fingerprint: SYSTEM_FINGERPRINT } };
}

/**
 * `POST /beta/chat/completions`: models `deepseek-v4-flash` and `deepseek-v4-pro` (`deepseek-chat` is retired:
 * Model Not Exist), `prefix: true` only on the last message and only the assistant's, `thinking` enabled unless
 * `{type: "disabled"}` (then the answer reasons first: `reasoning_content`, counted in `reasoning_tokens`), the
 * text from the edit model after the prefix, `chat.completion` bodies and chunks with DeepSeek's usage (the prompt
 * cache's 64-token units), keep-alive lines while it waits, errors `{error: {message, type, param, code}}`.
 */
export const deepseekChat: Route = {
  endpoint: "/chat/completions",
  streamHeaders: { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache" },
  streamEnd: "data: [DONE]\n\n",
  keepAlive: { json: "\n", stream: ": keep-alive\n\n" },
  parse,
  body: (answer) => chatBody(answer, style(answer)),
  events: (answer) => chatEvents(answer, style(answer)),
  streamError: () => `data: ${JSON.stringify(apiErrorBody(500))}\n\n`,
};
