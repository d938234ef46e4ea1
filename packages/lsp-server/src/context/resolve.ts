import { posix as path } from "node:path";
import type {
  Declaration,
  FoundDeclaration,
  ImplicitCandidate,
  ImportBinding,
  LanguageSupport,
  ModuleHost,
  ModuleImport,
  ParsedModule,
  Reference,
  ResolveEnv,
} from "./types.js";

/** Bounds of one {@link findDeclarations} call. */
export interface ResolveLimits {
  /** Re-exports and imports followed from a module to the next for one name, at most. Default 4. */
  readonly maxHops?: number;
  /** Files the host returns (parsed modules) per call, at most; the file of the reference excluded. Default 32. */
  readonly maxFiles?: number;
  /** Declarations returned, at most (the nearest references' first). Default 32. */
  readonly maxResults?: number;
}

/** A name's meaning in a module: declarations, or a module itself (a namespace, a Go package's files). */
type Target =
  | { readonly kind: "declarations"; readonly path: string; readonly declarations: readonly Declaration[] }
  | {
      readonly kind: "module";
      readonly modules: readonly ParsedModule[];
      /** How it was named, to find a submodule of it (Python `pkg.mod`, Rust `a::b`). */
      readonly specifier: string;
      readonly fromFile: string;
    };

/** Declarations by name, per parsed module: built once for each module the host keeps. */
const indexes = new WeakMap<ParsedModule, Map<string, Declaration[]>>();

function declarationsNamed(module: ParsedModule, name: string): Declaration[] | undefined {
  let index = indexes.get(module);
  if (!index) {
    index = new Map();
    for (const d of module.outline.declarations) {
      const list = index.get(d.name);
      if (list) list.push(d);
      else index.set(d.name, [d]);
    }
    indexes.set(module, index);
  }
  return index.get(name);
}

/** Whether a container's snippet shows a member (its name line), so that the member need not come on its own. */
function shows(container: Declaration, member: Declaration): boolean {
  const lines = member.snippet.split("\n");
  const at = lines[member.nameLine - member.startLine];
  const line = at?.includes(member.name) ? at : lines.find((l) => l.includes(member.name));
  return line !== undefined && container.snippet.includes(line);
}

/** One call's state: what the host returned, how many files it cost. */
class Resolution {
  private readonly modules = new Map<string, Promise<ParsedModule | undefined>>();
  private readonly lists = new Map<string, Promise<readonly string[] | undefined>>();
  private readonly resolved = new Map<string, Promise<Target | undefined>>();
  private files = 0;
  private readonly maxHops: number;
  private readonly maxFiles: number;

  constructor(
    private readonly support: LanguageSupport,
    private readonly from: ParsedModule,
    private readonly host: ModuleHost,
    private readonly env: ResolveEnv,
    limits: ResolveLimits,
  ) {
    this.maxHops = limits.maxHops ?? 4;
    this.maxFiles = limits.maxFiles ?? 32;
  }

  /** The parsed file at a path, once per call; undefined past the file budget or when the host fails. */
  module(file: string): Promise<ParsedModule | undefined> {
    if (file === this.from.path) return Promise.resolve(this.from);
    let pending = this.modules.get(file);
    if (!pending) {
      pending = this.load(file);
      this.modules.set(file, pending);
    }
    return pending;
  }

  private async load(file: string): Promise<ParsedModule | undefined> {
    if (this.files >= this.maxFiles) return undefined;
    try {
      const module = await this.host.module(file);
      if (module) this.files++;
      return module ?? undefined;
    } catch {
      return undefined;
    }
  }

  private list(dir: string): Promise<readonly string[] | undefined> {
    let pending = this.lists.get(dir);
    if (!pending) {
      pending = (async () => {
        try {
          return (await this.host.list(dir)) ?? undefined;
        } catch {
          return undefined;
        }
      })();
      this.lists.set(dir, pending);
    }
    return pending;
  }

  /** Whether a file of a directory target belongs to it (a Go package's tests only for a test). */
  private packageFile(name: string, current: string): boolean {
    const { support } = this;
    if (support.packageFile) return support.packageFile(name, current);
    return support.extensions.some((ext) => name.endsWith(ext));
  }

  /** The files of a directory target (ending in `/`: a Go package, a JVM package), in name order. */
  private async packageFiles(dir: string, except: string): Promise<ParsedModule[]> {
    const names = await this.list(dir);
    if (!names) return [];
    const found: ParsedModule[] = [];
    for (const name of [...names].sort()) {
      const file = path.join(dir, name);
      if (file === except || !this.packageFile(name, except)) continue;
      const module = await this.module(file);
      if (module) found.push(module);
    }
    return found;
  }

  /** The module a specifier names from a file: the first candidate that exists (once per call). */
  resolve(specifier: string, fromFile: string): Promise<Target | undefined> {
    const key = `${fromFile}\0${specifier}`;
    let pending = this.resolved.get(key);
    if (!pending) {
      pending = this.firstCandidate(specifier, fromFile);
      this.resolved.set(key, pending);
    }
    return pending;
  }

  private async firstCandidate(specifier: string, fromFile: string): Promise<Target | undefined> {
    let candidates: string[];
    try {
      candidates = this.support.candidates(specifier, fromFile, this.env);
    } catch {
      return undefined;
    }
    for (const candidate of candidates) {
      const modules = candidate.endsWith("/")
        ? await this.packageFiles(candidate, this.from.path)
        : [await this.module(candidate)].filter((m) => m !== undefined);
      if (modules.length > 0) return { kind: "module", modules, specifier, fromFile };
    }
    return undefined;
  }

  /** What `name` means for importers of a module: its declarations, following re-exports and imports. */
  async exportOf(target: Target, name: string, hops: number, seen: Set<string>): Promise<Target | undefined> {
    if (target.kind !== "module") return undefined;
    for (const module of target.modules) {
      const key = `${module.path}\0${name}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const found = await this.exportOfModule(module, name, hops, seen);
      if (found) return found;
    }
    return undefined;
  }

  private async exportOfModule(
    module: ParsedModule,
    name: string,
    hops: number,
    seen: Set<string>,
  ): Promise<Target | undefined> {
    const declared = declarationsNamed(module, name);
    if (declared) return { kind: "declarations", path: module.path, declarations: declared };
    if (hops >= this.maxHops) return undefined;
    const { outline } = module;
    const local =
      name === "default"
        ? outline.defaultExport
        : outline.localExports?.find((e) => e.exported === name)?.local;
    if (local !== undefined && local !== name) {
      const found = declarationsNamed(module, local);
      if (found) return { kind: "declarations", path: module.path, declarations: found };
    }
    const localName = local ?? name;
    for (const reexport of outline.reexports) {
      if (reexport.names === "*") continue;
      const entry = reexport.names.find((n) => n.exported === name);
      if (!entry) continue;
      const target = await this.resolve(reexport.specifier, module.path);
      if (!target) continue;
      if (entry.imported === "*") return target;
      const found = await this.exportOf(target, entry.imported, hops + 1, seen);
      if (found) return found;
    }
    for (const imp of module.imports) {
      const binding = imp.bindings.find((b) => b.local === localName);
      if (!binding) continue;
      const found = await this.bindingTarget(module.path, imp, binding, hops + 1, seen);
      if (found) return found;
    }
    if (name === "default") return undefined;
    // Everything re-exported or glob-imported: `export * from`, Python `from .x import *`, Rust `pub use x::*`.
    const globs = new Set<string>();
    for (const reexport of outline.reexports) if (reexport.names === "*") globs.add(reexport.specifier);
    for (const imp of module.imports) if (imp.bindings.some((b) => b.local === "*")) globs.add(imp.specifier);
    for (const specifier of globs) {
      const target = await this.resolve(specifier, module.path);
      const found = target && (await this.exportOf(target, name, hops + 1, seen));
      if (found) return found;
    }
    return undefined;
  }

  /** What an import binding of a module names: the module itself, or a name in it (or a submodule so named). */
  async bindingTarget(
    fromFile: string,
    imp: ModuleImport,
    binding: ImportBinding,
    hops: number,
    seen: Set<string>,
  ): Promise<Target | undefined> {
    const target = await this.resolve(imp.specifier, fromFile);
    if (target && binding.imported === "*") return target;
    const found = target && (await this.exportOf(target, binding.imported, hops, seen));
    if (found) return found;
    const dot = binding.imported.indexOf(".");
    if (target && dot > 0) {
      // A member of a declaration: Java's `import static a.B.m` binds `m` to `B.m`.
      const owner = await this.exportOf(target, binding.imported.slice(0, dot), hops, seen);
      const member = binding.imported.slice(dot + 1);
      if (owner?.kind === "declarations") {
        const members = owner.declarations.flatMap((d) => d.members?.filter((m) => m.name === member) ?? []);
        if (members.length > 0) return { kind: "declarations", path: owner.path, declarations: members };
      }
    }
    return this.submodule(imp.specifier, fromFile, binding.imported);
  }

  private submodule(specifier: string, fromFile: string, name: string): Promise<Target | undefined> {
    const sub = this.support.submodule?.(specifier, name);
    return sub === undefined ? Promise.resolve(undefined) : this.resolve(sub, fromFile);
  }

  /** The declarations a chain of names reaches from a target: `ns.X`, `Class.member`, `pkg.mod.func`. */
  async expand(target: Target | undefined, rest: readonly string[]): Promise<Array<[string, Declaration]>> {
    if (!target) return [];
    if (target.kind === "module") {
      const [next, ...more] = rest;
      if (next === undefined) return [];
      const found =
        (await this.exportOf(target, next, 0, new Set())) ??
        (await this.submodule(target.specifier, target.fromFile, next));
      return this.expand(found, more);
    }
    const out: Array<[string, Declaration]> = [];
    const member = rest[0];
    for (const declaration of target.declarations) {
      out.push([target.path, declaration]);
      const inner = member === undefined ? undefined : declaration.members?.find((m) => m.name === member);
      if (inner && !shows(declaration, inner)) out.push([target.path, inner]);
    }
    return out;
  }

  /** The declarations a reference reaches. */
  async reference(reference: Reference): Promise<Array<[string, Declaration]>> {
    const chain =
      reference.chain ??
      (reference.member === undefined ? [reference.name] : [reference.name, reference.member]);
    // The binding: the import whose local name is the longest prefix of the chain (Python's `import a.b`).
    let best: { imp: ModuleImport; binding: ImportBinding; length: number } | undefined;
    for (const imp of this.from.imports) {
      for (const binding of imp.bindings) {
        if (binding.local === "*") continue;
        const parts = binding.local.split(".");
        if (parts.length > chain.length || (best && parts.length <= best.length)) continue;
        if (parts.every((p, i) => p === chain[i])) best = { imp, binding, length: parts.length };
      }
    }
    if (best) {
      const target = await this.bindingTarget(this.from.path, best.imp, best.binding, 0, new Set());
      return this.expand(target, chain.slice(best.length));
    }
    const rest = chain.slice(1);
    for (const imp of this.from.imports) {
      if (!imp.bindings.some((b) => b.local === "*")) continue;
      const target = await this.resolve(imp.specifier, this.from.path);
      const found = target && (await this.exportOf(target, reference.name, 0, new Set()));
      if (found) return this.expand(found, rest);
    }
    // Names no import binds: a Go package's other files, a Java class of the same package, an OCaml module.
    let implicit: readonly ImplicitCandidate[];
    try {
      implicit = this.support.implicit?.(reference.name, this.from, this.env) ?? [];
    } catch {
      implicit = [];
    }
    for (const candidate of implicit) {
      const modules = candidate.path.endsWith("/")
        ? await this.packageFiles(candidate.path, this.from.path)
        : [await this.module(candidate.path)].filter(
            (m): m is ParsedModule => m !== undefined && m !== this.from,
          );
      if (modules.length === 0) continue;
      if (candidate.module)
        return this.expand(
          { kind: "module", modules, specifier: reference.name, fromFile: this.from.path },
          rest,
        );
      for (const module of modules) {
        const declared = declarationsNamed(module, reference.name);
        if (declared)
          return this.expand({ kind: "declarations", path: module.path, declarations: declared }, rest);
      }
    }
    return [];
  }
}

/**
 * The declarations that the references of a file reach through its imports, in the order of the references
 * (nearest first), each once by (path, start line); the file itself is never a result. Which files may be read is
 * the host's business; a host that throws or returns nothing for a file just leaves it out. Never rejects.
 */
export async function findDeclarations(
  support: LanguageSupport,
  from: ParsedModule,
  references: readonly Reference[],
  host: ModuleHost,
  env: ResolveEnv,
  limits: ResolveLimits = {},
): Promise<FoundDeclaration[]> {
  let completed = env;
  try {
    completed = support.environment?.(from, env) ?? env;
  } catch {
    // The project files' environment alone.
  }
  const resolution = new Resolution(support, from, host, completed, limits);
  const maxResults = limits.maxResults ?? 32;
  const results: FoundDeclaration[] = [];
  const seen = new Set<string>();
  for (const reference of references) {
    if (results.length >= maxResults) break;
    let found: Array<[string, Declaration]>;
    try {
      found = await resolution.reference(reference);
    } catch {
      continue;
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
