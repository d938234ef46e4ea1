import { readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { TokenCache } from "../src/token-cache.js";
import { tokenize } from "../src/tokenize.js";

describe("tokenize", () => {
  it.each<[string, string[]]>([
    ["", []],
    ["function add(a, b) {", ["function", " add", "(", "a", ",", " b", ")", " ", "{"]],
    ["\n  return a + b;\n}", ["\n  ", "return", " a", " ", "+", " b", ";", "\n", "}"]],
    ["x = 12345;", ["x", " ", "=", " ", "123", "45", ";"]],
    ["averyveryverylongidentifier", ["averyver", "yverylon", "gidentif", "ier"]],
    ["});\r\n\tif", ["})", ";", "\r\n\t", "if"]],
    ["你好 😀", ["你", "好", " ", "😀"]],
    ["snake_case $el", ["snake_ca", "se", " $el"]],
  ])("%j", (text, tokens) => {
    expect(tokenize(text)).toEqual(tokens);
  });

  it("loses nothing: the tokens concatenate to the text, none empty", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 300 }), (text) => {
        const tokens = tokenize(text);
        expect(tokens.join("")).toBe(text);
        expect(tokens.every((t) => t.length > 0)).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  it("is about as dense as DeepSeek's tokenizer on code (3–4.5 characters per token)", () => {
    const sources = ["../src/server.ts", "../src/prompt-lookup.ts", "../src/validate.ts"].map((path) =>
      readFileSync(new URL(path, import.meta.url), "utf8"),
    );
    const text = sources.join("\n");
    const ratio = text.length / tokenize(text).length;
    expect(ratio).toBeGreaterThan(3);
    expect(ratio).toBeLessThan(4.5);
  });
});

describe("TokenCache", () => {
  it("returns the same tokens, from memory for long texts", () => {
    const cache = new TokenCache(10_000, 100);
    const long = "const value = compute(1, 2);\n".repeat(10);
    const first = cache.tokens(long);
    expect(first).toEqual(tokenize(long));
    expect(cache.tokens(long)).toBe(first);
    expect(cache.tokens("short")).toEqual(["short"]);
    expect(cache.tokens("short")).not.toBe(cache.tokens("short"));
  });

  it("stays within its character budget, dropping the least recently used", () => {
    const cache = new TokenCache(1000, 100);
    const texts = Array.from({ length: 4 }, (_, i) => `${i}`.repeat(400));
    const kept = cache.tokens(texts[0]!);
    cache.tokens(texts[1]!);
    expect(cache.tokens(texts[0]!)).toBe(kept); // refreshes texts[0]
    cache.tokens(texts[2]!); // over budget: texts[1] goes
    expect(cache.tokens(texts[0]!)).toBe(kept);
    const again = cache.tokens(texts[1]!);
    expect(cache.tokens(texts[1]!)).toBe(again);
    expect(cache.tokens(texts[3]!.repeat(3))).toEqual(tokenize(texts[3]!.repeat(3)));
  });
});
