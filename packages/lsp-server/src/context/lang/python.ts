import { posix as path } from "node:path";
import { isCloser, isOpener, Lexer } from "../scan/lexer.js";
import { guardedParse, mergeOverloads, outlineOf } from "../scan/parse-result.js";
import { findReferences } from "../scan/references.js";
import { CHAR, isIdentifierPart } from "../scan/scan.js";
import type { Item } from "../scan/snippet.js";
import { SourceText } from "../scan/source-text.js";
import type {
  ImportBinding,
  LanguageSupport,
  ModuleImport,
  ModuleOutline,
  ReExport,
  ResolveEnv,
} from "../types.js";

/** A logical line: one simple statement, or a compound statement's header (`def f(…):`). */
interface Logical {
  /** Offsets in the text, `[start, end)`. */
  readonly start: number;
  readonly end: number;
  /** First and last physical line. */
  readonly line: number;
  readonly lastLine: number;
  /** Column of the first character. */
  readonly indent: number;
}

/**
 * The logical lines of masked Python: a line break inside brackets or a string, or after a backslash, does not end
 * one; `;` does.
 */
function logicalLines(source: SourceText): Logical[] {
  const { code } = source;
  const n = code.length;
  const lines: Logical[] = [];
  // The line of `i` and where it starts, kept while scanning (no search per statement).
  let line = 0;
  let lineStart = 0;
  let i = 0;
  while (i < n) {
    const c = code.charCodeAt(i);
    if (c === CHAR.NL) {
      line++;
      lineStart = ++i;
      continue;
    }
    if (c === CHAR.SPACE || c === CHAR.TAB || c === CHAR.CR || c === 12 || c === CHAR.SEMI) {
      i++;
      continue;
    }
    const start = i;
    const first = line;
    const indent = start - lineStart;
    let depth = 0;
    let quote = 0;
    let end = i;
    let lastLine = line;
    for (; i < n; i++) {
      const d = code.charCodeAt(i);
      if (d === CHAR.NL) {
        const continued =
          code.charCodeAt(i - 1) === CHAR.BACKSLASH ||
          (code.charCodeAt(i - 1) === CHAR.CR && code.charCodeAt(i - 2) === CHAR.BACKSLASH);
        if (depth === 0 && quote === 0 && !continued) break;
        line++;
        lineStart = i + 1;
        continue;
      }
      // Masked strings hold only blanks between their quotes.
      if (quote !== 0) {
        if (d === quote) quote = 0;
      } else if (d === CHAR.DQUOTE || d === CHAR.QUOTE) quote = d;
      else if (isOpener(d)) depth++;
      else if (isCloser(d)) depth = Math.max(0, depth - 1);
      else if (depth === 0 && d === CHAR.SEMI) break;
      if (d !== CHAR.SPACE && d !== CHAR.TAB && d !== CHAR.CR && d !== CHAR.BACKSLASH) {
        end = i + 1;
        lastLine = line;
      }
    }
    lines.push({ start, end, line: first, lastLine, indent });
  }
  return lines;
}

function startsWithWord(code: string, at: number, word: string): boolean {
  return code.startsWith(word, at) && !isIdentifierPart(code.charCodeAt(at + word.length));
}

function lexerAt(source: SourceText, statement: Logical): Lexer {
  const lx = new Lexer(source.code, source.text, statement.start, statement.end);
  lx.next();
  return lx;
}

/** A dotted name at the lexer (`a.b.c`, or with leading dots `..a.b`), moving past it. */
function dottedName(lx: Lexer): string {
  let name = "";
  let afterName = false;
  for (;;) {
    if (lx.isPunct(".")) {
      name += ".";
      afterName = false;
    } else if (lx.kind === "ident" && !afterName && !lx.is("import") && !lx.is("as")) {
      name += lx.ident();
      afterName = true;
    } else return name;
    lx.next();
  }
}

/** `import a.b as c, d` and `from .x import (a, b as c)`, `from .x import *`. */
function importStatement(
  source: SourceText,
  statement: Logical,
  imports: ModuleImport[],
  reexports: ReExport[],
) {
  const lx = lexerAt(source, statement);
  const line = statement.line;
  if (lx.is("import")) {
    lx.next();
    while (lx.kind !== "eof") {
      const module = dottedName(lx);
      if (module === "") break;
      let local = module;
      if (lx.is("as")) {
        lx.next();
        local = lx.ident() ?? module;
        lx.next();
      }
      imports.push({ specifier: module, bindings: [{ local, imported: "*" }], line });
      if (!lx.isPunct(",")) break;
      lx.next();
    }
    return;
  }
  lx.next();
  const module = dottedName(lx);
  if (module === "" || !lx.is("import")) return;
  lx.next();
  const bindings: ImportBinding[] = [];
  if (lx.isPunct("*")) {
    bindings.push({ local: "*", imported: "*" });
    reexports.push({ specifier: module, names: "*" });
  }
  while (lx.kind !== "eof") {
    if (lx.kind === "ident") {
      const imported = lx.ident()!;
      lx.next();
      let local = imported;
      if (lx.is("as")) {
        lx.next();
        local = lx.ident() ?? imported;
        lx.next();
      }
      bindings.push({ local, imported });
      continue;
    }
    lx.next();
  }
  imports.push({ specifier: module, bindings, line });
}

/** The string values in `__all__ = [...]` (or `+=`, tuples). */
function allNames(source: SourceText, statement: Logical, into: Set<string>): void {
  const lx = lexerAt(source, statement);
  while (lx.next() !== "eof") {
    const value = lx.value();
    if (value !== undefined) into.add(value);
  }
}

const DECLARES = new Set(["def", "class", "async"]);
/** Keywords that start a statement that declares nothing. */
const STATEMENT_KEYWORDS = new Set(
  "if elif else for while try except finally with match case return raise pass del global nonlocal assert".split(
    " ",
  ),
);

/** Compound statements whose body declares at the level they stand at. */
const CONDITIONAL_BLOCKS = new Set(["if", "elif", "else", "try", "except", "finally", "with"]);
/** Conditional blocks looked into, nested, at most. */
const MAX_CONDITIONAL_DEPTH = 3;

/** Python items of a block of logical lines at one indentation (the module, a class body, a conditional's body). */
function block(
  source: SourceText,
  lines: Logical[],
  from: number,
  to: number,
  inClass: boolean,
  depth: number,
): { items: Item[]; all?: Set<string> } {
  const items: Item[] = [];
  let all: Set<string> | undefined;
  const indent = lines[from]?.indent ?? 0;
  let decoratorsFrom = -1;
  for (let k = from; k < to; k++) {
    const statement = lines[k]!;
    if (statement.indent !== indent) continue;
    const lx = lexerAt(source, statement);
    if (lx.isPunct("@")) {
      if (decoratorsFrom === -1) decoratorsFrom = k;
      continue;
    }
    const startLine = decoratorsFrom === -1 ? statement.line : lines[decoratorsFrom]!.line;
    decoratorsFrom = -1;
    let bodyEnd = k + 1;
    while (bodyEnd < to && lines[bodyEnd]!.indent > indent) bodyEnd++;
    if (lx.is("async")) lx.next();
    if (DECLARES.has(lx.ident() ?? "") && lx.peekIdent() !== undefined) {
      const isClass = lx.is("class");
      lx.next();
      const name = lx.ident()!;
      const item: Item = {
        name,
        kind: isClass ? "class" : inClass ? "method" : "function",
        exported: !name.startsWith("_") || (inClass && name.startsWith("__") && name.endsWith("__")),
        docStart: source.docStart(startLine),
        start: startLine,
        nameLine: source.lineOf(lx.start),
        end: bodyEnd > k + 1 ? lines[bodyEnd - 1]!.lastLine : statement.lastLine,
        body: { open: statement.lastLine },
      };
      if (inClass && !item.exported) item.hidden = true;
      const first = lines[k + 1];
      if (bodyEnd > k + 1 && first) {
        const c = source.code.charCodeAt(first.start);
        if (c === CHAR.DQUOTE || c === CHAR.QUOTE) item.bodyDoc = { start: first.line, end: first.lastLine };
        if (isClass && depth < 2) {
          item.members = block(source, lines, k + 1, bodyEnd, true, depth + 1).items;
        }
      }
      items.push(item);
      k = bodyEnd - 1;
      continue;
    }
    // Assignments: NAME = …, NAME: T = …, a, b = …, type X = …
    const keyword = lx.ident() ?? "";
    if (STATEMENT_KEYWORDS.has(keyword)) {
      // What a conditional block defines is declared where it stands: `try: … except ImportError: def f(…)`,
      // `if sys.version_info >= …:`, `if TYPE_CHECKING:`. Not the script part under `if __name__ == "__main__":`.
      if (
        CONDITIONAL_BLOCKS.has(keyword) &&
        bodyEnd > k + 1 &&
        depth < MAX_CONDITIONAL_DEPTH &&
        !/^if\s+__name__\b/.test(source.code.slice(statement.start, statement.end))
      ) {
        items.push(...block(source, lines, k + 1, bodyEnd, inClass, depth + 1).items);
      }
      k = bodyEnd - 1;
      continue;
    }
    const names: { name: string; at: number }[] = [];
    let kind: Item["kind"] = inClass ? "field" : "variable";
    if (lx.is("type") && lx.peekIdent() !== undefined) {
      lx.next();
      kind = "type";
    }
    while (lx.kind === "ident") {
      names.push({ name: lx.ident()!, at: lx.start });
      lx.next();
      if (!lx.isPunct(",")) break;
      lx.next();
    }
    const annotated = lx.isPunct(":");
    const assigned = lx.isPunct("=") && lx.code.charCodeAt(lx.end) !== CHAR.EQUALS;
    if (names.length === 0 || !(annotated || assigned || (lx.isPunct("+") && names[0]!.name === "__all__"))) {
      k = bodyEnd - 1;
      continue;
    }
    if (!inClass && names[0]!.name === "__all__") {
      all ??= new Set();
      allNames(source, statement, all);
      continue;
    }
    for (const { name, at } of names) {
      const hidden = name.startsWith("_");
      items.push({
        name,
        kind,
        exported: !hidden,
        docStart: source.docStart(statement.line),
        start: statement.line,
        nameLine: source.lineOf(at),
        end: statement.lastLine,
        ...(inClass && hidden ? { hidden } : {}),
      });
    }
    k = bodyEnd - 1;
  }
  return all ? { items: mergeOverloads(items), all } : { items: mergeOverloads(items) };
}

/** Imports and outline of a Python file (see `LanguageSupport.parse`). */
export function parsePython(text: string): { imports: ModuleImport[]; outline: ModuleOutline } {
  const source = new SourceText(text, "python");
  const lines = logicalLines(source);
  const imports: ModuleImport[] = [];
  const reexports: ReExport[] = [];
  for (const statement of lines) {
    if (
      startsWithWord(source.code, statement.start, "import") ||
      startsWithWord(source.code, statement.start, "from")
    )
      importStatement(source, statement, imports, reexports);
  }
  const moduleStart = lines.findIndex((l) => l.indent === 0);
  const { items, all } =
    moduleStart === -1 ? { items: [] } : block(source, lines, moduleStart, lines.length, false, 0);
  if (all) for (const item of items) item.exported = all.has(item.name);
  return { imports, outline: outlineOf(source, items, reexports, [], undefined) };
}

const KEYWORDS = new Set(
  (
    "False None True and as assert async await break case class continue def del elif else except finally for " +
    "from global if import in is lambda match nonlocal not or pass raise return try while with yield self cls"
  ).split(" "),
);
/** Builtins: references only when imported (`from rich import print` shadows the builtin). */
const BUILTINS = new Set(
  "print len str int float bool bytes list dict set tuple object super isinstance range".split(" "),
);

/** The files a module path names under a directory: `a/b.py`, `a/b/__init__.py`, then the stubs. */
function moduleFiles(dir: string, parts: readonly string[]): string[] {
  const base = path.join(dir, ...parts);
  if (parts.length === 0) return [path.join(base, "__init__.py"), path.join(base, "__init__.pyi")];
  return [`${base}.py`, path.join(base, "__init__.py"), `${base}.pyi`, path.join(base, "__init__.pyi")];
}

function pythonCandidates(specifier: string, fromFile: string, env: ResolveEnv): string[] {
  const level = /^\.*/.exec(specifier)![0].length;
  const rest = specifier.slice(level);
  if (rest !== "" && !/^[\p{L}\p{N}_]+(\.[\p{L}\p{N}_]+)*$/u.test(rest)) return [];
  const parts = rest === "" ? [] : rest.split(".");
  if (level > 0) {
    let dir = path.dirname(fromFile);
    for (let up = 1; up < level; up++) dir = path.dirname(dir);
    return moduleFiles(dir, parts);
  }
  if (parts.length === 0) return [];
  const roots = [...new Set([env.root, path.join(env.root, "src"), path.dirname(fromFile)])];
  return roots.flatMap((root) => moduleFiles(root, parts));
}

/** Python: `import`, `from … import`, packages and their `__init__.py`, `__all__`. */
export const python: LanguageSupport = {
  family: "python",
  extensions: [".py", ".pyi"],
  parse: guardedParse(parsePython),
  importHint: /\bimport\b/,
  // A definition, an import or a decorator at the left margin is never inside a docstring.
  statementStart: (line) => /^(?:(?:async[ \t]+)?def|class|import|from|@)\b/.test(line),
  references: (lines, preceding, bound) =>
    findReferences(
      lines,
      { dialect: "python", keywords: KEYWORDS, builtins: BUILTINS, chains: true },
      preceding,
      bound,
    ),
  candidates: pythonCandidates,
  submodule: (specifier, name) => (specifier.endsWith(".") ? specifier + name : `${specifier}.${name}`),
};
