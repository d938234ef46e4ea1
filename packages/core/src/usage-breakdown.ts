// `infill usage --by language|model|context|kind`: a month split by one dimension, with what was taken and what is still
// there at each retention horizon, per dollar and per generated token, and a line per group of its days.
import { type ContextEffect, contextEffect, formatContextEffect } from "./context-effect.js";
import { sparkline } from "./sparkline.js";
import { formatCount, textTable } from "./text-table.js";
import { formatCost, formatPercent } from "./usage-format.js";
import { type DailyFigures, modelLabel, type UsageFigures, type UsageSummary } from "./usage-report.js";
import { emptyTotals } from "./usage-totals.js";
import { formatHorizon } from "./usage-yield.js";

/** What `--by` splits by. */
export const USAGE_DIMENSIONS = ["language", "model", "context", "kind"] as const;
export type UsageDimension = (typeof USAGE_DIMENSIONS)[number];

/** One group of a breakdown. */
export interface UsageGroup {
  /** How the report names it: a language id, a model (and its provider), a context arm or a kind. */
  label: string;
  figures: UsageFigures;
  days: DailyFigures;
}

/** The words of the context arms in reports. */
const ARM_LABELS: Record<string, string> = {
  on: "with context",
  holdout: "held out",
  off: "context off",
  unknown: "unknown (older lines)",
};

/** The words of the kinds in reports. */
const KIND_LABELS: Record<string, string> = {
  completion: "completion",
  "next-edit": "next edit",
  unknown: "unknown",
};

/** The groups of `summary` by `by`. */
export function usageGroups(summary: UsageSummary, by: UsageDimension): UsageGroup[] {
  if (by === "model") {
    return summary.models.map(({ provider, model, figures, days }) => ({
      label: modelLabel(provider, model),
      figures,
      days,
    }));
  }
  if (by === "language") {
    return summary.languages.map(({ language, figures, days }) => ({ label: language, figures, days }));
  }
  if (by === "kind") {
    return summary.kinds.map(({ kind, figures, days }) => ({
      label: KIND_LABELS[kind] ?? kind,
      figures,
      days,
    }));
  }
  return summary.contexts.map(({ context, figures, days }) => ({
    label: ARM_LABELS[context] ?? context,
    figures,
    days,
  }));
}

/** The context comparison of a month (see context-effect.ts). */
export function monthContextEffect(summary: UsageSummary): ContextEffect {
  const totals = (arm: string) => summary.contexts.find((c) => c.context === arm)?.figures ?? emptyTotals();
  return contextEffect(
    totals("on"),
    totals("holdout"),
    summary.total.retained.map((r) => r.seconds),
  );
}

/** The days of `month` (`YYYY-MM`) up to `last` (`YYYY-MM-DD`, or the month's end), as `YYYY-MM-DD`. */
export function daysOf(month: string, last?: string): string[] {
  const [year, monthNumber] = month.split("-").map(Number) as [number, number];
  const length = new Date(Date.UTC(year, monthNumber, 0)).getUTCDate();
  const days = Array.from({ length }, (_, i) => `${month}-${String(i + 1).padStart(2, "0")}`);
  return last?.startsWith(`${month}-`) ? days.filter((day) => day <= last) : days;
}

/**
 * A group's characters taken on each day of `days`: a space for a day no server wrote anything, a low block for a
 * day with usage but nothing taken of this group, and its scaled figure otherwise.
 */
function dailyChart(group: UsageGroup, days: readonly string[], active: ReadonlySet<string>): string {
  const byDay = new Map(group.days.map(({ day, figures }) => [day, figures.acceptedChars]));
  return sparkline(days.map((day) => (active.has(day) ? (byDay.get(day) ?? 0) : null)));
}

const perUnit = (n: number | null, digits = 0) =>
  n === null ? "–" : digits > 0 && n < 1000 ? n.toFixed(digits) : formatCount(n);

/**
 * The text report: what was spent and taken and what is still there at each horizon, then what that comes to per
 * dollar and per 1000 generated tokens with a chart of the characters taken per day; by context, the comparison of
 * the requests with and without it follows.
 */
export function formatUsageBreakdown(summary: UsageSummary, by: UsageDimension, today?: string): string {
  const groups = usageGroups(summary, by);
  const horizons = summary.total.retained.map((r) => r.seconds);
  const longest = horizons.at(-1);
  const kept = (f: UsageFigures, seconds: number) => {
    const r = f.retained.find((x) => x.seconds === seconds);
    return r && r.checkedChars > 0 ? `${formatCount(r.retainedChars)} (${formatPercent(r.rate)})` : "–";
  };
  const rows = (label: string, f: UsageFigures) => [
    label,
    formatCount(f.requests),
    `${formatCost(f.cost)}${f.unpricedTokens > 0 ? "*" : ""}`,
    formatCount(f.shown),
    formatCount(f.accepted + f.acceptedPartly),
    formatPercent(f.acceptanceRate),
    formatCount(f.acceptedChars),
    ...horizons.map((seconds) => kept(f, seconds)),
  ];
  const spent = [
    [
      by,
      "requests",
      "est. cost",
      "shown",
      "taken",
      "rate",
      "accepted chars",
      ...horizons.map((s) => `kept at ${formatHorizon(s)}`),
    ],
    ...groups.map((g) => rows(g.label, g.figures)),
    rows("total", summary.total),
  ];

  const days = daysOf(summary.month, today);
  const active = new Set(summary.days.map((d) => d.day));
  const longestOf = (f: UsageFigures) => f.retained.find((r) => r.seconds === longest);
  const earns = [
    [
      by,
      "accepted/$",
      ...(longest === undefined ? [] : [`kept at ${formatHorizon(longest)}/$`]),
      "accepted/1k out",
      ...(longest === undefined ? [] : [`kept at ${formatHorizon(longest)}/1k out`]),
      `accepted chars per day, ${days[0]!.slice(5)}…${days.at(-1)!.slice(5)}`,
    ],
    ...groups.map((group) => {
      const f = group.figures;
      return [
        group.label,
        perUnit(f.acceptedCharsPerDollar),
        ...(longest === undefined ? [] : [perUnit(longestOf(f)?.perDollar ?? null)]),
        perUnit(f.acceptedCharsPer1kOutputTokens, 1),
        ...(longest === undefined ? [] : [perUnit(longestOf(f)?.per1kOutputTokens ?? null, 1)]),
        dailyChart(group, days, active),
      ];
    }),
  ];
  // The chart is the last column, left-aligned so that the days line up.
  const figures = textTable(earns.map((row) => row.slice(0, -1))).split("\n");
  const width = Math.max(...figures.map((line) => line.length));
  const earnsText = figures
    .map((line, i) => `${line.padEnd(width)}  ${earns[i]!.at(-1)}`.trimEnd())
    .join("\n");

  const notes = [
    "Kept: characters taken that are still in the document where they went, checked at each horizon after the",
    "first take (a similarity that tolerates small edits and moved lines). Per $ and per 1k generated tokens, kept",
    "is taken × the share kept. Costs are estimates at list prices.",
  ];
  const parts = [textTable(spent), earnsText, notes.join("\n")];
  if (by === "context") parts.push(formatContextEffect(monthContextEffect(summary)).trimEnd());
  return `${parts.join("\n\n")}\n`;
}
