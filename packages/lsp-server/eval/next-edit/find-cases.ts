// The cases of a corpus: every file the server may read searched by each finder, and a deterministic sample.
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import ignore, { type Ignore } from "ignore";
import { BUILT_IN_EXCLUDES } from "../../src/context/files/file-policy.js";
import type { Corpus } from "../corpus.js";
import { stableRank } from "../sample.js";
import { CASE_KINDS, type CaseKind, type EditCase } from "./edit-case.js";
import { loneCases } from "./lone-cases.js";
import { parameterCases } from "./parameter-cases.js";
import { renameCases } from "./rename-cases.js";
import { SourceText } from "./source-text.js";
import { twinCases } from "./twin-cases.js";

/** How many cases of a corpus are run. */
export interface CaseCaps {
  /** Per kind. */
  readonly perKind: number;
  /** Per file and kind, so that a few long files do not make up the sample. */
  readonly perFile: number;
}

/** Files larger than this are not searched (generated tables, amalgamations), in bytes. */
const MAX_FILE_BYTES = 200_000;

/** What a corpus holds, and the cases chosen. */
export interface CorpusCases {
  /** Cases found, by kind. */
  readonly found: Readonly<Record<CaseKind, number>>;
  /** The sample, sorted by file and position (the order they are run in). */
  readonly cases: readonly EditCase[];
  /** The sampled cases' files, read. */
  readonly sources: ReadonlyMap<string, SourceText>;
}

/**
 * Search every source file the server may read (not excluded by a `.gitignore` of the corpus or the built-in secret
 * patterns: the server would rightly suggest nothing there) with each finder, and sample each kind by stable rank,
 * at most `caps.perFile` from a file, `caps.perKind` in all.
 */
export function findCases(corpus: Corpus, caps: CaseCaps): CorpusCases {
  const usable = readableBy(corpus.root);
  const found: Record<CaseKind, EditCase[]> = { rename: [], parameter: [], twin: [], lone: [] };
  const sources = new Map<string, SourceText>();
  for (const file of corpus.files) {
    const full = path.join(corpus.root, file);
    if (!usable(file) || statSync(full).size > MAX_FILE_BYTES) continue;
    const source = new SourceText(file, readFileSync(full, "utf8"), corpus.language);
    sources.set(file, source);
    found.rename.push(...renameCases(source));
    found.parameter.push(...parameterCases(source));
    found.twin.push(...twinCases(source));
    found.lone.push(...loneCases(source));
  }
  const cases = CASE_KINDS.flatMap((kind) => sample(found[kind], caps));
  cases.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : a.first.start - b.first.start));
  const files = new Set(cases.map((c) => c.file));
  return {
    found: Object.fromEntries(CASE_KINDS.map((kind) => [kind, found[kind].length])) as Record<
      CaseKind,
      number
    >,
    cases,
    sources: new Map([...sources].filter(([file]) => files.has(file))),
  };
}

function sample(cases: readonly EditCase[], caps: CaseCaps): EditCase[] {
  const perFile = new Map<string, number>();
  const taken: EditCase[] = [];
  const ranked = [...cases].sort((a, b) => stableRank(a.id) - stableRank(b.id) || (a.id < b.id ? -1 : 1));
  for (const edit of ranked) {
    if (taken.length === caps.perKind) break;
    const count = perFile.get(edit.file) ?? 0;
    if (count === caps.perFile) continue;
    perFile.set(edit.file, count + 1);
    taken.push(edit);
  }
  return taken;
}

/** Whether the server may read a workspace file: the corpus's own `.gitignore` files and the built-in excludes. */
function readableBy(root: string): (file: string) => boolean {
  const rules = new Map<string, Ignore>();
  for (const entry of readdirSync(root, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || entry.name !== ".gitignore") continue;
    const dir = path.relative(root, entry.parentPath).split(path.sep).join("/");
    rules.set(dir, ignore().add(readFileSync(path.join(entry.parentPath, entry.name), "utf8")));
  }
  const builtIn = ignore().add(BUILT_IN_EXCLUDES);
  return (file) => {
    if (builtIn.ignores(file)) return false;
    const parts = file.split("/");
    for (let depth = 0; depth < parts.length; depth++) {
      const dir = parts.slice(0, depth).join("/");
      const within = parts.slice(depth).join("/");
      if (rules.get(dir)?.ignores(within)) return false;
    }
    return true;
  };
}
