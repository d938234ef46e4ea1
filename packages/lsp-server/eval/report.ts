// The printed report: per corpus, context off and on side by side with the goals; then the goals per corpus. Pure.
import { SCENARIOS, type Scenario } from "./drive.js";
import { CONFIGS, type ConfigName, type CorpusResult } from "./evaluate.js";
import { type ConfigFigures, GOALS, type Ratio } from "./figures.js";
import { HOLE_PATTERNS, type Hole, IMPORT_KINDS, type ImportKind } from "./holes.js";

const KIND_LABELS: Record<ImportKind, string> = {
  named: "named import",
  namespace: "namespace member",
  default: "default import",
};

const SCENARIO_LABELS: Record<Scenario, string> = {
  disk: "recall, current file only (imports from disk)",
  tabs: "recall, declaring file + 3 unrelated tabs open",
};

const LABEL = 50;
const COLUMN = 14;

const fixed = (value: number | undefined, digits: number) =>
  value === undefined ? "n/a" : value.toFixed(digits);
const share = (r: Ratio) => (r.total === 0 ? "n/a" : (r.hits / r.total).toFixed(3));
const percent = (value: number | undefined) =>
  value === undefined ? "n/a" : `${(100 * value).toFixed(1)} %`;

function counts<T extends string>(
  holes: readonly Hole[],
  keys: readonly T[],
  key: (hole: Hole) => T,
): string {
  return keys.map((k) => `${k} ${holes.filter((h) => key(h) === k).length}`).join(", ");
}

/** `label  off  on  goal`, padded. */
function row(label: string, cells: Record<ConfigName, string>, goal = ""): string {
  const values = CONFIGS.map(({ name }) => cells[name].padStart(COLUMN)).join("");
  return `  ${label.padEnd(LABEL)}${values}   ${goal}`.trimEnd();
}

function rowOf(label: string, result: CorpusResult, cell: (f: ConfigFigures) => string, goal = ""): string {
  const cells = Object.fromEntries(CONFIGS.map(({ name }) => [name, cell(result.figures[name])])) as Record<
    ConfigName,
    string
  >;
  return row(label, cells, goal);
}

/** The report block of one corpus. */
export function formatCorpus(result: CorpusResult): string[] {
  const { corpus, found, sampled, caps, session } = result;
  const lines = [
    `${corpus.name} (${corpus.role}): ${corpus.origin}`,
    `  ${corpus.files.length} files; holes found ${found.length}: ${counts(found, IMPORT_KINDS, (h) => h.importKind)}; ${counts(found, HOLE_PATTERNS, (h) => h.pattern)}; from another workspace package ${found.filter((h) => h.crossPackage).length}`,
    `  holes run ${sampled.length} (≤ ${caps.perKind} per stratum: import kind × same or other package; ≤ ${caps.perFile} per file and stratum; stable-hash order): ${counts(sampled, IMPORT_KINDS, (h) => h.importKind)}; ${counts(sampled, HOLE_PATTERNS, (h) => h.pattern)}`,
    row("", { off: "context off", on: "context on" }, "goal (on)"),
  ];
  for (const scenario of SCENARIOS) {
    lines.push(
      rowOf(
        SCENARIO_LABELS[scenario],
        result,
        (f) => share(f.recall[scenario].all),
        `≥ ${scenario === "disk" ? GOALS.recallDisk : GOALS.recallTabs}`,
      ),
    );
    for (const kind of IMPORT_KINDS) {
      const n = sampled.filter((h) => h.importKind === kind).length;
      lines.push(
        rowOf(`    ${KIND_LABELS[kind]} (${n})`, result, (f) => share(f.recall[scenario].byKind[kind])),
      );
    }
    const across = sampled.filter((h) => h.crossPackage).length;
    lines.push(
      rowOf(`    of which from another workspace package (${across})`, result, (f) =>
        share(f.recall[scenario].crossPackage),
      ),
    );
  }
  for (const scenario of SCENARIOS) {
    const { hits, total } = result.changed[scenario];
    lines.push(
      row(`holes whose request differs from context off, ${scenario}`, { off: "-", on: `${hits}/${total}` }),
    );
  }
  for (const scenario of SCENARIOS) {
    lines.push(
      rowOf(`holes whose request reached the sim, ${scenario}`, result, (f) => {
        const c = f.captured[scenario];
        return `${c.hits}/${c.total}`;
      }),
    );
  }
  for (const scenario of SCENARIOS) {
    lines.push(
      rowOf(`mean prompt tokens (sim's usage), ${scenario}`, result, (f) =>
        fixed(f.meanPromptTokens[scenario], 0),
      ),
    );
  }
  lines.push(
    rowOf(
      `requests over contextTokens ${result.contextTokens} (3.5 ch/token)`,
      result,
      (f) => `${f.overBudget.hits}/${f.overBudget.total}`,
      "none",
    ),
  );
  const sessionWhere = session
    ? `${session.file}:${session.line + 1}, ${session.code.split("\n").length} lines`
    : "no hole to start from";
  lines.push(
    rowOf(
      `prompt-cache hits, replayed session`,
      result,
      (f) => percent(f.cacheHits),
      `≥ ${100 * GOALS.cacheHits} %`,
    ),
    rowOf("  words typed / upstream requests", result, (f) =>
      f.session ? `${f.session.words}/${f.session.requests}` : "n/a",
    ),
  );
  lines.push(`  (session: ${sessionWhere}, written again at the end of the file, a request after each word)`);
  lines.push(
    rowOf(
      "context selection p50 / p99 (ms)",
      result,
      (f) => (f.selectionMs ? `${fixed(f.selectionMs.p50, 2)} / ${fixed(f.selectionMs.p99, 2)}` : "n/a"),
      `p50 < ${GOALS.selectionP50Ms}`,
    ),
    rowOf("  requests whose metrics report it", result, (f) => String(f.selectionMs?.n ?? 0)),
  );
  for (const { name } of CONFIGS) {
    for (const message of new Set(result.runs[name].messages))
      lines.push(`  server said (context ${name}): ${message}`);
  }
  return lines;
}

/** A goal checked on the "context on" figures of a corpus; undefined when it was not measured. */
interface Goal {
  readonly label: string;
  readonly value: (f: ConfigFigures) => { text: string; ok: boolean } | undefined;
}

const GOAL_ROWS: readonly Goal[] = [
  {
    label: `recall from disk ≥ ${GOALS.recallDisk}`,
    value: (f) => ratioGoal(f.recall.disk.all, GOALS.recallDisk),
  },
  {
    label: `recall with tabs ≥ ${GOALS.recallTabs}`,
    value: (f) => ratioGoal(f.recall.tabs.all, GOALS.recallTabs),
  },
  {
    label: "no request over the budget",
    value: (f) => ({ text: `${f.overBudget.hits} over`, ok: f.overBudget.hits === GOALS.overBudget }),
  },
  {
    label: `cache hits ≥ ${100 * GOALS.cacheHits} %`,
    value: (f) =>
      f.cacheHits !== undefined
        ? { text: percent(f.cacheHits), ok: f.cacheHits >= GOALS.cacheHits }
        : undefined,
  },
  {
    label: `selection p50 < ${GOALS.selectionP50Ms} ms`,
    value: (f) =>
      f.selectionMs && {
        text: `${fixed(f.selectionMs.p50, 2)} ms`,
        ok: f.selectionMs.p50 < GOALS.selectionP50Ms,
      },
  },
];

function ratioGoal(r: Ratio, goal: number): { text: string; ok: boolean } | undefined {
  return r.total === 0 ? undefined : { text: share(r), ok: r.hits / r.total >= goal };
}

/** The goals of every corpus with context on: ✓ met, ✗ missed, · not measured. */
export function formatSummary(results: readonly CorpusResult[]): string[] {
  const width = Math.max(...GOAL_ROWS.map((g) => g.label.length));
  const column = Math.max(14, ...results.map((r) => r.corpus.name.length + 2));
  const lines = [
    `goals, context on${" ".repeat(width - 15)}${results.map((r) => r.corpus.name.padStart(column)).join("")}`,
  ];
  for (const goal of GOAL_ROWS) {
    const cells = results.map((r) => {
      const v = goal.value(r.figures.on);
      return (v ? `${v.text} ${v.ok ? "✓" : "✗"}` : "n/a ·").padStart(column);
    });
    lines.push(`  ${goal.label.padEnd(width)}${cells.join("")}`);
  }
  const refused = results.some((r) =>
    CONFIGS.some(({ name }) => r.runs[name].messages.some((m) => m.includes('unknown setting "context"'))),
  );
  if (refused) {
    lines.push(
      'note: the server refused the "context" setting (it has no repository context yet), so "on" ran as "off".',
    );
  } else if (results.every((r) => SCENARIOS.every((s) => r.changed[s].hits === 0))) {
    lines.push(
      "note: with context on the server sent the very same requests as with it off: it adds no context yet.",
    );
  }
  return lines;
}
