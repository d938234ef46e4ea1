// The figures of one server configuration on one corpus, computed from what the sim received. Pure.
import { estimateTokens } from "../src/completion/prompt-window.js";
import type { Observation, Scenario, SentRequest, SessionRun } from "./drive.js";
import type { Hole, Stratum } from "./hole.js";
import { LANGUAGES, type Language } from "./languages.js";
import type { PromptUsage } from "./usage.js";

/** The goals of issues 13 and 17, checked on the "context on" figures. */
export const GOALS = {
  /** Recall with only the current file open (imports read from disk), in a language with imports to follow. */
  recallDisk: 0.85,
  /** Recall with the declaring file and three unrelated files open as tabs, in such a language. */
  recallTabs: 0.95,
  /** The same two where there are no imports to follow (C#): through a workspace symbol index. */
  recallDiskByName: 0.7,
  recallTabsByName: 0.9,
  /** Both, in Python and Rust, whose misses issue 17 names (names first used on the cursor line, …). */
  recallPythonRust: 0.95,
  /** Requests over the `contextTokens` budget. */
  overBudget: 0,
  /** Prompt-cache hit ratio of the replayed session. */
  cacheHits: 0.9,
  /** Context-selection time at p50 and p99, in ms (strictly below). */
  selectionP50Ms: 1,
  selectionP99Ms: 10,
} as const;

/**
 * The goals of issue 24's member-access holes, from what the code declares alone, in the languages it names
 * (Java's rules are another branch's): recall with the current file only, and with the declaring file open.
 */
export const MEMBER_GOALS = {
  disk: 0.9,
  tabs: 0.97,
  languages: ["TypeScript", "Go", "Rust", "Java"],
  /** With the editor's language servers answering `infill/typeDefinitions` (Neovim), in both scenarios. */
  editor: 0.97,
} as const;

/** The recall goals of a language: from disk (current file only) and with tabs. */
export function recallGoals(language: Language): { readonly disk: number; readonly tabs: number } {
  if (language === "Python" || language === "Rust")
    return { disk: GOALS.recallPythonRust, tabs: GOALS.recallPythonRust };
  return LANGUAGES[language].lookup === "imports"
    ? { disk: GOALS.recallDisk, tabs: GOALS.recallTabs }
    : { disk: GOALS.recallDiskByName, tabs: GOALS.recallTabsByName };
}

/** `hits` of `total`. */
export interface Ratio {
  readonly hits: number;
  readonly total: number;
}

/** Recall in one scenario: over all holes and per stratum. */
export interface Recall {
  readonly all: Ratio;
  /** Per stratum (import kind, reach); a stratum without holes has none. */
  readonly byStratum: Readonly<Partial<Record<Stratum, Ratio>>>;
  /** Over the holes whose identifier came from another package of the workspace. */
  readonly crossPackage: Ratio;
}

/** What one configuration (context off or on) produced on one corpus. */
export interface ConfigRun {
  readonly observations: Readonly<Record<Scenario, readonly Observation[]>>;
  /**
   * The observations of the member-access holes of a declared type (`member-decl-holes.ts`), where the corpus has
   * them (not in any other figure).
   */
  readonly declMembers?: Readonly<Record<Scenario, readonly Observation[]>>;
  /** The sim's usage of each observation that sent a request, in order. */
  readonly usages: Readonly<Record<Scenario, readonly PromptUsage[]>>;
  readonly session: SessionRun | undefined;
  /** The sim's usage of the session's requests, in order, from an empty cache. */
  readonly sessionUsages: readonly PromptUsage[];
  /** What the server said with `window/showMessage` (a refused setting shows here). */
  readonly messages: readonly string[];
}

/** The figures of one configuration on one corpus. */
export interface ConfigFigures {
  readonly recall: Readonly<Record<Scenario, Recall>>;
  /** Holes whose request reached the sim, per scenario (the others count as not recalled). */
  readonly captured: Readonly<Record<Scenario, Ratio>>;
  /** Mean `prompt_tokens` of the hole requests, per scenario; undefined without requests. */
  readonly meanPromptTokens: Readonly<Record<Scenario, number | undefined>>;
  /** Requests (holes and session) whose prompt + suffix is estimated over `contextTokens`. */
  readonly overBudget: Ratio;
  /** `prompt_cache_hit_tokens / prompt_tokens` over the session's requests; undefined without any. */
  readonly cacheHits: number | undefined;
  /** Words typed in the session and the upstream requests they caused. */
  readonly session: { readonly words: number; readonly requests: number } | undefined;
  /** Context-selection time over every request whose metrics report it; undefined when none does. */
  readonly selectionMs: { readonly p50: number; readonly p99: number; readonly n: number } | undefined;
}

/** Whether a request contains one of the hole's declaration lines (each compared trimmed, as a substring). */
export function recalled(hole: Pick<Hole, "declarations">, sent: SentRequest | undefined): boolean {
  if (!sent) return false;
  return hole.declarations.some((d) => sent.prompt.includes(d.text) || sent.suffix.includes(d.text));
}

/** The value at quantile `q` (0–1) of `values`: the element at rank ⌊q·n⌋ of the sorted values. */
export function quantile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
}

/** Recall over some observations: overall, per stratum, and over the holes from another workspace package. */
export function recallOf(observations: readonly Observation[]): Recall {
  const ratio = (list: readonly Observation[]): Ratio => ({
    hits: list.filter((o) => recalled(o.hole, o.sent)).length,
    total: list.length,
  });
  const strata = [...new Set(observations.map((o) => o.hole.stratum))];
  const byStratum = Object.fromEntries(
    strata.map((stratum) => [stratum, ratio(observations.filter((o) => o.hole.stratum === stratum))]),
  ) as Partial<Record<Stratum, Ratio>>;
  return {
    all: ratio(observations),
    byStratum,
    crossPackage: ratio(observations.filter((o) => o.hole.crossPackage)),
  };
}

const mean = (values: readonly number[]) =>
  values.length === 0 ? undefined : values.reduce((a, b) => a + b, 0) / values.length;

/** The figures of a configuration's run, with `contextTokens` the server's budget of prompt + suffix. */
export function figuresOf(run: ConfigRun, contextTokens: number): ConfigFigures {
  const scenarios = Object.keys(run.observations) as Scenario[];
  const perScenario = <T>(f: (scenario: Scenario) => T) =>
    Object.fromEntries(scenarios.map((s) => [s, f(s)])) as Record<Scenario, T>;

  const sent = [
    ...scenarios.flatMap((s) => run.observations[s].flatMap((o) => (o.sent ? [o.sent] : []))),
    ...(run.session?.sent ?? []),
  ];
  const metrics = [
    ...scenarios.flatMap((s) => run.observations[s].flatMap((o) => (o.metrics ? [o.metrics] : []))),
    ...(run.session?.metrics ?? []),
  ];
  const selection = metrics.flatMap((m) => (m.context ? [m.context.ms] : []));
  const sessionPrompt = run.sessionUsages.reduce((sum, u) => sum + u.prompt_tokens, 0);
  const sessionHits = run.sessionUsages.reduce((sum, u) => sum + u.prompt_cache_hit_tokens, 0);

  return {
    recall: perScenario((s) => recallOf(run.observations[s])),
    captured: perScenario((s) => ({
      hits: run.observations[s].filter((o) => o.sent).length,
      total: run.observations[s].length,
    })),
    meanPromptTokens: perScenario((s) => mean(run.usages[s].map((u) => u.prompt_tokens))),
    overBudget: {
      hits: sent.filter((body) => estimateTokens(body.prompt + body.suffix) > contextTokens).length,
      total: sent.length,
    },
    cacheHits: sessionPrompt === 0 ? undefined : sessionHits / sessionPrompt,
    session: run.session && { words: run.session.words, requests: run.session.sent.length },
    selectionMs:
      selection.length === 0
        ? undefined
        : { p50: quantile(selection, 0.5), p99: quantile(selection, 0.99), n: selection.length },
  };
}

/** Per scenario, the holes whose request with context on differs from the one with context off. */
export function changedRequests(off: ConfigRun, on: ConfigRun): Record<Scenario, Ratio> {
  const scenarios = Object.keys(on.observations) as Scenario[];
  return Object.fromEntries(
    scenarios.map((scenario) => {
      const before = off.observations[scenario];
      const after = on.observations[scenario];
      const same = (i: number) =>
        before[i]?.sent?.prompt === after[i]?.sent?.prompt &&
        before[i]?.sent?.suffix === after[i]?.sent?.suffix;
      return [scenario, { hits: after.filter((_, i) => !same(i)).length, total: after.length }];
    }),
  ) as Record<Scenario, Ratio>;
}

/** What context on recalled of a corpus's member-access holes (issue 24). */
export interface MemberFigures {
  readonly recall: Readonly<Record<Scenario, Recall>>;
  /**
   * Mean estimated tokens of the member outlines in the holes' requests (current file only), over those whose
   * metrics report it; undefined when none does (a server without outlines).
   */
  readonly outlineTokens: number | undefined;
  /** Requests (current file only) that carried a member outline. */
  readonly outlined: Ratio;
  /** Context-selection time of the holes' requests (both scenarios, each a fresh choice with typing); ms. */
  readonly selectionMs: { readonly p50: number; readonly p99: number; readonly n: number } | undefined;
  /**
   * Where the editor answered `infill/typeDefinitions` (current file only): holes whose receiver the server asked
   * about, of them those answered with a location, and positions asked anywhere else; undefined without an editor.
   */
  readonly questions:
    | { readonly atReceiver: Ratio; readonly located: number; readonly elsewhere: number }
    | undefined;
}

/** The figures of the member-access holes' observations, per scenario. */
export function memberFiguresOf(
  observations: Readonly<Record<Scenario, readonly Observation[]>>,
): MemberFigures {
  const scenarios = Object.keys(observations) as Scenario[];
  const disk = observations.disk ?? [];
  const reported = disk.flatMap((o) => {
    const tokens = o.metrics?.context?.outlineTokens;
    return tokens === undefined ? [] : [tokens];
  });
  const selection = scenarios.flatMap((s) =>
    observations[s].flatMap((o) => (o.metrics?.context ? [o.metrics.context.ms] : [])),
  );
  return {
    recall: Object.fromEntries(scenarios.map((s) => [s, recallOf(observations[s])])) as Record<
      Scenario,
      Recall
    >,
    outlineTokens: mean(reported),
    outlined: { hits: reported.filter((t) => t > 0).length, total: disk.length },
    questions: questionsOf(disk),
    selectionMs:
      selection.length === 0
        ? undefined
        : { p50: quantile(selection, 0.5), p99: quantile(selection, 0.99), n: selection.length },
  };
}

/** What the editor was asked over some holes' observations; undefined when none records it (no editor). */
export function questionsOf(observations: readonly Observation[]): MemberFigures["questions"] {
  const asked = observations.flatMap((o) => (o.typeQuestions ? [o.typeQuestions] : []));
  if (asked.length === 0) return undefined;
  return {
    atReceiver: { hits: asked.filter((q) => q.atReceiver > 0).length, total: observations.length },
    located: asked.filter((q) => q.located > 0).length,
    elsewhere: asked.reduce((sum, q) => sum + q.asked - q.atReceiver, 0),
  };
}
