import type {
  Declaration,
  FoundDeclaration,
  ImplicitCandidate,
  ImplicitScope,
  ImportBinding,
  LanguageSupport,
  ModuleHost,
  ModuleImport,
  ParsedModule,
  Reference,
  ResolveEnv,
} from "../types.js";
import { type CursorScope, EnclosingScope } from "./enclosing-scope.js";
import { Exports } from "./exports.js";
import { lexicalConstant } from "./lexical-constants.js";
import { ModuleReader, type Target } from "./module-reader.js";
import { declarationsNamed, nestingAt, shows, typeLike } from "./outline-lookup.js";
import type { Reached, ReferenceMemo } from "./reference-memo.js";

/** Bounds of one {@link findDeclarations} call. */
export interface ResolveLimits {
  /** Re-exports and imports followed from a module to the next for one name, at most. Default 4. */
  readonly maxHops?: number;
  /** Files the host returns (parsed modules) per call, at most; the file of the reference excluded. Default 32. */
  readonly maxFiles?: number;
  /** Declarations returned, at most (the nearest references' first). Default 32. */
  readonly maxResults?: number;
}

/** Levels of bases followed for an inherited member (a class, its superclass, that one's mixin). */
const MAX_BASE_DEPTH = 3;

/** An import binding with its local name's parts (`a.b` → `a`, `b`), for matching a reference's chain. */
interface Bound {
  readonly imp: ModuleImport;
  readonly binding: ImportBinding;
  readonly parts: readonly string[];
}

/**
 * One call's resolution: what a reference's chain of names reaches from the asking file, through its imports, the
 * namespaces and class around it, and the language's places for names used without import.
 */
class Resolution {
  private readonly reader: ModuleReader;
  private readonly exports: Exports;
  private readonly maxHops: number;
  /** The bindings of the file's imports by the first part of their local name (`*` globs left out). */
  private readonly bound = new Map<string, Bound[]>();
  /** The namespaces and the type around a line of the asking file. */
  readonly scope: EnclosingScope;

  constructor(
    private readonly support: LanguageSupport,
    private readonly from: ParsedModule,
    host: ModuleHost,
    private readonly env: ResolveEnv,
    limits: ResolveLimits,
    at: CursorScope | undefined,
  ) {
    this.scope = new EnclosingScope(from, at);
    this.maxHops = limits.maxHops ?? 4;
    this.reader = new ModuleReader(support, from, host, env, limits.maxFiles ?? 32);
    this.exports = new Exports(support, this.reader, this.maxHops);
    for (const imp of from.imports) {
      for (const binding of imp.bindings) {
        if (binding.local === "*") continue;
        const parts = binding.local.split(".");
        const list = this.bound.get(parts[0]!);
        if (list) list.push({ imp, binding, parts });
        else this.bound.set(parts[0]!, [{ imp, binding, parts }]);
      }
    }
  }

  /** Start recording what is read (for one reference); returns what was read, and whether the budget refused. */
  track(): () => { read: ReadonlySet<string>; refused: boolean } {
    return this.reader.track();
  }

  /**
   * The declarations a chain of names reaches from a target: `ns.X`, `Class.member`, `pkg.mod.func`; a member no
   * declaration of the target has is looked for in their bases (an inherited or mixed-in method).
   */
  async expand(target: Target | undefined, rest: readonly string[]): Promise<Array<[string, Declaration]>> {
    if (!target) return [];
    if (target.kind === "module") {
      const [next, ...more] = rest;
      if (next === undefined) return [];
      const found =
        (await this.exports.exportOf(target, next, 0, new Set())) ??
        (await this.exports.submodule(target.specifier, target.fromFile, next));
      return this.expand(found, more);
    }
    const out: Array<[string, Declaration]> = [];
    const member = rest[0];
    const inners: Declaration[] = [];
    for (const declaration of target.declarations) {
      const inner = member === undefined ? undefined : declaration.members?.find((m) => m.name === member);
      if (inner) inners.push(inner);
      // A member its container's snippet does not show goes first: when the budget is short, it is what was named.
      if (inner && !shows(declaration, inner)) out.push([target.path, inner]);
      out.push([target.path, declaration]);
    }
    if (member === undefined) return out;
    if (inners.length === 0) {
      const inherited = await this.inherited(target.path, target.declarations, member, 0, new Set());
      if (inherited) out.push(inherited);
    } else if (rest.length > 1) {
      // A member's own member (`Pry::Commands.add_command`, `Commands` a constant of `Pry`): the last one found.
      const deeper = await this.expand(
        { kind: "declarations", path: target.path, declarations: inners },
        rest.slice(1),
      );
      out.push(...deeper.filter(([, d]) => !inners.includes(d)));
    }
    return out;
  }

  /**
   * The member `member` of the bases of some declarations of the file `path` (their superclasses, mixins, an
   * assigned instance's class: `Declaration.bases`), each base resolved as that file sees the name; then of their
   * bases, up to {@link MAX_BASE_DEPTH} levels.
   */
  async inherited(
    path: string,
    declarations: ReadonlyArray<Pick<Declaration, "bases" | "startLine">>,
    member: string,
    depth: number,
    seen: Set<string>,
  ): Promise<[string, Declaration] | undefined> {
    if (depth >= MAX_BASE_DEPTH) return undefined;
    const module = await this.reader.module(path);
    if (!module) return undefined;
    for (const declaration of declarations) {
      for (const base of declaration.bases ?? []) {
        const key = `${path}\0${base}`;
        if (seen.has(key)) continue;
        seen.add(key);
        const found = await this.pathIn(base, module, this.scope.nestingIn(module, declaration.startLine));
        if (found?.kind !== "declarations") continue;
        for (const d of found.declarations) {
          const inner = d.members?.find((m) => m.name === member);
          if (inner) return [found.path, inner];
        }
        const deeper = await this.inherited(found.path, found.declarations, member, depth + 1, seen);
        if (deeper) return deeper;
      }
    }
    return undefined;
  }

  /**
   * What a name or a path of names (`Helpers::Text`, `a.b.Base`) written in `module` means there: its first name as
   * {@link nameIn} finds it and the rest as its members, or where the language finds the qualified path used
   * without import (Ruby's `pry/helpers/text.rb`).
   */
  async pathIn(
    written: string,
    module: ParsedModule,
    nesting: readonly string[],
  ): Promise<Target | undefined> {
    const parts = written.split(/::|\.|\\/).filter(Boolean);
    const name = parts.at(-1);
    if (name === undefined) return undefined;
    if (parts.length === 1) return this.nameIn(name, module, nesting);
    const qualifiers = parts.slice(0, -1);
    // A module path (Rust's `crate::error::Error`): the module, then the name in it.
    if (this.pathRoot(parts[0]!)) {
      const target = await this.reader.resolve(qualifiers.join("::"), module.path);
      return target && (await this.exports.exportOf(target, name, 0, new Set()));
    }
    for (const candidate of this.implicit(name, module, { qualifiers, nesting })) {
      if (candidate.module || candidate.path.endsWith("/")) continue;
      const m = await this.reader.module(candidate.path);
      const declared = m && m !== module ? declarationsNamed(m, name) : undefined;
      if (declared) return { kind: "declarations", path: m!.path, declarations: declared };
    }
    let target = await this.nameIn(parts[0]!, module, nesting);
    for (const part of parts.slice(1)) {
      if (!target) return undefined;
      if (target.kind === "module") {
        target = await this.exports.exportOf(target, part, 0, new Set());
        continue;
      }
      const members = target.declarations.flatMap((d) => d.members?.filter((m) => m.name === part) ?? []);
      target =
        members.length > 0 ? { kind: "declarations", path: target.path, declarations: members } : undefined;
    }
    return target;
  }

  /**
   * What a bare name written in `module` at `line` means there: its own declaration, an import binding it, a glob
   * import, or where the language finds a name used without import (with the file's nesting at that line).
   */
  async nameIn(name: string, module: ParsedModule, nesting: readonly string[]): Promise<Target | undefined> {
    const own = declarationsNamed(module, name);
    if (own) return { kind: "declarations", path: module.path, declarations: own };
    for (const imp of module.imports) {
      const binding = imp.bindings.find((b) => b.local === name);
      if (!binding) continue;
      const found = await this.exports.bindingTarget(module.path, imp, binding, 0, new Set());
      if (found) return found;
    }
    for (const imp of module.imports) {
      if (!imp.bindings.some((b) => b.local === "*")) continue;
      const target = await this.reader.resolve(imp.specifier, module.path);
      const found = target && (await this.exports.exportOf(target, name, 0, new Set()));
      if (found) return found;
    }
    for (const candidate of this.implicit(name, module, { qualifiers: [], nesting })) {
      if (candidate.module) continue;
      const modules = candidate.path.endsWith("/")
        ? await this.reader.packageFiles(candidate.path, module.path)
        : [await this.reader.module(candidate.path)].filter(
            (m): m is ParsedModule => m !== undefined && m !== module,
          );
      for (const m of modules) {
        const declared = declarationsNamed(m, name);
        if (declared) return { kind: "declarations", path: m.path, declarations: declared };
      }
    }
    return undefined;
  }

  private pathRoot(name: string): boolean {
    try {
      return this.support.pathRoot?.(name, this.env) === true;
    } catch {
      return false;
    }
  }

  /** The language's places for a name used without import; none when it has none or fails. */
  private implicit(name: string, module: ParsedModule, scope: ImplicitScope): readonly ImplicitCandidate[] {
    try {
      return this.support.implicit?.(name, module, this.env, scope) ?? [];
    } catch {
      return [];
    }
  }

  /** The declarations a reference reaches (`line`: the reference's, for the nesting around it). */
  async reference(reference: Reference, line?: number): Promise<Array<[string, Declaration]>> {
    const chain = chainOf(reference);
    // The binding: the import whose local name is the longest prefix of the chain (Python's `import a.b`).
    let best: { imp: ModuleImport; binding: ImportBinding; length: number } | undefined;
    for (const { imp, binding, parts } of this.bound.get(chain[0]!) ?? []) {
      if (parts.length > chain.length || (best && parts.length <= best.length)) continue;
      if (parts.every((p, i) => p === chain[i])) best = { imp, binding, length: parts.length };
    }
    if (best) {
      const target = await this.exports.bindingTarget(this.from.path, best.imp, best.binding, 0, new Set());
      return this.expand(target, chain.slice(best.length));
    }
    const rest = chain.slice(1);
    // A path from a module (Rust's `crate::a::B`, `super::B`, `clap::B`).
    if (rest.length > 0 && this.pathRoot(chain[0]!)) {
      const root = await this.reader.resolve(chain[0]!, this.from.path);
      if (root) return this.expand(root, rest);
    }
    // A qualified constant (Ruby's `X::Y`) by the lexical scope of the use, in the file that declares it, before
    // the files merely required (which may all reopen `X`).
    if (rest.length > 0 && this.support.constantPath) {
      const lexical = await lexicalConstant(chain, {
        support: this.support,
        from: this.from,
        reader: this.reader,
        nesting: this.scope.nestingIn(this.from, line),
        bases: this.scope.enclosing(line)?.bases ?? [],
        implicit: (name, module, scope) => this.implicit(name, module, scope),
      });
      if (lexical) return this.expand(lexical.target, lexical.rest);
    }
    // A bare name in a method: its class's members come before the names of the namespace (C++'s lookup; a Ruby
    // method of the class's mixins before any other).
    const member = chain.length === 1 ? await this.enclosingMember(reference.name, line) : undefined;
    if (member) return [member];
    // Glob imports, breadth first: what the file's own imports declare, then what they import in turn (a C file's
    // tenth `#include` is read before its first one's includes use up the file budget).
    const globs = this.from.imports.filter((imp) => imp.bindings.some((b) => b.local === "*"));
    for (const hops of [this.maxHops, 0]) {
      for (const imp of globs) {
        const target = await this.reader.resolve(imp.specifier, this.from.path);
        const found = target && (await this.exports.exportOf(target, reference.name, hops, new Set()));
        if (found) return this.expand(found, rest);
      }
    }
    // Names no import binds: a Go package's other files, a Java class of the same package, an OCaml module, a Ruby
    // constant by its path. The deepest part of a qualified type path first (`Pry::Helpers::Text` is `Text`).
    const nesting = this.scope.nestingIn(this.from, line);
    for (let k = chain.length - 1; k >= 0; k--) {
      if (k > 0 && !chain.slice(0, k + 1).every(typeLike)) continue;
      const name = chain[k]!;
      const after = chain.slice(k + 1);
      for (const candidate of this.implicit(name, this.from, { qualifiers: chain.slice(0, k), nesting })) {
        const modules = candidate.path.endsWith("/")
          ? await this.reader.packageFiles(candidate.path, this.from.path)
          : [await this.reader.module(candidate.path)].filter(
              (m): m is ParsedModule => m !== undefined && m !== this.from,
            );
        if (modules.length === 0) continue;
        if (candidate.module)
          return this.expand({ kind: "module", modules, specifier: name, fromFile: this.from.path }, after);
        for (const module of modules) {
          const declared = declarationsNamed(module, name);
          if (declared)
            return this.expand({ kind: "declarations", path: module.path, declarations: declared }, after);
        }
      }
    }
    return [];
  }

  /**
   * A bare name used in a method, as a member of its class: declared in another file (C++'s `Foo::run` defined out
   * of its class, a GoogleTest fixture's), or inherited or mixed in (Ruby's implicit `self`, a Java superclass's
   * method).
   */
  private async enclosingMember(
    name: string,
    line: number | undefined,
  ): Promise<[string, Declaration] | undefined> {
    const enclosing = this.scope.enclosing(line);
    if (enclosing?.outOfLine) {
      const type = await this.pathIn(enclosing.outOfLine, this.from, this.scope.nestingIn(this.from, line));
      if (type?.kind === "declarations") {
        for (const d of type.declarations) {
          const inner = d.members?.find((m) => m.name === name);
          if (inner) return [type.path, inner];
        }
        const inherited = await this.inherited(type.path, type.declarations, name, 0, new Set());
        if (inherited) return inherited;
      }
    }
    if (enclosing?.bases) return this.inherited(this.from.path, [enclosing], name, 0, new Set());
    return undefined;
  }
}

/** The names a reference is made of: `a.b.c`'s chain, else its name and member. */
function chainOf(reference: Reference): readonly string[] {
  return (
    reference.chain ??
    (reference.member === undefined ? [reference.name] : [reference.name, reference.member])
  );
}

/**
 * The declarations that the references of a file reach through its imports, in the order of the references
 * (nearest first), each once by (path, start line); the file itself is never a result. `at` places the
 * references (each `distance` lines above the cursor) in the file's types, for the names a language finds by where
 * they are used (Ruby's nesting, an inherited method). Which files may be read is
 * the host's business; a host that throws or returns nothing for a file just leaves it out. Never rejects.
 *
 * @param memo - what references reached at earlier calls for the same file: read first, filled with new answers
 *   (never with one the file budget may have cut short)
 */
export async function findDeclarations(
  support: LanguageSupport,
  from: ParsedModule,
  references: readonly Reference[],
  host: ModuleHost,
  env: ResolveEnv,
  limits: ResolveLimits = {},
  at?: CursorScope,
  memo?: ReferenceMemo,
): Promise<FoundDeclaration[]> {
  let completed = env;
  try {
    completed = support.environment?.(from, env) ?? env;
  } catch {
    // The project files' environment alone.
  }
  const resolution = new Resolution(support, from, host, completed, limits, at);
  const maxResults = limits.maxResults ?? 32;
  const results: FoundDeclaration[] = [];
  const seen = new Set<string>();
  for (const reference of references) {
    if (results.length >= maxResults) break;
    const line = at === undefined ? undefined : Math.max(0, at.line - reference.distance);
    // What a chain reaches depends on the namespaces and class around it (C++, Java, C#, Ruby): part of the key.
    const chain = chainOf(reference).join(".");
    const scope = resolution.scope.keyAt(line);
    const key = scope === "" ? chain : `${chain}\0${scope}`;
    const known = memo?.get(key);
    let found: Reached;
    if (known) {
      found = known.reached;
      for (const file of known.read) host.noteRead?.(file);
    } else {
      const done = resolution.track();
      try {
        found = await resolution.reference(reference, line);
      } catch {
        continue;
      }
      const { read, refused } = done();
      if (!refused) memo?.set(key, found, read);
    }
    for (const [file, declaration] of found) {
      const key = `${file}\0${declaration.startLine}`;
      if (file === from.path || seen.has(key) || results.length >= maxResults) continue;
      seen.add(key);
      results.push({ path: file, declaration, reference });
    }
  }
  return results;
}

/**
 * What a name or a path of names (`X`, `ns.X`, `pkg.X`, `crate::a::X`) written in a file means there: the file's
 * own declarations first, then what its imports bind, its glob imports, the names the language finds without
 * import (a Go package's other files); the declarations with the file that declares them, or undefined (a module,
 * or nothing found). What a type written in another file names, read as that file reads it. Never rejects.
 */
export async function declarationsOf(
  support: LanguageSupport,
  module: ParsedModule,
  written: string,
  host: ModuleHost,
  env: ResolveEnv,
  limits: ResolveLimits = {},
): Promise<{ readonly path: string; readonly declarations: readonly Declaration[] } | undefined> {
  let completed = env;
  try {
    completed = support.environment?.(module, env) ?? env;
  } catch {
    // The project files' environment alone.
  }
  try {
    const resolution = new Resolution(support, module, host, completed, limits, undefined);
    const target = await resolution.pathIn(written, module, nestingAt(module, undefined));
    return target?.kind === "declarations" ? target : undefined;
  } catch {
    return undefined;
  }
}
