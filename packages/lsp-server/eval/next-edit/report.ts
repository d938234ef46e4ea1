// The next-edit eval's printed report: per corpus and format, the figures by kind of change; then one line per
// corpus and format against the goals. Pure.
import { estimateTokens } from "../../src/completion/prompt-window.js";
import { CASE_KINDS, type CaseKind } from "./edit-case.js";
import type { CorpusEditResult, FormatResult } from "./evaluate-edits.js";
import type { CaseRun } from "./replay.js";

/** The goals of issue 23. */
export const EDIT_GOALS = { exact: 0.95 } as const;

const LABEL = 44;
const COLUMN = 13;

/** The `q` quantile (0–1) by the nearest-rank method; NaN for none. */
function quantile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
}

const share = (runs: readonly CaseRun[], test: (run: CaseRun) => boolean) =>
  runs.length === 0 ? "n/a" : (runs.filter(test).length / runs.length).toFixed(3);
const mean = (values: readonly number[]) =>
  values.length === 0 ? "n/a" : (values.reduce((a, b) => a + b, 0) / values.length).toFixed(1);
const percentiles = (values: readonly number[]) =>
  values.length === 0 ? "n/a" : `${quantile(values, 0.5).toFixed(0)} / ${quantile(values, 0.9).toFixed(0)}`;
const tokens = (runs: readonly CaseRun[], part: "region" | "history") =>
  percentiles(runs.flatMap((run) => (run.reading ? [estimateTokens(run.reading[part])] : [])));
/** Runs with sites still to do after the first (all but the lone control). */
const multiSite = (runs: readonly CaseRun[]) => runs.filter((run) => run.edit.rest.length > 0);

/** Figures of some runs: the exact-match rates, delta-chrF, false suggestions, what the prompt held, and costs. */
export function figuresOf(runs: readonly CaseRun[]) {
  return {
    cases: runs.length,
    right: share(runs, (run) => run.firstRight),
    exact: share(runs, (run) => run.exact),
    tabExact: share(runs, (run) => run.tabExact),
    tabOneAnswer: share(runs, (run) => run.tabExact && run.walkRequests <= 1),
    chrf: mean(runs.map((run) => run.chrf)),
    tabChrf: mean(runs.map((run) => run.tabChrf)),
    falseCases: share(runs, (run) => run.falseShown > 0),
    falseShown: runs.reduce((sum, run) => sum + run.falseShown, 0),
    falseEdits: runs.reduce((sum, run) => sum + run.falseEdits, 0),
    event: share(runs, (run) => run.carriesEvent),
    next: share(multiSite(runs), (run) => run.carriesNext),
    all: share(multiSite(runs), (run) => run.carriesAll),
    region: tokens(runs, "region"),
    history: tokens(runs, "history"),
    requests: mean(runs.map((run) => run.requests)),
    askMs: percentiles(runs.flatMap((run) => (run.askMs === undefined ? [] : [run.askMs]))),
    memoryMs: percentiles(runs.flatMap((run) => run.memoryMs)),
    outside: runs.reduce((sum, run) => sum + run.outside, 0),
    stale: runs.reduce((sum, run) => sum + run.stale, 0),
    failures: runs.filter((run) => run.failure !== undefined).length,
  };
}

function row(label: string, cells: readonly string[]): string {
  return `  ${label.padEnd(LABEL)}${cells.map((cell) => cell.padStart(COLUMN)).join("")}`;
}

/** The block of one format on one corpus: a column per kind, and all. */
function formatBlock(result: FormatResult): string[] {
  const groups = [
    ...CASE_KINDS.map((kind) => result.runs.filter((run) => run.edit.kind === kind)),
    result.runs,
  ];
  const f = groups.map(figuresOf);
  const cell = (key: keyof ReturnType<typeof figuresOf>) => f.map((figures) => String(figures[key]));
  return [
    row(`format ${result.format}`, [...CASE_KINDS, "all"]),
    row("cases", cell("cases")),
    row("next edit shown is right (lone: none shown)", cell("right")),
    row(`exact, every edit applied (goal ≥ ${EDIT_GOALS.exact})`, cell("exact")),
    row("exact, Tab, Tab, Tab", cell("tabExact")),
    row("  … from one upstream answer", cell("tabOneAnswer")),
    row("delta-chrF, every edit applied", cell("chrf")),
    row("delta-chrF, Tab, Tab, Tab", cell("tabChrf")),
    row("cases with a false edit shown (Tab walk)", cell("falseCases")),
    row("false edits shown in the Tab walks", cell("falseShown")),
    row("false edits in the first answers", cell("falseEdits")),
    row("prompt carries the edit", cell("event")),
    row("region holds the next site", cell("next")),
    row("region holds every site", cell("all")),
    row("region tokens, p50 / p90", cell("region")),
    row("history tokens, p50 / p90", cell("history")),
    row("upstream requests per case", cell("requests")),
    row("first ask, ms p50 / p90", cell("askMs")),
    row("Tab ask from memory, ms p50 / p90", cell("memoryMs")),
    row("edits outside the region (goal 0)", cell("outside")),
    row("edits for another version shown (goal 0)", cell("stale")),
    row("cases that failed in the client (goal 0)", cell("failures")),
    `  server: ${result.crashed ? "EXITED" : "alive"}, ${result.errors.length} error log lines (goal 0)`,
  ];
}

/** The report block of one corpus. */
export function formatEditCorpus(result: CorpusEditResult): string[] {
  const { corpus, found, cases } = result;
  const taken = (kind: CaseKind) => cases.filter((c) => c.kind === kind).length;
  const lines = [
    `${corpus.name} (${corpus.role}) — ${corpus.language}: ${corpus.origin}`,
    `  cases run of found: ${CASE_KINDS.map((kind) => `${kind} ${taken(kind)} of ${found[kind] ?? 0}`).join(", ")}`,
  ];
  for (const format of result.formats) lines.push(...formatBlock(format));
  const { excluded, malformed } = result;
  lines.push(
    `  excluded files (a git-ignored copy of a case's file, a .env): ${excluded.edits} edits shown, ` +
      `${excluded.requests} upstream requests, ${excluded.leaks} later prompts holding them (goal 0, 0, 0)`,
    `  malformed answers (${malformed.cases} spoilt: region opened twice, a stray marker, cut at max_tokens, ` +
      `not JSON, the connection cut, an error under 200): ${malformed.shown} edits shown, ` +
      `${malformed.crashes} crashes or error lines (goal 0, 0)`,
    `  (${result.seconds.toFixed(0)} s)`,
  );
  return lines;
}

/** The multi-site kinds' figure `key`, side by side (`rename parameter twin`). */
function byKind(runs: readonly CaseRun[], key: "right" | "tabExact"): string {
  return CASE_KINDS.filter((kind) => kind !== "lone")
    .map((kind) => figuresOf(runs.filter((run) => run.edit.kind === kind))[key])
    .map((figure) => (figure === "n/a" ? " n/a" : Number(figure).toFixed(2)))
    .join(" ");
}

/**
 * One line per corpus and format, then one per format over every corpus: the headline figures against the goals.
 * `right` and `Tab walked` are per kind (rename parameter twin).
 */
export function formatEditSummary(results: readonly CorpusEditResult[]): string[] {
  const head = [
    "language",
    "corpus",
    "format",
    "cases",
    "right r/p/t",
    "Tab walked r/p/t",
    "exact",
    "chrF",
    "false",
    "lone false",
    "req/case",
    "ask ms p50/p90",
    "Tab ms p50/p90",
    "outside",
    "excluded",
    "malformed",
    "crashes",
  ];
  const line = (
    language: string,
    corpus: string,
    format: FormatResult,
    others: readonly CorpusEditResult[],
  ) => {
    const f = figuresOf(format.runs);
    const lone = figuresOf(format.runs.filter((run) => run.edit.kind === "lone"));
    const ok = Number(f.exact) >= EDIT_GOALS.exact ? "✓" : "✗";
    const sum = (value: (result: CorpusEditResult) => number) => others.reduce((n, r) => n + value(r), 0);
    const crashes =
      (format.crashed ? 1 : 0) + format.errors.length + f.failures + sum((r) => r.malformed.crashes);
    return [
      language,
      corpus,
      format.format,
      String(f.cases),
      byKind(format.runs, "right"),
      byKind(format.runs, "tabExact"),
      `${f.exact} ${ok}`,
      f.chrf,
      f.falseCases,
      lone.falseCases,
      f.requests,
      f.askMs,
      f.memoryMs,
      String(f.outside + f.stale),
      String(sum((r) => r.excluded.edits + r.excluded.requests + r.excluded.leaks)),
      String(sum((r) => r.malformed.shown)),
      String(crashes),
    ];
  };
  const rows = results.flatMap((result) =>
    result.formats.map((format) => line(result.corpus.language, result.corpus.name, format, [result])),
  );
  if (results.length > 1) {
    for (const name of new Set(results.flatMap((result) => result.formats.map((format) => format.format)))) {
      const formats = results.flatMap((result) => result.formats.filter((format) => format.format === name));
      const merged: FormatResult = {
        format: name,
        runs: formats.flatMap((format) => format.runs),
        errors: formats.flatMap((format) => format.errors),
        crashed: formats.some((format) => format.crashed),
      };
      rows.push(line("all", `${results.length} corpora`, merged, results));
    }
  }
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const cells = (row: readonly string[]) =>
    row
      .map((c, i) => c.padEnd(widths[i]!))
      .join("  ")
      .trimEnd();
  return [
    "summary, next edits (goals: exact ≥ 0.95; 0 edits outside the region or for another version; 0 in excluded " +
      "files; 0 malformed shown; 0 crashes). right: the next edit shown makes a remaining site; Tab walked: the " +
      "first edit applied and asked again until the change is finished; false: share of cases where the Tab walk " +
      "showed an edit at no site still to do (lone false: of the lone controls); crashes: error log lines, exits and failed cases",
    cells(head),
    ...rows.map(cells),
  ];
}
