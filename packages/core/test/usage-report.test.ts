import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { emptyTotals, summarizeUsage, type UsageRecord } from "../src/index.js";
import { formatCost } from "../src/usage-format.js";
import { formatUsageSummary, parseUsageLog } from "../src/usage-report.js";

const fixture = readFileSync(new URL("./fixtures/usage/2026-10.jsonl", import.meta.url), "utf8");

const record = (day: string, model: string, figures: Partial<UsageRecord> = {}): UsageRecord => ({
  ...emptyTotals(),
  day,
  provider: "deepseek",
  model,
  language: "typescript",
  context: "on",
  ...figures,
});

describe("parseUsageLog", () => {
  it.each<[string, string, number, number]>([
    ["an empty file", "", 0, 0],
    ["blank lines between records", '\n{"v":1,"day":"2026-10-01","model":"m"}\n\n  \n', 1, 0],
    [
      "a torn last line (a crash mid-write)",
      '{"v":1,"day":"2026-10-01","model":"m"}\n{"v":1,"day":"20',
      1,
      1,
    ],
    ["a newer format version", '{"v":2,"day":"2026-10-01","model":"m"}', 0, 1],
    ["no version", '{"day":"2026-10-01","model":"m"}', 0, 1],
    ["a figure that is not a number", '{"v":1,"day":"2026-10-01","model":"m","requests":"3"}', 0, 1],
    ["a day that is not a day", '{"v":1,"day":"yesterday","model":"m"}', 0, 1],
    ["an array", "[1,2]", 0, 1],
    ["not JSON at all", "garbage", 0, 1],
  ])("%s", (_name, text, records, skipped) => {
    const log = parseUsageLog(text);
    expect([log.records.length, log.skipped]).toEqual([records, skipped]);
  });

  it("counts a missing figure as 0, ignores unknown fields and keeps no format version", () => {
    const { records } = parseUsageLog(
      '{"v":1,"day":"2026-10-01","model":"m","requests":3,"fromTheFuture":1}',
    );
    expect(records).toEqual([
      record("2026-10-01", "m", {
        provider: "unknown",
        language: "unknown",
        context: "unknown",
        kind: "completion",
        requests: 3,
      }),
    ]);
  });

  it("reads the fixture: 3 lines skipped (a newer version, a bad figure, a torn end)", () => {
    const log = parseUsageLog(fixture);
    expect(log.skipped).toBe(3);
    expect(log.records).toHaveLength(6);
  });
});

describe("summarizeUsage", () => {
  const records = [
    record("2026-10-01", "deepseek-v4-flash", { requests: 2, cost: 0.001, shown: 2, accepted: 1 }),
    record("2026-10-02", "deepseek-v4-pro", { requests: 1, cost: 0.003, shown: 1, acceptedPartly: 1 }),
    record("2026-10-02", "deepseek-v4-flash", {
      requests: 3,
      cost: 0.001,
      cacheHitTokens: 90,
      cacheMissTokens: 10,
    }),
    record("2026-11-01", "deepseek-v4-flash", { requests: 100 }),
  ];

  it("sums the month, the day that is today, each model (the most expensive first) and each day", () => {
    const summary = summarizeUsage(records, "2026-10", "2026-10-02");
    expect(summary.total).toMatchObject({
      requests: 6,
      cost: 0.005,
      shown: 3,
      accepted: 1,
      acceptedPartly: 1,
    });
    expect(summary.total.cacheHitRatio).toBe(0.9);
    expect(summary.total.acceptanceRate).toBeCloseTo(2 / 3, 12);
    expect(summary.today).toMatchObject({ day: "2026-10-02", figures: { requests: 4, acceptanceRate: 1 } });
    expect(summary.models.map(({ model, figures }) => [model, figures.requests])).toEqual([
      ["deepseek-v4-pro", 1],
      ["deepseek-v4-flash", 5],
    ]);
    expect(summary.days.map(({ day, figures }) => [day, figures.requests])).toEqual([
      ["2026-10-01", 2],
      ["2026-10-02", 4],
    ]);
  });

  it("has no today row for another month, and zeros (with no ratios) for a month without records", () => {
    expect(summarizeUsage(records, "2026-10", "2026-11-05").today).toBeNull();
    const empty = summarizeUsage(records, "2026-09", "2026-09-30");
    expect(empty.today?.figures).toMatchObject({ requests: 0, cacheHitRatio: null, acceptanceRate: null });
    expect(empty.models).toEqual([]);
  });
});

describe("formatCost", () => {
  it.each([
    [0, "$0"],
    [0.0000142, "$0.000014"],
    [0.00642275, "$0.006423"],
    [0.0051, "$0.005100"],
    [0.5, "$0.5000"],
    [0.123456, "$0.1235"],
    [12.345, "$12.35"],
    [1234.5, "$1234.50"],
  ])("%d → %s", (usd, shown) => {
    expect(formatCost(usd)).toBe(shown);
  });
});

describe("formatUsageSummary", () => {
  it("prints today, the month and each model from the fixture", () => {
    const summary = summarizeUsage(parseUsageLog(fixture).records, "2026-10", "2026-10-02");
    expect(formatUsageSummary(summary)).toBe(
      [
        "                    requests  prompt tokens  cached  output tokens   est. cost  shown  taken  rate",
        "today (2026-10-02)        65        216,000    93 %          2,600  $0.002940*     50     20  40 %",
        "2026-10                  122        397,000    93 %          4,800  $0.006423*     95     38  40 %",
        "",
        "model                        requests  prompt tokens  cached  output tokens  est. cost  shown  taken  rate",
        "deepseek-v4-flash                 107        361,000    94 %          4,300  $0.005096     81     32  40 %",
        "deepseek-v4-pro                    10         32,000    94 %            400  $0.001327      9      4  44 %",
        "qwen2.5-coder:1.5b (ollama)         5          4,000     0 %            100        $0*      5      2  40 %",
        "",
        "Costs are estimates: list prices per million tokens (see `prices` in infill-lsp's settings), no discounts.",
        "* 4,100 tokens of models without a price are not in the cost; add them with the `prices` setting.",
        "22 of 122 requests ended without a usage report (cut short or aborted): their tokens are not counted.",
        "What is kept of what was taken, per dollar, by language, model or context: infill usage --by …",
        "",
      ].join("\n"),
    );
  });
});
