// One corpus, context off and on: find and sample the holes, drive a server per configuration, account the tokens.
import { readFileSync } from "node:fs";
import path from "node:path";
import { type Sim, startSim } from "@infill/sim";
import { defaultSettings } from "../src/settings/settings.js";
import type { Corpus } from "./corpus.js";
import type { Tag } from "./ctags.js";
import {
  type Observation,
  planSession,
  replaySession,
  runHoles,
  SCENARIOS,
  type Scenario,
  type SessionPlan,
  type SessionRun,
  WorkspaceFiles,
} from "./drive.js";
import {
  type ConfigFigures,
  type ConfigRun,
  changedRequests,
  figuresOf,
  type Ratio,
  type Recall,
  recallOf,
} from "./figures.js";
import type { Hole } from "./hole.js";
import { findHoles } from "./holes.js";
import { languageIdOf } from "./languages.js";
import { launch } from "./lsp-client.js";
import { findMemberDeclHoles } from "./member-decl-holes.js";
import { findMemberHoles } from "./member-holes.js";
import { findMemberTagHoles, hasMemberOracle } from "./member-tag-holes.js";
import { type SampleCaps, sampleHoles } from "./sample.js";
import { findTagHoles } from "./tag-holes.js";
import { ScriptedTypeDefinitions } from "./type-answers.js";
import { usageOf } from "./usage.js";

/** The two configurations compared, in report order. */
export const CONFIGS = [
  { name: "off", enabled: false },
  { name: "on", enabled: true },
] as const;

/** A configuration's name. */
export type ConfigName = (typeof CONFIGS)[number]["name"];

/**
 * The member-access holes' configurations (issue 24), in report order: context off; on, with what the
 * declarations tell of types (1); and on with the editor answering `infill/typeDefinitions` too (2), from the
 * hole's oracle as a language server would (`type-answers.ts`), on a server of its own that runs only those holes.
 */
export const MEMBER_CONFIGS = [
  { name: "off", enabled: false, editor: false },
  { name: "on", enabled: true, editor: false },
  { name: "editor", enabled: true, editor: true },
] as const;

/** A member-access configuration's name. */
export type MemberConfigName = (typeof MEMBER_CONFIGS)[number]["name"];

/**
 * How long the server waits for the scripted editor's answer (`context.typeDefinitionMs`, its maximum), in ms: it
 * answers at once, so that the figure is what the answer brings, not how busy the machine is.
 */
const EDITOR_BUDGET_MS = 2000;

/** Member-access holes of a corpus (issue 24): a proportional sample of up to 300, at most 3 per file. */
export const MEMBER_CAPS: SampleCaps = { perStratum: 300, perFile: 3, stratified: false };

/** How to evaluate. */
export interface EvaluateOptions {
  /** Path of the built `infill-lsp.js`. */
  readonly bin: string;
  readonly caps: SampleCaps;
  /** The member-access holes' sample; default {@link MEMBER_CAPS}. */
  readonly memberCaps?: SampleCaps;
  /**
   * The ctags outline of a corpus in a language other than TypeScript (`runCtags`; the smoke test reads a
   * committed one). Default: none, and such a corpus throws.
   */
  readonly tags?: (corpus: Corpus) => Promise<readonly Tag[]>;
  /** Progress lines (not figures); default none. */
  readonly progress?: (line: string) => void;
}

/** Everything measured on one corpus. */
export interface CorpusResult {
  readonly corpus: Corpus;
  /** Every hole the oracle found. */
  readonly found: readonly Hole[];
  /** The holes run. */
  readonly sampled: readonly Hole[];
  readonly caps: SampleCaps;
  /** The replayed session's file and region. */
  readonly session: SessionPlan | undefined;
  /** The server's budget of prompt + suffix, in estimated tokens (its default, which the eval does not set). */
  readonly contextTokens: number;
  readonly runs: Readonly<Record<ConfigName, ConfigRun>>;
  readonly figures: Readonly<Record<ConfigName, ConfigFigures>>;
  /** Per scenario, holes whose request with context on differs from context off's. */
  readonly changed: Readonly<Record<Scenario, Ratio>>;
  /** The member-access holes (issue 24): found, run with context on only, and their figures. */
  readonly members: MemberResult;
  /**
   * The member-access holes of a value whose declared type is a class of another file (Java, C#, C++:
   * `member-decl-holes.ts`), run in both configurations; none where the language has no such oracle.
   */
  readonly declMembers?: DeclMemberResult;
}

/** The member-access holes of a corpus and what each configuration recalled of them. */
export interface MemberResult {
  readonly found: readonly Hole[];
  readonly sampled: readonly Hole[];
  readonly caps: SampleCaps;
  /** Per configuration and scenario. */
  readonly observations: Readonly<
    Record<MemberConfigName, Readonly<Record<Scenario, readonly Observation[]>>>
  >;
}

/** The declared-type member-access holes of a corpus: found, run, and recall per configuration. */
export interface DeclMemberResult {
  readonly found: readonly Hole[];
  readonly sampled: readonly Hole[];
  readonly caps: SampleCaps;
  readonly observations: Readonly<
    Record<MemberConfigName, Readonly<Record<Scenario, readonly Observation[]>>>
  >;
  readonly recall: Readonly<Record<MemberConfigName, Readonly<Record<Scenario, Recall>>>>;
}

/** Evaluate one corpus with context off and on, each configuration on a server of its own. */
export async function evaluateCorpus(corpus: Corpus, options: EvaluateOptions): Promise<CorpusResult> {
  const progress = options.progress ?? (() => {});
  const t0 = performance.now();
  const tags = corpus.language === "TypeScript" ? undefined : await tagsOf(corpus, options);
  const found = await findCorpusHoles(corpus, { tags: async () => tags ?? [] });
  const sampled = sampleHoles(found, options.caps);
  const memberCaps = options.memberCaps ?? MEMBER_CAPS;
  const memberFound = await findCorpusMemberHoles(corpus, { tags: async () => tags ?? [] });
  const memberSampled = sampleHoles(memberFound, memberCaps);
  const declFound = tags ? findMemberDeclHoles(corpus.language, corpus.files, readerOf(corpus), tags) : [];
  const declSampled = sampleHoles(declFound, memberCaps);
  progress(
    `${corpus.name}: ${found.length} holes found, ${sampled.length} sampled; ${memberFound.length} member-access holes, ${memberSampled.length} sampled; ${declFound.length} of a declared type, ${declSampled.length} sampled (${((performance.now() - t0) / 1000).toFixed(1)} s)`,
  );
  const files = new WorkspaceFiles(corpus);
  const session = planSession(files, sampled);
  const contextTokens = defaultSettings({}).contextTokens;

  const sim = await startSim();
  const runs = {} as Record<ConfigName, ConfigRun>;
  const memberObservations = {} as Record<MemberConfigName, Record<Scenario, Observation[]>>;
  const declObservations = {} as Record<MemberConfigName, Record<Scenario, readonly Observation[]>>;
  try {
    for (const config of MEMBER_CONFIGS) {
      // The editor's configuration runs the member-access holes alone: the other figures are off's and on's.
      const holes = {
        holes: config.editor ? [] : sampled,
        members: memberSampled,
        declMembers: declSampled,
      };
      const plan = config.editor ? undefined : session;
      const run = await runConfig(sim, corpus, files, holes, plan, config, options, progress);
      if (config.name !== "editor") runs[config.name] = run.run;
      memberObservations[config.name] = run.members;
      declObservations[config.name] = run.run.declMembers ?? { disk: [], tabs: [] };
    }
  } finally {
    await sim.close();
  }
  const figures = Object.fromEntries(
    CONFIGS.map(({ name }) => [name, figuresOf(runs[name], contextTokens)]),
  ) as Record<ConfigName, ConfigFigures>;
  const changed = changedRequests(runs.off, runs.on);
  const members = {
    found: memberFound,
    sampled: memberSampled,
    caps: memberCaps,
    observations: memberObservations,
  };
  const declMembers: DeclMemberResult | undefined =
    declSampled.length === 0
      ? undefined
      : {
          found: declFound,
          sampled: declSampled,
          caps: memberCaps,
          observations: declObservations,
          recall: Object.fromEntries(
            MEMBER_CONFIGS.map(({ name }) => [
              name,
              Object.fromEntries(SCENARIOS.map((s) => [s, recallOf(declObservations[name][s])])),
            ]),
          ) as DeclMemberResult["recall"],
        };
  return {
    corpus,
    found,
    sampled,
    caps: options.caps,
    session,
    contextTokens,
    runs,
    figures,
    changed,
    members,
    ...(declMembers ? { declMembers } : {}),
  };
}

/** The ctags outline of a corpus in a language other than TypeScript. */
async function tagsOf(corpus: Corpus, options: Pick<EvaluateOptions, "tags">): Promise<readonly Tag[]> {
  if (!options.tags) throw new Error(`${corpus.name}: a ${corpus.language} corpus needs its ctags outline`);
  return options.tags(corpus);
}

/** The member-access holes of a corpus: the TypeScript compiler's, or (Python, Go, Rust) ctags' members. */
export async function findCorpusMemberHoles(
  corpus: Corpus,
  options: Pick<EvaluateOptions, "tags">,
): Promise<Hole[]> {
  if (corpus.language === "TypeScript")
    return findMemberHoles(corpus.root, corpus.files, corpus.packagePaths);
  if (!hasMemberOracle(corpus.language) || !options.tags) return [];
  return findMemberTagHoles(corpus.language, corpus.files, readerOf(corpus), await options.tags(corpus));
}

/** A corpus file's text by workspace-relative path; undefined when there is none. */
function readerOf(corpus: Corpus): (file: string) => string | undefined {
  return (file) => {
    try {
      return readFileSync(path.join(corpus.root, file), "utf8");
    } catch {
      return undefined;
    }
  };
}

/** The holes of a corpus, by its language's oracle: the TypeScript compiler, or ctags. */
export async function findCorpusHoles(
  corpus: Corpus,
  options: Pick<EvaluateOptions, "tags">,
): Promise<Hole[]> {
  if (corpus.language === "TypeScript") return findHoles(corpus.root, corpus.files, corpus.packagePaths);
  return findTagHoles(corpus.language, corpus.files, readerOf(corpus), await tagsOf(corpus, options));
}

async function runConfig(
  sim: Sim,
  corpus: Corpus,
  files: WorkspaceFiles,
  {
    holes,
    members,
    declMembers,
  }: {
    readonly holes: readonly Hole[];
    readonly members: readonly Hole[];
    readonly declMembers: readonly Hole[];
  },
  plan: SessionPlan | undefined,
  config: (typeof MEMBER_CONFIGS)[number],
  options: EvaluateOptions,
  progress: (line: string) => void,
): Promise<{ run: ConfigRun; members: Record<Scenario, Observation[]> }> {
  const types = config.editor ? new ScriptedTypeDefinitions() : undefined;
  const editor = await launch({
    bin: options.bin,
    baseUrl: sim.url,
    root: corpus.root,
    languageId: (file) => languageIdOf(corpus.language, file),
    initializationOptions: {
      debounceMs: 0,
      metrics: true,
      context: { enabled: config.enabled, ...(types ? { typeDefinitionMs: EDITOR_BUDGET_MS } : {}) },
    },
    ...(types ? { typeDefinitions: (file, positions) => types.answer(file, positions) } : {}),
  });
  const observations = {} as Record<Scenario, Observation[]>;
  const memberObservations = {} as Record<Scenario, Observation[]>;
  const declObservations = {} as Record<Scenario, Observation[]>;
  let session: SessionRun | undefined;
  try {
    for (const scenario of SCENARIOS) {
      const t = performance.now();
      observations[scenario] = await runHoles(editor, sim, files, holes, scenario);
      memberObservations[scenario] = await runHoles(editor, sim, files, members, scenario, types);
      progress(
        `${corpus.name}: context ${config.name}, ${scenario}: ${holes.length} holes and ${members.length} member-access holes in ${((performance.now() - t) / 1000).toFixed(1)} s`,
      );
    }
    session = plan && (await replaySession(editor, sim, files, plan));
    // Last, so that every other figure is that of a run without them.
    for (const scenario of declMembers.length > 0 ? SCENARIOS : []) {
      const t = performance.now();
      declObservations[scenario] = await runHoles(editor, sim, files, declMembers, scenario, types);
      progress(
        `${corpus.name}: context ${config.name}, ${scenario}: ${declMembers.length} member-access holes of a declared type in ${((performance.now() - t) / 1000).toFixed(1)} s`,
      );
    }
  } finally {
    await editor.shutdown();
  }
  const usages = {} as Record<Scenario, Awaited<ReturnType<typeof usageOf>>>;
  for (const scenario of SCENARIOS) {
    usages[scenario] = await usageOf(observations[scenario].flatMap((o) => (o.sent ? [o.sent] : [])));
  }
  return {
    run: {
      observations,
      ...(declMembers.length > 0 ? { declMembers: declObservations } : {}),
      usages,
      session,
      sessionUsages: session ? await usageOf(session.sent) : [],
      messages: editor.messages,
    },
    members: memberObservations,
  };
}
