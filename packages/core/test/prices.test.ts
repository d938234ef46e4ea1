import { describe, expect, it } from "vitest";
import { estimateCost, PRICES, priceOf } from "../src/index.js";

describe("prices", () => {
  it("knows DeepSeek's V4 list prices per million tokens (cache hit, cache miss, output)", () => {
    expect(PRICES).toEqual({
      "deepseek-v4-flash": { cacheHit: 0.0028, cacheMiss: 0.14, output: 0.28 },
      "deepseek-v4-pro": { cacheHit: 0.003625, cacheMiss: 0.435, output: 0.87 },
    });
    expect(Object.isFrozen(PRICES) && Object.isFrozen(PRICES["deepseek-v4-flash"])).toBe(true);
  });

  it.each([
    ["a built-in model", "deepseek-v4-pro", {}, PRICES["deepseek-v4-pro"]],
    ["an unknown model", "qwen2.5-coder:7b", {}, undefined],
    [
      "an override replaces the entry whole",
      "deepseek-v4-flash",
      { "deepseek-v4-flash": { cacheHit: 0, cacheMiss: 0.1, output: 0.2 } },
      { cacheHit: 0, cacheMiss: 0.1, output: 0.2 },
    ],
    [
      "an override adds a model",
      "codestral-latest",
      { "codestral-latest": { cacheHit: 0.3, cacheMiss: 0.3, output: 0.9 } },
      { cacheHit: 0.3, cacheMiss: 0.3, output: 0.9 },
    ],
    ["inherited keys are not models", "toString", {}, undefined],
  ])("priceOf: %s", (_name, model, overrides, expected) => {
    expect(priceOf(model, overrides)).toEqual(expected);
  });

  it.each([
    // 1M of each at flash prices: the three prices added.
    [{ cacheHit: 1e6, cacheMiss: 1e6, completion: 1e6 }, "deepseek-v4-flash", 0.0028 + 0.14 + 0.28],
    // A typical request: 3,968 cached + 128 uncached prompt tokens, 24 generated.
    [
      { cacheHit: 3968, cacheMiss: 128, completion: 24 },
      "deepseek-v4-flash",
      (3968 * 0.0028 + 128 * 0.14 + 24 * 0.28) / 1e6,
    ],
    [
      { cacheHit: 3968, cacheMiss: 128, completion: 24 },
      "deepseek-v4-pro",
      (3968 * 0.003625 + 128 * 0.435 + 24 * 0.87) / 1e6,
    ],
    [{ cacheHit: 0, cacheMiss: 0, completion: 0 }, "deepseek-v4-pro", 0],
  ])("estimateCost(%o) at %s", (tokens, model, expected) => {
    expect(estimateCost(tokens, PRICES[model]!)).toBeCloseTo(expected, 15);
  });
});
