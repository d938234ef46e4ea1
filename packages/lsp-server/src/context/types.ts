import type { LineSource } from "../documents/text-buffer.js";
// The contract between the per-language analysis (imports, declarations, references: pure, in `lang/`) and the
// rest of the context pipeline (which files may be read, caching, selection, the prompt block).

/**
 * Language families whose imports are resolved and whose declarations are outlined. How each family's import
 * statements are written as {@link ModuleImport}s is the contract between its parser (`parse`) and its resolution
 * (`candidates`, in `resolve/`): see {@link ModuleImport}.
 */
export type Family =
  | "typescript"
  | "python"
  | "go"
  | "rust"
  | "lua"
  | "c"
  | "cpp"
  | "java"
  | "kotlin"
  | "scala"
  | "csharp"
  | "ruby"
  | "php"
  | "swift"
  | "elixir"
  | "ocaml"
  | "zig"
  | "bash";

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

/**
 * One import statement of a file. Per family, the statement as written becomes (`G` is the glob binding
 * `{ local: "*", imported: "*" }`: every name of the target comes into scope):
 *
 * | family | statement | specifier | bindings |
 * | --- | --- | --- | --- |
 * | c, cpp | `#include "a/b.h"` | `"a/b.h"` | `G` |
 * | c, cpp | `#include <x/y.h>` | `"<x/y.h>"` (angle brackets kept) | `G` |
 * | java, kotlin, scala | `import com.x.Y;` | `"com.x.Y"` | `Y`→`Y` |
 * | kotlin, scala | `import com.x.Y as Z` / `import com.x.{Y => Z}` | `"com.x.Y"` | `Z`→`Y` |
 * | java, kotlin, scala | `import com.x.*;` / Scala `import com.x._` | `"com.x"` | `G` |
 * | java | `import static com.x.Y.m;` | `"com.x.Y"` | `m`→`Y.m` (a dotted `imported`: member `m` of `Y`) |
 * | java | `import static com.x.Y.*;` | `"com.x.Y"` | `G` |
 * | kotlin | `import com.x.topLevelFun` | `"com.x.topLevelFun"` | `topLevelFun`→`topLevelFun` |
 * | csharp | `using A.B;` / `global using A.B;` / `using static A.B.C;` | `"A.B"` / `"A.B.C"` | `G` |
 * | csharp | `using X = A.B.C;` | `"A.B.C"` | `X`→`*` |
 * | ruby | `require_relative "x/y"` | `"./x/y"` (`./` added unless it starts with `.` or `/`) | `G` |
 * | ruby | `require "x/y"` | `"x/y"` | `G` |
 * | php | `use A\B\C;` / `use A\B\C as D;` | `"A\\B\\C"` (one backslash per separator, none leading) | `C`→`C` / `D`→`C` |
 * | php | `use A\{B, C as D};` | one import per name: `"A\\B"`, `"A\\C"` | as above |
 * | php | `use function A\b;` / `use const A\B;` | `"A\\b"` / `"A\\B"` | `b`→`b` / `B`→`B` |
 * | php | `require_once __DIR__ . '/x.php';` / `require 'x.php';` | `"./x.php"` / `"x.php"` | `G` |
 * | swift | `import Foo` / `@testable import Foo` | `"Foo"` | `G` |
 * | elixir | `alias A.B.C` / `alias A.B.C, as: D` | `"A.B.C"` | `C`→`*` / `D`→`*` (the module itself) |
 * | elixir | `alias A.B.{C, D}` | one import per module: `"A.B.C"`, `"A.B.D"` | `C`→`*`, `D`→`*` |
 * | elixir | `import A.B` / `use A.B` / `require A.B` | `"A.B"` | `G` (`require`: `B`→`*`) |
 * | ocaml | `open Foo` / `include Foo` | `"Foo"` (dotted `"Lib.Foo"` as written) | `G` |
 * | ocaml | `module M = Foo` | `"Foo"` | `M`→`*` |
 * | zig | `const x = @import("x.zig");` | `"x.zig"` (`"std"` too: it resolves to nothing) | `x`→`*` |
 * | bash | `source ./x.sh` / `. x.sh` | `"./x.sh"` / `"x.sh"`; a leading `$(dirname "$0")/`, `${BASH_SOURCE%/*}/` or `$DIR/`-like variable becomes `./` | `G` |
 *
 * Declarations (the outline) of these families: C/C++ function prototypes and definitions, structs, unions, enums,
 * typedefs, function-like macros (`#define F(x) …`, kind `"function"`), `extern` variables; a header's own
 * `#include`s are imports like any file's, and resolution follows a target's glob imports for a name it does not
 * declare (bounded by `ResolveLimits.maxHops`), so what a header includes is reachable through it, transitively.
 * JVM and C# classes, interfaces, enums, records, objects and traits, with their members (a C# type inside a
 * `namespace { … }` block is top-level); Kotlin and Scala top-level functions and values. Ruby and Elixir modules
 * and classes by their last name segment (`defmodule A.B` declares `B`, kind `"module"`), their methods and
 * functions as members; a class or module nested in a module is listed at the top level too (Ruby
 * `module Shop; class Item` declares `Shop` and `Item`: code inside the namespace names it unqualified), and so
 * are an Elixir module's `def`s (what `import A.B` brings into scope). PHP classes, interfaces, traits, enums and
 * functions. Swift types, protocols, extensions' members, functions. OCaml `let`, `type`, `module`. Zig `pub`
 * declarations (`exported`). Bash functions. The package or namespace a file declares goes in
 * {@link ModuleOutline.package}.
 */
export interface ModuleImport {
  /**
   * The specifier as written: `./a.js`, `@/lib/x`, `.models`, `a.b`, `crate::x::y`, `example.com/m/pkg`, and for
   * the other families as the table above says.
   */
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
  /**
   * Types whose members are this declaration's members too, by name as written (a path keeps its separators:
   * `Helpers::Text`): a class's superclass and mixins (Ruby `< Base`, `include M`, `extend M`), a constant's class
   * when it is assigned an instance (Ruby `Commands = CommandSet.new`). Absent when none is known.
   */
  readonly bases?: readonly string[];
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
  /**
   * The package or namespace the file declares, as written with the language's separator: Java/Kotlin/Scala
   * `package a.b` → `"a.b"`, C# `namespace A.B` (block or file-scoped; the first) → `"A.B"`, PHP `namespace A\B;`
   * → `"A\\B"`. Absent where the language has none. Names of the same package need no import.
   */
  readonly package?: string;
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
  /**
   * A file (or a directory, ending in `/`) an earlier call read to find an answer this one takes from the memo:
   * what the answer depends on, as if read again.
   */
  noteRead?(path: string): void;
}

/** What module resolution knows about the project around a file (the host reads these files). */
export interface ResolveEnv {
  /** The workspace folder that holds the importing file (absolute). */
  readonly root: string;
  /** The nearest `tsconfig.json`/`jsconfig.json`'s module options, `extends` already followed. */
  readonly tsconfig?: TsconfigPaths;
  /** The nearest `go.mod`: its module path and directory. */
  readonly goModule?: { readonly path: string; readonly dir: string };
  /** The nearest `Cargo.toml`'s directory (Rust `crate::` paths start at its `src/`, unless `crateRoots` say). */
  readonly crateDir?: string;
  /**
   * The crate roots of the nearest `Cargo.toml` (absolute: `[lib] path`, `[[bin]] path`s, `src/main.rs`): `crate::`
   * starts in the folder of the one that holds the file (a binary at `crates/core/main.rs` has its modules there).
   */
  readonly crateRoots?: readonly string[];
  /** The workspace's own packages by name (a monorepo's `@scope/pkg`), when the project declares workspaces. */
  readonly packages?: ReadonlyMap<string, WorkspacePackage>;
  /**
   * Rust crates of the workspace by the name code uses (`-` as `_`): the nearest `Cargo.toml`'s own package, the
   * members of its `[workspace]`, and its `path` dependencies; each the directory of its `Cargo.toml` and the crate
   * root file (`[lib] path`, else `src/lib.rs`), absolute.
   */
  readonly crates?: ReadonlyMap<string, { readonly dir: string; readonly root: string }>;
  /**
   * C and C++ include directories, absolute and inside the workspace, in search order: the `-iquote`, `-I`,
   * `-isystem` and `-idirafter` of the nearest `compile_commands.json` (every entry's, relative to its `directory`)
   * or `compile_flags.txt` (relative to its folder).
   */
  readonly includeDirs?: readonly string[];
  /**
   * JVM source roots (absolute), nearest build first: `pom.xml`'s `<sourceDirectory>`/`<testSourceDirectory>` or
   * Maven's defaults, Gradle's (`build.gradle`, `build.gradle.kts`) `srcDir`s or defaults, sbt's defaults; a
   * directory a root names need not exist. The importing file's `package` line adds its own root at resolution.
   */
  readonly sourceRoots?: readonly string[];
  /** `composer.json` `autoload`/`autoload-dev` `psr-4`: namespace prefixes (with a trailing `\`) and directories. */
  readonly psr4?: ReadonlyArray<{ readonly prefix: string; readonly dirs: readonly string[] }>;
  /** Ruby's load path for `require`: the gemspec's `require_paths` (default `lib/`) beside the `Gemfile`/gemspec. */
  readonly rubyLoadPath?: readonly string[];
  /** SwiftPM targets of the nearest `Package.swift`, by name: each target's directory (absolute). */
  readonly swiftTargets?: ReadonlyMap<string, string>;
  /** The directory of the nearest `mix.exs` (an Elixir project: its modules under `lib/`). */
  readonly mixDir?: string;
  /** OCaml dune libraries near the file, by `(name …)`: each library's directory (absolute). */
  readonly duneLibraries?: ReadonlyMap<string, string>;
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
   * The whole chain when it has more than two identifiers, first included (Python's, where `import pkg.mod`
   * binds `pkg.mod` and `pkg.mod.func` names `func`, and Ruby's at most four; Rust's `crate::a::b::Type` six).
   * References differ by chain there.
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
   * Whether `parse` can run now (its grammar loaded, or failed for good), starting nothing. Absent: always (the
   * hand-written parsers).
   */
  parserReady?(): boolean;
  /**
   * `parse` of an open document's text (`text`, its lines joined with `\n`; `lines`, the same lines), re-using what
   * it kept of the document (a tree-sitter tree told of every change since, re-parsed from its lines): the same
   * result as `parse`. `key` names the document (its URI). Absent: `parse` is used.
   */
  parseOpen?(
    key: string,
    text: string,
    lines: LineSource,
  ): { imports: ModuleImport[]; outline: ModuleOutline };
  /** Forget what `parseOpen` kept of a document (closed). */
  close?(key: string): void;
  /**
   * Matches text that may hold an import statement (its keyword): the lines near the cursor are parsed for imports
   * typed since the document's last whole parse only when they match. Without it, they always are.
   */
  readonly importHint?: RegExp;
  /**
   * References in the lines before the cursor (`lines[lines.length - 1]` is the cursor line up to the cursor),
   * nearest first, each `(name, member)` (Python: each `chain`) once at its smallest distance; names in strings and comments and the
   * language's keywords are skipped. `preceding` is the text before the first line (or some of it): only read to
   * know whether the lines start inside a comment or a string, never searched for names. Default `""`. `bound`: the
   * local names the file's imports bind; a builtin the file binds itself (Python's `from rich import print`) is then
   * a reference.
   */
  references(lines: readonly string[], preceding?: string, bound?: ReadonlySet<string>): Reference[];
  /**
   * Whether reading may start at a line, sure that it is not inside a string or a comment: Python's `def` or
   * `class` at the left margin (a docstring may span hundreds of lines). The text before the searched lines starts
   * at such a line. Absent: any line (strings and comments of the language span few lines).
   */
  statementStart?(line: string): boolean;
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
  /**
   * Where a name used without any import may be declared: the other files of a Go package, a Java class of the
   * same package (`Name.java` beside the file, then the package's directory), a PHP class of the file's namespace
   * (PSR-4), an OCaml module of the same library (`foo.ml` for `Foo`, `module: true`: the file is the name's module,
   * whose members `Foo.x` names), a Ruby constant in a Rails-like layout (`UserProfile` → `user_profile.rb`). Paths
   * as {@link LanguageSupport.candidates} gives them (a directory ends in `/`), most likely first; pure. Absent: no
   * such names. `scope`: the names written before it and the types around the use, when known (Ruby's
   * `Pry::Helpers::Text` inside `class Pry; class Code` → `pry/code/helpers/text.rb`, then `pry/helpers/text.rb`).
   */
  implicit?(
    name: string,
    from: ParsedModule,
    env: ResolveEnv,
    scope?: ImplicitScope,
  ): readonly ImplicitCandidate[];
  /**
   * The types around the end of `lines` (the lines above the cursor, its own last), outermost first, read so that
   * an unfinished cursor line does not hide them: where a language finds names by where they are used (Ruby's
   * constants by nesting, inherited methods). Absent: the current file's outline says.
   */
  nesting?(lines: readonly string[]): NestedType[];
  /**
   * The full constant path a module declares a declaration under, outermost first (`class Pry; class Command::Cat`
   * → `["Pry", "Command", "Cat"]`; `container`: the declaration is its member): where a qualified constant (`X::Y`)
   * is found by the lexical scope of its use (Ruby's `Module.nesting`) rather than in the files merely required.
   * Pure. Absent: qualified names are resolved through imports first.
   */
  constantPath?(module: ParsedModule, declaration: Declaration, container?: Declaration): readonly string[];
  /**
   * Whether a name that starts a path is a module itself, resolved as a specifier (Rust's `crate`, `super`, `self`
   * and the workspace's crates by name: `crate::error::Error`, `clap::ArgAction`). Absent: none is.
   */
  pathRoot?(name: string, env: ResolveEnv): boolean;
  /** Whether a file of a directory target belongs to it, for the importing file `fromFile`. Default: by extension. */
  packageFile?(fileName: string, fromFile: string): boolean;
  /**
   * The environment completed with what the importing file itself says (a JVM `package` line names its source
   * root). Pure. Absent: the environment as the project files give it.
   */
  environment?(from: ParsedModule, env: ResolveEnv): ResolveEnv;
}

/** Where a name used without import is written ({@link LanguageSupport.implicit}). */
export interface ImplicitScope {
  /** The names written before it, outermost first: `["Pry", "Helpers"]` for `Pry::Helpers::Text`; empty when bare. */
  readonly qualifiers: readonly string[];
  /**
   * The current file's types (classes, modules, namespaces) whose lines hold the use, outermost first: `["Pry",
   * "Code"]` inside Ruby's `class Pry; class Code`.
   */
  readonly nesting: readonly string[];
}

/** A place a name used without import may be declared ({@link LanguageSupport.implicit}). */
export interface ImplicitCandidate {
  /** Absolute path; a directory ends in `/` (its files, as {@link LanguageSupport.packageFile} says). */
  readonly path: string;
  /** The file is the name's module itself (OCaml's `foo.ml` for `Foo`), rather than a file that declares it. */
  readonly module?: boolean;
}

/** A piece of another file that may go into the prompt. */
export interface ContextSnippet {
  /** How the prompt names its file: workspace-relative, `/` separators. */
  readonly path: string;
  /** First and last line (0-based, inclusive) it covers in that file. */
  readonly startLine: number;
  readonly endLine: number;
  /** The snippet's lines joined with `\n`, no trailing line break. */
  readonly text: string;
  /**
   * A declaration of a name used near the cursor, a window of similar code, or the member outline of the type the
   * cursor's receiver has (header and member signatures, bodies left out).
   */
  readonly kind: "declaration" | "similar" | "outline";
}

/** The fields of a `package.json` that say what importing the package gives. */
export interface PackageManifest {
  readonly name?: string;
  readonly exports?: unknown;
  readonly main?: string;
  readonly module?: string;
  readonly types?: string;
  readonly typings?: string;
  readonly source?: string;
}

/** A package of the workspace: where it is and what its manifest says. */
export interface WorkspacePackage {
  /** Absolute directory holding its `package.json`. */
  readonly dir: string;
  readonly manifest: PackageManifest;
}

/** A type declaration around a line, as its line reads: `class Edit < Pry::ClassCommand`. */
export interface NestedType {
  /** The last segment of its name. */
  readonly name: string;
  /** The segments of its name as written: `["Foo", "Bar"]` for `class Foo::Bar` (a namespace path). */
  readonly path: readonly string[];
  /** The types it inherits from as written (`Pry::ClassCommand`, `Base`), when its line names them. */
  readonly bases: readonly string[];
  /**
   * The line is a function of the type defined outside it (C++'s `void Scanner::scan() {`): its members are
   * declared in another file, the header.
   */
  readonly external?: boolean;
}
