// Deterministic choices: the same corpus gives the same holes and the same tabs on every machine and every run.
import { createHash } from "node:crypto";
import type { Hole } from "./hole.js";

/** A stable rank for a string: the first 13 hex digits of its SHA-256 (exact as a double). */
export function stableRank(key: string): number {
  return Number.parseInt(createHash("sha256").update(key).digest("hex").slice(0, 13), 16);
}

/** Caps of {@link sampleHoles}. */
export interface SampleCaps {
  /** Holes per stratum of a corpus (the whole corpus is one stratum when not `stratified`). */
  readonly perStratum: number;
  /** Holes per file and stratum, so that a few long files do not make up the sample. */
  readonly perFile: number;
  /**
   * Whether each stratum (and, within it, imports from the same and from another package) is sampled on its own,
   * keeping rare strata in the sample; otherwise the sample is proportional, and its overall recall is the
   * corpus's.
   */
  readonly stratified: boolean;
}

/**
 * A deterministic sample: per stratum (see {@link SampleCaps.stratified}), holes in the order of their stable
 * rank, at most `perFile` from one file, until `perStratum` are taken; returned sorted by file and position (the
 * order they are run in).
 */
export function sampleHoles(holes: readonly Hole[], caps: SampleCaps): Hole[] {
  const stratumOf = (hole: Hole) => (caps.stratified ? `${hole.stratum} ${hole.crossPackage}` : "all");
  const taken: Hole[] = [];
  for (const stratum of new Set(holes.map(stratumOf))) {
    const perFile = new Map<string, number>();
    let count = 0;
    const ranked = holes
      .filter((hole) => stratumOf(hole) === stratum)
      .map((hole) => ({ hole, rank: stableRank(hole.id) }))
      .sort((a, b) => a.rank - b.rank || compareHoles(a.hole, b.hole));
    for (const { hole } of ranked) {
      if (count === caps.perStratum) break;
      const inFile = perFile.get(hole.file) ?? 0;
      if (inFile === caps.perFile) continue;
      perFile.set(hole.file, inFile + 1);
      taken.push(hole);
      count++;
    }
  }
  return taken.sort(compareHoles);
}

/** Holes by file, then position. */
export function compareHoles(a: Hole, b: Hole): number {
  return a.file < b.file ? -1 : a.file > b.file ? 1 : a.line - b.line || a.character - b.character;
}

/**
 * The tabs of the "open tabs" scenario: the file declaring the hole's identifier and `unrelated` files that are
 * neither the current file, nor a file declaring it, nor one the current file imports; chosen by stable rank of
 * hole and path; sorted by path (the order they are opened in, so the declaring file is not always last).
 */
export function chooseTabs(hole: Hole, files: readonly string[], unrelated = 3): string[] {
  const declaring = hole.declarations[0]!.file;
  const related = new Set([hole.file, ...hole.declarations.map((d) => d.file), ...hole.imports]);
  const others = files
    .filter((file) => !related.has(file))
    .map((file) => ({ file, rank: stableRank(`${hole.id} ${file}`) }))
    .sort((a, b) => a.rank - b.rank || (a.file < b.file ? -1 : 1))
    .slice(0, unrelated)
    .map((o) => o.file);
  return [declaring, ...others].sort();
}
