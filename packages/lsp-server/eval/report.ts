// The printed report: per corpus, context off and on side by side with the goals; then one line per corpus with
// the headline figures off → on against the goals. Pure.
import { type Observation, SCENARIOS, type Scenario } from "./drive.js";
import {
  CONFIGS,
  type ConfigName,
  type CorpusResult,
  MEMBER_CONFIGS,
  type MemberConfigName,
} from "./evaluate.js";
import {
  type ConfigFigures,
  GOALS,
  MEMBER_GOALS,
  type MemberFigures,
  memberFiguresOf,
  type Ratio,
  type Recall,
  recallGoals,
} from "./figures.js";
import { type Hole, type HolePattern, IMPORT_KINDS, REACHES, RECEIVERS, type Stratum } from "./hole.js";
import { LANGUAGES, type Language, languageIdOf } from "./languages.js";
import type { SampleCaps } from "./sample.js";

const STRATUM_LABELS: Record<Stratum, string> = {
  named: "named import",
  namespace: "namespace member",
  default: "default import",
  import: "reachable by an import",
  package: "same package, namespace or folder",
  name: "only by name",
  self: "receiver this/self",
  field: "receiver a field (this.f, x.f)",
};

/** The receiver strata's label where they share a key with the reach strata (`name`). */
const RECEIVER_LABELS: Record<(typeof RECEIVERS)[number], string> = {
  name: "receiver a local, parameter or value",
  self: STRATUM_LABELS.self,
  field: STRATUM_LABELS.field,
};

const SCENARIO_LABELS: Record<Scenario, string> = {
  disk: "recall, current file only (imports from disk)",
  tabs: "recall, declaring file + 3 unrelated tabs open",
};

const LABEL = 50;
const COLUMN = 14;

const fixed = (value: number | undefined, digits: number) =>
  value === undefined ? "n/a" : value.toFixed(digits);
const share = (r: Ratio | undefined) => (!r || r.total === 0 ? "n/a" : (r.hits / r.total).toFixed(3));
const percent = (value: number | undefined) =>
  value === undefined ? "n/a" : `${(100 * value).toFixed(1)} %`;

/** The strata a corpus's holes fall in, in report order. */
function strataOf(language: Language): readonly Stratum[] {
  return language === "TypeScript" ? IMPORT_KINDS : REACHES;
}

/** The hole patterns a language has, in report order. */
function patternsOf(language: Language): readonly HolePattern[] {
  if (language === "TypeScript") return ["call", "new", "member", "generic"];
  const spec = LANGUAGES[language];
  return [
    "call",
    ...(spec.newOperator ? (["new"] as const) : []),
    ...(spec.member ? (["member"] as const) : []),
    ...(spec.scope ? (["scope"] as const) : []),
    ...(spec.arrow ? (["arrow"] as const) : []),
  ];
}

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

/** How the holes run were chosen, one phrase. */
function samplingOf(caps: SampleCaps): string {
  return caps.stratified
    ? `≤ ${caps.perStratum} per stratum: import kind × same or other package; ≤ ${caps.perFile} per file and stratum; stable-hash order`
    : `a proportional sample: ≤ ${caps.perStratum} per corpus, ≤ ${caps.perFile} per file; stable-hash order`;
}

/** The report block of one corpus. */
export function formatCorpus(result: CorpusResult): string[] {
  const { corpus, found, sampled, session } = result;
  const strata = strataOf(corpus.language);
  const patterns = patternsOf(corpus.language);
  const typescript = corpus.language === "TypeScript";
  const goals = recallGoals(corpus.language);
  const lines = [
    `${corpus.name} (${corpus.language}, ${corpus.role}): ${corpus.origin}`,
    `  opened with languageId ${JSON.stringify(languageIdOf(corpus.language, corpus.files[0] ?? ""))}; the server's own outline and import resolution for it, whatever they are`,
    `  ${corpus.files.length} files; holes found ${found.length}: ${counts(found, strata, (h) => h.stratum)}; ${counts(found, patterns, (h) => h.pattern)}${typescript ? `; from another workspace package ${found.filter((h) => h.crossPackage).length}` : ""}`,
    `  holes run ${sampled.length} (${samplingOf(result.caps)}): ${counts(sampled, strata, (h) => h.stratum)}; ${counts(sampled, patterns, (h) => h.pattern)}`,
    row("", { off: "context off", on: "context on" }, "goal (on)"),
  ];
  for (const scenario of SCENARIOS) {
    lines.push(
      rowOf(
        SCENARIO_LABELS[scenario],
        result,
        (f) => share(f.recall[scenario].all),
        `≥ ${goals[scenario].toFixed(2)}${LANGUAGES[corpus.language].lookup === "symbol index" ? " (no imports to follow: by name)" : ""}`,
      ),
    );
    for (const stratum of strata) {
      const n = sampled.filter((h) => h.stratum === stratum).length;
      lines.push(
        rowOf(`    ${STRATUM_LABELS[stratum]} (${n})`, result, (f) =>
          share(f.recall[scenario].byStratum[stratum]),
        ),
      );
    }
    if (typescript) {
      const across = sampled.filter((h) => h.crossPackage).length;
      lines.push(
        rowOf(`    of which from another workspace package (${across})`, result, (f) =>
          share(f.recall[scenario].crossPackage),
        ),
      );
    }
  }
  lines.push(...memberLines(result), ...declMemberLines(result));
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
      `p50 < ${GOALS.selectionP50Ms}, p99 < ${GOALS.selectionP99Ms}`,
    ),
    rowOf("  requests whose metrics report it", result, (f) => String(f.selectionMs?.n ?? 0)),
  );
  for (const { name } of CONFIGS) {
    for (const message of new Set(result.runs[name].messages))
      lines.push(`  server said (context ${name}): ${message}`);
  }
  return lines;
}

/** Whether a language has issue 24's member-recall goals. */
function memberGoals(language: Language): boolean {
  return (MEMBER_GOALS.languages as readonly string[]).includes(language);
}

/** The member-access configurations' column headings. */
const MEMBER_COLUMNS: Record<MemberConfigName, string> = {
  off: "context off",
  on: "on: (1)",
  editor: "on: (1)+(2)",
};

/** The member-access rows' column width: their cells (`54.31 / 1191.59`) are wider than the others'. */
const MEMBER_COLUMN = 18;

/** `label  off  (1)  (1)+(2)  goal`, padded. */
function memberRow(label: string, cells: Record<MemberConfigName, string>, goal = ""): string {
  const values = MEMBER_CONFIGS.map(({ name }) => cells[name].padStart(MEMBER_COLUMN)).join("");
  return `  ${label.padEnd(LABEL)}${values}   ${goal}`.trimEnd();
}

/** A row's cells, one per member-access configuration. */
function memberCells(cell: (config: MemberConfigName) => string): Record<MemberConfigName, string> {
  return Object.fromEntries(MEMBER_CONFIGS.map(({ name }) => [name, cell(name)])) as Record<
    MemberConfigName,
    string
  >;
}

/** The goals of a scenario's member recall: (1)'s where the issue names the language, and (1)+(2)'s. */
function memberGoalText(language: Language, scenario: Scenario): string {
  const alone = memberGoals(language) ? `(1) ≥ ${MEMBER_GOALS[scenario].toFixed(2)}, ` : "";
  return `${alone}(1)+(2) ≥ ${MEMBER_GOALS.editor.toFixed(2)} (issue 24)`;
}

/** The rows shared by both kinds of member-access holes: what the editor was asked, outline tokens, time. */
function memberFigureRows(figures: Record<MemberConfigName, MemberFigures>): string[] {
  const questions = figures.editor.questions;
  const selection = (f: MemberFigures) =>
    f.selectionMs ? `${fixed(f.selectionMs.p50, 2)} / ${fixed(f.selectionMs.p99, 2)}` : "n/a";
  return [
    memberRow(
      "  receivers the editor was asked of, disk",
      memberCells((c) =>
        c === "editor" && questions ? `${questions.atReceiver.hits}/${questions.atReceiver.total}` : "-",
      ),
    ),
    memberRow(
      "    located (positions asked elsewhere)",
      memberCells((c) =>
        c === "editor" && questions ? `${questions.located} (${questions.elsewhere})` : "-",
      ),
    ),
    memberRow(
      "  outline tokens (mean) / requests with one, disk",
      memberCells((c) =>
        c === "off"
          ? "-"
          : `${fixed(figures[c].outlineTokens, 0)} / ${figures[c].outlined.hits}/${figures[c].outlined.total}`,
      ),
    ),
    memberRow(
      "  selection p50 / p99 (ms), these holes",
      memberCells((c) => (c === "off" ? "-" : selection(figures[c]))),
      `p50 < ${GOALS.selectionP50Ms}, p99 < ${GOALS.selectionP99Ms}`,
    ),
  ];
}

/** Each member-access configuration's figures of some holes. */
function memberFiguresByConfig(
  observations: Readonly<Record<MemberConfigName, Readonly<Record<Scenario, readonly Observation[]>>>>,
): Record<MemberConfigName, MemberFigures> {
  return Object.fromEntries(
    MEMBER_CONFIGS.map(({ name }) => [name, memberFiguresOf(observations[name])]),
  ) as Record<MemberConfigName, MemberFigures>;
}

/**
 * The member-access holes' rows of a corpus's block: context off, on with the declarations' types (1), and on with
 * the editor's answers too (2).
 */
function memberLines(result: CorpusResult): string[] {
  const { found, sampled, observations } = result.members;
  // A corpus whose member holes come from the declared-type oracle only has those rows instead.
  if (found.length === 0 && result.declMembers) return [];
  if (found.length === 0)
    return [`  member-access holes (x.m, m's type declared in another file): none found`];
  const figures = memberFiguresByConfig(observations);
  const lines = [
    `  member-access holes (x.m, m's type declared in another file): found ${found.length} (${counts(found, RECEIVERS, (h) => h.stratum as (typeof RECEIVERS)[number])}), run ${sampled.length} in each configuration (${samplingOf(result.members.caps)})`,
    memberRow("", MEMBER_COLUMNS, "goal"),
  ];
  for (const scenario of SCENARIOS) {
    lines.push(
      memberRow(
        `member ${SCENARIO_LABELS[scenario]}`,
        memberCells((c) => share(figures[c].recall[scenario].all)),
        memberGoalText(result.corpus.language, scenario),
      ),
    );
    for (const receiver of RECEIVERS) {
      const n = sampled.filter((h) => h.stratum === receiver).length;
      if (n > 0)
        lines.push(
          memberRow(
            `    ${RECEIVER_LABELS[receiver]} (${n})`,
            memberCells((c) => share(figures[c].recall[scenario].byStratum[receiver])),
          ),
        );
    }
  }
  lines.push(...memberFigureRows(figures));
  return lines;
}

const DECL_MEMBER_LABELS: Record<Scenario, string> = {
  disk: "member recall, current file only",
  tabs: "member recall, type's file + 3 unrelated tabs open",
};

/** The rows of a corpus's member-access holes of a declared type (Java, C#, C++): none when it has none. */
function declMemberLines(result: CorpusResult): string[] {
  const { declMembers: members, corpus } = result;
  if (!members) return [];
  const strata = strataOf(corpus.language);
  const patterns = patternsOf(corpus.language).filter((p) => p === "member" || p === "arrow");
  const lines = [
    `  member access of a value (x.m${LANGUAGES[corpus.language].receivers?.operators.includes("->") ? ", x->m" : ""}; x a local, parameter or field whose declared type is a class of another file; m its own member): found ${members.found.length}: ${counts(members.found, strata, (h) => h.stratum)}; ${counts(members.found, patterns, (h) => h.pattern)}`,
    `  member-access holes run ${members.sampled.length} (${samplingOf(members.caps)}): ${counts(members.sampled, strata, (h) => h.stratum)}`,
    memberRow("", MEMBER_COLUMNS, "goal"),
  ];
  for (const scenario of SCENARIOS) {
    const cells = (pick: (r: Recall) => Ratio | undefined) =>
      memberCells((c) => share(pick(members.recall[c][scenario])));
    lines.push(
      memberRow(
        DECL_MEMBER_LABELS[scenario],
        cells((r) => r.all),
        memberGoalText(corpus.language, scenario),
      ),
    );
    for (const stratum of strata) {
      const n = members.sampled.filter((h) => h.stratum === stratum).length;
      lines.push(
        memberRow(
          `    ${STRATUM_LABELS[stratum]} (${n})`,
          cells((r) => r.byStratum[stratum]),
        ),
      );
    }
  }
  lines.push(...memberFigureRows(memberFiguresByConfig(members.observations)));
  return lines;
}

/**
 * One line per corpus and kind of member-access holes (of an inferred or declared type: TypeScript, Python, Go,
 * Rust; of a declared type: Java, C#, C++): recall off → on with (1) → on with (1)+(2) in both scenarios, the
 * outline tokens with (1) and with (1)+(2), and the holes whose receiver's type the editor located; ✓/✗ against
 * issue 24's goals ({@link MEMBER_GOALS}: (1)'s in the languages it names, (1)+(2)'s in every one).
 */
export function formatMemberSummary(results: readonly CorpusResult[]): string[] {
  const rows = results.flatMap((r) => {
    const kinds = [
      ...(r.members.sampled.length > 0
        ? [{ kind: "", holes: r.members.sampled, obs: r.members.observations }]
        : []),
      ...(r.declMembers
        ? [{ kind: " (declared type)", holes: r.declMembers.sampled, obs: r.declMembers.observations }]
        : []),
    ];
    return kinds.map(({ kind, holes, obs }) => {
      const figures = memberFiguresByConfig(obs);
      const cell = (scenario: Scenario) => {
        const on = figures.on.recall[scenario].all;
        const editor = figures.editor.recall[scenario].all;
        const mark = (ok: boolean | undefined) => (ok === undefined ? "" : ok ? " ✓" : " ✗");
        const alone = memberGoals(r.corpus.language) ? ratioOk(on, MEMBER_GOALS[scenario]) : undefined;
        return `${share(figures.off.recall[scenario].all)} → ${share(on)}${mark(alone)} → ${share(editor)}${mark(ratioOk(editor, MEMBER_GOALS.editor))}`;
      };
      const located = figures.editor.questions;
      return [
        r.corpus.language,
        `${r.corpus.name}${kind}${r.corpus.role === "tuning" ? " (tuning)" : ""}`,
        String(holes.length),
        cell("disk"),
        cell("tabs"),
        `${fixed(figures.on.outlineTokens, 0)} / ${fixed(figures.editor.outlineTokens, 0)}`,
        located ? `${located.located}/${located.atReceiver.total}` : "n/a",
      ];
    });
  });
  if (rows.length === 0) return [];
  const headings = [
    "language",
    "corpus",
    "holes",
    "member recall, current file only",
    "member recall, with tabs",
    "outline tokens",
    "located",
  ];
  const widths = headings.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const line = (values: readonly string[]) =>
    `  ${values.map((v, i) => (i < 2 ? v.padEnd(widths[i]!) : v.padStart(widths[i]!))).join("  ")}`.trimEnd();
  return [
    `member access summary: context off → on with (1) → on with (1)+(2); (1) the types the declarations tell, (2) the editor answering infill/typeDefinitions from the oracle as its language server would; outline tokens (1) / (1)+(2); located: holes whose receiver's type the editor gave (current file only); ✓/✗ against issue 24's goals: (1) ≥ ${MEMBER_GOALS.disk} (current file only) and ≥ ${MEMBER_GOALS.tabs} (with the type's file open) in ${MEMBER_GOALS.languages.join(", ")}, (1)+(2) ≥ ${MEMBER_GOALS.editor} in both`,
    line(headings),
    ...rows.map(line),
  ];
}

/** `off → on`, with ✓ or ✗ for `on` against a goal (none: no mark). */
function offOn(off: string, on: string, ok?: boolean): string {
  return `${off} → ${on}${ok === undefined ? "" : ok ? " ✓" : " ✗"}`;
}

const ratioOk = (r: Ratio, goal: number) => (r.total === 0 ? undefined : r.hits / r.total >= goal);

/** A column of the summary: its heading and its cell for a corpus. */
interface SummaryColumn {
  readonly heading: string;
  readonly cell: (result: CorpusResult) => string;
}

const SUMMARY_COLUMNS: readonly SummaryColumn[] = [
  { heading: "language", cell: (r) => r.corpus.language },
  { heading: "corpus", cell: (r) => `${r.corpus.name}${r.corpus.role === "tuning" ? " (tuning)" : ""}` },
  { heading: "holes", cell: (r) => String(r.sampled.length) },
  ...SCENARIOS.map(
    (scenario): SummaryColumn => ({
      heading: scenario === "disk" ? "recall, current file only" : "recall, with tabs",
      cell: (r) => {
        const { off, on } = r.figures;
        const goal = recallGoals(r.corpus.language)[scenario];
        return offOn(
          share(off.recall[scenario].all),
          share(on.recall[scenario].all),
          ratioOk(on.recall[scenario].all, goal),
        );
      },
    }),
  ),
  ...SCENARIOS.map(
    (scenario): SummaryColumn => ({
      heading: scenario === "disk" ? "member recall, file only" : "member recall, tabs",
      cell: (r) => {
        if (r.members.sampled.length === 0) return "n/a";
        const recall = memberFiguresOf(r.members.observations.on).recall[scenario].all;
        const goal = memberGoals(r.corpus.language) ? ratioOk(recall, MEMBER_GOALS[scenario]) : undefined;
        return `${share(recall)}${goal === undefined ? "" : goal ? " ✓" : " ✗"} (${recall.total})`;
      },
    }),
  ),
  {
    heading: "outline tokens",
    cell: (r) =>
      r.members.sampled.length === 0
        ? "n/a"
        : fixed(memberFiguresOf(r.members.observations.on).outlineTokens, 0),
  },
  {
    heading: "over budget",
    cell: (r) => {
      const { hits, total } = r.figures.on.overBudget;
      return `${r.figures.off.overBudget.hits} → ${hits}/${total}${hits === GOALS.overBudget ? " ✓" : " ✗"}`;
    },
  },
  {
    heading: "prompt tokens",
    cell: (r) =>
      offOn(fixed(r.figures.off.meanPromptTokens.disk, 0), fixed(r.figures.on.meanPromptTokens.disk, 0)),
  },
  {
    heading: "cache hits",
    cell: (r) => {
      const on = r.figures.on.cacheHits;
      return offOn(
        percent(r.figures.off.cacheHits),
        percent(on),
        on === undefined ? undefined : on >= GOALS.cacheHits,
      );
    },
  },
  {
    heading: "selection p50 / p99 ms",
    cell: (r) => {
      const s = r.figures.on.selectionMs;
      if (!s) return "n/a";
      const ok = s.p50 < GOALS.selectionP50Ms && s.p99 < GOALS.selectionP99Ms;
      return `${fixed(s.p50, 2)} / ${fixed(s.p99, 1)}${ok ? " ✓" : " ✗"}`;
    },
  },
];

/**
 * One line per corpus: recall off → on in both scenarios, requests over the budget, mean prompt tokens (current
 * file only), the session's cache hits and the selection time with context on; ✓ or ✗ against the goals.
 */
export function formatSummary(results: readonly CorpusResult[]): string[] {
  const cells = results.map((r) => SUMMARY_COLUMNS.map((c) => c.cell(r)));
  const widths = SUMMARY_COLUMNS.map((c, i) =>
    Math.max(c.heading.length, ...cells.map((row) => row[i]!.length)),
  );
  const line = (values: readonly string[]) =>
    `  ${values.map((v, i) => (i < 2 ? v.padEnd(widths[i]!) : v.padStart(widths[i]!))).join("  ")}`.trimEnd();
  const lines = [
    `summary, context off → on; ✓/✗ against the goals on "on": recall ≥ ${GOALS.recallDisk} (current file only) and ≥ ${GOALS.recallTabs} (with tabs) where there are imports to follow (both ≥ ${GOALS.recallPythonRust} in Python and Rust), ≥ ${GOALS.recallDiskByName} and ≥ ${GOALS.recallTabsByName} by name (C#); no request over the budget; cache hits ≥ ${100 * GOALS.cacheHits} %; selection p50 < ${GOALS.selectionP50Ms} ms and p99 < ${GOALS.selectionP99Ms} ms; member recall (context on only, holes run in brackets) ≥ ${MEMBER_GOALS.disk} and ≥ ${MEMBER_GOALS.tabs} in ${MEMBER_GOALS.languages.join(", ")}`,
    line(SUMMARY_COLUMNS.map((c) => c.heading)),
    ...cells.map(line),
  ];
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
