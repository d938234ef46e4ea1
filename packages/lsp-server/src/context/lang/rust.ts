import { posix as path } from "node:path";
import { findClose, Lexer } from "../scan/lexer.js";
import { guardedParse, outlineOf } from "../scan/parse-result.js";
import { findReferences } from "../scan/references.js";
import { CHAR } from "../scan/scan.js";
import { type BracketBody, type Item, lastBracketBody, spanItem } from "../scan/snippet.js";
import { SourceText } from "../scan/source-text.js";
import { type Span, splitStatements } from "../scan/statements.js";
import type {
  ImportBinding,
  LanguageSupport,
  ModuleImport,
  ModuleOutline,
  ReExport,
  ResolveEnv,
} from "../types.js";

/** Items end at `;` or at their body's `}`; line breaks mean nothing. */
const ITEMS = { bodies: true, lineBreaks: "never" } as const;
/** Struct fields and enum variants. */
const FIELDS = { commas: true, lineBreaks: "never" } as const;
/** Inline modules nested deeper than this are not outlined. */
const MAX_NESTING = 4;

const QUALIFIERS = new Set(["async", "const", "unsafe", "extern", "default", "safe"]);
const KINDS: Readonly<Record<string, Item["kind"]>> = {
  fn: "function",
  struct: "struct",
  union: "struct",
  enum: "enum",
  trait: "trait",
  type: "type",
  const: "variable",
  static: "variable",
  mod: "module",
  macro_rules: "function",
};

interface Parser {
  readonly source: SourceText;
  readonly imports: Map<string, { bindings: ImportBinding[]; line: number }>;
  readonly reexports: ReExport[];
}

/**
 * Skips attributes: outer ones (`#[…]`) and inner ones (`#![…]`, which declare nothing themselves: the item after
 * them in the same statement, `#![cfg_attr(…)]` then `use a::B;`, is read). False when nothing is left to read.
 */
function skipAttributes(lx: Lexer): boolean {
  while (lx.isPunct("#")) {
    lx.next();
    if (lx.isPunct("!")) lx.next();
    if (lx.isPunct("[")) {
      lx.skipBalanced();
      lx.next();
    }
  }
  return lx.kind !== "eof";
}

/** `pub`, `pub(crate)`, `pub(in path)`: true when there was one (the item is visible outside its module). */
function visibility(lx: Lexer): boolean {
  if (!lx.is("pub")) return false;
  lx.next();
  if (lx.isPunct("(")) {
    lx.skipBalanced();
    lx.next();
  }
  return true;
}

/** `::` at the lexer: moves past it. */
function pathSeparator(lx: Lexer): boolean {
  if (!lx.isPunct(":") || lx.code.charCodeAt(lx.end) !== CHAR.COLON) return false;
  lx.next();
  lx.next();
  return true;
}

/**
 * A use tree (`a::b::{C, d as e, f::{g}, self}`, `a::*`) at the lexer, under `prefix`: its bindings grouped by
 * the module path they come from.
 */
function useTree(p: Parser, lx: Lexer, prefix: string[], line: number, exported: boolean): void {
  const segments = [...prefix];
  pathSeparator(lx);
  for (;;) {
    if (lx.isPunct("{")) {
      const close = findClose(lx.code, lx.start, lx.limit);
      for (const entry of splitStatements(lx.code, lx.start + 1, close, FIELDS)) {
        const inner = new Lexer(lx.code, lx.text, entry.start, entry.end);
        inner.next();
        useTree(p, inner, segments, line, exported);
      }
      return;
    }
    if (lx.isPunct("*")) {
      bind(p, segments.join("::"), { local: "*", imported: "*" }, line);
      if (exported) p.reexports.push({ specifier: segments.join("::"), names: "*" });
      return;
    }
    const name = lx.ident();
    if (name === undefined) return;
    lx.next();
    if (pathSeparator(lx)) {
      segments.push(name);
      continue;
    }
    let local = name;
    if (lx.is("as")) {
      lx.next();
      local = lx.ident() ?? name;
    }
    if (local === "_") return;
    if (name === "self") {
      // `a::b::{self}`: the module `a::b` itself.
      const module = segments.join("::");
      if (module !== "")
        bind(p, module, { local: local === "self" ? segments.at(-1)! : local, imported: "*" }, line);
      return;
    }
    const module = segments.join("::");
    if (module === "") return; // `use serde;`: an external crate
    bind(p, module, { local, imported: name }, line);
    if (exported) p.reexports.push({ specifier: module, names: [{ exported: local, imported: name }] });
    return;
  }
}

function bind(p: Parser, specifier: string, binding: ImportBinding, line: number): void {
  const entry = p.imports.get(specifier);
  if (entry) entry.bindings.push(binding);
  else p.imports.set(specifier, { bindings: [binding], line });
}

/**
 * The items of `[from, to)`: top level, an inline module's, an `impl` or `trait` body's (`body`: their functions
 * are methods, and a trait's are public).
 */
function items(
  p: Parser,
  from: number,
  to: number,
  body: "impl" | "trait" | undefined,
  depth: number,
): Item[] {
  const found: Item[] = [];
  const impls: { type: string; methods: Item[] }[] = [];
  for (const span of splitStatements(p.source.code, from, to, ITEMS)) {
    const lx = new Lexer(p.source.code, p.source.text, span.start, span.end);
    lx.next();
    if (!skipAttributes(lx)) continue;
    const exported = visibility(lx);
    while (lx.kind === "ident" && QUALIFIERS.has(lx.ident()!) && lx.peekIdent() !== undefined) {
      if (
        lx.is("const") &&
        lx.peekIdent() !== "fn" &&
        lx.peekIdent() !== "unsafe" &&
        lx.peekIdent() !== "async"
      )
        break;
      if (lx.next() === "string") lx.next(); // extern "C"
    }
    if (lx.is("use")) {
      lx.next();
      useTree(p, lx, [], p.source.lineOf(span.start), exported);
      continue;
    }
    if (lx.is("impl")) {
      const impl = implOf(p, lx, span, depth);
      if (impl) impls.push(impl);
      continue;
    }
    if (depth < MAX_NESTING && itemMacro(p, lx, span, body, depth, found)) continue;
    const keyword = lx.ident();
    const kind = keyword === undefined ? undefined : KINDS[keyword];
    if (kind === undefined) continue;
    lx.next();
    if (keyword === "macro_rules" && lx.isPunct("!")) lx.next();
    if (keyword === "static" && lx.is("mut")) lx.next();
    const name = lx.ident();
    if (name === undefined || name === "_") continue;
    const block = lastBracketBody(p.source, span.start, span.end);
    if (keyword === "mod" && !block) {
      // `mod x;`: the module is the file x.rs or x/mod.rs beside this module.
      bind(p, `self::${name}`, { local: name, imported: "*" }, p.source.lineOf(span.start));
      continue;
    }
    const declared = spanItem(
      p.source,
      span,
      name,
      lx.start,
      body && kind === "function" ? "method" : kind,
      block,
    );
    declared.exported = exported || body === "trait";
    // `type Error = crate::error::Error<Fmt>;`: the alias has the aliased type's members.
    if (keyword === "type") {
      const aliased = aliasedPath(p.source.code.slice(lx.start, span.end));
      if (aliased) declared.bases = [aliased];
    }
    if (block && p.source.code.charCodeAt(block.openOffset) === CHAR.LBRACE) {
      if (keyword === "struct" || keyword === "union" || keyword === "enum")
        declared.members = fields(p, block, keyword === "enum");
      else if ((keyword === "trait" || keyword === "mod") && depth < MAX_NESTING)
        declared.members = items(
          p,
          block.openOffset + 1,
          block.closeOffset,
          keyword === "trait" ? "trait" : undefined,
          depth + 1,
        );
    }
    found.push(declared);
  }
  for (const { type, methods } of impls) {
    const owner = found.find(
      (i) => i.name === type && (i.kind === "struct" || i.kind === "enum" || i.kind === "trait"),
    );
    if (owner) owner.attached = [...(owner.attached ?? []), ...methods];
  }
  return found;
}

/**
 * An item-level macro of the `cfg` family whose braces hold items: `cfg_if! { if #[cfg(unix)] { … } else { … } }`,
 * or tokio's and mio's `cfg_net! { … }`, `cfg_os_poll! { mod unix; pub use self::unix::*; }`. Each alternative's
 * items are outlined (and its `use`s and `mod`s bound), so a name defined once per platform is found through any
 * of them. True when the statement was such a macro.
 */
function itemMacro(
  p: Parser,
  at: Lexer,
  span: Span,
  body: "impl" | "trait" | undefined,
  depth: number,
  found: Item[],
): boolean {
  if (at.kind !== "ident") return false;
  // A lexer of its own: the caller's stays where it is when this is no such macro.
  const lx = new Lexer(p.source.code, p.source.text, at.start, span.end);
  lx.next();
  let name = lx.ident();
  lx.next();
  // `cfg_if::cfg_if!`: the macro's own name is the path's last.
  while (name !== undefined && pathSeparator(lx)) {
    name = lx.ident();
    lx.next();
  }
  if (name === undefined || !name.startsWith("cfg") || KINDS[name] !== undefined) return false;
  if (!lx.isPunct("!")) return false;
  lx.next();
  if (!lx.isPunct("{")) return false;
  const close = findClose(p.source.code, lx.start, span.end);
  const inner = new Lexer(p.source.code, p.source.text, lx.start + 1, close);
  inner.next();
  if (!inner.is("if")) found.push(...items(p, lx.start + 1, close, body, depth + 1));
  else {
    // `if #[cfg(…)] { … } else if #[cfg(…)] { … } else { … }`: the braces of each branch, not the attributes'.
    while (inner.kind !== "eof") {
      if (inner.isPunct("[")) inner.skipBalanced();
      else if (inner.isPunct("{")) {
        const end = findClose(p.source.code, inner.start, close);
        found.push(...items(p, inner.start + 1, end, body, depth + 1));
        inner.seek(end + 1);
      }
      inner.next();
    }
  }
  // A macro's closing brace does not end a statement: the items after it are in the same span.
  if (close + 1 < span.end) found.push(...items(p, close + 1, span.end, body, depth));
  return true;
}

/** `impl<T> Trait for Type<T> where … { … }`: the type's name and the items of the body. */
function implOf(
  p: Parser,
  lx: Lexer,
  span: Span,
  depth: number,
): { type: string; methods: Item[] } | undefined {
  let type: string | undefined;
  let angle = 0;
  while (lx.next() !== "eof") {
    if (lx.isPunct("<")) angle++;
    else if (lx.isPunct(">") && lx.code.charCodeAt(lx.start - 1) !== CHAR.MINUS) angle--;
    else if (lx.isPunct("{") || lx.is("where")) break;
    else if (angle === 0 && lx.is("for")) type = undefined;
    else if (angle === 0 && lx.kind === "ident" && !lx.is("dyn") && !lx.is("mut")) type = lx.ident();
    else if (lx.isPunct("(") || lx.isPunct("[")) lx.skipBalanced();
  }
  const body = lastBracketBody(p.source, span.start, span.end);
  if (type === undefined || !body || depth >= MAX_NESTING) return undefined;
  return { type, methods: items(p, body.openOffset + 1, body.closeOffset, "impl", depth + 1) };
}

/** The path a type alias names, type arguments left out: `Error<F> = crate::error::Error<F>;` → `crate::error::Error`. */
function aliasedPath(text: string): string | undefined {
  const m = /=\s*((?:(?:\$?crate|self|super|[A-Za-z_]\w*)::)*[A-Za-z_]\w*)/.exec(text);
  return m?.[1];
}

/** Struct fields (`pub a: T`) and enum variants (`A`, `B(u8)`, `C { x: i32 }`). */
function fields(p: Parser, body: BracketBody, variants: boolean): Item[] {
  const found: Item[] = [];
  for (const span of splitStatements(p.source.code, body.openOffset + 1, body.closeOffset, FIELDS)) {
    const lx = new Lexer(p.source.code, p.source.text, span.start, span.end);
    lx.next();
    skipAttributes(lx);
    const exported = visibility(lx) || variants;
    const name = lx.ident();
    if (name === undefined) continue;
    const field = spanItem(p.source, span, name, lx.start, "field");
    field.exported = exported;
    found.push(field);
  }
  return found;
}

/** Imports and outline of a Rust file (see `LanguageSupport.parse`); `impl` methods are members of their type. */
export function parseRust(text: string): { imports: ModuleImport[]; outline: ModuleOutline } {
  const p: Parser = { source: new SourceText(text, "rust"), imports: new Map(), reexports: [] };
  const found = items(p, 0, text.length, undefined, 0);
  const imports = [...p.imports].map(([specifier, { bindings, line }]) => ({ specifier, bindings, line }));
  imports.sort((a, b) => a.line - b.line);
  return { imports, outline: outlineOf(p.source, found, p.reexports, [], undefined) };
}

const KEYWORDS = new Set(
  (
    "as async await break const continue crate dyn else enum extern false fn for if impl in let loop match mod " +
    "move mut pub ref return self Self static struct super trait true type unsafe use where while i8 i16 i32 i64 " +
    "i128 isize u8 u16 u32 u64 u128 usize f32 f64 bool char str"
  ).split(" "),
);

/** Keywords a path may start with, each a module: the crate's root, the parent module, this one. */
const PATH_ROOTS: ReadonlySet<string> = new Set(["crate", "super", "self", "$crate"]);

/** Folders whose `.rs` files are each a crate root (Cargo's auto-discovered targets). */
const CRATE_ROOT_DIRS = new Set(["tests", "examples", "benches"]);

/** The directory of a module file's children: `src/a.rs` → `src/a`; `mod.rs`, `lib.rs`, `main.rs` → their own. */
function moduleDir(file: string, env?: ResolveEnv): string {
  const base = path.basename(file);
  if (base === "mod.rs" || base === "lib.rs" || base === "main.rs") return path.dirname(file);
  // Crate roots too: an integration test, an example, a bench, a `src/bin/` binary, a `[[bin]] path`.
  const dir = path.dirname(file);
  const crate = env?.crateDir;
  if (
    (crate !== undefined &&
      ((CRATE_ROOT_DIRS.has(path.basename(dir)) && path.dirname(dir) === crate) ||
        dir === path.join(crate, "src", "bin"))) ||
    env?.crateRoots?.includes(file)
  )
    return dir;
  return path.join(path.dirname(file), path.basename(file, ".rs"));
}

/** Where `crate::` starts for a file: the folder of the deepest crate root holding it, else `src/`. */
function crateRootDir(fromFile: string, env: ResolveEnv): string | undefined {
  let best: string | undefined;
  for (const root of env.crateRoots ?? []) {
    const dir = path.dirname(root);
    if (fromFile.startsWith(`${dir}/`) && (best === undefined || dir.length > best.length)) best = dir;
  }
  return best ?? (env.crateDir ? path.join(env.crateDir, "src") : undefined);
}

function rustCandidates(specifier: string, fromFile: string, env: ResolveEnv): string[] {
  // A macro's `$crate` is the crate that defines the macro: this one.
  const segments = specifier
    .split("::")
    .filter((s) => s !== "")
    .map((s) => (s === "$crate" ? "crate" : s));
  if (segments.length === 0 || segments.some((s) => !/^[\p{L}\p{N}_]+$/u.test(s))) return [];
  let dir: string;
  const crateRoot = crateRootDir(fromFile, env);
  if (segments[0] === "crate") {
    if (!crateRoot) return [];
    dir = crateRoot;
    segments.shift();
  } else {
    // Another crate of the workspace by name (`use grep_matcher::Matcher`, a crate's own name in its tests).
    const other = env.crates?.get(segments[0]!);
    if (other && segments[0] !== "self" && segments[0] !== "super") {
      const local = rustCandidates(`self::${specifier}`, fromFile, { ...env, crates: new Map() });
      const crateSrc = path.dirname(other.root);
      const rest = segments.slice(1);
      if (rest.length === 0) return [...local, other.root];
      const base = path.join(crateSrc, ...rest);
      return [...local, `${base}.rs`, path.join(base, "mod.rs")];
    }
    dir = moduleDir(fromFile, env);
    if (segments[0] === "self") segments.shift();
    while (segments[0] === "super") {
      dir = path.dirname(dir);
      segments.shift();
    }
  }
  if (segments.length === 0) {
    if (dir === crateRoot) return [path.join(dir, "lib.rs"), path.join(dir, "main.rs")];
    return [`${dir}.rs`, path.join(dir, "mod.rs")];
  }
  const base = path.join(dir, ...segments);
  return [`${base}.rs`, path.join(base, "mod.rs")];
}

/** Rust: `mod x;`, `use crate::…`/`self::`/`super::`, `pub use` re-exports, `impl` blocks. */
export const rust: LanguageSupport = {
  family: "rust",
  extensions: [".rs"],
  parse: guardedParse(parseRust),
  importHint: /\b(?:use|mod|extern)\b/,
  references: (lines, preceding) =>
    findReferences(
      lines,
      {
        dialect: "rust",
        keywords: KEYWORDS,
        paths: true,
        chains: true,
        chainLength: 6,
        pathKeywords: PATH_ROOTS,
      },
      preceding,
    ),
  candidates: rustCandidates,
  // `crate::`, `super::`, `self::` (and a macro's `$crate::`), and the workspace's crates by name.
  pathRoot: (name, env) => PATH_ROOTS.has(name) || env.crates?.has(name) === true,
  submodule: (specifier, name) => `${specifier}::${name}`,
};
