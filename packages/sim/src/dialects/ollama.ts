import { STATUS_CODES } from "node:http";
import { z } from "zod";
import { MAX_TOKENS_LIMIT } from "../validate.js";
import { chatPrompt } from "./chat.js";
import type { Answer, Dialect, Parsed, Route, StreamEvents } from "./dialect.js";
import { goKind, simRequest } from "./wire.js";

/**
 * The models this Ollama has pulled, and whether each one's template takes a suffix ("insert"). A name without a
 * tag means `:latest`, as in Ollama. `nate/instinct` is Continue's next-edit model (asked through `/api/chat`).
 */
export const OLLAMA_MODELS: Readonly<Record<string, { insert: boolean }>> = {
  "qwen2.5-coder:1.5b-base": { insert: true },
  "qwen2.5-coder:7b-base": { insert: true },
  "codellama:7b-code": { insert: true },
  "starcoder2:3b": { insert: true },
  "llama3.2:latest": { insert: false },
  "nate/instinct:latest": { insert: false },
};

// What Ollama's Go decoder says about a field of the wrong type.
const field = (struct: string, name: string, goType: string) => (issue: { input?: unknown }) =>
  `json: cannot unmarshal ${goKind(issue.input)} into Go struct field ${struct}.${name} of type ${goType}`;

/** The fields `/api/generate` and `/api/chat` share; `struct` names the Go request type in messages. */
function sharedFields(struct: string) {
  return {
    model: z.string({ error: field(struct, "model", "string") }).optional(),
    stream: z.boolean({ error: field(struct, "stream", "bool") }).nullish(),
    keep_alive: z
      .union([z.string(), z.number()], { error: field(struct, "keep_alive", "api.Duration") })
      .optional(),
    options: z
      .object(
        {
          num_predict: z.int({ error: 'option "num_predict" must be of type integer' }).optional(),
          temperature: z.number({ error: 'option "temperature" must be of type float' }).optional(),
          stop: z.array(z.string(), { error: 'option "stop" must be of type array of strings' }).optional(),
        },
        { error: field(struct, "options", "map[string]interface {}") },
      )
      .optional(),
  };
}

const schema = z.object({
  ...sharedFields("GenerateRequest"),
  prompt: z.string({ error: field("GenerateRequest", "prompt", "string") }).optional(),
  suffix: z.string({ error: field("GenerateRequest", "suffix", "string") }).optional(),
  raw: z.boolean({ error: field("GenerateRequest", "raw", "bool") }).optional(),
});

const chatSchema = z.object({
  ...sharedFields("ChatRequest"),
  messages: z
    .array(
      z.object({
        role: z.string({ error: field("Message", "role", "string") }),
        content: z.string({ error: field("Message", "content", "string") }).optional(),
      }),
      { error: field("ChatRequest", "messages", "[]api.Message") },
    )
    .optional(),
});

const error = (message: string) => ({ error: message });

const MESSAGES: Readonly<Record<number, string>> = {
  500: "an error was encountered while running the model",
  503: "server busy, please try again.  maximum pending requests exceeded",
};

function counts(answer: Answer) {
  const evalCount = answer.generation.tokens.length;
  return {
    // Durations in nanoseconds, as Ollama reports them; the simulator's are nominal.
    total_duration: 1_000_000 * (1 + evalCount),
    load_duration: 1_000_000,
    prompt_eval_count: answer.promptTokens,
    prompt_eval_duration: 1_000_000,
    eval_count: evalCount,
    eval_duration: 1_000_000 * evalCount,
  };
}

function createdAt(answer: Answer): string {
  return new Date(answer.created * 1000).toISOString();
}

/** How a route puts a piece of text in its lines: `response` (generate) or `message.content` (chat). */
type Piece = (text: string) => Record<string, unknown>;

const responsePiece: Piece = (text) => ({ response: text });
const messagePiece: Piece = (text) => ({ message: { role: "assistant", content: text } });

/** The whole body: one line with all the text, `done: true` and the counts. */
function wholeBody(answer: Answer, piece: Piece) {
  return {
    model: answer.model,
    created_at: createdAt(answer),
    ...piece(answer.generation.text),
    done: true,
    done_reason: answer.generation.finishReason,
    ...counts(answer),
  };
}

/** The NDJSON lines: one per token, then `done: true` with the counts. */
function lines(answer: Answer, piece: Piece): StreamEvents {
  const line = (value: unknown) => `${JSON.stringify(value)}\n`;
  const created_at = createdAt(answer);
  const events = answer.generation.tokens.map((token) =>
    line({ model: answer.model, created_at, ...piece(token), done: false }),
  );
  events.push(line({ ...wholeBody(answer, piece), ...piece("") }));
  return { events, trailing: 1 };
}

/** A body that is not a JSON object, in Go's words. */
function notAnObject(body: unknown, goType: string): Parsed | undefined {
  if (typeof body === "object" && body !== null && !Array.isArray(body)) return undefined;
  return {
    ok: false,
    status: 400,
    body: error(`json: cannot unmarshal ${goKind(body)} into Go value of type ${goType}`),
  };
}

/** The pulled model a request names: its entry, or the error Ollama answers (400 none named, 404 not pulled). */
function pulledModel(model: string | undefined): { insert: boolean } | Parsed {
  if (!model) return { ok: false, status: 400, body: error("model is required") };
  const entry = OLLAMA_MODELS[model.includes(":") ? model : `${model}:latest`];
  if (entry !== undefined) return entry;
  return {
    ok: false,
    status: 404,
    body: error(`model ${JSON.stringify(model)} not found, try pulling it first`),
  };
}

/** What a generate or chat request asks of the model, besides its text: the model, `options`, `stream`. */
function settingsOf(request: z.infer<typeof schema> | z.infer<typeof chatSchema>) {
  const numPredict = request.options?.num_predict;
  return {
    model: request.model as string,
    // -1 (Ollama's default) is "until the model stops"; the simulator's models stop within FIM's limit.
    maxTokens: numPredict === undefined || numPredict < 0 ? MAX_TOKENS_LIMIT : numPredict,
    stop: request.options?.stop ?? [],
    // Ollama streams unless told not to.
    stream: request.stream !== false,
  };
}

const streamError = () =>
  `${JSON.stringify(error("an error was encountered while running the model: unexpected EOF"))}\n`;

/** `POST /api/chat`: the model's chat (Continue's Instinct), the edit model's text at `message.content`. */
const chat: Route = {
  endpoint: "/api/chat",
  streamHeaders: { "content-type": "application/x-ndjson" },
  streamEnd: "",
  keepAlive: undefined,
  parse(body) {
    const invalid = notAnObject(body, "api.ChatRequest");
    if (invalid) return invalid;
    const parsed = chatSchema.safeParse(body);
    if (!parsed.success) {
      return { ok: false, status: 400, body: error(parsed.error.issues[0]?.message ?? "invalid request") };
    }
    const request = parsed.data;
    const model = pulledModel(request.model);
    if ("ok" in model) return model;
    const messages = (request.messages ?? []).map((m) => ({ role: m.role, content: m.content ?? "" }));
    return {
      ok: true,
      request: simRequest({
        ...settingsOf(request),
        prompt: chatPrompt(messages),
        edit: { input: { messages }, thinking: false },
      }),
    };
  },
  body: (answer) => wholeBody(answer, messagePiece),
  events: (answer) => lines(answer, messagePiece),
  streamError,
};

/**
 * Ollama's native `POST /api/generate`: pulled models only (404 otherwise), 400 "does not support insert" for a
 * suffix the model's template cannot take, NDJSON streaming by default (`done: true` on the last line, with the
 * counts), errors `{"error": "…"}`, also as a line of a stream that already answered 200. With `raw: true` the
 * prompt goes to the model as is (a next edit: the edit model's text); `POST /api/chat` serves chat.
 */
export const ollama: Dialect = {
  name: "ollama",
  basePath: "",
  endpoint: "/api/generate",
  requestIdHeader: "x-request-id",
  cache: "none",
  streamHeaders: { "content-type": "application/x-ndjson" },
  streamEnd: "",
  keepAlive: undefined,
  errorBody: (status, message) =>
    error(message ?? MESSAGES[status] ?? (STATUS_CODES[status] ?? "error").toLowerCase()),
  unauthorized: () => error("unauthorized"),
  invalidJson: () => ({ status: 400, body: error("invalid character looking for beginning of value") }),
  parse(body, fim) {
    const invalid = notAnObject(body, "api.GenerateRequest");
    if (invalid) return invalid;
    const parsed = schema.safeParse(body);
    if (!parsed.success) {
      return { ok: false, status: 400, body: error(parsed.error.issues[0]?.message ?? "invalid request") };
    }
    const request = parsed.data;
    const model = pulledModel(request.model);
    if ("ok" in model) return model;
    const raw = request.raw === true;
    // Raw mode skips the template, and with it the suffix.
    const suffix = raw ? "" : (request.suffix ?? "");
    if (suffix !== "" && !(model.insert && fim)) {
      return {
        ok: false,
        status: 400,
        body: error(`${JSON.stringify(request.model)} does not support insert`),
      };
    }
    const prompt = request.prompt ?? "";
    return {
      ok: true,
      request: simRequest({
        ...settingsOf(request),
        prompt,
        suffix,
        ...(raw ? { edit: { input: { prompt }, thinking: false } } : {}),
      }),
    };
  },
  body: (answer) => wholeBody(answer, responsePiece),
  events: (answer) => lines(answer, responsePiece),
  streamError,
  editRoutes: [chat],
};
