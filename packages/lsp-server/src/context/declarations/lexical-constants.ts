// A qualified constant (`X::Y`) by the lexical scope of its use, as Ruby finds it: `Module.nesting` of the cursor
// (inside `module A; class B`: `A::B::X::Y`, then `A::X::Y`, then `X::Y`), then the ancestors the enclosing class's
// line names, each in the file that declares that very path. A file merely required that reopens `X` does not
// answer `X::Y`: a gem's every file reopens its namespace, and its first `require`s would fill the budget.
import type {
  Declaration,
  ImplicitCandidate,
  ImplicitScope,
  LanguageSupport,
  ParsedModule,
} from "../types.js";
import type { ModuleReader, Target } from "./module-reader.js";
import { declarationsNamed, typeLike } from "./outline-lookup.js";

/** What the lookup reads with: the resolution's reader and the language's places for names used without import. */
export interface LexicalLookup {
  readonly support: LanguageSupport;
  readonly from: ParsedModule;
  readonly reader: ModuleReader;
  /** The namespaces around the use, outermost first, as written (`["Pry", "Command", "Edit"]`). */
  readonly nesting: readonly string[];
  /** The bases of the innermost class around the use, as written (`Pry::ClassCommand`). */
  readonly bases: readonly string[];
  implicit(name: string, module: ParsedModule, scope: ImplicitScope): readonly ImplicitCandidate[];
}

/** A constant found: its declaration as a target, and the names of the chain after it. */
export interface LexicalConstant {
  readonly target: Extract<Target, { kind: "declarations" }>;
  readonly rest: readonly string[];
}

/** Required files named after the constant looked into at most, when no file of its path declares it. */
const MAX_REQUIRED = 4;

function segments(written: string): string[] {
  return written.split("::").filter(Boolean);
}

/**
 * The paths a constant written `qualifiers::name` may have at the use, most likely first: under each prefix of the
 * nesting, innermost first, then under each base of the enclosing class.
 */
export function wantedPaths(
  name: string,
  qualifiers: readonly string[],
  nesting: readonly string[],
  bases: readonly string[],
): string[][] {
  const paths: string[][] = [];
  const seen = new Set<string>();
  const add = (path: string[]) => {
    const key = path.join("::");
    if (seen.has(key)) return;
    seen.add(key);
    paths.push(path);
  };
  for (let i = nesting.length; i >= 0; i--) add([...nesting.slice(0, i), ...qualifiers, name]);
  for (const base of bases) {
    const written = segments(base);
    for (let i = nesting.length; i >= 0; i--) add([...nesting.slice(0, i), ...written, ...qualifiers, name]);
  }
  return paths;
}

/**
 * The declarations of a module whose full constant path is one of `wanted`, with the rank of the best one (its
 * index in `wanted`): top-level declarations named `name`, and members so named (a constant of a class).
 */
function declaredAt(
  support: LanguageSupport,
  module: ParsedModule,
  name: string,
  wanted: ReadonlyMap<string, number>,
): { rank: number; declaration: Declaration } | undefined {
  const constantPath = support.constantPath!;
  let best: { rank: number; declaration: Declaration } | undefined;
  const consider = (declaration: Declaration, container?: Declaration) => {
    const rank = wanted.get(constantPath(module, declaration, container).join("::"));
    if (rank !== undefined && (!best || rank < best.rank)) best = { rank, declaration };
  };
  for (const d of declarationsNamed(module, name) ?? []) consider(d);
  for (const d of module.outline.declarations) {
    for (const m of d.members ?? []) if (m.name === name && typeLike(m.name)) consider(m, d);
  }
  return best;
}

/**
 * The deepest constant of a chain's leading constants (`Pry::Helpers::Text` in `Pry::Helpers::Text.bold`) that the
 * lexical scope finds, in the file that declares its full path: first the files its path names by the project's
 * layout (`LanguageSupport.implicit`), then the files the current one requires that are named after it. Undefined
 * when the chain has no qualified constant, the language has no constant paths, or no such file declares it.
 */
export async function lexicalConstant(
  chain: readonly string[],
  lookup: LexicalLookup,
): Promise<LexicalConstant | undefined> {
  const { support, from, reader } = lookup;
  if (!support.constantPath || !typeLike(chain[0]!)) return undefined;
  let deepest = 0;
  while (deepest + 1 < chain.length && typeLike(chain[deepest + 1]!)) deepest++;
  for (let k = deepest; k >= 1; k--) {
    const name = chain[k]!;
    const qualifiers = chain.slice(0, k);
    const wanted = new Map(
      wantedPaths(name, qualifiers, lookup.nesting, lookup.bases).map((p, i) => [p.join("::"), i]),
    );
    let best: { rank: number; declaration: Declaration; path: string } | undefined;
    const files: string[] = [];
    for (const candidate of lookup.implicit(name, from, { qualifiers, nesting: lookup.nesting }))
      if (!candidate.module && !candidate.path.endsWith("/")) files.push(candidate.path);
    for (const base of lookup.bases) {
      const scope = { qualifiers: [...segments(base), ...qualifiers], nesting: lookup.nesting };
      for (const candidate of lookup.implicit(name, from, scope))
        if (!candidate.module && !candidate.path.endsWith("/")) files.push(candidate.path);
    }
    for (const file of new Set(files)) {
      const module = await reader.module(file);
      if (!module || module === from) continue;
      const found = declaredAt(support, module, name, wanted);
      if (found && (!best || found.rank < best.rank)) best = { ...found, path: module.path };
      if (best?.rank === 0) break;
    }
    if (!best) best = await requiredNamedAfter(name, stemsOf(files), wanted, lookup);
    if (best) {
      return {
        target: { kind: "declarations", path: best.path, declarations: [best.declaration] },
        rest: chain.slice(k + 1),
      };
    }
  }
  return undefined;
}

/** The file names (without extension) of a constant's candidate files: what a file named after it is called. */
function stemsOf(files: readonly string[]): Set<string> {
  return new Set(files.map((f) => f.slice(f.lastIndexOf("/") + 1).replace(/\.[^.]*$/, "")));
}

/**
 * The files the current one requires that are named as the constant's files are (`require "pry/command_set"` for
 * `CommandSet`), for a layout the candidate paths do not know; a few at most.
 */
async function requiredNamedAfter(
  name: string,
  stems: ReadonlySet<string>,
  wanted: ReadonlyMap<string, number>,
  lookup: LexicalLookup,
): Promise<{ rank: number; declaration: Declaration; path: string } | undefined> {
  const { support, from, reader } = lookup;
  let read = 0;
  let best: { rank: number; declaration: Declaration; path: string } | undefined;
  for (const imp of from.imports) {
    if (read >= MAX_REQUIRED) break;
    if (!imp.bindings.some((b) => b.local === "*")) continue;
    const stem = imp.specifier.slice(imp.specifier.lastIndexOf("/") + 1).replace(/\.[^.]*$/, "");
    if (!stems.has(stem)) continue;
    read++;
    const target = await reader.resolve(imp.specifier, from.path);
    if (target?.kind !== "module") continue;
    for (const module of target.modules) {
      const found = declaredAt(support, module, name, wanted);
      if (found && (!best || found.rank < best.rank)) best = { ...found, path: module.path };
    }
  }
  return best;
}
