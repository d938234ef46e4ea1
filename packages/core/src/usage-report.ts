import { readFile } from "node:fs/promises";
import { z } from "zod";
import { formatCount, textTable } from "./text-table.js";
import {
  CONTEXT_ARMS,
  DEFAULT_USAGE_KIND,
  isContextArm,
  isUsageKind,
  UNKNOWN_DIMENSION,
  USAGE_KINDS,
  usageLanguage,
} from "./usage-dimensions.js";
import { formatCost, formatPercent } from "./usage-format.js";
import { USAGE_LOG_VERSION, type UsageRecord } from "./usage-log.js";
import {
  acceptanceRate,
  addTotals,
  cacheHitRatio,
  emptyTotals,
  horizonKey,
  type RetentionTotals,
  USAGE_FIELDS,
  type UsageTotals,
} from "./usage-totals.js";
import { type UsageYield, usageYield } from "./usage-yield.js";

const figure = () => z.number().default(0);

// Lenient like the response schemas: unknown fields are ignored (a newer server may add some), a figure that is
// missing counts 0 (lines written before a figure existed), a dimension that is missing or not one of ours is
// `unknown` (but a missing kind is `completion`: the only kind before next edits), and a line that is not an object
// of this version with numbers where numbers go is skipped.
const UsageRecordSchema = z.object({
  v: z.literal(USAGE_LOG_VERSION),
  day: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  provider: z.string().default("unknown"),
  model: z.string().min(1),
  language: z.string().default(UNKNOWN_DIMENSION).transform(usageLanguage),
  context: z
    .string()
    .default(UNKNOWN_DIMENSION)
    .transform((arm) => (isContextArm(arm) ? arm : UNKNOWN_DIMENSION)),
  kind: z
    .string()
    .default(DEFAULT_USAGE_KIND)
    .transform((kind) => (isUsageKind(kind) ? kind : UNKNOWN_DIMENSION)),
  ...(Object.fromEntries(USAGE_FIELDS.map((field) => [field, figure()])) as Record<
    (typeof USAGE_FIELDS)[number],
    z.ZodDefault<z.ZodNumber>
  >),
  retention: z
    .record(
      z.string(),
      z.object({ checkedChars: figure(), retainedChars: figure(), retainedCharsSq: figure() }),
    )
    .default({})
    .transform(byHorizon),
});

/** Retention checks keyed by a horizon in seconds, normalized (`"30.0"` → `"30"`); other keys are dropped. */
function byHorizon(retention: Record<string, RetentionTotals>): Record<string, RetentionTotals> {
  const out: Record<string, RetentionTotals> = {};
  for (const [key, checks] of Object.entries(retention)) {
    const seconds = Number(key);
    if (key.trim() !== "" && seconds > 0 && Number.isFinite(seconds)) out[horizonKey(seconds)] = checks;
  }
  return out;
}

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

/** Totals with the ratios and the yield derived from them. */
export interface UsageFigures extends UsageTotals, UsageYield {
  /** Share of prompt tokens served from the cache, 0..1 (null: no prompt tokens). */
  cacheHitRatio: number | null;
  /** Share of shown suggestions taken whole or in part, 0..1 (null: none shown). */
  acceptanceRate: number | null;
}

/** The figures of each day that has records, in order. */
export type DailyFigures = Array<{ day: string; figures: UsageFigures }>;

/** A month of usage, summed from a log's records. */
export interface UsageSummary {
  /** `YYYY-MM`. */
  month: string;
  /** The day `today` names, when it falls in `month`; null otherwise. */
  today: { day: string; figures: UsageFigures } | null;
  /** The whole month. */
  total: UsageFigures;
  /** Per provider and model, the most expensive first (then the most requests), with their days. */
  models: Array<{ provider: string; model: string; figures: UsageFigures; days: DailyFigures }>;
  /** Per language (LSP language id; `unknown` for lines written before it was recorded), like `models`. */
  languages: Array<{ language: string; figures: UsageFigures; days: DailyFigures }>;
  /** Per context arm (`on`, `holdout`, `off`, then `unknown` for older lines), with their days. */
  contexts: Array<{ context: string; figures: UsageFigures; days: DailyFigures }>;
  /** Per kind (`completion`, `next-edit`, then `unknown` for a value that is not a kind), with their days. */
  kinds: Array<{ kind: string; figures: UsageFigures; days: DailyFigures }>;
  /** Per day, in order. */
  days: DailyFigures;
}

/** `totals` with their ratios and yield (listing at least the retention `horizons` given, in seconds). */
export function usageFigures(totals: Readonly<UsageTotals>, horizons: readonly number[] = []): UsageFigures {
  return {
    ...totals,
    cacheHitRatio: cacheHitRatio(totals),
    acceptanceRate: acceptanceRate(totals),
    ...usageYield(totals, horizons),
  };
}

/** Totals of one group, and of each of its days. */
class Group {
  readonly totals = emptyTotals();
  readonly days = new Map<string, UsageTotals>();

  add(record: UsageRecord): void {
    addTotals(this.totals, record);
    addTotals(entry(this.days, record.day, emptyTotals), record);
  }

  daily(horizons: readonly number[]): DailyFigures {
    return [...this.days.entries()]
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([day, totals]) => ({ day, figures: usageFigures(totals, horizons) }));
  }
}

/** Most expensive first, then the most requests. */
const byCost = (a: Group, b: Group) => b.totals.cost - a.totals.cost || b.totals.requests - a.totals.requests;

/** Sum the records of `month` (`YYYY-MM`; records of other months are ignored) as of the day `today`. */
export function summarizeUsage(records: readonly UsageRecord[], month: string, today: string): UsageSummary {
  const total = new Group();
  const byModel = new Map<string, { provider: string; model: string; group: Group }>();
  const byLanguage = new Map<string, Group>();
  const byContext = new Map<string, Group>();
  const byKind = new Map<string, Group>();
  for (const record of records) {
    if (!record.day.startsWith(`${month}-`)) continue;
    total.add(record);
    const { provider, model } = record;
    entry(byModel, `${provider}\0${model}`, () => ({ provider, model, group: new Group() })).group.add(
      record,
    );
    entry(byLanguage, record.language, () => new Group()).add(record);
    entry(byContext, record.context, () => new Group()).add(record);
    entry(byKind, record.kind ?? DEFAULT_USAGE_KIND, () => new Group()).add(record);
  }
  // Every group lists the month's horizons, so that tables have the same columns in every row.
  const horizons = usageYield(total.totals).retained.map((r) => r.seconds);
  const figures = (totals: UsageTotals) => usageFigures(totals, horizons);
  const todayTotals = today.startsWith(`${month}-`) ? (total.days.get(today) ?? emptyTotals()) : undefined;
  // Known values in their list's order, anything else (`unknown`) last.
  const orderIn = (list: readonly string[]) => (value: string) => {
    const at = list.indexOf(value);
    return at === -1 ? list.length : at;
  };
  const armOrder = orderIn(CONTEXT_ARMS);
  const kindOrder = orderIn(USAGE_KINDS);
  return {
    month,
    today: todayTotals ? { day: today, figures: figures(todayTotals) } : null,
    total: figures(total.totals),
    models: [...byModel.values()]
      .sort((a, b) => byCost(a.group, b.group))
      .map(({ provider, model, group }) => ({
        provider,
        model,
        figures: figures(group.totals),
        days: group.daily(horizons),
      })),
    languages: [...byLanguage.entries()]
      .sort(([, a], [, b]) => byCost(a, b))
      .map(([language, group]) => ({
        language,
        figures: figures(group.totals),
        days: group.daily(horizons),
      })),
    contexts: [...byContext.entries()]
      .sort(([a], [b]) => armOrder(a) - armOrder(b))
      .map(([context, group]) => ({ context, figures: figures(group.totals), days: group.daily(horizons) })),
    kinds: [...byKind.entries()]
      .sort(([a], [b]) => kindOrder(a) - kindOrder(b))
      .map(([kind, group]) => ({ kind, figures: figures(group.totals), days: group.daily(horizons) })),
    days: total.daily(horizons),
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

/** The columns of the usage table: header and cell of a row of figures. */
const COLUMNS: Array<[string, (f: UsageFigures) => string]> = [
  ["requests", (f) => formatCount(f.requests)],
  ["prompt tokens", (f) => formatCount(f.cacheHitTokens + f.cacheMissTokens)],
  ["cached", (f) => formatPercent(f.cacheHitRatio)],
  ["output tokens", (f) => formatCount(f.completionTokens)],
  ["est. cost", (f) => `${formatCost(f.cost)}${f.unpricedTokens > 0 ? "*" : ""}`],
  ["shown", (f) => formatCount(f.shown)],
  ["taken", (f) => formatCount(f.accepted + f.acceptedPartly)],
  ["rate", (f) => formatPercent(f.acceptanceRate)],
];

/** How a model is named in the reports: its id, and its provider's name when that is not DeepSeek. */
export function modelLabel(provider: string, model: string): string {
  return provider === "deepseek" ? model : `${model} (${provider})`;
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
    models.push(row(modelLabel(provider, model), figures));
  }
  const notes = [
    "Costs are estimates: list prices per million tokens (see `prices` in infill-lsp's settings), no discounts.",
  ];
  if (summary.total.unpricedTokens > 0) {
    notes.push(
      `* ${formatCount(summary.total.unpricedTokens)} tokens of models without a price are not in the cost; add them with the \`prices\` setting.`,
    );
  }
  if (summary.total.unreported > 0) {
    notes.push(
      `${formatCount(summary.total.unreported)} of ${formatCount(summary.total.requests)} requests ended without a usage report (cut short or aborted): their tokens are not counted.`,
    );
  }
  notes.push(
    "What is kept of what was taken, per dollar, by language, model or context: infill usage --by …",
  );
  return `${textTable(periods)}\n\n${textTable(models)}\n\n${notes.join("\n")}\n`;
}
