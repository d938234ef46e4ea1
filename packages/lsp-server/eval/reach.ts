// How a file reaches another by its language's import rule, for the ctags oracle's strata: written here from each
// language's rules, independently of the server's resolvers. Pure over a corpus view. Approximations are noted;
// they only move a hole from one stratum to another, never make or drop one.
import path from "node:path";
import type { Reach } from "./hole.js";
import type { Language } from "./languages.js";

/** The corpus as the rules read it. */
export interface CorpusView {
  /** Workspace-relative paths of the corpus's source files, `/`-separated. */
  readonly files: readonly string[];
  /**
   * A file's text with its comments blanked out (strings kept: they name includes and requires): a source file,
   * or a project file (`go.mod`, `Cargo.toml`); undefined when there is none.
   */
  text(file: string): string | undefined;
}

/** The import rule of one language over one corpus, memoized per file. */
export class ReachIndex {
  readonly #imports = new Map<string, readonly string[]>();
  readonly #packages = new Map<string, readonly string[]>();
  readonly #modules = new Map<string, ReadonlySet<string>>();
  #roots: ReadonlySet<string> | undefined;
  readonly #rule: Rule;

  constructor(
    readonly language: Language,
    readonly view: CorpusView,
  ) {
    this.#rule = RULES[language](view);
  }

  /** The corpus files `file` imports directly, sorted. */
  imports(file: string): readonly string[] {
    let found = this.#imports.get(file);
    if (!found) {
      found = [...new Set(this.#rule.imports(file, this.view.text(file) ?? ""))]
        .filter((f) => f !== file)
        .sort();
      this.#imports.set(file, found);
    }
    return found;
  }

  /**
   * The names `file` binds to corpus modules or packages by importing them (Go's `prometheus` for
   * `import ".../prometheus"`, Python's `box` for `from . import box`; not `http` for the library's `net/http`):
   * qualifiers of names reached by import.
   */
  modules(file: string): ReadonlySet<string> {
    let found = this.#modules.get(file);
    if (!found) {
      found = new Set(this.#rule.modules?.(file, this.view.text(file) ?? "") ?? []);
      this.#modules.set(file, found);
    }
    return found;
  }

  /** First names of `::` paths that lead into the corpus whatever it declares (Rust's `crate`, its own name). */
  roots(): ReadonlySet<string> {
    this.#roots ??= new Set(this.#rule.roots?.() ?? []);
    return this.#roots;
  }

  /**
   * Whether the language lets `file` name X, defined in `defining`, as it is written: bare, or after the module
   * `qualifier` (Go: a bare name is its own package's, `pkg.X` the imported package's; Python: a bare name must
   * be imported by name or by `*`). Undefined when the rule does not say.
   */
  visible(file: string, name: string, qualifier: string | undefined, defining: string): boolean | undefined {
    return this.#rule.visible?.(file, this.view.text(file) ?? "", name, qualifier, defining);
  }

  /**
   * How `file` reaches a declaration of the hole's identifier in `declaring` (the defining file first, then the
   * files of other declarations, such as a C header's prototype): `import` when it imports one of them directly,
   * else `package` when the defining file is in its package, namespace or folder, else `name`.
   */
  reach(file: string, declaring: readonly string[]): Reach {
    const imported = new Set(this.imports(file));
    if (declaring.some((d) => imported.has(d))) return "import";
    const mine = this.#packagesOf(file);
    const theirs = this.#packagesOf(declaring[0]!);
    return theirs.some((p) => mine.some((m) => this.#rule.samePackage(m, p))) ? "package" : "name";
  }

  #packagesOf(file: string): readonly string[] {
    let found = this.#packages.get(file);
    if (!found) {
      found = this.#rule.packages(file, this.view.text(file) ?? "");
      this.#packages.set(file, found);
    }
    return found;
  }
}

interface Rule {
  /** The corpus files a file's import statements name (unsorted, may repeat). */
  imports(file: string, text: string): string[];
  /** The packages (namespaces, folders) a file belongs to. */
  packages(file: string, text: string): string[];
  /** Whether code in package `mine` sees the declarations of package `theirs` without an import. */
  samePackage(mine: string, theirs: string): boolean;
  /** The names a file's imports of corpus modules or packages bind (none by default). */
  modules?(file: string, text: string): string[];
  /** See {@link ReachIndex.roots}. */
  roots?(): string[];
  /** See {@link ReachIndex.visible}. */
  visible?(
    file: string,
    text: string,
    name: string,
    qualifier: string | undefined,
    defining: string,
  ): boolean | undefined;
}

const dirname = (file: string) => path.posix.dirname(file);
const equal = (a: string, b: string) => a === b;
const byFolder = (file: string) => [dirname(file)];

/** Files whose path is `spec` or ends with `/spec`. */
function bySuffix(files: readonly string[], spec: string): string[] {
  return files.filter((f) => f === spec || f.endsWith(`/${spec}`));
}

/** Each match of `pattern` (global) in `text`, its first group. */
function captures(text: string, pattern: RegExp): string[] {
  return [...text.matchAll(pattern)].map((m) => m[1]!);
}

const RULES: Readonly<Record<Language, (view: CorpusView) => Rule>> = {
  TypeScript: () => {
    throw new Error("TypeScript holes come from the compiler, with their import kinds");
  },
  C: cInclude,
  "C++": cInclude,
  Java: java,
  "C#": csharp,
  Ruby: ruby,
  PHP: php,
  Python: python,
  Go: go,
  Rust: rust,
};

/**
 * C and C++: `#include "x.h"` or `<x/y.h>` names the file next to the includer, else any corpus file whose path
 * ends with it (what `-I` include directories give; without the build's flags, every folder counts). The package
 * is the folder.
 */
function cInclude(view: CorpusView): Rule {
  const files = new Set(view.files);
  return {
    imports(file, text) {
      return captures(text, /^[ \t]*#[ \t]*include[ \t]*["<]([^">\n]+)[">]/gm).flatMap((spec) => {
        const beside = path.posix.normalize(path.posix.join(dirname(file), spec));
        return files.has(beside) ? [beside] : bySuffix(view.files, spec);
      });
    },
    packages: byFolder,
    samePackage: equal,
  };
}

/**
 * Java: `import a.b.C;` (or a nested `a.b.C.D`, a static `a.b.C.m`) names `C.java` of package `a.b` in any source
 * root; `import a.b.*;` every file of package `a.b`. The package is the `package` declaration.
 */
function java(view: CorpusView): Rule {
  const packageOf = (text: string) => /^[ \t]*package[ \t]+([\w.]+)[ \t]*;/m.exec(text)?.[1] ?? "";
  const byClass = new Map<string, string[]>();
  const byPackage = new Map<string, string[]>();
  for (const file of view.files) {
    const pkg = packageOf(view.text(file) ?? "");
    const name = path.posix.basename(file, ".java");
    for (const [map, key] of [
      [byClass, pkg ? `${pkg}.${name}` : name],
      [byPackage, pkg],
    ] as const) {
      map.set(key, [...(map.get(key) ?? []), file]);
    }
  }
  return {
    imports(_file, text) {
      const found: string[] = [];
      for (const m of text.matchAll(/^[ \t]*import[ \t]+(static[ \t]+)?([\w.]+?)(\.\*)?[ \t]*;/gm)) {
        const name = m[2]!;
        if (m[3] && !m[1]) {
          found.push(...(byPackage.get(name) ?? []));
          continue;
        }
        // The longest prefix that names a top-level class.
        const parts = name.split(".");
        for (let n = parts.length; n > 0; n--) {
          const hit = byClass.get(parts.slice(0, n).join("."));
          if (hit) {
            found.push(...hit);
            break;
          }
        }
      }
      return found;
    },
    packages: (_file, text) => [packageOf(text)],
    samePackage: equal,
  };
}

/**
 * C#: `using A.B;` names every file declaring namespace `A.B`; `using static A.B.C;` and `using X = A.B.C;` the
 * files declaring type `C` in `A.B` (found by file name, as C# projects name files after their types). Code in a
 * namespace sees its enclosing namespaces' declarations without a `using`.
 */
function csharp(view: CorpusView): Rule {
  const namespacesOf = (text: string) => captures(text, /^[ \t]*namespace[ \t]+([\w.]+)/gm);
  const byNamespace = new Map<string, string[]>();
  const byType = new Map<string, string[]>();
  for (const file of view.files) {
    const type = path.posix.basename(file, ".cs");
    for (const ns of namespacesOf(view.text(file) ?? "")) {
      byNamespace.set(ns, [...(byNamespace.get(ns) ?? []), file]);
      byType.set(`${ns}.${type}`, [...(byType.get(`${ns}.${type}`) ?? []), file]);
    }
  }
  return {
    imports(_file, text) {
      const found: string[] = [];
      for (const m of text.matchAll(/^[ \t]*using[ \t]+(static[ \t]+|\w+[ \t]*=[ \t]*)?([\w.]+)[ \t]*;/gm)) {
        found.push(...((m[1] ? byType : byNamespace).get(m[2]!) ?? []));
      }
      return found;
    },
    packages: (_file, text) => namespacesOf(text),
    samePackage: (mine, theirs) => mine === theirs || mine.startsWith(`${theirs}.`),
  };
}

/**
 * Ruby: `require_relative "x"` names `x.rb` beside the file; `require "a/b"` names `lib/a/b.rb` (a load path
 * entry), else any corpus file ending with `/a/b.rb`. The package is the folder.
 */
function ruby(view: CorpusView): Rule {
  const files = new Set(view.files);
  const withRb = (spec: string) => (spec.endsWith(".rb") ? spec : `${spec}.rb`);
  return {
    imports(file, text) {
      const found: string[] = [];
      for (const m of text.matchAll(/\brequire(_relative)?[ \t(]+["']([^"'\n]+)["']/g)) {
        const spec = withRb(m[2]!);
        if (m[1]) {
          const beside = path.posix.normalize(path.posix.join(dirname(file), spec));
          if (files.has(beside)) found.push(beside);
          continue;
        }
        const inLib = bySuffix(view.files, `lib/${spec}`);
        found.push(...(inLib.length > 0 ? inLib : bySuffix(view.files, spec)));
      }
      return found;
    },
    packages: byFolder,
    samePackage: equal,
  };
}

/**
 * PHP: `use A\B\C;` (with `as`, in a list or a group `use A\B\{C, D};`) names the file of class `A\B\C`: by
 * PSR-4, a file `C.php` declaring namespace `A\B`. The package is the namespace.
 */
function php(view: CorpusView): Rule {
  const namespaceOf = (text: string) => /^[ \t]*namespace[ \t]+([\w\\]+)[ \t]*[;{]/m.exec(text)?.[1] ?? "";
  const byClass = new Map<string, string[]>();
  for (const file of view.files) {
    const ns = namespaceOf(view.text(file) ?? "");
    const name = `${ns ? `${ns}\\` : ""}${path.posix.basename(file, ".php")}`.toLowerCase();
    byClass.set(name, [...(byClass.get(name) ?? []), file]);
  }
  return {
    imports(_file, text) {
      const names: string[] = [];
      for (const m of text.matchAll(/^[ \t]*use[ \t]+(?:function[ \t]+|const[ \t]+)?([^;]+);/gm)) {
        const clause = m[1]!.replace(/\s+/g, " ");
        const group = /^([\w\\]+)\\?\{([^}]*)\}/.exec(clause);
        const items = group
          ? group[2]!.split(",").map((item) => `${group[1]!.replace(/\\$/, "")}\\${item.trim()}`)
          : clause.split(",");
        for (const item of items) names.push(item.trim().split(" ")[0]!.replace(/^\\/, "").toLowerCase());
      }
      return names.flatMap((name) => byClass.get(name) ?? []);
    },
    packages: (_file, text) => [namespaceOf(text)],
    samePackage: equal,
  };
}

/**
 * Python: `import a.b` and `from a.b import c` name `a/b.py` or `a/b/__init__.py` (and `a/b/c.py`) under any
 * folder (a source root); `from .x import y` and `from .. import z` resolve from the file's package. The package
 * is the folder.
 */
function python(view: CorpusView): Rule {
  const files = new Set(view.files);
  const moduleFiles = (base: string | undefined, dotted: string): string[] => {
    const rel = dotted.split(".").filter(Boolean).join("/");
    const candidates = [`${rel}.py`, `${rel}/__init__.py`].map((c) => c.replace(/^\//, ""));
    if (base === undefined) return candidates.flatMap((c) => bySuffix(view.files, c));
    return candidates.map((c) => path.posix.normalize(path.posix.join(base, c))).filter((c) => files.has(c));
  };
  /** The folder a relative import with `dots` dots starts from; undefined for an absolute one. */
  const baseOf = (file: string, dots: number): string | undefined => {
    if (dots === 0) return undefined;
    let base = dirname(file);
    for (let up = 1; up < dots; up++) base = dirname(base);
    return base === "." ? "" : base;
  };
  /**
   * Each imported module or name: the corpus files it names, the names it binds in the file, and whether they
   * are the corpus's (a module of it, or an attribute of one).
   */
  const bindingsOf = (
    file: string,
    text: string,
  ): { files: string[]; names: string[]; corpus: boolean }[] => {
    const found: { files: string[]; names: string[]; corpus: boolean }[] = [];
    for (const m of text.matchAll(/^[ \t]*import[ \t]+([\w., \t]+)$/gm)) {
      for (const item of m[1]!.split(",")) {
        const [dotted = "", , alias] = item.trim().split(/\s+/);
        const files = moduleFiles(undefined, dotted);
        found.push({ files, names: alias ? [alias] : dotted.split("."), corpus: files.length > 0 });
      }
    }
    for (const m of text.matchAll(/^[ \t]*from[ \t]+(\.*)([\w.]*)[ \t]+import[ \t]+(\([^)]*\)|[^\n]+)/gm)) {
      const base = baseOf(file, m[1]!.length);
      const module = m[2]!;
      const ofModule = moduleFiles(base, module);
      found.push({ files: ofModule, names: [], corpus: ofModule.length > 0 });
      for (const item of m[3]!.replace(/[()\\]/g, " ").split(",")) {
        const [name = "", , alias] = item.trim().split(/\s+/);
        if (!/^\w+$/.test(name)) continue;
        // `from pkg import mod` names a module's file; `from mod import name` binds an attribute of `mod`.
        const ofItem = moduleFiles(base, `${module}.${name}`);
        found.push({
          files: ofItem,
          names: [alias ?? name],
          corpus: ofItem.length > 0 || ofModule.length > 0,
        });
      }
    }
    return found;
  };
  return {
    imports: (file, text) => bindingsOf(file, text).flatMap((b) => b.files),
    packages: byFolder,
    samePackage: equal,
    modules: (file, text) => bindingsOf(file, text).flatMap((b) => (b.corpus ? b.names : [])),
    visible(file, text, name, qualifier, defining) {
      if (qualifier !== undefined) return undefined;
      // Bound by an import of the corpus (not `import PIL` of the library, whatever the corpus calls PIL).
      const binding = bindingsOf(file, text).find((b) => b.names.includes(name));
      if (binding) return binding.corpus;
      // `from .mod import *`
      for (const m of text.matchAll(/^[ \t]*from[ \t]+(\.*)([\w.]*)[ \t]+import[ \t]+\*/gm)) {
        if (moduleFiles(baseOf(file, m[1]!.length), m[2]!).includes(defining)) return true;
      }
      return false;
    },
  };
}

/**
 * Go: an import path names the files of its folder: the path less the module path of the corpus's `go.mod`,
 * else any folder whose path ends with it. The package is the folder.
 */
function go(view: CorpusView): Rule {
  const module = /^module[ \t]+(\S+)/m.exec(view.text("go.mod") ?? "")?.[1];
  const folders = new Map<string, string[]>();
  for (const file of view.files) folders.set(dirname(file), [...(folders.get(dirname(file)) ?? []), file]);
  const filesOf = (importPath: string): string[] => {
    if (module && (importPath === module || importPath.startsWith(`${module}/`)))
      return folders.get(importPath === module ? "." : importPath.slice(module.length + 1)) ?? [];
    return [...folders].filter(([dir]) => importPath.endsWith(`/${dir}`)).flatMap(([, files]) => files);
  };
  /** The name an import binds: its alias, else its path's last element (before `/v2`, less `.v3` and `go-`). */
  const nameOf = (alias: string | undefined, importPath: string): string => {
    const parts = importPath.split("/");
    const last = /^v\d+$/.test(parts.at(-1)!) && parts.length > 1 ? parts.at(-2)! : parts.at(-1)!;
    return (
      alias ??
      last
        .replace(/\.v\d+$/, "")
        .replace(/^go-/, "")
        .replace(/[^\w]/g, "_")
    );
  };
  /** Each import as [alias or undefined, path]. */
  const importsOf = (text: string): [string | undefined, string][] =>
    [
      ...text.matchAll(/^[ \t]*import[ \t]+(?:([\w.]+)[ \t]+)?"([^"]+)"/gm),
      ...[...text.matchAll(/^[ \t]*import[ \t]*\(([^)]*)\)/gm)].flatMap((m) => [
        ...m[1]!.matchAll(/(?:([\w.]+)[ \t]+)?"([^"]+)"/g),
      ]),
    ].map((m) => [m[1], m[2]!]);
  return {
    imports(_file, text) {
      return importsOf(text).flatMap(([, importPath]) => filesOf(importPath));
    },
    packages: byFolder,
    samePackage: equal,
    modules(_file, text) {
      return importsOf(text).flatMap(([alias, importPath]) =>
        filesOf(importPath).length > 0 ? [nameOf(alias, importPath)] : [],
      );
    },
    visible(file, text, _name, qualifier, defining) {
      // A bare name is the file's own package's or a dot import's; `pkg.X` is the package imported as `pkg`.
      if (qualifier === undefined) {
        if (dirname(defining) === dirname(file)) return true;
        return importsOf(text).some(
          ([alias, importPath]) => alias === "." && filesOf(importPath).includes(defining),
        );
      }
      const bound = importsOf(text).filter(([alias, importPath]) => nameOf(alias, importPath) === qualifier);
      return bound.length === 0
        ? undefined
        : bound.some(([, importPath]) => filesOf(importPath).includes(defining));
    },
  };
}

/**
 * Rust: `use` trees (`use crate::a::{b::C, d}`, `self::`, `super::`, the crate's own name) name the files of the
 * modules they go through; `mod x;` names the submodule's file. A module's file is `src/a/b.rs` or
 * `src/a/b/mod.rs` for `crate::a::b`, `src/lib.rs` or `src/main.rs` for the crate root. Files outside `src/`
 * (tests, examples, benches) are crate roots of their own that reach the library by its name. The package is the
 * folder.
 */
function rust(view: CorpusView): Rule {
  const crateName = /^\s*name\s*=\s*"([^"]+)"/m.exec(view.text("Cargo.toml") ?? "")?.[1]?.replace(/-/g, "_");
  const modulePath = (file: string): string[] | undefined => {
    if (!file.startsWith("src/")) return undefined;
    const parts = file.slice(4).replace(/\.rs$/, "").split("/");
    const last = parts.at(-1);
    if (parts.length === 1 && (last === "lib" || last === "main")) return [];
    return last === "mod" ? parts.slice(0, -1) : parts;
  };
  const byModule = new Map<string, string[]>();
  for (const file of view.files) {
    const mod = modulePath(file);
    if (mod) byModule.set(mod.join("::"), [...(byModule.get(mod.join("::")) ?? []), file]);
  }
  return {
    imports(file, text) {
      const here = modulePath(file);
      const found: string[] = [];
      const reach = (segments: readonly string[]) => {
        // The module itself (`use crate::a;`), or the module of an item or glob (`use crate::a::B;`).
        for (const n of [segments.length, segments.length - 1]) {
          if (n >= 0) found.push(...(byModule.get(segments.slice(0, n).join("::")) ?? []));
        }
      };
      for (const tree of captures(text, /(?:^|[;{}\s])use\s+([^;]+);/g)) {
        for (const segments of flattenUse(tree.replace(/\s+as\s+\w+/g, "").replace(/\s+/g, ""))) {
          const resolved = resolveUse(segments, here, crateName, byModule);
          if (resolved) reach(resolved);
        }
      }
      for (const name of captures(text, /^[ \t]*(?:pub(?:\([^)]*\))?[ \t]+)?mod[ \t]+(\w+)[ \t]*;/gm)) {
        if (here) found.push(...(byModule.get([...here, name].join("::")) ?? []));
      }
      return found;
    },
    packages: byFolder,
    samePackage: equal,
    roots: () => ["crate", "self", "super", "Self", "$crate", ...(crateName ? [crateName] : [])],
  };
}

/** The paths of a `use` tree without whitespace: `a::{b::C,d}` → `[a,b,C]`, `[a,d]`. */
export function flattenUse(tree: string): string[][] {
  const open = tree.indexOf("{");
  if (open === -1) return [tree.split("::").filter(Boolean)];
  const prefix = tree.slice(0, open).split("::").filter(Boolean);
  const inner = tree.slice(open + 1, tree.lastIndexOf("}"));
  const items: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < inner.length; i++) {
    if (inner[i] === "{") depth++;
    else if (inner[i] === "}") depth--;
    else if (inner[i] === "," && depth === 0) {
      items.push(inner.slice(start, i));
      start = i + 1;
    }
  }
  items.push(inner.slice(start));
  return items
    .filter((item) => item !== "")
    .flatMap((item) => flattenUse(item).map((rest) => [...prefix, ...rest]));
}

/** A `use` path made absolute in the crate (`crate::`, `self::`, `super::`, the crate's name), or undefined. */
function resolveUse(
  segments: readonly string[],
  here: readonly string[] | undefined,
  crateName: string | undefined,
  byModule: ReadonlyMap<string, readonly string[]>,
): string[] | undefined {
  const [first, ...rest] = segments.map((s) => s.replace(/^r#/, ""));
  if (first === undefined) return undefined;
  if (first === "crate" || (crateName !== undefined && first === crateName)) return rest;
  if (!here) return undefined;
  if (first === "self") return [...here, ...rest];
  if (first === "super") {
    let base = here.slice(0, -1);
    let tail = rest;
    while (tail[0] === "super") {
      base = base.slice(0, -1);
      tail = tail.slice(1);
    }
    return [...base, ...tail];
  }
  // 2015-edition paths are crate-relative; 2018 ones name a child module of this one or an external crate.
  if (byModule.has([...here, first].join("::"))) return [...here, first, ...rest];
  if (byModule.has(first)) return [first, ...rest];
  return undefined;
}
