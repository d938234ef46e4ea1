// Progress lines, the summary and the cost estimate: figures in, text out.
import { describe, expect, it } from "vitest";
import { CostEstimate, estimateTokens, FIM_MAX_TOKENS, worstCaseCost } from "../src/batch/cost-estimate.js";
import {
  etaMs,
  formatBar,
  formatDuration,
  formatProgressLine,
  formatShort,
  formatSummary,
  type RunFigures,
  summarize,
} from "../src/batch/progress.js";
import { PRICES, priceOf } from "../src/index.js";

const figures: RunFigures = {
  sent: 5_300,
  answered: 5_100,
  failed: 100,
  inFlight: 64,
  concurrency: 64,
  rateLimited: 12,
  promptTokens: 1_000_000,
  cacheHitTokens: 900_000,
  completionTokens: 234_000,
  cost: 0.0123,
  elapsedMs: 20_000,
  stopped: undefined,
  notSent: 0,
  total: 10_000,
  invalid: 3,
};

describe("progress", () => {
  it.each([
    [0, "0:00"],
    [7_400, "0:07"],
    [754_000, "12:34"],
    [3_723_000, "1:02:03"],
  ])("formatDuration(%i) = %s", (ms, text) => {
    expect(formatDuration(ms)).toBe(text);
  });

  it.each([
    [999, "999"],
    [1_234, "1.2k"],
    [3_400_000, "3.4M"],
  ])("formatShort(%i) = %s", (value, text) => {
    expect(formatShort(value)).toBe(text);
  });

  it("estimates the time left from the rate so far", () => {
    // 5,200 done in 20 s: 260/s, 4,800 left.
    expect(etaMs(figures)).toBeCloseTo((4_800 / 260) * 1000);
    expect(etaMs({ ...figures, total: undefined })).toBeUndefined();
    expect(etaMs({ ...figures, answered: 0, failed: 0 })).toBeUndefined();
  });

  it("draws the bar, cut to the terminal's width", () => {
    expect(formatBar(figures, 200)).toBe(
      "[##########----------]  52% 5,200/10,000 260/s ETA 0:18 │ 64/64 in flight │ 1.2M tok $0.0123 │ 100 errors",
    );
    expect(formatBar(figures, 30)).toHaveLength(30);
  });

  it("prints a plain line off a terminal", () => {
    expect(formatProgressLine(figures)).toBe(
      "infill batch: 5,200/10,000 done, 260.0/s, ETA 0:18, 64 in flight (limit 64), 1,234,000 tokens, $0.0123, " +
        "100 errors, 12 rate-limited",
    );
  });

  it("sums up a run", () => {
    const summary = summarize(
      { ...figures, inFlight: 0, stopped: "max-cost" },
      { skipped: 7, initialConcurrency: 8, highestConcurrency: 70, interrupted: false },
    );
    expect(summary).toMatchObject({
      skipped: 7,
      total: 10_000,
      answered: 5_100,
      failed: 100,
      invalid: 3,
      not_sent: 4_800,
      requests_per_second: 260,
      concurrency: { initial: 8, final: 64, highest: 70 },
      stopped: "max-cost",
    });
    expect(summary.peak_rss_bytes).toBeGreaterThan(1_000_000);
    expect(formatSummary(summary)).toBe(
      "infill batch: 5,100 answered, 100 errors (3 bad input lines), 4,800 not sent, 7 already answered in 0:20 (260.0/s)\n" +
        "  tokens: 1,000,000 prompt (90 % from the cache), 234,000 generated; cost $0.0123 at list prices (an estimate)\n" +
        "  concurrency: 8 at the start, 70 at most, 64 at the end; 12 rate-limited answers sent again\n" +
        "  stopped: the next request could have passed --max-cost\n",
    );
  });
});

describe("cost estimate", () => {
  it("counts 3.5 characters a token, rounded up", () => {
    expect(estimateTokens(0)).toBe(0);
    expect(estimateTokens(7)).toBe(2);
    expect(estimateTokens(8)).toBe(3);
  });

  it("bounds a request's cost: no cache hits, all of max_tokens", () => {
    const flash = PRICES["deepseek-v4-flash"]!;
    expect(worstCaseCost(1_000_000, 1_000_000, flash)).toBeCloseTo(0.14 + 0.28);
  });

  it("adds up requests by model, with the tokenizer's range and the cache's", () => {
    const estimate = new CostEstimate();
    estimate.add("deepseek-v4-flash", 3_500_000, 100);
    estimate.add("deepseek-v4-flash", 3_500_000, undefined);
    estimate.add("llama", 350, 10);
    const [flash, llama] = estimate.models((model) => priceOf(model));
    expect(flash).toEqual({
      model: "deepseek-v4-flash",
      requests: 2,
      promptTokens: 2_000_000,
      promptTokensRange: [1_590_910, 2_187_500],
      maxOutputTokens: 100 + FIM_MAX_TOKENS,
      unboundedRequests: 1,
      cost: {
        promptNoCacheHits: expect.closeTo(2.1875 * 0.14, 9),
        promptAllCacheHits: expect.closeTo(1.59091 * 0.0028, 9),
        maxOutput: expect.closeTo(((100 + FIM_MAX_TOKENS) / 1e6) * 0.28, 9),
      },
    });
    expect(llama).toMatchObject({ model: "llama", requests: 1, promptTokens: 100 });
    expect(llama?.cost).toBeUndefined();
  });
});
