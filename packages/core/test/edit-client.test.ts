// EditClient against @infill/sim's next-edit routes, over real HTTP, for every provider and shape: what is sent,
// what is read, the usage, the errors, abort, retries, and the checks made before any I/O. The sim's edit model is
// stubbed: these tests are about the wire, not the model.
import { inspect } from "node:util";
import type { DialectName, Sim, SimOptions } from "@infill/sim";
import { beforeEach, describe, expect, it, vi } from "vitest";
import {
  AbortError,
  AuthenticationError,
  ConnectionError,
  type EditChunk,
  EditClient,
  type EditRequest,
  InternalServerError,
  NotFoundError,
  type ProviderClientOptions,
  type ProviderName,
  TimeoutError,
  ValidationError,
} from "../src/index.js";
import { rejection, within } from "./support/local-server.js";
import { drain, trackedSim } from "./support/sims.js";

const model = vi.hoisted(() => ({
  answer: "  return sum;\n}\n<|editable_region_end|>\nnot this",
  answerEdit: vi.fn((_input: unknown): string => ""),
}));
vi.mock("../../sim/src/next-edit/answer-edit.js", () => ({ answerEdit: model.answerEdit }));

beforeEach(() => {
  model.answerEdit.mockReset();
  model.answerEdit.mockImplementation(() => model.answer);
});

const STOP = "<|editable_region_end|>";
/** The model's text once the stop sequence cuts it. */
const CUT = "  return sum;\n}\n";
const START = "<|editable_region_start|>\n";
const MESSAGES = [
  { role: "system" as const, content: "You predict the user's next edit." },
  { role: "user" as const, content: "### User Edits:\nrenamed total to sum\n### User Excerpt:\n…" },
];
const PROMPT = `### Instruction:\nrewrite the region\n### Response:\n${START}`;

interface Case {
  provider: ProviderName;
  dialect: DialectName;
  shape: "raw" | "chat";
  /** The model named, when the provider needs one. */
  model: string | undefined;
  key: string | undefined;
  /** The path the sim sees the request on. */
  path: string;
  /** The body the provider gets for the request below (not streaming). */
  body: Record<string, unknown>;
  /** What ends its stream, as ConnectionError's message names it. */
  end: string;
  /** Whether its usage carries the prompt cache. */
  cache: boolean;
}

const chatBody = { messages: MESSAGES, max_tokens: 256, stop: [STOP], stream: false };

const CASES: Case[] = [
  {
    provider: "deepseek",
    dialect: "deepseek",
    shape: "chat",
    model: undefined, // deepseek-v4-flash, the client's default
    key: "sk-deepseek-0123456789",
    path: "/beta/chat/completions",
    body: {
      model: "deepseek-v4-flash",
      messages: [...MESSAGES, { role: "assistant", content: START, prefix: true }],
      max_tokens: 256,
      stop: [STOP],
      stream: false,
      thinking: { type: "disabled" },
    },
    end: "[DONE]",
    cache: true,
  },
  {
    provider: "openai-compatible",
    dialect: "openai-compatible",
    shape: "raw",
    model: "zed-industries/zeta",
    key: "sk-host-0123456789",
    path: "/v1/completions",
    body: { model: "zed-industries/zeta", prompt: PROMPT, max_tokens: 256, stop: [STOP], stream: false },
    end: "[DONE]",
    cache: false,
  },
  {
    provider: "openai-compatible",
    dialect: "openai-compatible",
    shape: "chat",
    model: "zed-industries/zeta",
    key: "sk-host-0123456789",
    path: "/v1/chat/completions",
    body: { model: "zed-industries/zeta", ...chatBody },
    end: "[DONE]",
    cache: false,
  },
  {
    provider: "ollama",
    dialect: "ollama",
    shape: "raw",
    model: "qwen2.5-coder:7b-base",
    key: undefined,
    path: "/api/generate",
    body: {
      model: "qwen2.5-coder:7b-base",
      prompt: PROMPT,
      raw: true,
      stream: false,
      options: { num_predict: 256, stop: [STOP] },
      keep_alive: "30m",
    },
    end: "done: true",
    cache: false,
  },
  {
    provider: "ollama",
    dialect: "ollama",
    shape: "chat",
    model: "nate/instinct",
    key: undefined,
    path: "/api/chat",
    body: {
      model: "nate/instinct",
      messages: MESSAGES,
      stream: false,
      options: { num_predict: 256, stop: [STOP] },
      keep_alive: "30m",
    },
    end: "done: true",
    cache: false,
  },
  {
    provider: "llamacpp",
    dialect: "llamacpp",
    shape: "raw",
    model: undefined,
    key: undefined,
    path: "/completion",
    body: { prompt: PROMPT, n_predict: 256, stop: [STOP], stream: false, cache_prompt: true },
    end: "stop: true",
    cache: true,
  },
  {
    provider: "llamacpp",
    dialect: "llamacpp",
    shape: "chat",
    model: undefined,
    key: undefined,
    path: "/v1/chat/completions",
    body: chatBody,
    end: "[DONE]",
    cache: true,
  },
];

async function setup(
  c: Case,
  simOptions: SimOptions = {},
  clientOptions: ProviderClientOptions = {},
): Promise<{ sim: Sim; client: EditClient; request: EditRequest }> {
  const sim = await trackedSim({ dialect: c.dialect, ...(c.key ? { apiKey: c.key } : {}), ...simOptions });
  const client = new EditClient({
    provider: c.provider,
    baseURL: sim.url,
    apiKey: c.key ?? "",
    ...clientOptions,
  });
  const request: EditRequest =
    c.shape === "raw"
      ? { prompt: PROMPT, max_tokens: 256, stop: [STOP] }
      : { messages: MESSAGES, max_tokens: 256, stop: [STOP] };
  if (c.provider === "deepseek") request.prefix = START;
  if (c.model) request.model = c.model;
  return { sim, client, request };
}

describe.each(CASES)("$provider $shape → $path", (c) => {
  it("sends the provider's body to its route and reads the model's text, finish reason and usage", async () => {
    const { sim, client, request } = await setup(c);
    const completion = await client.complete(request);
    expect(sim.requests.map((r) => [r.path, r.status])).toEqual([[c.path, 200]]);
    expect(sim.requests[0]?.body).toEqual(c.body);
    expect(completion.text).toBe(CUT);
    expect(completion.finish_reason).toBe("stop");
    const usage = completion.usage;
    expect(usage?.prompt_tokens).toBeGreaterThan(0);
    expect(usage?.completion_tokens).toBeGreaterThan(0);
    expect(usage?.total_tokens).toBe((usage?.prompt_tokens ?? 0) + (usage?.completion_tokens ?? 0));
    expect(usage?.prompt_cache_hit_tokens !== undefined).toBe(c.cache);
    expect(completion.raw).toBeTypeOf("object");
    // What the model was asked: DeepSeek's prefix apart from the messages it follows.
    const input = c.shape === "raw" ? { prompt: PROMPT } : { messages: MESSAGES };
    expect(model.answerEdit.mock.calls).toEqual([
      [c.provider === "deepseek" ? { ...input, prefix: START } : input],
    ]);
  });

  it("streams the same text; the counts and the finish reason come once, at the end", async () => {
    const { sim, client, request } = await setup(c);
    const chunks = await drain(client.stream(request));
    expect(chunks.map((chunk) => chunk.text).join("")).toBe(CUT);
    const counted = chunks.filter((chunk) => chunk.usage !== undefined);
    expect(counted).toHaveLength(1);
    expect(counted[0]?.usage?.completion_tokens).toBeGreaterThan(0);
    expect(
      chunks.filter((chunk) => chunk.finish_reason !== null).map((chunk) => chunk.finish_reason),
    ).toEqual(["stop"]);
    expect(sim.requests[0]?.body).toMatchObject({ stream: true });
    if (c.end === "[DONE]") {
      expect(sim.requests[0]?.body).toMatchObject({ stream_options: { include_usage: true } });
    }
  });

  it("a stream cut before its end throws ConnectionError after what arrived", async () => {
    const { client, request } = await setup(c, { faults: [{ type: "cut", afterChunks: 2 }] });
    const received: EditChunk[] = [];
    const error = await rejection(async () => {
      for await (const chunk of client.stream(request)) received.push(chunk);
    });
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error.message.startsWith(`stream ended before ${c.end} (after 2 chunks)`)).toBe(true);
    expect(received).toHaveLength(2);
  });

  it("500 is InternalServerError naming the provider; 503 with Retry-After is retried", async () => {
    const { sim, client, request } = await setup(
      c,
      { faults: [{ type: "status", status: 500 }] },
      { maxRetries: 0 },
    );
    const error = await rejection(() => client.complete(request));
    expect(error).toBeInstanceOf(InternalServerError);
    expect((error as InternalServerError).provider).toBe(c.provider);
    sim.inject({ type: "status", status: 503, retryAfter: "0" });
    const retrying = new EditClient({ provider: c.provider, baseURL: sim.url, apiKey: c.key ?? "" });
    expect((await retrying.complete(request)).text).toBe(CUT);
    expect(sim.requests.map((r) => r.status)).toEqual([500, 503, 200]);
  });

  it("an abort mid-stream rejects at once and closes the connection", async () => {
    const { sim, client, request } = await setup(c, { tokenMs: 200 });
    const controller = new AbortController();
    const received: EditChunk[] = [];
    const error = await rejection(async () => {
      for await (const chunk of client.stream(request, { signal: controller.signal })) {
        received.push(chunk);
        controller.abort();
      }
    });
    expect(error).toBeInstanceOf(AbortError);
    expect(received).toHaveLength(1);
    await within(sim.requests[0]?.closed ?? Promise.reject(new Error("no request")), 5_000, "close");
    expect(sim.requests[0]?.aborted).toBe(true);
  });

  it("timeoutMs bounds the call: TimeoutError", async () => {
    const { client, request } = await setup(c, { latencyMs: 60_000 }, { timeoutMs: 50 });
    expect(await rejection(() => client.complete(request))).toBeInstanceOf(TimeoutError);
  });

  it("never shows the key: not in errors, nor in the client", async () => {
    const secret = "sk-secret-leak-check-7777";
    const sim = await trackedSim({ dialect: c.dialect, apiKey: "the-right-one" });
    const { request } = await setup(c);
    const client = new EditClient({ provider: c.provider, baseURL: sim.url, apiKey: secret, maxRetries: 0 });
    const error = await rejection(() => client.complete(request));
    expect(error).toBeInstanceOf(AuthenticationError);
    for (const view of [
      String(error),
      JSON.stringify(error),
      inspect(error, { depth: 20, showHidden: true }),
    ]) {
      expect(view).not.toContain(secret);
    }
    expect(inspect(client, { depth: 20, showHidden: true })).not.toContain(secret);
    expect(sim.requests[0]?.headers.authorization).toBe(`Bearer ${secret}`);
  });

  it("refuses a bad request before any I/O, naming the field", async () => {
    const { sim, client, request } = await setup(c);
    const unknown = await rejection(() => client.complete({ ...request, suffix: "x" } as EditRequest));
    expect((unknown as ValidationError).field).toBe("suffix");
    const bound = await rejection(() => drain(client.stream({ ...request, max_tokens: 0 })));
    expect((bound as ValidationError).field).toBe("max_tokens");
    expect(() => client.check({ ...request, temperature: 3 })).toThrow(ValidationError);
    expect(sim.requests).toHaveLength(0);
  });
});

describe("checked before any I/O", () => {
  const deepseek = () => new EditClient({ apiKey: "sk-x", baseURL: "http://127.0.0.1:9/beta" });
  const ollama = () => new EditClient({ provider: "ollama", baseURL: "http://127.0.0.1:9" });

  it.each<[string, () => EditClient, unknown, string, RegExp]>([
    ["prompt and messages", ollama, { model: "m", prompt: "x", messages: MESSAGES }, "messages", /not both/],
    ["neither prompt nor messages", ollama, { model: "m" }, "prompt", /prompt is required unless messages/],
    ["prefix without messages", ollama, { model: "m", prompt: "x", prefix: "y" }, "prefix", /only for chat/],
    ["no message", deepseek, { messages: [] }, "messages", /at least one message/],
    [
      "a role that is not one of three",
      deepseek,
      { messages: [{ role: "tool", content: "x" }] },
      "messages[0].role",
      /"system", "user" or "assistant"/,
    ],
    [
      "content not a string",
      deepseek,
      { messages: [{ role: "user", content: 1 }] },
      "messages[0].content",
      /string/,
    ],
    [
      "a message with another field",
      deepseek,
      { messages: [{ role: "user", content: "x", name: "n" }] },
      "messages[0].name",
      /unknown field/,
    ],
    [
      "max_tokens over 8192",
      deepseek,
      { messages: MESSAGES, max_tokens: 8193 },
      "max_tokens",
      /between 1 and 8192/,
    ],
    ["max_tokens not an integer", deepseek, { messages: MESSAGES, max_tokens: 1.5 }, "max_tokens", /integer/],
    ["temperature 3", deepseek, { messages: MESSAGES, temperature: 3 }, "temperature", /between 0 and 2/],
    ["17 stop sequences", deepseek, { messages: MESSAGES, stop: Array(17).fill("x") }, "stop", /at most 16/],
    ["stop a string", deepseek, { messages: MESSAGES, stop: "x" }, "stop", /array/],
    ["an empty model", deepseek, { messages: MESSAGES, model: "" }, "model", /non-empty/],
    [
      "a raw prompt to DeepSeek",
      deepseek,
      { prompt: "x" },
      "prompt",
      /DeepSeek takes no prompt.*send messages/,
    ],
    [
      "a prefix to Ollama",
      ollama,
      { model: "m", messages: MESSAGES, prefix: "x" },
      "prefix",
      /cannot continue a forced prefix/,
    ],
    [
      "no model for Ollama",
      ollama,
      { messages: MESSAGES },
      "model",
      /required for ollama next edits \(e\.g\. nate\/instinct\)/,
    ],
    ["not an object", deepseek, "hello", "", /an object with prompt or messages/],
  ])("%s → ValidationError(%s)", async (_name, make, request, field, message) => {
    const client = make();
    for (const call of [
      () => client.complete(request as EditRequest),
      () => drain(client.stream(request as EditRequest)),
      async () => client.check(request as EditRequest),
    ]) {
      const error = await rejection(call);
      expect(error).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).field).toBe(field);
      expect(error.message).toMatch(message);
    }
  });

  it("Codestral has no next-edit endpoint: the constructor refuses it, naming the provider", () => {
    const error = (() => {
      try {
        new EditClient({ provider: "codestral", apiKey: "csk-x" });
      } catch (caught) {
        return caught;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).field).toBe("provider");
    expect((error as Error).message).toMatch(/Codestral cannot make next edits/);
  });

  it("fills in the client's model; only DeepSeek has a default one for next edits", () => {
    expect(deepseek().model).toBe("deepseek-v4-flash");
    expect(ollama().model).toBeUndefined();
    expect(new EditClient({ provider: "ollama", model: "nate/instinct" }).model).toBe("nate/instinct");
    expect(new EditClient({ provider: "llamacpp" }).model).toBeUndefined();
    // llama.cpp serves the model it loaded: none needed.
    expect(() => new EditClient({ provider: "llamacpp" }).check({ prompt: "x" })).not.toThrow();
  });

  it("reads the base URL as ProviderClient does: DeepSeek's /beta, no endpoints, no plain http off loopback", () => {
    expect(new EditClient({ apiKey: "k", baseURL: "https://api.deepseek.com" }).baseURL).toBe(
      "https://api.deepseek.com/beta",
    );
    expect(() => new EditClient({ baseURL: "https://api.deepseek.com/beta/chat/completions" })).toThrow(
      /not an endpoint: pass https:\/\/api.deepseek.com\/beta/,
    );
    expect(() => new EditClient({ provider: "ollama", baseURL: "http://10.0.0.2:11434" })).toThrow(
      /plain http/,
    );
  });
});

describe("what each provider's answers mean", () => {
  it("deepseek: a repeated conversation's start is served from the prompt cache", async () => {
    const { client, request } = await setup(CASES[0] as Case);
    const long = { role: "system" as const, content: "Rules of the edit.\n".repeat(60) };
    const first = await client.complete({ ...request, messages: [long, ...MESSAGES] });
    expect(first.usage?.prompt_cache_hit_tokens).toBe(0);
    const second = await client.complete({
      ...request,
      messages: [long, { role: "user", content: "another" }],
    });
    expect(second.usage?.prompt_cache_hit_tokens).toBeGreaterThanOrEqual(64);
    expect(second.usage?.prompt_cache_miss_tokens).toBe(
      (second.usage?.prompt_tokens ?? 0) - (second.usage?.prompt_cache_hit_tokens ?? 0),
    );
    expect(second.model).toBe("deepseek-v4-flash");
  });

  it("deepseek: a retired model is the sim's 400 Model Not Exist, as a BadRequestError naming deepseek", async () => {
    const { client, request } = await setup(CASES[0] as Case);
    const error = await rejection(() => client.complete({ ...request, model: "deepseek-chat" }));
    expect(error.message).toBe("400 Model Not Exist");
    expect(error.name).toBe("BadRequestError");
  });

  it("ollama: a model not pulled is NotFoundError with reason model-not-found, on either route", async () => {
    for (const c of [CASES[3], CASES[4]] as Case[]) {
      const { client, request } = await setup(c);
      const error = await rejection(() => client.complete({ ...request, model: "nate/nope" }));
      expect(error).toBeInstanceOf(NotFoundError);
      expect((error as NotFoundError).reason).toBe("model-not-found");
    }
  });

  it("ollama: keepAlive null sends none", async () => {
    const c = CASES[4] as Case;
    const { sim, request } = await setup(c);
    await new EditClient({ provider: "ollama", baseURL: sim.url, keepAlive: null }).complete(request);
    expect(sim.requests[0]?.body).not.toHaveProperty("keep_alive");
  });

  it("max_tokens cuts the answer: finish_reason length", async () => {
    for (const c of CASES) {
      const { client, request } = await setup(c);
      const completion = await client.complete({ ...request, max_tokens: 2 });
      expect(completion.finish_reason).toBe("length");
      expect(completion.usage?.completion_tokens).toBe(2);
    }
  });
});
