import { posix as path } from "node:path";
import { findClose, Lexer } from "../scan/lexer.js";
import { guardedParse, outlineOf } from "../scan/parse-result.js";
import { findReferences } from "../scan/references.js";
import { CHAR } from "../scan/scan.js";
import { type Item, lastBracketBody, spanItem } from "../scan/snippet.js";
import { SourceText } from "../scan/source-text.js";
import { type Span, splitStatements } from "../scan/statements.js";
import type { ImportBinding, LanguageSupport, ModuleImport, ModuleOutline, ResolveEnv } from "../types.js";

/** Go's semicolon insertion: a line break after a value ends a statement. */
const GO = { lineBreaks: "go" } as const;
/** A `const ( … )` group of at most this many lines is each of its names' snippet (an iota enumeration). */
const SMALL_CONST_GROUP = 20;

/** Whether a Go name is exported: it starts with an upper-case letter. */
function isExported(name: string): boolean {
  return /^\p{Lu}/u.test(name);
}

/** The package name an import path binds by default: its last element, without a major version (`v2`). */
function packageName(importPath: string): string {
  const parts = importPath.split("/");
  let last = parts.pop() ?? importPath;
  if (/^v\d+$/.test(last) && parts.length > 0) last = parts.pop()!;
  return last.replace(/^go-/, "").replace(/[.-].*$/, "");
}

interface Parser {
  readonly source: SourceText;
  readonly imports: ModuleImport[];
  readonly items: Item[];
  /** Methods by receiver type. */
  readonly methods: Map<string, Item[]>;
}

function lexer(p: Parser, span: Span): Lexer {
  const lx = new Lexer(p.source.code, p.source.text, span.start, span.end);
  lx.next();
  return lx;
}

/** The specs of a declaration: one, or each of a `( … )` group's. */
function specs(p: Parser, lx: Lexer, span: Span): { specs: Span[]; group?: Span } {
  if (!lx.isPunct("(")) return { specs: [{ start: lx.start, end: span.end }] };
  const close = findClose(p.source.code, lx.start, span.end);
  return { specs: splitStatements(p.source.code, lx.start + 1, close, GO), group: span };
}

function importSpec(p: Parser, spec: Span): void {
  const lx = lexer(p, spec);
  let alias: string | undefined;
  if (lx.kind === "ident" || lx.isPunct(".")) {
    alias = lx.isPunct(".") ? "." : lx.ident();
    lx.next();
  }
  const specifier = lx.value();
  if (specifier === undefined) return;
  let bindings: ImportBinding[];
  if (alias === "_") bindings = [];
  else if (alias === ".") bindings = [{ local: "*", imported: "*" }];
  else bindings = [{ local: alias ?? packageName(specifier), imported: "*" }];
  p.imports.push({ specifier, bindings, line: p.source.lineOf(spec.start) });
}

function item(p: Parser, span: Span, name: string, nameAt: number, kind: Item["kind"]): Item {
  const declared = spanItem(p.source, span, name, nameAt, kind);
  declared.exported = isExported(name);
  return declared;
}

/** `func F(…)`, `func (r *T) M(…)`. */
function funcDecl(p: Parser, lx: Lexer, span: Span): void {
  lx.next();
  let receiver: string | undefined;
  if (lx.isPunct("(")) {
    // The receiver's type: its last name, past `*` and before type arguments.
    const close = findClose(p.source.code, lx.start, span.end);
    const inner = new Lexer(p.source.code, p.source.text, lx.start + 1, close);
    while (inner.next() !== "eof") {
      if (inner.isPunct("[")) inner.skipBalanced();
      else if (inner.kind === "ident") receiver = inner.ident();
    }
    lx.seek(close + 1);
    lx.next();
  }
  const name = lx.ident();
  if (name === undefined) return;
  if (receiver === undefined) {
    p.items.push(item(p, span, name, lx.start, "function"));
    return;
  }
  const method = item(p, span, name, lx.start, "method");
  const methods = p.methods.get(receiver) ?? [];
  methods.push(method);
  p.methods.set(receiver, methods);
}

/** `type T struct {…}`, `type T interface {…}`, `type T = U`, each spec of a `type ( … )` group. */
function typeSpec(p: Parser, spec: Span, whole: Span): void {
  const lx = lexer(p, spec);
  const name = lx.ident();
  if (name === undefined) return;
  const nameAt = lx.start;
  lx.next();
  // Type parameters, or an array type's length: either way not the kind.
  if (lx.isPunct("[")) {
    lx.skipBalanced();
    lx.next();
  }
  const kind = lx.is("struct") ? "struct" : lx.is("interface") ? "interface" : "type";
  const declared = item(p, whole, name, nameAt, kind);
  if (kind !== "type") {
    const body = lastBracketBody(p.source, spec.start, spec.end);
    if (body && p.source.code.charCodeAt(body.openOffset) === CHAR.LBRACE)
      declared.members = members(p, body.openOffset + 1, body.closeOffset, kind === "interface");
  }
  p.items.push(declared);
}

/** Struct fields (`A, B int`, embedded `io.Reader`) and interface methods (`M(…) T`). */
function members(p: Parser, from: number, to: number, methods: boolean): Item[] {
  const found: Item[] = [];
  for (const span of splitStatements(p.source.code, from, to, GO)) {
    const lx = lexer(p, span);
    if (lx.isPunct("*")) lx.next();
    let name = lx.ident();
    let nameAt = lx.start;
    if (name === undefined) continue;
    lx.next();
    if (lx.isPunct(".")) {
      // An embedded type from another package: named by its type.
      lx.next();
      name = lx.ident() ?? name;
      nameAt = lx.start;
    }
    const kind = methods && lx.isPunct("(") ? "method" : "field";
    const names = [name];
    while (lx.isPunct(",")) {
      lx.next();
      const more = lx.ident();
      if (more !== undefined) names.push(more);
      lx.next();
    }
    for (const n of names) found.push(item(p, span, n, nameAt, kind));
  }
  return found;
}

/** `const X = 1`, `var x T`, each name of each spec of a group. */
function valueSpecs(p: Parser, lx: Lexer, span: Span, isConst: boolean): void {
  const { specs: list, group } = specs(p, lx, span);
  const lines = group ? p.source.lineOf(group.end - 1) - p.source.lineOf(group.start) + 1 : 0;
  const whole = isConst && group && lines <= SMALL_CONST_GROUP ? group : undefined;
  for (const spec of list) {
    const inner = lexer(p, spec);
    while (inner.kind === "ident") {
      const name = inner.ident()!;
      if (name !== "_") p.items.push(item(p, whole ?? spec, name, inner.start, "variable"));
      inner.next();
      if (!inner.isPunct(",")) break;
      inner.next();
    }
  }
}

/** Imports and outline of a Go file (see `LanguageSupport.parse`); methods are members of their receiver type. */
export function parseGo(text: string): { imports: ModuleImport[]; outline: ModuleOutline } {
  const p: Parser = { source: new SourceText(text, "go"), imports: [], items: [], methods: new Map() };
  for (const span of splitStatements(p.source.code, 0, text.length, GO)) {
    const lx = lexer(p, span);
    if (lx.is("import")) {
      lx.next();
      for (const spec of specs(p, lx, span).specs) importSpec(p, spec);
    } else if (lx.is("func")) funcDecl(p, lx, span);
    else if (lx.is("type")) {
      lx.next();
      const { specs: list, group } = specs(p, lx, span);
      for (const spec of list) typeSpec(p, spec, group ? spec : span);
    } else if (lx.is("const") || lx.is("var")) {
      const isConst = lx.is("const");
      lx.next();
      valueSpecs(p, lx, span, isConst);
    }
  }
  for (const [receiver, methods] of p.methods) {
    const owner = p.items.find((i) => i.name === receiver && i.kind !== "function" && i.kind !== "variable");
    if (owner) owner.attached = [...(owner.attached ?? []), ...methods];
    else for (const m of methods) p.items.push({ ...m, name: `${receiver}.${m.name}` });
  }
  return { imports: p.imports, outline: outlineOf(p.source, p.items, [], [], undefined) };
}

const KEYWORDS = new Set(
  (
    "break case chan const continue default defer else fallthrough for func go goto if import interface map " +
    "package range return select struct switch type var append cap clear close complex copy delete imag len make " +
    "max min new panic print println real recover any bool byte comparable complex64 complex128 error float32 " +
    "float64 int int8 int16 int32 int64 rune string uint uint8 uint16 uint32 uint64 uintptr true false iota nil"
  ).split(" "),
);

function goCandidates(specifier: string, _fromFile: string, env: ResolveEnv): string[] {
  const module = env.goModule;
  if (!module || specifier.includes("..")) return [];
  if (specifier === module.path) return [`${path.resolve(module.dir)}/`];
  if (!specifier.startsWith(`${module.path}/`)) return [];
  return [`${path.join(module.dir, specifier.slice(module.path.length + 1))}/`];
}

/** Whether a Go file belongs to the package build of `current` (tests only for a test). */
function goFile(name: string, current: string): boolean {
  return name.endsWith(".go") && (!name.endsWith("_test.go") || current.endsWith("_test.go"));
}

/** Go: imports of the module's own packages (directories), and the other files of the same package. */
export const go: LanguageSupport = {
  family: "go",
  extensions: [".go"],
  parse: guardedParse(parseGo),
  importHint: /\bimport\b/,
  references: (lines, preceding) => findReferences(lines, { dialect: "go", keywords: KEYWORDS }, preceding),
  candidates: goCandidates,
  // The other files of the package see every name of this one.
  implicit: (_name, from) => [{ path: `${path.dirname(from.path)}/` }],
  packageFile: goFile,
};
