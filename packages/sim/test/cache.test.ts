import { describe, expect, it } from "vitest";
import { CACHE_UNIT_TOKENS, PrefixCache, unitKeys } from "../src/prefix-cache.js";
import { tokenize } from "../src/tokenize.js";
import { complete, MODEL, sim } from "./helpers.js";

// About 1 000 tokens of code whose lines all differ.
const LINES = Array.from({ length: 80 }, (_, i) => `  const value${i} = compute(${i}, "item-${i}");`);
const PROMPT = `function build() {\n${LINES.join("\n")}\n  return `;

function usage(
  s: Awaited<ReturnType<typeof sim>>,
  prompt: string,
  extra: Record<string, unknown> = {},
  key = "k",
) {
  return complete(
    s,
    { model: MODEL, prompt, max_tokens: 8, ...extra },
    { authorization: `Bearer ${key}` },
  ).then((r) => r.json.usage);
}

describe("context cache accounting over HTTP", () => {
  it("a repeated prompt hits in 64-token units; hit + miss = prompt_tokens", async () => {
    const s = await sim();
    const tokens = tokenize(PROMPT).length;
    expect(tokens).toBeGreaterThan(10 * CACHE_UNIT_TOKENS);
    const first = await usage(s, PROMPT);
    expect(first).toMatchObject({
      prompt_tokens: tokens,
      prompt_cache_hit_tokens: 0,
      prompt_cache_miss_tokens: tokens,
    });
    const second = await usage(s, PROMPT);
    const expected = Math.floor(tokens / 64) * 64;
    expect(second).toMatchObject({
      prompt_tokens: tokens,
      prompt_cache_hit_tokens: expected,
      prompt_cache_miss_tokens: tokens - expected,
      prompt_tokens_details: { cached_tokens: expected },
    });
  });

  it("a request sharing a long prefix hits up to the last whole unit of the shared part", async () => {
    const s = await sim();
    await usage(s, PROMPT);
    const edited = `${PROMPT.slice(0, PROMPT.indexOf("value60"))}changed = 1;\n  return `;
    const shared = tokenize(PROMPT.slice(0, PROMPT.indexOf("value60"))).length;
    const hit = (await usage(s, edited)).prompt_cache_hit_tokens;
    expect(hit % 64).toBe(0);
    expect(hit).toBeGreaterThan(0);
    expect(hit).toBeLessThanOrEqual(shared);
    expect(hit).toBeGreaterThan(shared - 64 - 2);
  });

  it("a changed early line makes everything a miss", async () => {
    const s = await sim();
    await usage(s, PROMPT);
    const edited = PROMPT.replace("value1 =", "renamed1 =");
    const result = await usage(s, edited);
    expect(result.prompt_cache_hit_tokens).toBe(0);
    expect(result.prompt_cache_miss_tokens).toBe(result.prompt_tokens);
  });

  it("a prompt shorter than one unit never hits", async () => {
    const s = await sim();
    await usage(s, "const x = 1;\n");
    expect((await usage(s, "const x = 1;\n")).prompt_cache_hit_tokens).toBe(0);
  });

  it("the sequence is prompt, hole marker, suffix: a new suffix keeps the prompt's hits", async () => {
    const s = await sim();
    const suffix = `\n}\n${LINES.slice(0, 20).join("\n")}`;
    const first = await usage(s, PROMPT, { suffix });
    expect(first.prompt_tokens).toBe(tokenize(PROMPT).length + 1 + tokenize(suffix).length);
    const same = await usage(s, PROMPT, { suffix });
    expect(same.prompt_cache_hit_tokens).toBe(Math.floor(same.prompt_tokens / 64) * 64);
    const otherSuffix = await usage(s, PROMPT, { suffix: "\n}\n// other" });
    expect(otherSuffix.prompt_cache_hit_tokens).toBe(Math.floor(tokenize(PROMPT).length / 64) * 64);
  });

  it("each API key has its own cache", async () => {
    const s = await sim();
    await usage(s, PROMPT, {}, "key-one");
    expect((await usage(s, PROMPT, {}, "key-two")).prompt_cache_hit_tokens).toBe(0);
    expect((await usage(s, PROMPT, {}, "key-one")).prompt_cache_hit_tokens).toBeGreaterThan(0);
  });

  it("each simulator has its own cache", async () => {
    await usage(await sim(), PROMPT);
    expect((await usage(await sim(), PROMPT)).prompt_cache_hit_tokens).toBe(0);
  });

  it("failed requests store nothing", async () => {
    const s = await sim({ faults: [{ type: "status", status: 503 }] });
    await complete(s, { model: MODEL, prompt: PROMPT });
    await complete(s, { model: "deepseek-chat", prompt: PROMPT });
    expect((await usage(s, PROMPT)).prompt_cache_hit_tokens).toBe(0);
  });
});

describe("unitKeys", () => {
  const of = (text: string) => ({ text, tokens: tokenize(text) });
  const prompt = of(PROMPT);
  const count = prompt.tokens.length;

  it("one key per whole 64-token unit", () => {
    expect(unitKeys("", prompt)).toHaveLength(Math.floor(count / 64));
    const first63 = prompt.tokens.slice(0, 63).join("");
    expect(unitKeys("", of(first63))).toEqual([]);
    expect(unitKeys("", of(prompt.tokens.slice(0, 64).join("")))).toHaveLength(1);
  });

  it("is a prefix hash: keys of a prefix are a prefix of the keys", () => {
    const all = unitKeys("ns", prompt);
    expect(unitKeys("ns", of(prompt.tokens.slice(0, 300).join("")))).toEqual(all.slice(0, 4));
    expect(unitKeys("ns", of(PROMPT.slice(0, -3)))).toEqual(all.slice(0, Math.floor((count - 1) / 64)));
  });

  it("counts the hole marker as a token and hashes the suffix after it", () => {
    const head = of(prompt.tokens.slice(0, 40).join(""));
    const withHole = unitKeys("a", head, head);
    expect(withHole).toHaveLength(1); // 40 + 1 + 40 tokens
    expect(withHole[0]).not.toBe(unitKeys("a", of(head.text + head.text))[0]);
    const exactly = of(prompt.tokens.slice(0, 63).join(""));
    const atHole = unitKeys("a", exactly, of("x"));
    expect(atHole).toHaveLength(1); // the unit ends on the hole marker
    expect(unitKeys("a", exactly, of("y"))).toEqual(atHole);
    expect(unitKeys("a", exactly)).toEqual([]);
  });

  it("depends on the namespace and on every character", () => {
    const base = unitKeys("a", prompt);
    expect(unitKeys("b", prompt)[0]).not.toBe(base[0]);
    expect(unitKeys("a", of(PROMPT.replace("value3 ", "value4 ")))[0]).not.toBe(base[0]);
  });

  it("gives safe integers", () => {
    for (const key of unitKeys("k", prompt, prompt)) expect(Number.isSafeInteger(key)).toBe(true);
  });
});

describe("PrefixCache", () => {
  it("counts the longest stored prefix", () => {
    const cache = new PrefixCache();
    expect(cache.account([1, 2])).toBe(0);
    expect(cache.account([1, 2, 3])).toBe(128);
    expect(cache.account([1, 2, 3])).toBe(192);
    expect(cache.account([1, 9, 3])).toBe(192); // unit 3 stands for the whole 192-token prefix
    expect(cache.account([7])).toBe(0);
  });

  it("forgets units not used for a while, keeps those in use", () => {
    const cache = new PrefixCache(8); // generations of 4 units
    cache.account([1]);
    cache.account([2]);
    for (let key = 100; key < 104; key++) {
      cache.account([key]);
      cache.account([1]); // stays in use
    }
    for (let key = 200; key < 204; key++) {
      cache.account([key]);
      cache.account([1]);
    }
    expect(cache.account([1])).toBe(64);
    expect(cache.account([2])).toBe(0);
  });
});
