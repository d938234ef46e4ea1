import { describe, expect, it } from "vitest";
import { ADD_SUB, complete, MODEL, parseSse, post, rawCompletion, sim, until } from "./helpers.js";

const LONG = `${ADD_SUB}return a - b;\n}\nfunction mul(a, b) {`;
const body = { model: MODEL, prompt: LONG, stream: true };

async function streamOf(s: Awaited<ReturnType<typeof sim>>, request: Record<string, unknown>) {
  const res = await post(s, request);
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
  return parseSse(await res.text());
}

describe("streaming", () => {
  it("first chunk empty, one token per chunk, finish_reason on the last, then [DONE]", async () => {
    const s = await sim();
    const reference = (await complete(s, { model: MODEL, prompt: LONG })).json;
    const sse = await streamOf(s, body);
    expect(sse.done).toBe(true);
    expect(sse.afterDone).toBe("");
    expect(sse.comments).toEqual([]);
    const [first, ...content] = sse.events;
    expect(first.choices).toEqual([{ text: "", index: 0, logprobs: null, finish_reason: null }]);
    expect(content).toHaveLength(reference.usage.completion_tokens);
    expect(content.length).toBeGreaterThan(3);
    for (const chunk of sse.events) {
      expect(Object.keys(chunk)).toEqual([
        "id",
        "object",
        "created",
        "model",
        "system_fingerprint",
        "choices",
      ]);
      expect(chunk).toMatchObject({
        id: first.id,
        object: "text_completion",
        model: MODEL,
        created: first.created,
      });
    }
    expect(content.map((c) => c.choices[0].text).join("")).toBe(reference.choices[0].text);
    expect(content.slice(0, -1).every((c) => c.choices[0].finish_reason === null)).toBe(true);
    expect(content.at(-1).choices[0].finish_reason).toBe("stop");
    expect(content.every((c) => c.choices[0].logprobs === null)).toBe(true);
  });

  it("every data line is canonical JSON of a whole chunk", async () => {
    const s = await sim();
    const res = await rawCompletion(s, {
      ...body,
      logprobs: 1,
      echo: true,
      stream_options: { include_usage: true },
    });
    const lines = res.body.split("\n\n").filter((line) => line.startsWith("data: {"));
    expect(lines.length).toBeGreaterThan(4);
    for (const line of lines) expect(line).toBe(`data: ${JSON.stringify(JSON.parse(line.slice(6)))}`);
    expect(res.body.endsWith("data: [DONE]\n\n")).toBe(true);
  });

  it("include_usage: usage null on every chunk, then a choices: [] chunk with the usage before [DONE]", async () => {
    const s = await sim();
    const sse = await streamOf(s, { ...body, stream_options: { include_usage: true } });
    const usageChunk = sse.events.at(-1);
    expect(usageChunk.choices).toEqual([]);
    expect(sse.events.slice(0, -1).every((c) => c.usage === null && c.choices.length === 1)).toBe(true);
    const texts = sse.events.slice(1, -1).map((c) => c.choices[0].text);
    expect(usageChunk.usage).toMatchObject({
      completion_tokens: texts.length,
      prompt_cache_hit_tokens: 0,
      completion_tokens_details: { reasoning_tokens: 0 },
    });
    expect(usageChunk.usage.total_tokens).toBe(usageChunk.usage.prompt_tokens + texts.length);
    expect(sse.done).toBe(true);
  });

  it("include_usage false: no usage key at all", async () => {
    const s = await sim();
    const sse = await streamOf(s, { ...body, stream_options: { include_usage: false } });
    expect(sse.events.every((c) => !("usage" in c))).toBe(true);
  });

  it("max_tokens: length on the last content chunk", async () => {
    const s = await sim();
    const sse = await streamOf(s, { ...body, max_tokens: 3 });
    expect(sse.events).toHaveLength(4);
    expect(sse.events.at(-1).choices[0].finish_reason).toBe("length");
  });

  it("an empty completion still ends with a finish_reason chunk", async () => {
    const s = await sim();
    const sse = await streamOf(s, { ...body, prompt: ADD_SUB, stop: "return" });
    expect(sse.events.map((c) => c.choices[0])).toEqual([
      { text: "", index: 0, logprobs: null, finish_reason: null },
      { text: "", index: 0, logprobs: null, finish_reason: "stop" },
    ]);
  });

  it("echo: the prompt comes in its own chunk after the empty first one", async () => {
    const s = await sim();
    const sse = await streamOf(s, { ...body, echo: true });
    expect(sse.events[0].choices[0].text).toBe("");
    expect(sse.events[1].choices[0]).toEqual({ text: LONG, index: 0, logprobs: null, finish_reason: null });
    const whole = (await complete(s, { model: MODEL, prompt: LONG, echo: true })).json.choices[0].text;
    expect(sse.events.map((c) => c.choices[0].text).join("")).toBe(whole);
  });

  it("logprobs: each chunk carries its own token, offsets continue across chunks", async () => {
    const s = await sim();
    const whole = (await complete(s, { model: MODEL, prompt: LONG, logprobs: 2 })).json.choices[0].logprobs;
    const sse = await streamOf(s, { ...body, logprobs: 2 });
    expect(sse.events[0].choices[0].logprobs).toBeNull();
    const content = sse.events.slice(1);
    content.forEach((chunk, k) => {
      const lp = chunk.choices[0].logprobs;
      expect(lp.tokens).toEqual([chunk.choices[0].text]);
      expect(lp.token_logprobs).toEqual([whole.token_logprobs[k]]);
      expect(lp.top_logprobs).toEqual([whole.top_logprobs[k]]);
      expect(lp.text_offset).toEqual([whole.text_offset[k]]);
      expect(Object.keys(lp.top_logprobs[0]).length).toBeLessThanOrEqual(3);
    });
    expect(content[0].choices[0].logprobs.text_offset).toEqual([LONG.length]);
  });

  it("tokenMs spaces the chunks", async () => {
    const tokenMs = 15;
    const s = await sim({ tokenMs });
    const started = performance.now();
    const sse = await streamOf(s, { ...body, max_tokens: 6 });
    const elapsed = performance.now() - started;
    expect(sse.events).toHaveLength(7);
    expect(elapsed).toBeGreaterThanOrEqual(6 * tokenMs - 2);
  });

  it("tokenMs delays a non-streamed body by tokens × tokenMs", async () => {
    const tokenMs = 15;
    const s = await sim({ tokenMs });
    const started = performance.now();
    const { json } = await complete(s, { model: MODEL, prompt: LONG, max_tokens: 6 });
    expect(json.usage.completion_tokens).toBe(6);
    expect(performance.now() - started).toBeGreaterThanOrEqual(6 * tokenMs - 2);
  });
});

describe("latency and keep-alive", () => {
  it("latencyMs delays the first byte", async () => {
    const s = await sim({ latencyMs: 80 });
    const res = await rawCompletion(s, { model: MODEL, prompt: ADD_SUB });
    expect(res.headersAfterMs).toBeGreaterThanOrEqual(78);
    expect(res.body.startsWith("{")).toBe(true);
    expect(res.headers["content-length"]).toBe(String(Buffer.byteLength(res.body)));
  });

  it("non-stream: headers at once, then empty lines, then the JSON body", async () => {
    const s = await sim({ latencyMs: 600, keepAlive: true, keepAliveIntervalMs: 20 });
    const res = await rawCompletion(s, { model: MODEL, prompt: ADD_SUB });
    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toBe("application/json");
    const lines = /^\n+/.exec(res.body)?.[0].length ?? 0;
    expect(lines).toBeGreaterThanOrEqual(2);
    expect(JSON.parse(res.body).choices[0].text).toBe("return a + b;");
    expect(res.complete).toBe(true);
  });

  it("stream: `: keep-alive` comments before the first data chunk", async () => {
    const s = await sim({ latencyMs: 600, keepAlive: true, keepAliveIntervalMs: 20 });
    const res = await rawCompletion(s, { ...body, prompt: ADD_SUB });
    expect(res.headers["content-type"]).toBe("text/event-stream; charset=utf-8");
    const firstData = res.body.indexOf("data: ");
    const before = res.body.slice(0, firstData);
    expect(before).toMatch(/^(: keep-alive\n\n){2,}$/);
    const sse = parseSse(res.body);
    expect(sse.events[0].choices[0].text).toBe("");
    expect(sse.done).toBe(true);
  });

  it("without keepAlive nothing precedes the content", async () => {
    const s = await sim({ latencyMs: 40 });
    const streamed = await rawCompletion(s, { ...body, prompt: ADD_SUB });
    expect(streamed.body.startsWith("data: ")).toBe(true);
    expect(streamed.headersAfterMs).toBeGreaterThanOrEqual(38);
  });

  it("keep-alive does nothing when there is no latency", async () => {
    const s = await sim({ keepAlive: true });
    const res = await rawCompletion(s, { model: MODEL, prompt: ADD_SUB });
    expect(res.body.startsWith("{")).toBe(true);
  });

  it("refuses negative or non-finite timings", async () => {
    await expect(sim({ latencyMs: -1 })).rejects.toThrow(RangeError);
    await expect(sim({ tokenMs: Number.NaN })).rejects.toThrow(RangeError);
    await expect(sim({ keepAliveIntervalMs: 0 })).rejects.toThrow(RangeError);
    await expect(sim({ latencyMs: 2 ** 31 })).rejects.toThrow(RangeError);
    await expect(sim({ keepRequests: -1 })).rejects.toThrow(RangeError);
  });
});

describe("outputTokens", () => {
  it("counts a whole answer's tokens, and a stream's tokens written before the client left", async () => {
    const s = await sim({ tokenMs: 20 });
    await complete(s, { model: MODEL, prompt: ADD_SUB, max_tokens: 8 });
    const whole = s.requests[0]!;
    expect(whole.outputTokens).toBeGreaterThan(2);
    const controller = new AbortController();
    const res = await post(
      s,
      { model: MODEL, prompt: ADD_SUB, max_tokens: 8, stream: true },
      { signal: controller.signal },
    );
    void res.body
      ?.getReader()
      .read()
      .catch(() => {});
    await until(() => s.requests[1]!.outputTokens >= 1, 5_000, "a token");
    controller.abort();
    await s.requests[1]!.closed;
    expect(s.requests[1]!.outputTokens).toBeLessThan(whole.outputTokens);
  });
});
