// Deterministic choices: the same corpus gives the same holes and the same tabs on every machine and every run.
import { createHash } from "node:crypto";
import { type Hole, IMPORT_KINDS } from "./holes.js";

/** A stable rank for a string: the first 13 hex digits of its SHA-256 (exact as a double). */
export function stableRank(key: string): number {
  return Number.parseInt(createHash("sha256").update(key).digest("hex").slice(0, 13), 16);
}

/** Caps of {@link sampleHoles}. */
export interface SampleCaps {
  /** Holes per import kind (named, namespace, default) in a corpus. */
  readonly perKind: number;
  /** Holes per file and import kind, so that a few long files do not make up the sample. */
  readonly perFile: number;
}

/**
 * A stratified sample: for each import kind, and within it for imports from the same package and from another
 * package of the workspace, holes in the order of their stable rank, at most `perFile` from one file, until
 * `perKind` are taken; returned sorted by file and position (the order they are run in). Strata keep the rare
 * kinds (default imports, imports across packages) in the sample instead of averaging them away.
 */
export function sampleHoles(holes: readonly Hole[], caps: SampleCaps): Hole[] {
  const taken: Hole[] = [];
  for (const stratum of IMPORT_KINDS.flatMap((kind) =>
    [false, true].map((crossPackage) => ({ kind, crossPackage })),
  )) {
    const perFile = new Map<string, number>();
    let count = 0;
    const ranked = holes
      .filter((hole) => hole.importKind === stratum.kind && hole.crossPackage === stratum.crossPackage)
      .map((hole) => ({ hole, rank: stableRank(hole.id) }))
      .sort((a, b) => a.rank - b.rank || compareHoles(a.hole, b.hole));
    for (const { hole } of ranked) {
      if (count === caps.perKind) break;
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
