import { posix as path } from "node:path";
import { findClose, isOpener, Lexer } from "../scan/lexer.js";
import { assignmentBefore, moduleCalls } from "../scan/module-calls.js";
import { guardedParse, type LocalExport, outlineOf } from "../scan/parse-result.js";
import { findReferences } from "../scan/references.js";
import { CHAR } from "../scan/scan.js";
import { type Item, spanItem } from "../scan/snippet.js";
import { SourceText } from "../scan/source-text.js";
import type { Span } from "../scan/statements.js";
import type { LanguageSupport, ModuleImport, ModuleOutline, ResolveEnv } from "../types.js";

/** Words that open a block closed by `end` (`while` and `for` open theirs with `do`) or by `until`. */
const OPENS = new Set(["function", "do", "if", "repeat"]);
const CLOSES = new Set(["end", "until"]);
/** Tokens after which a line break does not end a statement. */
const CONTINUES = new Set(["and", "or", "not", "local", "return", "in", "then", "else", "elseif"]);
const CONTINUES_PUNCT = "=,.+-*/%^#<>~:&|";

/** A declaration found on the way, named by its path (`M.f`, `M:f` → `["M", "f"]`) until the module table is known. */
interface Found {
  readonly path: readonly string[];
  readonly item: Item;
  /** The local name a table field is set to (`f = f`). */
  readonly value?: string;
}

/** The owner of the fields of a table constructor that is returned (`return { … }`). */
const RETURNED = "\0return";

/** Whether a line break follows the current token before the next one. */
function breakAfter(lx: Lexer): boolean {
  for (let i = lx.end; i < lx.limit; i++) {
    const c = lx.code.charCodeAt(i);
    if (c === CHAR.NL) return true;
    if (c !== CHAR.SPACE && c !== CHAR.TAB && c !== CHAR.CR) return false;
  }
  return true;
}

/**
 * The statements of `[from, to)`: a statement ends at `;`, at `,` when `fields` (table constructors), or at a line
 * break after a complete expression at its own block depth (brackets skipped whole).
 */
function statements(source: SourceText, from: number, to: number, fields: boolean): Span[] {
  const spans: Span[] = [];
  const lx = new Lexer(source.code, source.text, from, to);
  let start = -1;
  let depth = 0;
  while (lx.next() !== "eof") {
    if (start === -1) {
      if (lx.isPunct(";") || (fields && lx.isPunct(","))) continue;
      start = lx.start;
      depth = 0;
    }
    if (lx.kind === "punct" && isOpener(lx.code.charCodeAt(lx.start))) lx.skipBalanced();
    else if (lx.kind === "ident") {
      const word = lx.ident()!;
      if (OPENS.has(word)) depth++;
      else if (CLOSES.has(word)) depth = Math.max(0, depth - 1);
    }
    const separator = depth === 0 && (lx.isPunct(";") || (fields && lx.isPunct(",")));
    const complete =
      depth === 0 &&
      breakAfter(lx) &&
      !(lx.kind === "ident" && CONTINUES.has(lx.ident()!)) &&
      !(lx.kind === "punct" && CONTINUES_PUNCT.includes(lx.code[lx.start]!));
    if (separator || complete) {
      spans.push({ start, end: separator ? lx.start : lx.end });
      start = -1;
    }
  }
  if (start !== -1) spans.push({ start, end: to });
  return spans;
}

/** A function's item: its body runs from the line closing its parameters to the line of its `end`. */
function item(source: SourceText, span: Span, name: string, nameAt: number, kind: Item["kind"]): Item {
  if (kind !== "function") return spanItem(source, span, name, nameAt, kind);
  const paren = source.code.indexOf("(", nameAt);
  const end = source.lineOf(Math.max(span.start, span.end - 1));
  const body =
    paren !== -1 && paren < span.end
      ? { open: source.lineOf(findClose(source.code, paren)), close: end }
      : undefined;
  return spanItem(source, span, name, nameAt, kind, body);
}

/** A name path `a.b.c` or `a.b:c` at the lexer, with the offset of its last name. */
function namePath(lx: Lexer): { path: string[]; at: number } | undefined {
  const names: string[] = [];
  let at = lx.start;
  for (;;) {
    const name = lx.ident();
    if (name === undefined) return undefined;
    names.push(name);
    at = lx.start;
    lx.next();
    if (!lx.isPunct(".") && !lx.isPunct(":")) return { path: names, at };
    lx.next();
  }
}

/** The fields of a table constructor `{ a = 1, f = function() … end }` spanning `[open, close]`. */
function tableFields(
  source: SourceText,
  open: number,
  close: number,
  owner: readonly string[],
  into: Found[],
) {
  for (const span of statements(source, open + 1, close, true)) {
    const lx = new Lexer(source.code, source.text, span.start, span.end);
    lx.next();
    const key = lx.ident() ?? (lx.isPunct("[") ? keyString(lx) : undefined);
    if (key === undefined) continue;
    const keyAt = lx.start;
    lx.next();
    if (!lx.isPunct("=")) continue;
    lx.next();
    const declared = item(source, span, key, keyAt, lx.is("function") ? "function" : "field");
    into.push(withValue({ path: [...owner, key], item: declared }, lx));
  }
}

/** A field or variable with the name its value is, when the value (at the lexer) is a name alone. */
function withValue(found: Found, lx: Lexer): Found {
  const value = lx.ident();
  if (value === undefined) return found;
  const at = lx.start;
  const alone = lx.next() === "eof";
  lx.seek(at);
  lx.next();
  return alone ? { ...found, value } : found;
}

/** `["key"]` at the lexer: the key's string value. */
function keyString(lx: Lexer): string | undefined {
  lx.next();
  const value = lx.value();
  lx.next();
  return value;
}

/** Imports and outline of a Lua file: the fields of the returned table are its exports. */
export function parseLua(text: string): { imports: ModuleImport[]; outline: ModuleOutline } {
  const source = new SourceText(text, "lua");
  const found: Found[] = [];
  const localExports: LocalExport[] = [];
  let moduleTable: string | undefined;
  for (const span of statements(source, 0, text.length, false)) {
    const lx = new Lexer(source.code, source.text, span.start, span.end);
    lx.next();
    if (lx.is("return")) {
      lx.next();
      if (lx.isPunct("{")) {
        const close = findClose(source.code, lx.start, span.end);
        tableFields(source, lx.start, close, [RETURNED], found);
      } else moduleTable = lx.ident();
      continue;
    }
    const local = lx.is("local");
    if (local) lx.next();
    const isFunction = lx.is("function");
    if (isFunction) lx.next();
    const target = namePath(lx);
    if (!target) continue;
    if (isFunction) {
      found.push({ path: target.path, item: item(source, span, target.path.at(-1)!, target.at, "function") });
      continue;
    }
    if (!lx.isPunct("=")) continue;
    lx.next();
    if (lx.is("require")) continue;
    if (lx.isPunct("{")) {
      const close = findClose(source.code, lx.start, span.end);
      tableFields(source, lx.start, close, target.path, found);
    }
    const kind = lx.is("function") ? "function" : target.path.length > 1 ? "field" : "variable";
    found.push(
      withValue({ path: target.path, item: item(source, span, target.path.at(-1)!, target.at, kind) }, lx),
    );
  }
  const imports: ModuleImport[] = [];
  for (const call of moduleCalls(source, "require", true)) {
    const assigned = assignmentBefore(source.code, call.at, []);
    const local = assigned?.name;
    imports.push({
      specifier: call.specifier,
      bindings: local === undefined ? [] : [{ local, imported: call.member ?? "*" }],
      line: source.lineOf(assigned?.at ?? call.at),
    });
  }
  const locals = new Set(found.filter((f) => f.path.length === 1).map((f) => f.path[0]!));
  for (const imp of imports) for (const b of imp.bindings) locals.add(b.local);
  const items: Item[] = [];
  for (const { path: names, item: declared, value } of found) {
    const [owner, field] = names;
    if (names.length !== 2 || (owner !== moduleTable && owner !== RETURNED)) {
      items.push({ ...declared, name: names.join(".") });
    } else if (value !== undefined && locals.has(value)) {
      // `M.f = helper`, `return { f = helper }`: the export is the local `helper`'s own declaration.
      localExports.push({ exported: field!, local: value });
    } else items.push({ ...declared, name: field!, exported: true });
  }
  return { imports, outline: outlineOf(source, items, [], localExports, undefined) };
}

const KEYWORDS = new Set(
  (
    "and break do else elseif end false for function goto if in local nil not or repeat return then true until " +
    "while self require"
  ).split(" "),
);

function luaCandidates(specifier: string, fromFile: string, env: ResolveEnv): string[] {
  if (!/^[\p{L}\p{N}_-]+(\.[\p{L}\p{N}_-]+)*$/u.test(specifier)) return [];
  const parts = specifier.split(".");
  const roots = [path.join(env.root, "lua"), env.root];
  // A plugin's own `lua/` folder (Neovim's runtime path) when the file sits under one.
  const lua = fromFile.lastIndexOf("/lua/");
  if (lua !== -1) roots.push(fromFile.slice(0, lua + 4));
  return [...new Set(roots)].flatMap((root) => {
    const base = path.join(root, ...parts);
    return [`${base}.lua`, path.join(base, "init.lua")];
  });
}

/** Lua: `require("a.b")`, module tables (`local M = {}` … `return M`). */
export const lua: LanguageSupport = {
  family: "lua",
  extensions: [".lua"],
  parse: guardedParse(parseLua),
  importHint: /\brequire\b/,
  references: (lines, preceding) =>
    findReferences(lines, { dialect: "lua", keywords: KEYWORDS, methodColon: true }, preceding),
  candidates: luaCandidates,
};
