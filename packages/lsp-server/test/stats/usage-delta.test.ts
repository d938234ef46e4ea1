import { emptyTotals, PRICES, type UsageTotals } from "@infill/core";
import { describe, expect, it } from "vitest";
import { LatencyWindow } from "../../src/completion/latency-window.js";
import {
  billedTokens,
  retentionDelta,
  shownDelta,
  takenDelta,
  upstreamDelta,
} from "../../src/stats/usage-delta.js";
import { USAGE, USAGE_FLASH_COST } from "../support/usage-report.js";

const flash = PRICES["deepseek-v4-flash"]!;
const totals = (figures: Partial<UsageTotals>): UsageTotals => ({ ...emptyTotals(), ...figures });
const usage = USAGE;

describe("billedTokens", () => {
  it.each([
    ["DeepSeek's cache fields", usage, { cacheHit: 896, cacheMiss: 104, completion: 12 }],
    // Ollama and llama.cpp report no cache fields: every prompt token missed the cache.
    [
      "no cache fields",
      { prompt_tokens: 500, completion_tokens: 7, total_tokens: 507 },
      { cacheHit: 0, cacheMiss: 500, completion: 7 },
    ],
    [
      "a hit count only",
      { prompt_tokens: 500, prompt_cache_hit_tokens: 128, completion_tokens: 7, total_tokens: 507 },
      { cacheHit: 128, cacheMiss: 372, completion: 7 },
    ],
  ])("%s", (_name, reported, expected) => {
    expect(billedTokens(reported)).toEqual(expected);
  });
});

describe("upstreamDelta", () => {
  it.each<[string, Parameters<typeof upstreamDelta>[0], UsageTotals]>([
    [
      "completed with usage: tokens and their cost",
      { outcome: "completed", usage },
      totals({
        requests: 1,
        cacheHitTokens: 896,
        cacheMissTokens: 104,
        completionTokens: 12,
        cost: USAGE_FLASH_COST,
      }),
    ],
    [
      "completed, cut before the usage arrived",
      { outcome: "completed" },
      totals({ requests: 1, unreported: 1 }),
    ],
    ["cancelled", { outcome: "cancelled" }, totals({ requests: 1, cancelled: 1, unreported: 1 })],
    ["superseded", { outcome: "superseded" }, totals({ requests: 1, superseded: 1, unreported: 1 })],
    ["failed", { outcome: "failed" }, totals({ requests: 1, failed: 1, unreported: 1 })],
  ])("%s", (_name, end, expected) => {
    const delta = upstreamDelta(end, flash);
    expect({ ...delta, cost: 0 }).toEqual({ ...expected, cost: 0 });
    expect(delta.cost).toBeCloseTo(expected.cost, 15);
  });

  it("counts the tokens of a model without a price apart, at no cost", () => {
    expect(upstreamDelta({ outcome: "completed", usage }, undefined)).toEqual(
      totals({
        requests: 1,
        cacheHitTokens: 896,
        cacheMissTokens: 104,
        completionTokens: 12,
        unpricedTokens: 1012,
      }),
    );
  });
});

describe("shownDelta and takenDelta", () => {
  it("showing counts one suggestion", () => {
    expect(shownDelta()).toEqual(totals({ shown: 1 }));
  });

  it.each<[string, number, number, number, Partial<UsageTotals>]>([
    // The square grows from before² to reached²: summed over suggestions, Σ (characters taken)².
    ["nothing taken yet, now a word", 20, 0, 5, { acceptedChars: 5, acceptedCharsSq: 25, acceptedPartly: 1 }],
    ["nothing, now all of it", 20, 0, 20, { acceptedChars: 20, acceptedCharsSq: 400, accepted: 1 }],
    ["a word, now another: still in part", 20, 5, 11, { acceptedChars: 6, acceptedCharsSq: 121 - 25 }],
    [
      "in part, now to the end: whole",
      20,
      11,
      20,
      { acceptedChars: 9, acceptedCharsSq: 400 - 121, accepted: 1, acceptedPartly: -1 },
    ],
    [
      "more than its length counts its length",
      20,
      0,
      35,
      { acceptedChars: 20, acceptedCharsSq: 400, accepted: 1 },
    ],
    ["already whole: nothing more", 20, 20, 20, {}],
    ["less than before (a late report): nothing", 20, 11, 5, {}],
    ["nothing", 20, 0, 0, {}],
  ])("%s", (_name, total, before, reached, expected) => {
    expect(takenDelta(total, before, reached)).toEqual(totals(expected));
  });
});

describe("retentionDelta", () => {
  it("counts the characters checked and kept at a horizon, and the square of those kept", () => {
    expect(retentionDelta(30, 13, 9)).toEqual(
      totals({ retention: { "30": { checkedChars: 13, retainedChars: 9, retainedCharsSq: 81 } } }),
    );
    // Never more kept than checked, nor less than none.
    expect(retentionDelta(0.5, 4, 7).retention).toEqual({
      "0.5": { checkedChars: 4, retainedChars: 4, retainedCharsSq: 16 },
    });
    expect(retentionDelta(600, 4, -1).retention["600"]!.retainedChars).toBe(0);
  });
});

describe("LatencyWindow", () => {
  it("has no percentiles before any sample", () => {
    expect(new LatencyWindow().summary()).toEqual({ p50: null, p90: null, samples: 0 });
  });

  it("takes nearest-rank percentiles over the latest samples only", () => {
    const window = new LatencyWindow(10);
    for (let ms = 1; ms <= 10; ms++) window.add(ms);
    expect(window.summary()).toEqual({ p50: 5, p90: 9, samples: 10 });
    // Ten more push the first ten out.
    for (let ms = 101; ms <= 110; ms++) window.add(ms);
    expect(window.summary()).toEqual({ p50: 105, p90: 109, samples: 10 });
    window.add(Number.NaN);
    window.add(-1);
    expect(window.summary().samples).toBe(10);
  });
});
