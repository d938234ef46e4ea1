import type { WorkspacePackage } from "./workspace-packages.js";

// The contract between the per-language analysis (imports, declarations, references: pure, in `lang/`) and the
// rest of the context pipeline (which files may be read, caching, selection, the prompt block).

/** Language families whose imports are resolved and whose declarations are outlined. */
export type Family =
  | "typescript"
  | "python"
  | "go"
  | "rust"
  | "lua"
  | "c"
  | "cpp"
  | "java"
  | "csharp"
  | "ruby"
  | "php"
  | "bash"
  | "kotlin"
  | "zig"
  | "swift"
  | "scala"
  | "elixir";

/** One name bound by an import statement. */
export interface ImportBinding {
  /**
   * The name as the importing file uses it: `foo`, a namespace `ns`, a Python dotted module `pkg.mod` (for
   * `import pkg.mod`), a Lua local holding a module table, a Go package name, a Rust module or item name.
   */
  readonly local: string;
  /**
   * The name in the target module: a declaration name, `"default"` (a default import), or `"*"` for the module
   * itself (a namespace import, `require(…)`, a Python module, a Lua module table, a Go package, a Rust module).
   * `local` and `imported` both `"*"`: a glob import that brings every name of the module into scope (Python
   * `from m import *`, Go `import . "p"`, Rust `use m::*`).
   */
  readonly imported: string;
}

/** One import statement of a file. */
export interface ModuleImport {
  /** The specifier as written: `./a.js`, `@/lib/x`, `.models`, `a.b`, `crate::x::y`, `example.com/m/pkg`. */
  readonly specifier: string;
  readonly bindings: readonly ImportBinding[];
  /** 0-based line where the statement starts. */
  readonly line: number;
}

/** What kind of thing a declaration declares. */
export type DeclarationKind =
  | "function"
  | "class"
  | "interface"
  | "type"
  | "enum"
  | "variable"
  | "module"
  | "method"
  | "field"
  | "struct"
  | "trait";

/** A declaration found in a file, with the text that represents it in a prompt. */
export interface Declaration {
  readonly name: string;
  readonly kind: DeclarationKind;
  /** First line (0-based) of the declaration, its doc comment included. */
  readonly startLine: number;
  /** Last line (0-based, inclusive) of the whole declaration. */
  readonly endLine: number;
  /** The line that holds the declaration's name (its "declaration line"). */
  readonly nameLine: number;
  /**
   * What goes into a prompt, lines verbatim from the file: the doc comment and the signature; a short body whole;
   * a long function body elided (one line at the body's indentation holding `…`, then the closing line); the
   * members of a small class, interface, enum or struct with their bodies elided likewise. Lines joined with `\n`.
   * The parsers cut it when it is first read (an accessor that `JSON.stringify` includes but an object spread
   * does not): read it by name.
   */
  readonly snippet: string;
  /** Visible to other modules (TS `export`, Python without `_`, Go capitalised, Rust `pub`, Lua module field). */
  readonly exported: boolean;
  /** Members reachable as `Name.member` (static and instance members, enum members), when the kind has any. */
  readonly members?: readonly Declaration[];
}

/** A re-export: `export * from "./x"`, `export { a as b } from "./y"`, Python `from .x import *` in a package. */
export interface ReExport {
  readonly specifier: string;
  /** `"*"` for everything; otherwise each exported name and its name in the target module. */
  readonly names: "*" | ReadonlyArray<{ readonly exported: string; readonly imported: string }>;
}

/** The top-level shape of a file. */
export interface ModuleOutline {
  readonly declarations: readonly Declaration[];
  readonly reexports: readonly ReExport[];
  /** The local name the default export refers to (TS `export default Foo`, `export default class Foo`). */
  readonly defaultExport?: string;
  /**
   * Local names exported under another name or by a list: TS `export { a as b }`, CommonJS
   * `module.exports = { b: a }`, Lua `return { b = a }`. A local name may be a declaration or an import binding.
   */
  readonly localExports?: ReadonlyArray<{ readonly exported: string; readonly local: string }>;
}

/** A file analysed once; the host caches it by path and modification time. */
export interface ParsedModule {
  /** Absolute path. */
  readonly path: string;
  readonly imports: readonly ModuleImport[];
  readonly outline: ModuleOutline;
}

/**
 * Where resolution reads the workspace from. The host decides what may be read (inside the workspace folders,
 * not ignored, not a secret, not too big), caches reads and parses, and serves an open buffer's text over the
 * file on disk. Either return form is allowed so that a cached answer costs no I/O.
 */
export interface ModuleHost {
  /** The parsed file at an absolute path, or undefined when it does not exist or may not be read. */
  module(path: string): ParsedModule | undefined | Promise<ParsedModule | undefined>;
  /** Names of the regular files directly in a directory (Go packages), or undefined when it cannot be listed. */
  list(dir: string): readonly string[] | undefined | Promise<readonly string[] | undefined>;
}

/** What module resolution knows about the project around a file (the host reads these files). */
export interface ResolveEnv {
  /** The workspace folder that holds the importing file (absolute). */
  readonly root: string;
  /** The nearest `tsconfig.json`/`jsconfig.json`'s module options, `extends` already followed. */
  readonly tsconfig?: TsconfigPaths;
  /** The nearest `go.mod`: its module path and directory. */
  readonly goModule?: { readonly path: string; readonly dir: string };
  /** The nearest `Cargo.toml`'s directory (Rust `crate::` paths start at its `src/`). */
  readonly crateDir?: string;
  /** The workspace's own packages by name (a monorepo's `@scope/pkg`), when the project declares workspaces. */
  readonly packages?: ReadonlyMap<string, WorkspacePackage>;
}

/** Module options of a tsconfig, paths absolute. */
export interface TsconfigPaths {
  /** Directory of the tsconfig that set `paths` (relative `paths` targets start here unless `baseUrl` is set). */
  readonly dir: string;
  /** `compilerOptions.baseUrl`, absolute. */
  readonly baseUrl?: string;
  /** `compilerOptions.paths`, as written. */
  readonly paths?: Readonly<Record<string, readonly string[]>>;
}

/** A use of a name before the cursor: `foo`, `ns.member`, `pkg::item`, `m.field`. */
export interface Reference {
  /** The first identifier of the chain. */
  readonly name: string;
  /** The identifier after the first `.` or `::`, if any. */
  readonly member?: string;
  /**
   * The whole chain when it has more than two identifiers, first included, at most four (Python only, where
   * `import pkg.mod` binds `pkg.mod` and `pkg.mod.func` names `func`). References differ by chain there.
   */
  readonly chain?: readonly string[];
  /** Lines between the reference and the cursor (0 = on the cursor line). */
  readonly distance: number;
}

/** A declaration found for a reference. */
export interface FoundDeclaration {
  /** Absolute path of the file that declares it. */
  readonly path: string;
  readonly declaration: Declaration;
  readonly reference: Reference;
}

/** What a language family contributes; one object per family in `lang/`. */
export interface LanguageSupport {
  readonly family: Family;
  /** Source file extensions, with the dot, most specific first (`.d.ts` before `.ts`). */
  readonly extensions: readonly string[];
  /**
   * Imports and outline of a file's text. Pure; must not throw on any input. A language parsed with a grammar
   * finds nothing until {@link ready} has resolved.
   */
  parse(text: string): { imports: ModuleImport[]; outline: ModuleOutline };
  /**
   * Undefined when `parse` can run now; otherwise a promise that resolves (never rejects) once it can: the first
   * call starts loading the language's grammar (once per process). Absent for the hand-written parsers.
   */
  ready?(): Promise<void> | undefined;
  /**
   * `parse` of an open document's text, re-using what it kept of the document's previous text (a tree-sitter
   * tree re-parsed incrementally from the edit between them): the same result as `parse`. `key` names the
   * document (its URI). Absent: `parse` is used.
   */
  parseOpen?(key: string, text: string): { imports: ModuleImport[]; outline: ModuleOutline };
  /** Forget what `parseOpen` kept of a document (closed). */
  close?(key: string): void;
  /**
   * References in the lines before the cursor (`lines[lines.length - 1]` is the cursor line up to the cursor),
   * nearest first, each `(name, member)` (Python: each `chain`) once at its smallest distance; names in strings and comments and the
   * language's keywords are skipped. `preceding` is the text before the first line (or some of it): only read to
   * know whether the lines start inside a comment or a string, never searched for names. Default `""`.
   */
  references(lines: readonly string[], preceding?: string): Reference[];
  /**
   * Absolute paths a specifier may name, most likely first; a path ending in `/` is a directory (a Go package).
   * Pure: the caller checks which exist. Bare package names outside the workspace give `[]`.
   */
  candidates(specifier: string, fromFile: string, env: ResolveEnv): string[];
  /**
   * The specifier of `name` as a submodule of the module `specifier`, for a name the module itself does not
   * declare: Python `from pkg import mod` (`pkg` + `mod` → `pkg.mod`), Rust `use crate::a::b` (`crate::a::b`).
   * Absent where modules have no submodules.
   */
  submodule?(specifier: string, name: string): string;
}
