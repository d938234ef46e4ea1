// The corpora an eval runs, in order (TypeScript packages, this repository, Debian's), laid out only when their turn
// comes, and the `INFILL_EVAL_ONLY` selection among them.
import { type Corpus, debianCorpus, HELD_OUT, packageCorpus, repositoryCorpus } from "./corpus.js";
import { DEBIAN_CORPORA } from "./debian-corpora.js";
import type { Language } from "./languages.js";

/** A corpus to run: what selects it, and how to lay it out. */
export interface PlannedCorpus {
  readonly name: string;
  readonly language: Language;
  readonly load: () => Promise<Corpus>;
}

/** What to plan besides the pinned TypeScript packages and Debian's corpora. */
export interface PlanOptions {
  /** This repository's sources as a TypeScript corpus (tuning), after the packages. Default false. */
  readonly repository?: boolean;
}

/** Every corpus of an eval, in order, unpacked under `scratch` when loaded. */
export function plannedCorpora(
  repoRoot: string,
  scratch: string,
  options: PlanOptions = {},
): PlannedCorpus[] {
  return [
    ...HELD_OUT.map((spec) => ({
      name: spec.name,
      language: "TypeScript" as const,
      load: () => packageCorpus(spec, repoRoot, scratch),
    })),
    ...(options.repository
      ? [{ name: "infill", language: "TypeScript" as const, load: () => repositoryCorpus(repoRoot, scratch) }]
      : []),
    ...DEBIAN_CORPORA.map((spec) => ({
      name: spec.name,
      language: spec.language,
      load: () => debianCorpus(spec, scratch),
    })),
  ];
}

/**
 * The corpora `INFILL_EVAL_ONLY=C,rich` selects: those whose language or name is in the list (case-insensitive), all
 * when it is unset; a partial run to iterate on, not the eval's figures. `said` is the line to print when it is set.
 */
export function selectedCorpora(
  planned: readonly PlannedCorpus[],
  env: NodeJS.ProcessEnv = process.env,
): { corpora: PlannedCorpus[]; said: string | undefined } {
  const only = (env.INFILL_EVAL_ONLY ?? "")
    .split(",")
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);
  const corpora = planned.filter(
    (c) =>
      only.length === 0 || only.includes(c.language.toLowerCase()) || only.includes(c.name.toLowerCase()),
  );
  const said =
    only.length > 0
      ? `INFILL_EVAL_ONLY: ${corpora.map((c) => c.name).join(", ") || "no corpus"}\n`
      : undefined;
  return { corpora, said };
}
