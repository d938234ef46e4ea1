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
import { findMemberHoles } from "./member-holes.js";
import { type SampleCaps, sampleHoles } from "./sample.js";
import { findTagHoles } from "./tag-holes.js";
import { usageOf } from "./usage.js";

/** The two configurations compared, in report order. */
export const CONFIGS = [
  { name: "off", enabled: false },
  { name: "on", enabled: true },
] as const;

/** A configuration's name. */
export type ConfigName = (typeof CONFIGS)[number]["name"];

/** How to evaluate. */
export interface EvaluateOptions {
  /** Path of the built `infill-lsp.js`. */
  readonly bin: string;
  readonly caps: SampleCaps;
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
  /** Member-access holes (`x.m`, x a local, parameter or field): where the language has them (`member-holes.ts`). */
  readonly members?: MemberResult;
}

/** The member-access holes of a corpus: found, run, and recall per configuration. */
export interface MemberResult {
  readonly found: readonly Hole[];
  readonly sampled: readonly Hole[];
  readonly recall: Readonly<Record<ConfigName, Readonly<Record<Scenario, Recall>>>>;
}

/** Evaluate one corpus with context off and on, each configuration on a server of its own. */
export async function evaluateCorpus(corpus: Corpus, options: EvaluateOptions): Promise<CorpusResult> {
  const progress = options.progress ?? (() => {});
  const t0 = performance.now();
  const tags = corpus.language === "TypeScript" ? undefined : await tagsOf(corpus, options);
  const found = await findCorpusHoles(corpus, { tags: async () => tags ?? [] });
  const sampled = sampleHoles(found, options.caps);
  const memberFound = tags ? findMemberHoles(corpus.language, corpus.files, readerOf(corpus), tags) : [];
  const memberSampled = sampleHoles(memberFound, options.caps);
  progress(
    `${corpus.name}: ${found.length} holes found, ${sampled.length} sampled; member access ${memberFound.length} found, ${memberSampled.length} sampled (${((performance.now() - t0) / 1000).toFixed(1)} s)`,
  );
  const files = new WorkspaceFiles(corpus);
  const session = planSession(files, sampled);
  const contextTokens = defaultSettings({}).contextTokens;

  const sim = await startSim();
  const runs = {} as Record<ConfigName, ConfigRun>;
  try {
    for (const config of CONFIGS) {
      runs[config.name] = await runConfig(
        sim,
        corpus,
        files,
        { holes: sampled, members: memberSampled },
        session,
        config,
        options,
        progress,
      );
    }
  } finally {
    await sim.close();
  }
  const figures = Object.fromEntries(
    CONFIGS.map(({ name }) => [name, figuresOf(runs[name], contextTokens)]),
  ) as Record<ConfigName, ConfigFigures>;
  const changed = changedRequests(runs.off, runs.on);
  const members: MemberResult | undefined =
    memberSampled.length === 0
      ? undefined
      : {
          found: memberFound,
          sampled: memberSampled,
          recall: Object.fromEntries(
            CONFIGS.map(({ name }) => [
              name,
              Object.fromEntries(SCENARIOS.map((s) => [s, recallOf(runs[name].members?.[s] ?? [])])),
            ]),
          ) as MemberResult["recall"],
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
    ...(members ? { members } : {}),
  };
}

/** The ctags outline of a corpus in a language other than TypeScript. */
async function tagsOf(corpus: Corpus, options: Pick<EvaluateOptions, "tags">): Promise<readonly Tag[]> {
  if (!options.tags) throw new Error(`${corpus.name}: a ${corpus.language} corpus needs its ctags outline`);
  return options.tags(corpus);
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
  { holes, members }: { readonly holes: readonly Hole[]; readonly members: readonly Hole[] },
  plan: SessionPlan | undefined,
  config: (typeof CONFIGS)[number],
  options: EvaluateOptions,
  progress: (line: string) => void,
): Promise<ConfigRun> {
  const editor = await launch({
    bin: options.bin,
    baseUrl: sim.url,
    root: corpus.root,
    languageId: (file) => languageIdOf(corpus.language, file),
    initializationOptions: { debounceMs: 0, metrics: true, context: { enabled: config.enabled } },
  });
  const observations = {} as Record<Scenario, Observation[]>;
  const memberObservations = {} as Record<Scenario, Observation[]>;
  let session: SessionRun | undefined;
  try {
    for (const scenario of SCENARIOS) {
      const t = performance.now();
      observations[scenario] = await runHoles(editor, sim, files, holes, scenario);
      progress(
        `${corpus.name}: context ${config.name}, ${scenario}: ${holes.length} holes in ${((performance.now() - t) / 1000).toFixed(1)} s`,
      );
    }
    session = plan && (await replaySession(editor, sim, files, plan));
    // Last, so that every other figure is that of a run without them.
    for (const scenario of members.length > 0 ? SCENARIOS : []) {
      const t = performance.now();
      memberObservations[scenario] = await runHoles(editor, sim, files, members, scenario);
      progress(
        `${corpus.name}: context ${config.name}, ${scenario}: ${members.length} member-access holes in ${((performance.now() - t) / 1000).toFixed(1)} s`,
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
    observations,
    ...(members.length > 0 ? { members: memberObservations } : {}),
    usages,
    session,
    sessionUsages: session ? await usageOf(session.sent) : [],
    messages: editor.messages,
  };
}
