import { STATUS_CODES } from "node:http";
import { z } from "zod";
import { MAX_TOKENS_LIMIT } from "../validate.js";
import type { Answer, Dialect } from "./dialect.js";
import { goKind } from "./wire.js";

/**
 * The models this Ollama has pulled, and whether each one's template takes a suffix ("insert"). A name without a
 * tag means `:latest`, as in Ollama.
 */
export const OLLAMA_MODELS: Readonly<Record<string, { insert: boolean }>> = {
  "qwen2.5-coder:1.5b-base": { insert: true },
  "qwen2.5-coder:7b-base": { insert: true },
  "codellama:7b-code": { insert: true },
  "starcoder2:3b": { insert: true },
  "llama3.2:latest": { insert: false },
};

// What Ollama's Go decoder says about a field of the wrong type.
const field = (name: string, goType: string) => (issue: { input?: unknown }) =>
  `json: cannot unmarshal ${goKind(issue.input)} into Go struct field GenerateRequest.${name} of type ${goType}`;

const schema = z.object({
  model: z.string({ error: field("model", "string") }).optional(),
  prompt: z.string({ error: field("prompt", "string") }).optional(),
  suffix: z.string({ error: field("suffix", "string") }).optional(),
  stream: z.boolean({ error: field("stream", "bool") }).nullish(),
  raw: z.boolean({ error: field("raw", "bool") }).optional(),
  keep_alive: z.union([z.string(), z.number()], { error: field("keep_alive", "api.Duration") }).optional(),
  options: z
    .object(
      {
        num_predict: z.int({ error: 'option "num_predict" must be of type integer' }).optional(),
        temperature: z.number({ error: 'option "temperature" must be of type float' }).optional(),
        stop: z.array(z.string(), { error: 'option "stop" must be of type array of strings' }).optional(),
      },
      { error: field("options", "map[string]interface {}") },
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

/**
 * Ollama's native `POST /api/generate`: pulled models only (404 otherwise), 400 "does not support insert" for a
 * suffix the model's template cannot take, NDJSON streaming by default (`done: true` on the last line, with the
 * counts), errors `{"error": "…"}`, also as a line of a stream that already answered 200.
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
    if (typeof body !== "object" || body === null || Array.isArray(body)) {
      return {
        ok: false,
        status: 400,
        body: error(`json: cannot unmarshal ${goKind(body)} into Go value of type api.GenerateRequest`),
      };
    }
    const parsed = schema.safeParse(body);
    if (!parsed.success) {
      return { ok: false, status: 400, body: error(parsed.error.issues[0]?.message ?? "invalid request") };
    }
    const request = parsed.data;
    if (!request.model) return { ok: false, status: 400, body: error("model is required") };
    const name = request.model.includes(":") ? request.model : `${request.model}:latest`;
    const model = OLLAMA_MODELS[name];
    if (model === undefined) {
      return {
        ok: false,
        status: 404,
        body: error(`model ${JSON.stringify(request.model)} not found, try pulling it first`),
      };
    }
    const suffix = request.suffix ?? "";
    if (suffix !== "" && !(model.insert && fim)) {
      return {
        ok: false,
        status: 400,
        body: error(`${JSON.stringify(request.model)} does not support insert`),
      };
    }
    const numPredict = request.options?.num_predict;
    return {
      ok: true,
      request: {
        model: request.model,
        prompt: request.prompt ?? "",
        suffix,
        // -1 (Ollama's default) is "until the model stops"; the simulator's model stops within FIM's limit.
        maxTokens: numPredict === undefined || numPredict < 0 ? MAX_TOKENS_LIMIT : numPredict,
        stop: request.options?.stop ?? [],
        stream: request.stream !== false,
        includeUsage: false,
        echo: false,
        logprobs: null,
        temperature: 0,
      },
    };
  },
  body: (answer) => ({
    model: answer.model,
    created_at: createdAt(answer),
    response: answer.generation.text,
    done: true,
    done_reason: answer.generation.finishReason,
    ...counts(answer),
  }),
  events(answer) {
    const line = (value: unknown) => `${JSON.stringify(value)}\n`;
    const created_at = createdAt(answer);
    const events = answer.generation.tokens.map((token) =>
      line({ model: answer.model, created_at, response: token, done: false }),
    );
    events.push(
      line({
        model: answer.model,
        created_at,
        response: "",
        done: true,
        done_reason: answer.generation.finishReason,
        ...counts(answer),
      }),
    );
    return { events, trailing: 1 };
  },
  streamError: () =>
    `${JSON.stringify(error("an error was encountered while running the model: unexpected EOF"))}\n`,
};
