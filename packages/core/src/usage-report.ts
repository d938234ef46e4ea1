import { readFile } from "node:fs/promises";
import { z } from "zod";
import { formatCost, formatPercent } from "./usage-format.js";
import { USAGE_LOG_VERSION, type UsageRecord } from "./usage-log.js";
import {
  acceptanceRate,
  addTotals,
  cacheHitRatio,
  emptyTotals,
  USAGE_FIELDS,
  type UsageTotals,
} from "./usage-totals.js";

// Lenient like the response schemas: unknown fields are ignored (a newer server may add some), a figure that is
// missing counts 0, and a line that is not an object of this version with numbers where numbers go is skipped.
const UsageRecordSchema = z.object({
  v: z.literal(USAGE_LOG_VERSION),
  day: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  provider: z.string().default("unknown"),
  model: z.string().min(1),
  ...(Object.fromEntries(USAGE_FIELDS.map((field) => [field, z.number().default(0)])) as Record<
    (typeof USAGE_FIELDS)[number],
    z.ZodDefault<z.ZodNumber>
  >),
});

/** The records of a usage log's text, and how many non-empty lines were skipped (torn by a crash, or not ours). */
export function parseUsageLog(text: string): { records: UsageRecord[]; skipped: number } {
  const records: UsageRecord[] = [];
  let skipped = 0;
  for (const line of text.split("\n")) {
    if (line.trim() === "") continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      skipped++;
      continue;
    }
    const parsed = UsageRecordSchema.safeParse(value);
    if (parsed.success) {
      const { v: _version, ...record } = parsed.data;
      records.push(record);
    } else skipped++;
  }
  return { records, skipped };
}

/** The records of a usage log file; none when the file does not exist. Other read errors throw. */
export async function readUsageLog(file: string): Promise<{ records: UsageRecord[]; skipped: number }> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return { records: [], skipped: 0 };
    throw error;
  }
  return parseUsageLog(text);
}

/** Totals with the ratios derived from them. */
export interface UsageFigures extends UsageTotals {
  /** Share of prompt tokens served from the cache, 0..1 (null: no prompt tokens). */
  cacheHitRatio: number | null;
  /** Share of shown suggestions taken whole or in part, 0..1 (null: none shown). */
  acceptanceRate: number | null;
}

/** A month of usage, summed from a log's records. */
export interface UsageSummary {
  /** `YYYY-MM`. */
  month: string;
  /** The day `today` names, when it falls in `month`; null otherwise. */
  today: { day: string; figures: UsageFigures } | null;
  /** The whole month. */
  total: UsageFigures;
  /** Per provider and model, the most expensive first (then the most requests). */
  models: Array<{ provider: string; model: string; figures: UsageFigures }>;
  /** Per day, in order. */
  days: Array<{ day: string; figures: UsageFigures }>;
}

/** `totals` with their ratios. */
export function usageFigures(totals: Readonly<UsageTotals>): UsageFigures {
  return { ...totals, cacheHitRatio: cacheHitRatio(totals), acceptanceRate: acceptanceRate(totals) };
}

/** Sum the records of `month` (`YYYY-MM`; records of other months are ignored) as of the day `today`. */
export function summarizeUsage(records: readonly UsageRecord[], month: string, today: string): UsageSummary {
  const total = emptyTotals();
  const byDay = new Map<string, UsageTotals>();
  const byModel = new Map<string, { provider: string; model: string; totals: UsageTotals }>();
  for (const record of records) {
    if (!record.day.startsWith(`${month}-`)) continue;
    addTotals(total, record);
    addTotals(entry(byDay, record.day, emptyTotals), record);
    const { provider, model } = record;
    const key = `${provider}\0${model}`;
    addTotals(entry(byModel, key, () => ({ provider, model, totals: emptyTotals() })).totals, record);
  }
  const todayTotals = today.startsWith(`${month}-`) ? (byDay.get(today) ?? emptyTotals()) : undefined;
  return {
    month,
    today: todayTotals ? { day: today, figures: usageFigures(todayTotals) } : null,
    total: usageFigures(total),
    models: [...byModel.values()]
      .sort((a, b) => b.totals.cost - a.totals.cost || b.totals.requests - a.totals.requests)
      .map(({ provider, model, totals }) => ({ provider, model, figures: usageFigures(totals) })),
    days: [...byDay.entries()]
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([day, totals]) => ({ day, figures: usageFigures(totals) })),
  };
}

/** The entry of `key`, made and added when missing. */
function entry<K, V>(map: Map<K, V>, key: K, make: () => V): V {
  let value = map.get(key);
  if (value === undefined) {
    value = make();
    map.set(key, value);
  }
  return value;
}

const count = (n: number) => n.toLocaleString("en-US");

/** The columns of the usage table: header and cell of a row of figures. */
const COLUMNS: Array<[string, (f: UsageFigures) => string]> = [
  ["requests", (f) => count(f.requests)],
  ["prompt tokens", (f) => count(f.cacheHitTokens + f.cacheMissTokens)],
  ["cached", (f) => formatPercent(f.cacheHitRatio)],
  ["output tokens", (f) => count(f.completionTokens)],
  ["est. cost", (f) => `${formatCost(f.cost)}${f.unpricedTokens > 0 ? "*" : ""}`],
  ["shown", (f) => count(f.shown)],
  ["taken", (f) => count(f.accepted + f.acceptedPartly)],
  ["rate", (f) => formatPercent(f.acceptanceRate)],
];

/** Rows of cells as a text table: the first column left-aligned, the others right-aligned. */
function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((row) => row[i]!.length)));
  return rows
    .map((row) =>
      row
        .map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!)))
        .join("  ")
        .trimEnd(),
    )
    .join("\n");
}

/** The `infill usage` report: today and the month, then per model, as text tables. */
export function formatUsageSummary(summary: UsageSummary): string {
  const header = ["", ...COLUMNS.map(([name]) => name)];
  const row = (label: string, figures: UsageFigures) => [label, ...COLUMNS.map(([, cell]) => cell(figures))];
  const periods = [header];
  if (summary.today) periods.push(row(`today (${summary.today.day})`, summary.today.figures));
  periods.push(row(summary.month, summary.total));
  const models = [["model", ...header.slice(1)]];
  for (const { provider, model, figures } of summary.models) {
    models.push(row(provider === "deepseek" ? model : `${model} (${provider})`, figures));
  }
  const notes = [
    "Costs are estimates: list prices per million tokens (see `prices` in infill-lsp's settings), no discounts.",
  ];
  if (summary.total.unpricedTokens > 0) {
    notes.push(
      `* ${count(summary.total.unpricedTokens)} tokens of models without a price are not in the cost; add them with the \`prices\` setting.`,
    );
  }
  if (summary.total.unreported > 0) {
    notes.push(
      `${count(summary.total.unreported)} of ${count(summary.total.requests)} requests ended without a usage report (cut short or aborted): their tokens are not counted.`,
    );
  }
  return `${table(periods)}\n\n${table(models)}\n\n${notes.join("\n")}\n`;
}
