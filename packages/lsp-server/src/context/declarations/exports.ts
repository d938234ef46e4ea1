// What a module offers its importers under a name: its declarations, or what it re-exports or imports so named.
import type { ImportBinding, LanguageSupport, ModuleImport, ParsedModule } from "../types.js";
import type { ModuleReader, Target } from "./module-reader.js";
import { declarationsNamed } from "./outline-lookup.js";

/** The exports of the modules one resolution reads, following re-exports and imports up to `maxHops` modules. */
export class Exports {
  constructor(
    private readonly support: LanguageSupport,
    private readonly reader: ModuleReader,
    private readonly maxHops: number,
  ) {}

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
      const target = await this.reader.resolve(reexport.specifier, module.path);
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
      const target = await this.reader.resolve(specifier, module.path);
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
    const target = await this.reader.resolve(imp.specifier, fromFile);
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

  submodule(specifier: string, fromFile: string, name: string): Promise<Target | undefined> {
    const sub = this.support.submodule?.(specifier, name);
    return sub === undefined ? Promise.resolve(undefined) : this.reader.resolve(sub, fromFile);
  }
}
