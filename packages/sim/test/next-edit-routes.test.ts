// The next-edit routes of every dialect, read over real HTTP: what reaches the edit model, where its text comes
// back (whole and streamed), the usage, DeepSeek's Chat Prefix Completion checks, and the sim's faults and log on
// these routes. The edit model is replaced by a stub: these tests are about the wire, not the model.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { type DialectName, type Sim, type SimOptions, startSim } from "../src/index.js";
import { parseSse, raw } from "./helpers.js";

const model = vi.hoisted(() => ({
  answer: "  return sum;\n}\n<|editable_region_end|>\nnot this",
  answerEdit: vi.fn((_input: unknown): string => ""),
}));
vi.mock("../src/next-edit/answer-edit.js", () => ({ answerEdit: model.answerEdit }));

// biome-ignore lint/suspicious/noExplicitAny: tests read each provider's bodies and check their shape themselves
type Json = any;

const running: Sim[] = [];
beforeEach(() => {
  model.answerEdit.mockReset();
  model.answerEdit.mockImplementation(() => model.answer);
});
afterEach(async () => {
  await Promise.all(running.splice(0).map((s) => s.close()));
});

async function sim(dialect: DialectName, options: SimOptions = {}): Promise<Sim> {
  const started = await startSim({ dialect, ...options });
  running.push(started);
  return started;
}

const STOP = "<|editable_region_end|>";
/** What the model's text becomes once the stop sequence cuts it. */
const CUT = "  return sum;\n}\n";
const SYSTEM = { role: "system", content: "You predict the user's next edit." };
const USER = { role: "user", content: "### User Edits:\nrenamed total to sum\n### User Excerpt:\n…" };
const RAW_PROMPT = "### Instruction:\nrewrite the region\n### Response:\n<|editable_region_start|>\n";

interface Case {
  dialect: DialectName;
  /** The route under the sim's base URL. */
  path: string;
  shape: "raw" | "chat";
  /** The body of a request, whole or streamed. */
  body(stream: boolean): Record<string, unknown>;
  /** What the edit model is asked. */
  input: unknown;
  /** The text of a whole answer. */
  text(json: Json): string;
  /** Each stream item's text, and the counts at the end. */
  stream: "sse" | "ndjson";
  piece(item: Json): string;
  counts(item: Json): { prompt: number; completion: number } | undefined;
}

const openAIChatBody = (model: string | undefined) => (stream: boolean) => ({
  ...(model ? { model } : {}),
  messages: [SYSTEM, USER],
  max_tokens: 256,
  stop: [STOP],
  stream,
  ...(stream ? { stream_options: { include_usage: true } } : {}),
});

const openAIUsage = (item: Json) =>
  item.usage ? { prompt: item.usage.prompt_tokens, completion: item.usage.completion_tokens } : undefined;
const ollamaCounts = (item: Json) =>
  item.done ? { prompt: item.prompt_eval_count, completion: item.eval_count } : undefined;
const llamaCounts = (item: Json) =>
  item.stop ? { prompt: item.tokens_evaluated, completion: item.tokens_predicted } : undefined;

const CASES: Case[] = [
  {
    dialect: "deepseek",
    path: "/chat/completions",
    shape: "chat",
    body: (stream) => ({
      ...openAIChatBody("deepseek-v4-flash")(stream),
      messages: [SYSTEM, USER, { role: "assistant", content: "<|editable_region_start|>\n", prefix: true }],
      thinking: { type: "disabled" },
    }),
    input: { messages: [SYSTEM, USER], prefix: "<|editable_region_start|>\n" },
    text: (json) => json.choices[0].message.content,
    stream: "sse",
    piece: (item) => item.choices[0]?.delta.content ?? "",
    counts: openAIUsage,
  },
  {
    dialect: "openai-compatible",
    path: "/completions",
    shape: "raw",
    body: (stream) => ({
      model: "zed-industries/zeta",
      prompt: RAW_PROMPT,
      max_tokens: 256,
      stop: [STOP],
      stream,
      ...(stream ? { stream_options: { include_usage: true } } : {}),
    }),
    input: { prompt: RAW_PROMPT },
    text: (json) => json.choices[0].text,
    stream: "sse",
    piece: (item) => item.choices[0]?.text ?? "",
    counts: openAIUsage,
  },
  {
    dialect: "openai-compatible",
    path: "/chat/completions",
    shape: "chat",
    body: openAIChatBody("zed-industries/zeta"),
    input: { messages: [SYSTEM, USER] },
    text: (json) => json.choices[0].message.content,
    stream: "sse",
    piece: (item) => item.choices[0]?.delta.content ?? "",
    counts: openAIUsage,
  },
  {
    dialect: "ollama",
    path: "/api/generate",
    shape: "raw",
    body: (stream) => ({
      model: "qwen2.5-coder:7b-base",
      prompt: RAW_PROMPT,
      raw: true,
      stream,
      options: { num_predict: 256, stop: [STOP] },
    }),
    input: { prompt: RAW_PROMPT },
    text: (json) => json.response,
    stream: "ndjson",
    piece: (item) => item.response,
    counts: ollamaCounts,
  },
  {
    dialect: "ollama",
    path: "/api/chat",
    shape: "chat",
    body: (stream) => ({
      model: "nate/instinct",
      messages: [SYSTEM, USER],
      stream,
      options: { num_predict: 256, stop: [STOP] },
    }),
    input: { messages: [SYSTEM, USER] },
    text: (json) => json.message.content,
    stream: "ndjson",
    piece: (item) => item.message.content,
    counts: ollamaCounts,
  },
  {
    dialect: "llamacpp",
    path: "/completion",
    shape: "raw",
    body: (stream) => ({ prompt: RAW_PROMPT, n_predict: 256, stop: [STOP], stream, cache_prompt: true }),
    input: { prompt: RAW_PROMPT },
    text: (json) => json.content,
    stream: "sse",
    piece: (item) => item.content,
    counts: llamaCounts,
  },
  {
    dialect: "llamacpp",
    path: "/v1/chat/completions",
    shape: "chat",
    body: openAIChatBody(undefined),
    input: { messages: [SYSTEM, USER] },
    text: (json) => json.choices[0].message.content,
    stream: "sse",
    piece: (item) => item.choices[0]?.delta.content ?? "",
    counts: openAIUsage,
  },
];

function post(target: Sim, path: string, body: unknown, headers: Record<string, string> = {}) {
  return raw(target.url + path, typeof body === "string" ? body : JSON.stringify(body), { headers });
}

/** The items of a stream body: SSE `data:` payloads (without `[DONE]`), or NDJSON lines. */
function items(c: Case, text: string): { items: Json[]; done: boolean } {
  if (c.stream === "sse") {
    const sse = parseSse(text);
    return { items: sse.events, done: sse.done };
  }
  const lines = text.split("\n").filter((line) => line !== "");
  return { items: lines.map((line) => JSON.parse(line)), done: false };
}

describe.each(CASES)("$dialect $path ($shape)", (c) => {
  it("answers with the edit model's text, cut at the stop sequence, and the usage", async () => {
    const target = await sim(c.dialect);
    const res = await post(target, c.path, c.body(false));
    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toMatch(/^application\/json/);
    const json = JSON.parse(res.body);
    expect(c.text(json)).toBe(CUT);
    expect(model.answerEdit.mock.calls).toEqual([[c.input]]);
    const counts = c.counts(json);
    expect(counts?.prompt).toBeGreaterThan(0);
    expect(counts?.completion).toBeGreaterThan(0);
    expect(target.requests.map((r) => [r.path, r.status])).toEqual([
      [new URL(target.url).pathname.replace(/\/$/, "") + c.path, 200],
    ]);
  });

  it("streams the same text, one item per token, the counts and the end last", async () => {
    const target = await sim(c.dialect);
    const res = await post(target, c.path, c.body(true));
    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toMatch(
      c.stream === "sse" ? /^text\/event-stream/ : /^application\/x-ndjson/,
    );
    const { items: read, done } = items(c, res.body);
    expect(read.map(c.piece).join("")).toBe(CUT);
    // `[DONE]` ends OpenAI-shaped streams; llama.cpp's `/completion` and Ollama end on their last item.
    expect(done).toBe(c.stream === "sse" && c.path !== "/completion");
    const counted = read.map(c.counts).filter((counts) => counts !== undefined);
    expect(counted).toHaveLength(1);
    expect(c.counts(read.at(-1))).toEqual(counted[0]);
    expect(target.requests[0]?.outputTokens).toBeGreaterThan(0);
  });

  it("a status fault and a wrong key are answered on this route too", async () => {
    const target = await sim(c.dialect, {
      apiKey: "sk-right-0123456789",
      faults: [{ type: "status", status: 503, retryAfter: "2" }],
    });
    const headers = { authorization: "Bearer sk-wrong-0123456789" };
    const faulted = await post(target, c.path, c.body(false), headers);
    expect(faulted.status).toBe(503);
    expect(faulted.headers["retry-after"]).toBe("2");
    const unauthorized = await post(target, c.path, c.body(false), headers);
    expect(unauthorized.status).toBe(401);
    expect(unauthorized.body).not.toContain("sk-wrong-0123456789");
    expect(model.answerEdit).not.toHaveBeenCalled();
  });

  it("a cut fault ends the stream early without its end", async () => {
    const target = await sim(c.dialect, { faults: [{ type: "cut", afterChunks: 2 }] });
    const res = await post(target, c.path, c.body(true));
    expect(res.complete).toBe(false);
    const { items: read, done } = items(c, res.body);
    expect(read).toHaveLength(2);
    expect(done).toBe(false);
  });
});

describe("which requests the edit model answers", () => {
  it("openai-compatible /v1/completions: a suffix (even an empty one) is FIM, none is a raw next edit", async () => {
    const target = await sim("openai-compatible");
    const fim = await post(target, "/completions", { model: "m", prompt: "a = 1\nb = ", suffix: "" });
    expect(JSON.parse(fim.body).choices[0].text).not.toBe(CUT);
    expect(model.answerEdit).not.toHaveBeenCalled();
    await post(target, "/completions", { model: "m", prompt: "a = 1\nb = ", suffix: null });
    expect(model.answerEdit).toHaveBeenCalledTimes(1);
  });

  it("ollama /api/generate: raw: true is a next edit (its suffix ignored, as the template is), else FIM", async () => {
    const target = await sim("ollama");
    await post(target, "/api/generate", { model: "llama3.2", prompt: "x", stream: false });
    expect(model.answerEdit).not.toHaveBeenCalled();
    const res = await post(target, "/api/generate", {
      model: "llama3.2",
      prompt: "x",
      suffix: "y",
      raw: true,
      stream: false,
    });
    // llama3.2's template takes no suffix: without raw this would be 400 "does not support insert".
    expect(res.status).toBe(200);
    expect(model.answerEdit.mock.calls).toEqual([[{ prompt: "x" }]]);
  });

  it("ollama /api/chat: a model not pulled is 404, none named 400; messages of the wrong type in Go's words", async () => {
    const target = await sim("ollama");
    const missing = await post(target, "/api/chat", { model: "nate/nope", messages: [USER] });
    expect([missing.status, JSON.parse(missing.body)]).toEqual([
      404,
      { error: 'model "nate/nope" not found, try pulling it first' },
    ]);
    const none = await post(target, "/api/chat", { messages: [USER] });
    expect([none.status, JSON.parse(none.body)]).toEqual([400, { error: "model is required" }]);
    const wrong = await post(target, "/api/chat", { model: "nate/instinct", messages: "hi" });
    expect(wrong.status).toBe(400);
    expect(JSON.parse(wrong.body).error).toBe(
      "json: cannot unmarshal string into Go struct field ChatRequest.messages of type []api.Message",
    );
  });

  it("llamacpp /completion: prompt required and a string; /v1/chat/completions needs messages", async () => {
    const target = await sim("llamacpp");
    const none = await post(target, "/completion", { n_predict: 3 });
    expect([none.status, JSON.parse(none.body).error.message]).toEqual([400, '"prompt" must be provided']);
    const tokens = await post(target, "/completion", { prompt: [1, 2, 3] });
    expect(JSON.parse(tokens.body).error.message).toBe('"prompt" must be a string');
    const chat = await post(target, "/v1/chat/completions", { messages: [] });
    expect(chat.status).toBe(400);
    expect(JSON.parse(chat.body).error).toMatchObject({ code: 400, type: "invalid_request_error" });
    expect(model.answerEdit).not.toHaveBeenCalled();
  });

  it("llamacpp: /completion and /v1/chat/completions share the slot with /infill (timings.cache_n)", async () => {
    const target = await sim("llamacpp");
    const prompt = "function add(a, b) {\n  return a + b;\n}\n".repeat(8);
    await post(target, "/completion", { prompt });
    const again = JSON.parse((await post(target, "/completion", { prompt: `${prompt}// more` })).body);
    expect(again.timings.cache_n).toBeGreaterThan(0);
    const chat = JSON.parse(
      (await post(target, "/v1/chat/completions", { messages: [{ role: "user", content: prompt }] })).body,
    );
    expect(chat.usage.prompt_tokens_details.cached_tokens).toBe(0);
    const chatAgain = JSON.parse(
      (
        await post(target, "/v1/chat/completions", {
          messages: [
            { role: "user", content: prompt },
            { role: "user", content: "and this" },
          ],
        })
      ).body,
    );
    expect(chatAgain.usage.prompt_tokens_details.cached_tokens).toBeGreaterThan(0);
  });

  it("openai-compatible /v1/chat/completions: OpenAI's 400 naming the field", async () => {
    const target = await sim("openai-compatible");
    const res = await post(target, "/chat/completions", {
      model: "m",
      messages: [{ role: "robot", content: "x" }],
    });
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body).error).toMatchObject({
      type: "invalid_request_error",
      param: "messages.0.role",
    });
    const noModel = await post(target, "/chat/completions", { messages: [USER] });
    expect(JSON.parse(noModel.body).error.param).toBe("model");
  });
});

describe("deepseek /beta/chat/completions: Chat Prefix Completion as DeepSeek validates it", () => {
  const PREFIX = { role: "assistant", content: "<|editable_region_start|>\n", prefix: true };
  const VALID = {
    model: "deepseek-v4-flash",
    messages: [SYSTEM, USER, PREFIX],
    thinking: { type: "disabled" },
  };
  const DESERIALIZE = "Failed to deserialize the JSON body into the target type: ";
  const GUIDE = "(refer to https://api-docs.deepseek.com/guides/chat_prefix_completion).";
  const without = (field: string) => Object.fromEntries(Object.entries(VALID).filter(([k]) => k !== field));

  it.each<[string, unknown, number, string]>([
    ["a retired model", { ...VALID, model: "deepseek-chat" }, 400, "Model Not Exist"],
    ["no model", without("model"), 422, `${DESERIALIZE}missing field \`model\``],
    [
      "a model that is a number",
      { ...VALID, model: 3 },
      422,
      `${DESERIALIZE}model: invalid type: integer \`3\`, expected a string`,
    ],
    ["no messages", without("messages"), 422, `${DESERIALIZE}missing field \`messages\``],
    ["no message", { ...VALID, messages: [] }, 400, "Invalid messages value, messages must not be empty"],
    [
      "an unknown role",
      { ...VALID, messages: [{ role: "robot", content: "x" }] },
      422,
      `${DESERIALIZE}messages: unknown variant \`robot\`, expected one of \`system\`, \`user\`, \`assistant\`, \`tool\``,
    ],
    [
      "prefix on a message that is not the last",
      { ...VALID, messages: [PREFIX, USER] },
      400,
      `Only the last message can have prefix mode on ${GUIDE}`,
    ],
    [
      "prefix on the user's message",
      { ...VALID, messages: [SYSTEM, { ...USER, prefix: true }] },
      400,
      `Prefix mode is only for an assistant message ${GUIDE}`,
    ],
    [
      "thinking, and a last assistant message without prefix",
      { ...VALID, thinking: { type: "enabled" }, messages: [USER, { role: "assistant", content: "x" }] },
      400,
      `The last message of deepseek-v4-flash must be a user message, or an assistant message with prefix mode on ${GUIDE}`,
    ],
    [
      "an unknown thinking type",
      { ...VALID, thinking: { type: "auto" } },
      422,
      `${DESERIALIZE}thinking.type: unknown variant \`auto\`, expected \`enabled\` or \`disabled\``,
    ],
    [
      "max_tokens 0",
      { ...VALID, max_tokens: 0 },
      400,
      "Invalid max_tokens value, the valid range of max_tokens is [1, 393216]",
    ],
    [
      "max_tokens over V4's limit",
      { ...VALID, max_tokens: 393_217 },
      400,
      "Invalid max_tokens value, the valid range of max_tokens is [1, 393216]",
    ],
    [
      "max_tokens a string",
      { ...VALID, max_tokens: "9" },
      422,
      `${DESERIALIZE}max_tokens: invalid type: string "9", expected an integer`,
    ],
    [
      "temperature 3",
      { ...VALID, temperature: 3 },
      400,
      "Invalid temperature value, the valid range of temperature is [0, 2]",
    ],
    [
      "17 stop sequences",
      { ...VALID, stop: Array(17).fill("x") },
      400,
      "Invalid stop value, stop must be a string or an array of at most 16 strings",
    ],
    [
      "stream_options without stream",
      { ...VALID, stream_options: { include_usage: true } },
      400,
      "Invalid stream_options value, stream_options is only allowed when stream is true",
    ],
    ["a body that is an array", [VALID], 400, `${DESERIALIZE}invalid type: sequence, expected a JSON object`],
  ])("%s → %i", async (_name, body, status, message) => {
    const target = await sim("deepseek");
    const res = await post(target, "/chat/completions", body);
    expect(res.status).toBe(status);
    expect(JSON.parse(res.body)).toEqual({
      error: { message, type: "invalid_request_error", param: null, code: "invalid_request_error" },
    });
    expect(model.answerEdit).not.toHaveBeenCalled();
    expect(target.requests[0]?.path).toBe("/beta/chat/completions");
  });

  it("a body that is not JSON is a 400", async () => {
    const target = await sim("deepseek");
    const res = await post(target, "/chat/completions", "{");
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body).error.message).toBe("Failed to parse the request body as JSON");
  });

  it("chat.completion objects with DeepSeek's usage; the prompt cache hits a repeated conversation's start", async () => {
    const target = await sim("deepseek", { apiKey: "sk-cache-0123456789" });
    const headers = { authorization: "Bearer sk-cache-0123456789" };
    const long = { role: "system", content: "Rules of the edit.\n".repeat(60) };
    const body = { ...VALID, messages: [long, USER, PREFIX] };
    const first = JSON.parse((await post(target, "/chat/completions", body, headers)).body);
    expect(first).toMatchObject({
      object: "chat.completion",
      model: "deepseek-v4-flash",
      system_fingerprint: expect.any(String),
      choices: [{ index: 0, message: { role: "assistant", content: model.answer }, finish_reason: "stop" }],
    });
    expect(first.choices[0].message.reasoning_content).toBeUndefined();
    expect(first.usage).toMatchObject({
      prompt_cache_hit_tokens: 0,
      completion_tokens_details: { reasoning_tokens: 0 },
    });
    const again = { ...body, messages: [long, { role: "user", content: "another excerpt" }, PREFIX] };
    const second = JSON.parse((await post(target, "/chat/completions", again, headers)).body).usage;
    expect(second.prompt_cache_hit_tokens).toBeGreaterThanOrEqual(64);
    expect(second.prompt_cache_hit_tokens % 64).toBe(0);
    expect(second.prompt_cache_miss_tokens).toBe(second.prompt_tokens - second.prompt_cache_hit_tokens);
    expect(second.prompt_tokens_details).toEqual({ cached_tokens: second.prompt_cache_hit_tokens });
    expect(second.total_tokens).toBe(second.prompt_tokens + second.completion_tokens);
  });

  it("thinks unless thinking is disabled: reasoning_content first, counted in reasoning_tokens", async () => {
    const target = await sim("deepseek");
    const thinking = { model: "deepseek-v4-pro", messages: [SYSTEM, USER, PREFIX], stop: [STOP] };
    const whole = JSON.parse((await post(target, "/chat/completions", thinking)).body);
    const reasoning: string = whole.choices[0].message.reasoning_content;
    expect(reasoning.length).toBeGreaterThan(0);
    expect(whole.choices[0].message.content).toBe(CUT);
    const plain = JSON.parse(
      (await post(target, "/chat/completions", { ...thinking, thinking: { type: "disabled" } })).body,
    );
    const spent = whole.usage.completion_tokens_details.reasoning_tokens;
    expect(spent).toBeGreaterThan(0);
    expect(whole.usage.completion_tokens).toBe(plain.usage.completion_tokens + spent);

    const res = await post(target, "/chat/completions", { ...thinking, stream: true });
    const chunks = parseSse(res.body).events;
    const kinds = chunks.map((chunk) => Object.keys(chunk.choices[0]?.delta ?? {}).join());
    expect(kinds[0]).toBe("role,content");
    const firstContent = kinds.indexOf("content");
    expect(kinds.slice(1, firstContent).every((kind) => kind === "reasoning_content")).toBe(true);
    expect(chunks.map((chunk) => chunk.choices[0]?.delta.reasoning_content ?? "").join("")).toBe(reasoning);
  });

  it("streams chat.completion.chunk objects of one id, usage null until the usage chunk, then [DONE]", async () => {
    const target = await sim("deepseek");
    const res = await post(target, "/chat/completions", {
      ...VALID,
      stream: true,
      stream_options: { include_usage: true },
    });
    const sse = parseSse(res.body);
    expect(sse.done).toBe(true);
    expect(new Set(sse.events.map((event) => event.id)).size).toBe(1);
    expect(sse.events.every((event) => event.object === "chat.completion.chunk")).toBe(true);
    expect(sse.events.slice(0, -1).every((event) => event.usage === null)).toBe(true);
    expect(sse.events.at(-1)).toMatchObject({ choices: [], usage: { prompt_cache_hit_tokens: 0 } });
    const finishes = sse.events.flatMap((event) => event.choices.map((choice: Json) => choice.finish_reason));
    expect(finishes.filter((reason) => reason !== null)).toEqual(["stop"]);
    const plain = parseSse((await post(target, "/chat/completions", { ...VALID, stream: true })).body);
    expect(plain.events.some((event) => "usage" in event)).toBe(false);
  });

  it("max_tokens cuts the answer with finish_reason length", async () => {
    const target = await sim("deepseek");
    const json = JSON.parse((await post(target, "/chat/completions", { ...VALID, max_tokens: 2 })).body);
    expect(json.choices[0].finish_reason).toBe("length");
    expect(json.usage.completion_tokens).toBe(2);
  });

  it("sends keep-alive lines while it waits, as on FIM", async () => {
    const target = await sim("deepseek", { latencyMs: 30, keepAlive: true, keepAliveIntervalMs: 5 });
    const whole = await post(target, "/chat/completions", VALID);
    expect(whole.body.startsWith("\n")).toBe(true);
    expect(JSON.parse(whole.body).choices[0].message.content).toBe(model.answer);
    const streamed = await post(target, "/chat/completions", { ...VALID, stream: true });
    expect(parseSse(streamed.body).comments[0]).toBe(": keep-alive");
  });
});
