import { describe, expect, it } from "vitest";
import { tokenize } from "../src/tokenize.js";
import { ADD_SUB, complete, MODEL, sim } from "./helpers.js";

describe("non-streaming response", () => {
  it("has DeepSeek's text_completion shape and consistent usage", async () => {
    const s = await sim();
    const before = Math.floor(Date.now() / 1000);
    const { status, headers, json } = await complete(s, { model: MODEL, prompt: ADD_SUB, suffix: "\n}\n" });
    expect(status).toBe(200);
    expect(headers.get("content-type")).toBe("application/json");
    expect(Object.keys(json)).toEqual([
      "id",
      "object",
      "created",
      "model",
      "system_fingerprint",
      "choices",
      "usage",
    ]);
    expect(json).toMatchObject({
      object: "text_completion",
      model: MODEL,
      system_fingerprint: "fp_infill_sim",
    });
    expect(json.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(json.created).toBeGreaterThanOrEqual(before);
    expect(json.created).toBeLessThanOrEqual(Math.floor(Date.now() / 1000));
    expect(json.choices).toEqual([
      { text: "return a + b;", index: 0, logprobs: null, finish_reason: "stop" },
    ]);
    const promptTokens = tokenize(ADD_SUB).length + 1 + tokenize("\n}\n").length;
    expect(json.usage).toEqual({
      completion_tokens: tokenize("return a + b;").length,
      prompt_tokens: promptTokens,
      prompt_cache_hit_tokens: 0,
      prompt_cache_miss_tokens: promptTokens,
      total_tokens: promptTokens + tokenize("return a + b;").length,
      completion_tokens_details: { reasoning_tokens: 0 },
      prompt_tokens_details: { cached_tokens: 0 },
    });
  });

  it("answers the model it was asked for", async () => {
    const s = await sim();
    const { json } = await complete(s, { model: "deepseek-v4-pro", prompt: "x" });
    expect(json.model).toBe("deepseek-v4-pro");
  });

  it("gives a new id and x-ds-trace-id per request", async () => {
    const s = await sim();
    const a = await complete(s, { model: MODEL, prompt: ADD_SUB });
    const b = await complete(s, { model: MODEL, prompt: ADD_SUB });
    expect(a.json.id).not.toBe(b.json.id);
    const traceA = a.headers.get("x-ds-trace-id");
    expect(traceA).toMatch(/^[0-9a-f-]{36}$/);
    expect(b.headers.get("x-ds-trace-id")).not.toBe(traceA);
  });

  it("is deterministic: the same request gives the same answer, in any simulator", async () => {
    const body = { model: MODEL, prompt: `${ADD_SUB}x`, suffix: "y\n}", logprobs: 3, max_tokens: 50 };
    const first = await complete(await sim(), body);
    const second = await complete(await sim(), body);
    const third = await complete(await sim(), body);
    expect(second.json.choices).toEqual(first.json.choices);
    expect(third.json.choices).toEqual(first.json.choices);
    expect(second.json.usage).toEqual(first.json.usage);
  });

  it("echo: prepends the prompt to the same completion", async () => {
    const s = await sim();
    const plain = await complete(s, { model: MODEL, prompt: ADD_SUB });
    const echoed = await complete(s, { model: MODEL, prompt: ADD_SUB, echo: true });
    expect(echoed.json.choices[0].text).toBe(ADD_SUB + plain.json.choices[0].text);
    expect(echoed.json.usage.completion_tokens).toBe(plain.json.usage.completion_tokens);
    const off = await complete(s, { model: MODEL, prompt: ADD_SUB, echo: false });
    expect(off.json.choices[0].text).toBe(plain.json.choices[0].text);
  });

  describe("stop", () => {
    it.each([
      { stop: " +", text: "return a", why: "cut before the stop string" },
      { stop: [" b", " +"], text: "return a", why: "the earliest of several wins" },
      { stop: ["return"], text: "", why: "a stop at the start leaves nothing" },
      { stop: ["never there"], text: "return a + b;", why: "an absent stop changes nothing" },
      { stop: [""], text: "return a + b;", why: "an empty stop string is ignored" },
      { stop: null, text: "return a + b;", why: "null is no stop" },
    ])("$why", async ({ stop, text }) => {
      const s = await sim();
      const { json } = await complete(s, { model: MODEL, prompt: ADD_SUB, stop });
      expect(json.choices[0].text).toBe(text);
      expect(json.choices[0].finish_reason).toBe("stop");
      expect(json.usage.completion_tokens).toBe(tokenize(text).length);
    });
  });

  describe("max_tokens", () => {
    const full = "return a + b;";
    const fullTokens = tokenize(full);

    it("cuts at max_tokens with finish_reason length", async () => {
      const s = await sim();
      const { json } = await complete(s, { model: MODEL, prompt: ADD_SUB, max_tokens: 2 });
      expect(json.choices[0].text).toBe(fullTokens.slice(0, 2).join(""));
      expect(json.choices[0].finish_reason).toBe("length");
      expect(json.usage.completion_tokens).toBe(2);
    });

    it("says stop when the text ends exactly at max_tokens", async () => {
      const s = await sim();
      const { json } = await complete(s, { model: MODEL, prompt: ADD_SUB, max_tokens: fullTokens.length });
      expect(json.choices[0].text).toBe(full);
      expect(json.choices[0].finish_reason).toBe("stop");
    });

    it("prefers length when max_tokens comes before a stop string", async () => {
      const s = await sim();
      const { json } = await complete(s, { model: MODEL, prompt: ADD_SUB, max_tokens: 1, stop: ";" });
      expect(json.choices[0]).toMatchObject({ text: "return", finish_reason: "length" });
    });
  });

  describe("logprobs", () => {
    it("is null unless asked", async () => {
      const s = await sim();
      const { json } = await complete(s, { model: MODEL, prompt: ADD_SUB, logprobs: null });
      expect(json.choices[0].logprobs).toBeNull();
    });

    it.each([0, 1, 5, 20])("logprobs %i: four aligned arrays, at most n+1 alternatives", async (n) => {
      const s = await sim();
      const prompt = `${ADD_SUB}return a - b;\n}\nfunction mul(a, b) {\n  `;
      const { json } = await complete(s, { model: MODEL, prompt, logprobs: n });
      const choice = json.choices[0];
      const lp = choice.logprobs;
      expect(Object.keys(lp).sort()).toEqual(["text_offset", "token_logprobs", "tokens", "top_logprobs"]);
      expect(lp.tokens.join("")).toBe(choice.text);
      expect(lp.tokens.length).toBe(json.usage.completion_tokens);
      expect(lp.tokens.length).toBeGreaterThan(3);
      for (const key of ["token_logprobs", "top_logprobs", "text_offset"])
        expect(lp[key]).toHaveLength(lp.tokens.length);
      let offset = prompt.length;
      lp.tokens.forEach((token: string, k: number) => {
        const logprob = lp.token_logprobs[k];
        expect(logprob).toBeLessThan(0);
        expect(Number.isInteger(logprob)).toBe(false);
        const top = lp.top_logprobs[k];
        const entries = Object.keys(top).length;
        expect(entries).toBeLessThanOrEqual(n + 1);
        expect(entries).toBeGreaterThanOrEqual(Math.max(1, n));
        for (const value of Object.values(top)) expect(value).toBeLessThan(0);
        // The sampled token's logprob is always there, and agrees when it is listed.
        if (token in top) expect(top[token]).toBe(logprob);
        else expect(entries).toBe(n);
        expect(lp.text_offset[k]).toBe(offset);
        offset += token.length;
      });
    });

    it("with echo, text_offset indexes the returned text", async () => {
      const s = await sim();
      const { json } = await complete(s, { model: MODEL, prompt: ADD_SUB, logprobs: 2, echo: true });
      const { text, logprobs } = json.choices[0];
      logprobs.tokens.forEach((token: string, k: number) => {
        expect(text.slice(logprobs.text_offset[k], logprobs.text_offset[k] + token.length)).toBe(token);
      });
    });

    it("shows the sampled token on top of n alternatives somewhere (the n+1 case)", async () => {
      const s = await sim();
      const prompt = `${"const value = compute(first, second, third);\n".repeat(3)}const value = `;
      const { json } = await complete(s, { model: MODEL, prompt, logprobs: 4, max_tokens: 200 });
      const sizes = json.choices[0].logprobs.top_logprobs.map((top: object) => Object.keys(top).length);
      expect(sizes).toContain(5);
      expect(sizes).toContain(4);
    });
  });

  it("treats a prompt with nothing to copy with a deterministic filler", async () => {
    const s = await sim();
    const a = await complete(s, { model: MODEL, prompt: "" });
    const b = await complete(s, { model: MODEL, prompt: "" });
    expect(a.json.choices[0].text).toMatch(/^\/\/ TODO: /);
    expect(b.json.choices[0].text).toBe(a.json.choices[0].text);
    expect(a.json.usage.prompt_tokens).toBe(0);
  });
});
