import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { daysOf, formatUsageBreakdown, usageGroups } from "../src/usage-breakdown.js";
import { usageLanguage } from "../src/usage-dimensions.js";
import { parseUsageLog, summarizeUsage } from "../src/usage-report.js";

// November: an older line (no language, no context), lines per language and context arm with retention checks at
// 30 s, 2, 5 and 10 min, and a line whose language is a path and whose context is not an arm.
const fixture = readFileSync(new URL("./fixtures/usage/2026-11.jsonl", import.meta.url), "utf8");
const log = parseUsageLog(fixture);
const summary = summarizeUsage(log.records, "2026-11", "2026-11-06");

describe("usageLanguage", () => {
  it.each([
    ["typescript", "typescript"],
    ["TypeScript", "typescript"],
    ["objective-c", "objective-c"],
    ["c++", "c++"],
    ["/home/u/secret.py", "unknown"],
    ["", "unknown"],
    ["a".repeat(41), "unknown"],
  ])("%s → %s", (id, language) => {
    expect(usageLanguage(id)).toBe(language);
  });
});

describe("summarizeUsage by language and context", () => {
  it("reads every line; older lines and values that are not ours are `unknown`", () => {
    expect(log.skipped).toBe(0);
    expect(summary.languages.map((l) => l.language)).toEqual(["typescript", "python", "unknown"]);
    expect(summary.contexts.map((c) => c.context)).toEqual(["on", "holdout", "unknown"]);
    const unknown = summary.languages.find((l) => l.language === "unknown")!;
    expect(unknown.figures.requests).toBe(12 + 1);
  });

  it("sums to the month's total whichever way it is split, retention included", () => {
    for (const groups of [summary.languages, summary.contexts, summary.models]) {
      const sum = (pick: (f: (typeof groups)[number]["figures"]) => number) =>
        groups.reduce((n, g) => n + pick(g.figures), 0);
      expect(sum((f) => f.requests)).toBe(summary.total.requests);
      expect(sum((f) => f.acceptedChars)).toBe(summary.total.acceptedChars);
      expect(sum((f) => f.retention["600"]?.retainedChars ?? 0)).toBe(
        summary.total.retention["600"]!.retainedChars,
      );
    }
    expect(summary.total.retained.map((r) => r.seconds)).toEqual([30, 120, 300, 600]);
    // Every group lists every horizon, checked or not.
    expect(summary.contexts.at(-1)!.figures.retained.map((r) => [r.seconds, r.rate])).toEqual([
      [30, null],
      [120, null],
      [300, null],
      [600, null],
    ]);
  });
});

describe("summarizeUsage by kind", () => {
  const line = (fields: Record<string, unknown>) =>
    JSON.stringify({ v: 1, day: "2026-11-02", model: "deepseek-v4-flash", requests: 1, ...fields });

  it.each<[string, Record<string, unknown>, string | null]>([
    ["a line written before kinds", {}, "completion"],
    ["a completion", { kind: "completion" }, "completion"],
    ["a next edit", { kind: "next-edit" }, "next-edit"],
    ["a kind that is not one of ours", { kind: "Next-Edit" }, "unknown"],
    ["a kind that is not a string", { kind: 3 }, null],
  ])("%s → %s", (_name, fields, kind) => {
    const read = parseUsageLog(line(fields));
    expect(read.records.map((r) => r.kind)).toEqual(kind === null ? [] : [kind]);
    expect(read.skipped).toBe(kind === null ? 1 : 0);
  });

  const mixed = parseUsageLog(
    [
      line({ kind: "next-edit", requests: 5, shown: 4, accepted: 1, acceptedChars: 30 }),
      line({ requests: 7, shown: 6, accepted: 3, acceptedChars: 40 }),
      line({ kind: "zzz", requests: 1 }),
      line({ kind: "completion", requests: 2, day: "2026-11-03" }),
    ].join("\n"),
  ).records;
  const byKind = summarizeUsage(mixed, "2026-11", "2026-11-03");

  it("lists completions, then next edits, then unknown, and sums to the month's total", () => {
    expect(byKind.kinds.map((k) => [k.kind, k.figures.requests, k.days.length])).toEqual([
      ["completion", 9, 2],
      ["next-edit", 5, 1],
      ["unknown", 1, 1],
    ]);
    expect(byKind.kinds.reduce((n, k) => n + k.figures.requests, 0)).toBe(byKind.total.requests);
    expect(byKind.kinds[1]?.figures.acceptanceRate).toBe(1 / 4);
  });

  it("names the kinds in the report", () => {
    expect(usageGroups(byKind, "kind").map((g) => g.label)).toEqual(["completion", "next edit", "unknown"]);
    const rows = formatUsageBreakdown(byKind, "kind", "2026-11-03").split("\n");
    expect(rows[0]!.split(/\s{2,}/).slice(0, 2)).toEqual(["kind", "requests"]);
    expect(
      rows
        .find((row) => row.startsWith("next edit"))
        ?.split(/\s{2,}/)
        .slice(0, 2),
    ).toEqual(["next edit", "5"]);
  });

  it("the fixture's lines (written before kinds) are all completions", () => {
    expect(summary.kinds.map((k) => [k.kind, k.figures.requests])).toEqual([
      ["completion", summary.total.requests],
    ]);
  });
});

describe("daysOf", () => {
  it("lists the month's days, up to today when today is in it", () => {
    expect(daysOf("2026-02")).toHaveLength(28);
    expect(daysOf("2028-02").at(-1)).toBe("2028-02-29");
    expect(daysOf("2026-11", "2026-11-03")).toEqual(["2026-11-01", "2026-11-02", "2026-11-03"]);
    expect(daysOf("2026-11", "2026-12-03")).toHaveLength(30);
  });
});

describe("formatUsageBreakdown", () => {
  it("prints a row per language with what was taken and kept at each horizon, then per dollar with a chart of the days", () => {
    const text = formatUsageBreakdown(summary, "language", "2026-11-06");
    const lines = text.split("\n");
    expect(lines[0]!.split(/\s{2,}/)).toEqual([
      "language",
      "requests",
      "est. cost",
      "shown",
      "taken",
      "rate",
      "accepted chars",
      "kept at 30 s",
      "kept at 2 min",
      "kept at 5 min",
      "kept at 10 min",
    ]);
    const ts = summary.languages[0]!.figures;
    const row = lines.find((l) => l.startsWith("typescript "))!;
    expect(row.split(/\s{2,}/).slice(0, 3)).toEqual(["typescript", String(ts.requests), expect.any(String)]);
    const kept600 = ts.retention["600"]!;
    expect(row).toMatch(
      new RegExp(
        `${kept600.retainedChars.toLocaleString("en-US")} \\(${Math.round((kept600.retainedChars / kept600.checkedChars) * 100)} %\\)$`,
      ),
    );
    // The chart: days 1 to 6; the 4th and 6th had no usage at all (spaces), the 1st only older lines (low block).
    const chart = lines.filter((l) => /accepted chars per day|[▁-█]/.test(l));
    expect(chart[0]).toMatch(/accepted chars per day, 11-01…11-06$/);
    const typescript = chart.find((l) => l.startsWith("typescript "))!;
    expect(typescript.slice(-5)).toMatch(/^▁[▁-█]{2} [▁-█]$/);
    expect(text).not.toContain("Context's effect");
  });

  it("by context, names the arms and compares them", () => {
    expect(usageGroups(summary, "context").map((g) => g.label)).toEqual([
      "with context",
      "held out",
      "unknown (older lines)",
    ]);
    const text = formatUsageBreakdown(summary, "context", "2026-11-06");
    expect(text).toContain("Context's effect: requests sent with the repository block");
    const held = summary.contexts.find((c) => c.context === "holdout")!.figures;
    expect(text).toMatch(
      new RegExp(`^requests\\s+${summary.contexts[0]!.figures.requests}\\s+${held.requests}$`, "m"),
    );
  });
});
