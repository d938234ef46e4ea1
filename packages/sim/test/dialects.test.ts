// Each provider's wire format as the simulator plays it, read over real HTTP with fetch and node:http.
import { afterEach, describe, expect, it } from "vitest";
import { type DialectName, type Sim, type SimOptions, startSim } from "../src/index.js";
import { ADD_SUB, parseSse, raw, within } from "./helpers.js";

const running: Sim[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((s) => s.close()));
});

async function sim(dialect: DialectName, options: SimOptions = {}): Promise<Sim> {
  const started = await startSim({ dialect, ...options });
  running.push(started);
  return started;
}

const ENDPOINT: Record<DialectName, string> = {
  deepseek: "/completions",
  "openai-compatible": "/completions",
  ollama: "/api/generate",
  llamacpp: "/infill",
  codestral: "/fim/completions",
};

// biome-ignore lint/suspicious/noExplicitAny: tests read each provider's bodies and check their shape themselves
type Json = any;

async function post(target: Sim, body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(target.url + ENDPOINT[target.dialect], {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
  return { status: res.status, headers: res.headers, text: await res.text() };
}

async function json(target: Sim, body: unknown, headers?: Record<string, string>) {
  const res = await post(target, body, headers);
  return { ...res, json: JSON.parse(res.text) as Json };
}

const ndjson = (text: string): Json[] =>
  text
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line));

describe("base URLs and routes", () => {
  it.each<[DialectName, RegExp]>([
    ["deepseek", /^http:\/\/127\.0\.0\.1:\d+\/beta$/],
    ["openai-compatible", /^http:\/\/127\.0\.0\.1:\d+\/v1$/],
    ["ollama", /^http:\/\/127\.0\.0\.1:\d+$/],
    ["llamacpp", /^http:\/\/127\.0\.0\.1:\d+$/],
    ["codestral", /^http:\/\/127\.0\.0\.1:\d+\/v1$/],
  ])("%s: url %s, and other paths 404 in its error shape", async (dialect, url) => {
    const target = await sim(dialect);
    expect(target.url).toMatch(url);
    expect(target.dialect).toBe(dialect);
    const other = await raw(`${target.url}/nope`, "{}");
    expect(other.status).toBe(404);
    expect(other.body).toContain("Not Found");
    expect(target.requests).toHaveLength(0);
  });

  it("refuses an unknown dialect", async () => {
    await expect(startSim({ dialect: "gpt" as DialectName })).rejects.toThrow(/dialect must be one of/);
  });
});

describe("ollama", () => {
  const MODEL = "qwen2.5-coder:1.5b-base";

  it("streams NDJSON by default: one line per token, the counts on the `done: true` line", async () => {
    const target = await sim("ollama");
    const res = await post(target, { model: MODEL, prompt: ADD_SUB, suffix: "\n}\n" });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/x-ndjson");
    const lines = ndjson(res.text);
    const last = lines.at(-1);
    expect(last).toMatchObject({ model: MODEL, response: "", done: true, done_reason: "stop" });
    expect(last.prompt_eval_count).toBeGreaterThan(0);
    expect(last.eval_count).toBe(lines.length - 1);
    expect(lines.slice(0, -1).every((line) => line.done === false)).toBe(true);
    expect(lines.map((line) => line.response).join("")).toBe("return a + b;");
  });

  it("answers one object with `stream: false`, honouring options.num_predict and options.stop", async () => {
    const target = await sim("ollama");
    const res = await json(target, {
      model: MODEL,
      prompt: ADD_SUB,
      stream: false,
      options: { num_predict: 2, temperature: 0 },
    });
    expect(res.json).toMatchObject({
      response: "return a",
      done: true,
      done_reason: "length",
      eval_count: 2,
    });
    const stopped = await json(target, {
      model: MODEL,
      prompt: ADD_SUB,
      stream: false,
      options: { stop: [" +"] },
    });
    expect(stopped.json.response).toBe("return a");
  });

  it.each<[string, Json, number, string]>([
    ["no model", { prompt: "x" }, 400, "model is required"],
    [
      "a model not pulled",
      { model: "mistral", prompt: "x" },
      404,
      'model "mistral" not found, try pulling it first',
    ],
    [
      "a suffix for a model without insert",
      { model: "llama3.2", prompt: "x", suffix: "y" },
      400,
      '"llama3.2" does not support insert',
    ],
    [
      "a prompt of the wrong type",
      { model: MODEL, prompt: 1 },
      400,
      "json: cannot unmarshal number into Go struct field GenerateRequest.prompt of type string",
    ],
    [
      "a bad option",
      { model: MODEL, prompt: "x", options: { num_predict: "9" } },
      400,
      'option "num_predict" must be of type integer',
    ],
  ])("%s: %i {error: …}", async (_, body, status, message) => {
    const target = await sim("ollama");
    expect(await json(target, body)).toMatchObject({ status, json: { error: message } });
  });

  it("a model without insert still completes without a suffix; with fim: false every suffix is refused", async () => {
    const target = await sim("ollama");
    expect((await json(target, { model: "llama3.2", prompt: "x", stream: false })).status).toBe(200);
    const noFim = await sim("ollama", { fim: false });
    expect((await json(noFim, { model: MODEL, prompt: "x", suffix: "y" })).status).toBe(400);
  });

  it("stream-error: an {error} line inside the 200 stream, then the end", async () => {
    const target = await sim("ollama", { faults: [{ type: "stream-error", afterChunks: 1 }] });
    const res = await post(target, { model: MODEL, prompt: ADD_SUB });
    expect(res.status).toBe(200);
    const lines = ndjson(res.text);
    expect(lines).toHaveLength(2);
    expect(lines[1]).toEqual({ error: expect.stringContaining("error was encountered") });
  });

  it("a key, when the sim has one, is checked: 401 {error: unauthorized}", async () => {
    const target = await sim("ollama", { apiKey: "sk-remote" });
    expect(await json(target, { model: MODEL, prompt: "x" })).toMatchObject({
      status: 401,
      json: { error: "unauthorized" },
    });
  });
});

describe("llamacpp", () => {
  it("streams SSE without [DONE]: the last event has stop: true, the counts and timings", async () => {
    const target = await sim("llamacpp");
    const res = await post(target, {
      input_prefix: ADD_SUB,
      input_suffix: "\n}\n",
      stream: true,
      cache_prompt: true,
    });
    expect(res.headers.get("content-type")).toBe("text/event-stream");
    const sse = parseSse(res.text);
    expect(sse.done).toBe(false);
    const last = sse.events.at(-1);
    expect(last).toMatchObject({ content: "", stop: true, stop_type: "eos" });
    expect(last.tokens_evaluated).toBeGreaterThan(0);
    expect(last.tokens_predicted).toBe(sse.events.length - 1);
    expect(last.timings).toMatchObject({ cache_n: 0, predicted_n: last.tokens_predicted });
    expect(sse.events.map((event) => event.content).join("")).toBe("return a + b;");
  });

  it("reuses the slot's shared prefix: timings.cache_n of the next request", async () => {
    const target = await sim("llamacpp");
    const first = await json(target, { input_prefix: ADD_SUB, input_suffix: "\n}\n" });
    expect(first.json.timings.cache_n).toBe(0);
    const again = await json(target, { input_prefix: `${ADD_SUB}r`, input_suffix: "\n}\n" });
    expect(again.json.timings.cache_n).toBeGreaterThan(0);
    expect(again.json.timings.cache_n + again.json.timings.prompt_n).toBe(again.json.tokens_evaluated);
  });

  it("input_extra chunks come before the prefix: the model can copy from them", async () => {
    const target = await sim("llamacpp");
    const res = await json(target, {
      input_extra: [{ filename: "src/math.ts", text: "export function mul(a, b) {\n  return a * b;\n}" }],
      input_prefix: "function mul(a, b) {\n  ",
      input_suffix: "\n}\n",
      n_predict: 16,
    });
    expect(res.json.content).toBe("return a * b;");
    expect(target.requests[0]?.body).toMatchObject({ input_extra: [{ filename: "src/math.ts" }] });
  });

  it.each<[string, Json, number, string]>([
    ["no input_prefix", { input_suffix: "" }, 400, '"input_prefix" is required'],
    ["no input_suffix", { input_prefix: "" }, 400, '"input_suffix" is required'],
    [
      "a bad input_extra",
      { input_prefix: "", input_suffix: "", input_extra: {} },
      400,
      '"input_extra" must be an array',
    ],
    [
      "a chunk with a bad text",
      { input_prefix: "", input_suffix: "", input_extra: [{ text: 1 }] },
      400,
      'extra_context chunk\'s "text"',
    ],
  ])("%s: %i {error:{code,message,type}}", async (_, body, status, message) => {
    const target = await sim("llamacpp");
    const res = await json(target, body);
    expect(res.status).toBe(status);
    expect(res.json.error).toMatchObject({ code: status, type: "invalid_request_error" });
    expect(res.json.error.message).toContain(message);
  });

  it("fim: false is 501 not_supported_error (the model has no FIM tokens)", async () => {
    const target = await sim("llamacpp", { fim: false });
    const res = await json(target, { input_prefix: "x", input_suffix: "" });
    expect(res.status).toBe(501);
    expect(res.json.error).toMatchObject({ code: 501, type: "not_supported_error" });
    expect(res.json.error.message).toMatch(/^Infill is not supported by this model/);
  });

  it("stream-error: a data: {error} event, and no stop: true", async () => {
    const target = await sim("llamacpp", { faults: [{ type: "stream-error", afterChunks: 1 }] });
    const sse = parseSse(
      (await post(target, { input_prefix: ADD_SUB, input_suffix: "", stream: true })).text,
    );
    expect(sse.events).toHaveLength(2);
    expect(sse.events[1].error).toMatchObject({ code: 500, type: "server_error" });
  });
});

describe("codestral", () => {
  const MODEL = "codestral-latest";

  it("answers chat.completion with the text at choices[0].message.content", async () => {
    const target = await sim("codestral");
    const res = await json(target, { model: MODEL, prompt: ADD_SUB, suffix: "\n}\n", max_tokens: 32 });
    expect(res.json).toMatchObject({
      object: "chat.completion",
      model: MODEL,
      choices: [
        { index: 0, message: { role: "assistant", content: "return a + b;" }, finish_reason: "stop" },
      ],
    });
    expect(res.json.usage.total_tokens).toBe(res.json.usage.prompt_tokens + res.json.usage.completion_tokens);
  });

  it("streams delta.content chunks, usage on the last, then [DONE]", async () => {
    const target = await sim("codestral");
    const sse = parseSse((await post(target, { model: MODEL, prompt: ADD_SUB, stream: true })).text);
    expect(sse.done).toBe(true);
    expect(sse.events[0].choices[0].delta).toEqual({ role: "assistant", content: "" });
    expect(sse.events.map((event) => event.choices[0].delta.content).join("")).toBe("return a + b;");
    expect(sse.events.at(-1).usage.completion_tokens).toBe(sse.events.length - 1);
    expect(sse.events.slice(0, -1).every((event) => event.usage === undefined)).toBe(true);
  });

  it("422 with pydantic's detail for an unknown or missing field, 400 for an unknown model", async () => {
    const target = await sim("codestral");
    const extra = await json(target, { model: MODEL, prompt: "x", echo: true });
    expect(extra.status).toBe(422);
    expect(extra.json).toMatchObject({
      object: "error",
      type: "invalid_request_message_error",
      message: {
        detail: [{ type: "extra_forbidden", loc: ["body", "echo"], msg: "Extra inputs are not permitted" }],
      },
    });
    const missing = await json(target, { model: MODEL });
    expect(missing.json.message.detail[0]).toMatchObject({ loc: ["body", "prompt"], msg: "Field required" });
    const model = await json(target, { model: "gpt-4", prompt: "x" });
    expect(model).toMatchObject({
      status: 400,
      json: { object: "error", message: "Invalid model: gpt-4", type: "invalid_model" },
    });
  });

  it("a wrong key: 401 {message: Unauthorized, request_id}", async () => {
    const target = await sim("codestral", { apiKey: "csk-right" });
    const res = await json(target, { model: MODEL, prompt: "x" }, { authorization: "Bearer csk-wrong" });
    expect(res.status).toBe(401);
    expect(res.json).toEqual({
      message: "Unauthorized",
      request_id: expect.stringMatching(/^[0-9a-f]{32}$/),
    });
  });
});

describe("openai-compatible", () => {
  it("any model; text_completion chunks; usage only with include_usage; [DONE]", async () => {
    const target = await sim("openai-compatible");
    const body = {
      model: "Qwen/Qwen2.5-Coder-7B-Instruct",
      prompt: ADD_SUB,
      suffix: "\n}\n",
      max_tokens: 32,
    };
    const whole = await json(target, body);
    expect(whole.json).toMatchObject({
      object: "text_completion",
      choices: [{ text: "return a + b;", finish_reason: "stop" }],
    });
    expect(whole.json.usage).toEqual({
      prompt_tokens: expect.any(Number),
      completion_tokens: expect.any(Number),
      total_tokens: expect.any(Number),
    });
    const plain = parseSse((await post(target, { ...body, stream: true })).text);
    expect(plain.done).toBe(true);
    expect(plain.events.some((event) => "usage" in event)).toBe(false);
    const withUsage = parseSse(
      (await post(target, { ...body, stream: true, stream_options: { include_usage: true } })).text,
    );
    expect(withUsage.events.at(-1)).toMatchObject({
      choices: [],
      usage: { completion_tokens: plain.events.length },
    });
  });

  it("defaults to 16 tokens, like OpenAI", async () => {
    const target = await sim("openai-compatible");
    const res = await json(target, { model: "m", prompt: "x".repeat(10), suffix: "" });
    expect(res.json.usage.completion_tokens).toBeLessThanOrEqual(16);
  });

  it("fim: false refuses suffix as vLLM does", async () => {
    const target = await sim("openai-compatible", { fim: false });
    const res = await json(target, { model: "m", prompt: "x", suffix: "y" });
    expect(res).toMatchObject({
      status: 400,
      json: { error: { message: "suffix is not currently supported", param: "suffix" } },
    });
  });
});

describe("faults in every dialect", () => {
  it.each<DialectName>(["deepseek", "openai-compatible", "ollama", "llamacpp", "codestral"])(
    "%s: a status fault answers that status in the dialect's error shape, with Retry-After",
    async (dialect) => {
      const target = await sim(dialect, { faults: [{ type: "status", status: 503, retryAfter: "1" }] });
      const res = await post(target, {});
      expect(res.status).toBe(503);
      expect(res.headers.get("retry-after")).toBe("1");
      expect(JSON.parse(res.text)).toBeTypeOf("object");
    },
  );

  it.each<[DialectName, unknown]>([
    ["ollama", { model: "qwen2.5-coder:1.5b-base", prompt: ADD_SUB }],
    ["llamacpp", { input_prefix: ADD_SUB, input_suffix: "", stream: true }],
    ["codestral", { model: "codestral-latest", prompt: ADD_SUB, stream: true }],
  ])("%s: a cut stream ends the connection after the events it lets through", async (dialect, body) => {
    const target = await sim(dialect, { faults: [{ type: "cut", afterChunks: 2 }] });
    const res = await within(
      raw(target.url + ENDPOINT[dialect], JSON.stringify(body)),
      5_000,
      "the cut response",
    );
    expect(res.complete).toBe(false);
    const items = res.body.split(/\n\n|\n/).filter((line) => line !== "");
    expect(items).toHaveLength(2);
  });
});
