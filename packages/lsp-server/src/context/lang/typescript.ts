import { posix as path } from "node:path";
import { bestStarMatch } from "../project/star-pattern.js";
import { entryCandidates, splitPackageSpecifier } from "../project/workspace-packages.js";
import { findClose, Lexer } from "../scan/lexer.js";
import { assignmentBefore, moduleCalls } from "../scan/module-calls.js";
import { guardedParse, type LocalExport, mergeOverloads, outlineOf } from "../scan/parse-result.js";
import { findReferences } from "../scan/references.js";
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
  TsconfigPaths,
} from "../types.js";

/** Top-level statements: `;`, a body's `}` or a line break that semicolon insertion would honour ends one. */
const STATEMENTS = { bodies: true, lineBreaks: "js" } as const;
/** Members of a class, interface, enum, object or type literal: `,` separates them too. */
const MEMBERS = { bodies: true, commas: true, lineBreaks: "js" } as const;
/** Entries of a destructuring pattern. */
const PATTERN = { commas: true, lineBreaks: "never" } as const;
/** Namespaces nested deeper than this are not outlined. */
const MAX_NESTING = 4;

const MEMBER_MODIFIERS = new Set([
  "public",
  "private",
  "protected",
  "static",
  "readonly",
  "abstract",
  "override",
  "declare",
  "async",
  "accessor",
  "get",
  "set",
]);

/** What a file's statements add up to while they are read. */
interface Collector {
  readonly source: SourceText;
  readonly imports: ModuleImport[];
  readonly reexports: ReExport[];
  readonly localExports: LocalExport[];
  defaultExport?: string;
  /** Offsets of `require` calls already read as `import x = require(…)`. */
  readonly requires: Set<number>;
}

/** `{ a as b, type c, "d" as e }` from the `{` the lexer is on; the lexer ends on the `}`. */
function namedList(lx: Lexer): { name: string; alias?: string }[] {
  const entries: { name: string; alias?: string }[] = [];
  lx.next();
  while (lx.kind !== "eof" && !lx.isPunct("}")) {
    if (lx.is("type") && lx.peekIdent() !== "as" && lx.peekChar() !== 44 && lx.peekChar() !== 125) lx.next();
    const name = lx.ident() ?? lx.value();
    lx.next();
    if (name === undefined) continue;
    if (lx.is("as")) {
      lx.next();
      const alias = lx.ident() ?? lx.value();
      lx.next();
      entries.push(alias === undefined ? { name } : { name, alias });
    } else entries.push({ name });
    if (lx.isPunct(",")) lx.next();
  }
  return entries;
}

/** The identifier at the lexer when it is all that is left of the statement (`export default foo;`). */
function soleName(lx: Lexer): string | undefined {
  const name = lx.ident();
  if (name === undefined) return undefined;
  const at = lx.start;
  if (lx.next() === "eof" || lx.isPunct(";")) return name;
  lx.seek(at);
  lx.next();
  return undefined;
}

/** Skips decorators (`@a.b(…)`) at the lexer's position. */
function skipDecorators(lx: Lexer): void {
  while (lx.isPunct("@")) {
    lx.next();
    while (lx.kind === "ident" || lx.isPunct(".")) lx.next();
    if (lx.isPunct("(")) {
      lx.skipBalanced();
      lx.next();
    }
  }
}

function importStatement(c: Collector, lx: Lexer, line: number): void {
  lx.next();
  if (lx.isPunct("(") || lx.isPunct(".")) return; // import(…) and import.meta: the call scan reads them
  if (lx.kind === "string") {
    c.imports.push({ specifier: lx.value()!, bindings: [], line });
    return;
  }
  if (lx.is("type") && lx.peekIdent() !== "from" && lx.peekChar() !== 44 && lx.peekChar() !== 61) lx.next();
  const bindings: { local: string; imported: string }[] = [];
  const local = lx.ident();
  if (local !== undefined) {
    lx.next();
    if (lx.isPunct("=")) {
      lx.next();
      if (!lx.is("require")) return; // import A = B.C: an alias, not a module
      c.requires.add(lx.start);
      lx.next();
      if (lx.isPunct("(")) lx.next();
      const specifier = lx.value();
      if (specifier !== undefined) c.imports.push({ specifier, bindings: [{ local, imported: "*" }], line });
      return;
    }
    bindings.push({ local, imported: "default" });
    if (lx.isPunct(",")) lx.next();
  }
  if (lx.isPunct("*")) {
    lx.next();
    if (lx.is("as")) lx.next();
    const ns = lx.ident();
    if (ns !== undefined) bindings.push({ local: ns, imported: "*" });
    lx.next();
  }
  if (lx.isPunct("{")) {
    for (const { name, alias } of namedList(lx)) bindings.push({ local: alias ?? name, imported: name });
    lx.next();
  }
  if (!lx.is("from")) return;
  lx.next();
  const specifier = lx.value();
  if (specifier !== undefined) c.imports.push({ specifier, bindings, line });
}

/** `export * from`, `export * as ns from`, `export {…} from`, `export {…}`: the lexer is after `export`. */
function exportClause(c: Collector, lx: Lexer): void {
  let names: { exported: string; imported: string }[] | "*";
  if (lx.isPunct("*")) {
    lx.next();
    if (lx.is("as")) {
      lx.next();
      const ns = lx.ident() ?? lx.value();
      lx.next();
      names = ns === undefined ? "*" : [{ exported: ns, imported: "*" }];
    } else names = "*";
  } else {
    names = namedList(lx).map(({ name, alias }) => ({ exported: alias ?? name, imported: name }));
    lx.next();
  }
  if (lx.is("from")) {
    lx.next();
    const specifier = lx.value();
    if (specifier !== undefined) c.reexports.push({ specifier, names });
    return;
  }
  if (names === "*") return;
  for (const { exported, imported } of names) {
    if (exported === "default") c.defaultExport = imported;
    else c.localExports.push({ exported, local: imported });
  }
}

/** Whether the initializer at the lexer (after `=`) is a function: `function`, `async (…) =>`, `x =>`, `<T>(…) =>`. */
function isFunctionValue(lx: Lexer): boolean {
  if (lx.is("async")) lx.next();
  if (lx.is("function")) return true;
  if (lx.kind === "ident")
    return lx.peekChar() === 61 && lx.code.startsWith("=>", lx.code.indexOf("=", lx.end));
  if (!lx.isPunct("(") && !lx.isPunct("<")) return false;
  if (lx.isPunct("<")) {
    // A generic arrow: the parameters follow the type parameters.
    const paren = lx.code.indexOf("(", lx.end);
    if (paren === -1 || paren >= lx.limit) return false;
    lx.seek(paren);
    lx.next();
  }
  lx.skipBalanced();
  lx.next();
  if (lx.isPunct(":")) {
    // A return type: the arrow follows at depth 0.
    while (lx.next() !== "eof") {
      if (lx.isPunct("=") && lx.code.charCodeAt(lx.end) === 62) return true;
      if (lx.isPunct("(") || lx.isPunct("[") || lx.isPunct("{")) lx.skipBalanced();
    }
    return false;
  }
  return lx.isPunct("=") && lx.code.charCodeAt(lx.end) === 62;
}

/** Names bound by a destructuring pattern `{ a, b: c, ...d }` or `[a, b]` at the lexer, with their keys. */
function patternNames(lx: Lexer): { name: string; key: string; at: number }[] {
  const close = findClose(lx.code, lx.start, lx.limit);
  const names: { name: string; key: string; at: number }[] = [];
  const inner = new Lexer(lx.code, lx.text, lx.start + 1, close);
  for (const entry of splitStatements(lx.code, lx.start + 1, close, PATTERN)) {
    inner.seek(entry.start);
    inner.next();
    while (inner.isPunct(".")) inner.next();
    const key = inner.ident() ?? inner.value();
    const keyAt = inner.start;
    if (key === undefined) continue;
    inner.next();
    if (!inner.isPunct(":")) names.push({ name: key, key, at: keyAt });
    else if (inner.next() === "ident") names.push({ name: inner.ident()!, key, at: inner.start });
  }
  lx.seek(close + 1);
  return names;
}

/** Parses the statements of `[from, to)` into `items` (nested namespaces to `depth`). */
function statements(c: Collector, from: number, to: number, items: Item[], depth: number): void {
  for (const span of splitStatements(c.source.code, from, to, STATEMENTS)) statement(c, span, items, depth);
}

function statement(c: Collector, span: Span, items: Item[], depth: number): void {
  const { source } = c;
  const lx = new Lexer(source.code, source.text, span.start, span.end);
  lx.next();
  skipDecorators(lx);
  let exported = false;
  let isDefault = false;
  if (lx.is("import")) {
    importStatement(c, lx, source.lineOf(lx.start));
    return;
  }
  if (lx.is("export")) {
    exported = true;
    lx.next();
    if (lx.is("type") && (lx.peekChar() === 123 || lx.peekChar() === 42)) lx.next();
    if (lx.isPunct("*") || lx.isPunct("{")) {
      exportClause(c, lx);
      return;
    }
    if (lx.isPunct("=")) {
      lx.next();
      const name = soleName(lx);
      if (name !== undefined) c.defaultExport = name;
      return;
    }
    if (lx.is("as")) return; // export as namespace X
    if (lx.is("import")) {
      importStatement(c, lx, source.lineOf(lx.start));
      return;
    }
    if (lx.is("default")) {
      isDefault = true;
      lx.next();
    }
  }
  const item = declaration(c, lx, span, depth, exported, isDefault);
  if (item) {
    items.push(...item);
    if (isDefault && item[0]) c.defaultExport = item[0].name;
  }
}

/** The item(s) a declaration statement declares, with the lexer after its modifiers. */
function declaration(
  c: Collector,
  lx: Lexer,
  span: Span,
  depth: number,
  exported: boolean,
  isDefault: boolean,
): Item[] | undefined {
  const { source } = c;
  while (
    lx.is("declare") ||
    lx.is("abstract") ||
    (lx.is("async") && lx.peekIdent() === "function") ||
    (lx.is("const") && lx.peekIdent() === "enum")
  )
    lx.next();
  const body = lastBracketBody(source, span.start, span.end);
  const base = (name: string, kind: Item["kind"], nameAt: number): Item => {
    const item = spanItem(source, span, name, nameAt, kind, body);
    item.exported = exported;
    return item;
  };
  const named = (kind: Item["kind"], anonymous: boolean): Item | undefined => {
    const keywordAt = lx.start;
    lx.next();
    if (kind === "function" && lx.isPunct("*")) lx.next();
    const name = lx.ident();
    if (name !== undefined && !(kind === "class" && (name === "extends" || name === "implements")))
      return base(name, kind, lx.start);
    return anonymous ? base("default", kind, keywordAt) : undefined;
  };
  if (lx.is("function")) {
    const item = named("function", isDefault);
    return item && [item];
  }
  if (lx.is("class") || lx.is("interface") || lx.is("enum")) {
    const kind = lx.is("class") ? "class" : lx.is("enum") ? "enum" : "interface";
    const item = named(kind, isDefault);
    if (!item) return undefined;
    withMembers(c, item, body, kind === "enum" ? "field" : undefined);
    return [item];
  }
  if (lx.is("type") && lx.peekIdent() !== undefined) {
    const item = named("type", false);
    if (!item) return undefined;
    const eq = source.code.indexOf("=", lx.end);
    if (eq !== -1 && eq < span.end) {
      lx.seek(eq + 1);
      lx.next();
      if (lx.isPunct("{")) withMembers(c, item, body);
    }
    return [item];
  }
  if ((lx.is("namespace") || lx.is("module")) && lx.peekIdent() !== undefined) {
    const item = named("module", false);
    if (!item || !body || depth >= MAX_NESTING) return item && [item];
    const members: Item[] = [];
    statements(c, body.openOffset + 1, body.closeOffset, members, depth + 1);
    item.members = mergeOverloads(members);
    return [item];
  }
  if (lx.is("const") || lx.is("let") || lx.is("var") || lx.is("using")) return variables(c, lx, span, base);
  if (isDefault) {
    const name = soleName(lx);
    if (name !== undefined) {
      c.defaultExport = name;
      return undefined;
    }
    const item = base("default", "variable", span.start);
    if (lx.isPunct("{")) withMembers(c, item, body);
    return [item];
  }
  return commonJsExport(c, lx, span, base);
}

/** `const a = …`, `const { a, b: c } = …`; functions when the value is one. */
function variables(
  c: Collector,
  lx: Lexer,
  span: Span,
  base: (name: string, kind: Item["kind"], nameAt: number) => Item,
): Item[] | undefined {
  lx.next();
  if (lx.isPunct("{") || lx.isPunct("["))
    return patternNames(lx).map(({ name, at }) => base(name, "variable", at));
  const name = lx.ident();
  if (name === undefined) return undefined;
  const nameAt = lx.start;
  // Past a type annotation to the initializer.
  while (lx.next() !== "eof" && !lx.isPunct("=") && !lx.isPunct(";") && !lx.isPunct(",")) lx.skipBalanced();
  if (!lx.isPunct("=")) return [base(name, "variable", nameAt)];
  const valueAt = lx.end;
  lx.next();
  if (lx.isPunct("{")) {
    const item = base(name, "variable", nameAt);
    const close = findClose(lx.code, lx.start, span.end);
    const bodyItem = { ...item, body: { open: c.source.lineOf(lx.start), close: c.source.lineOf(close) } };
    bodyItem.members = mergeOverloads(members(c, lx.start + 1, close, undefined));
    return [bodyItem];
  }
  lx.seek(valueAt);
  lx.next();
  return [base(name, isFunctionValue(lx) ? "function" : "variable", nameAt)];
}

/** `exports.a = …`, `module.exports.a = …`, `module.exports = { a, b: c }` (CommonJS). */
function commonJsExport(
  c: Collector,
  lx: Lexer,
  span: Span,
  base: (name: string, kind: Item["kind"], nameAt: number) => Item,
): Item[] | undefined {
  if (lx.is("module")) {
    lx.next();
    if (!lx.isPunct(".")) return undefined;
    lx.next();
  }
  if (!lx.is("exports")) return undefined;
  lx.next();
  if (lx.isPunct(".")) {
    lx.next();
    const name = lx.ident();
    const nameAt = lx.start;
    lx.next();
    if (name === undefined || !lx.isPunct("=")) return undefined;
    lx.next();
    return [base(name, isFunctionValue(lx) ? "function" : "variable", nameAt)];
  }
  if (!lx.isPunct("=")) return undefined;
  lx.next();
  if (lx.kind === "ident") {
    const name = soleName(lx);
    if (name !== undefined) c.defaultExport = name;
    return undefined;
  }
  if (!lx.isPunct("{")) return undefined;
  const close = findClose(lx.code, lx.start, span.end);
  const entries = new Lexer(lx.code, lx.text, lx.start + 1, close);
  for (const entry of splitStatements(lx.code, lx.start + 1, close, MEMBERS)) {
    entries.seek(entry.start);
    entries.next();
    const exported = entries.ident();
    if (exported === undefined) continue;
    entries.next();
    let local = exported;
    if (entries.isPunct(":")) {
      entries.next();
      local = entries.ident() ?? exported;
    }
    c.localExports.push({ exported, local });
  }
  return undefined;
}

/** Adds the members of the item's body when it is a `{…}`. */
function withMembers(c: Collector, item: Item, body: BracketBody | undefined, kind?: "field"): void {
  if (!body || c.source.code.charCodeAt(body.openOffset) !== 123) return;
  item.members = mergeOverloads(members(c, body.openOffset + 1, body.closeOffset, kind));
}

function members(c: Collector, from: number, to: number, kind: "field" | undefined): Item[] {
  const items: Item[] = [];
  for (const span of splitStatements(c.source.code, from, to, MEMBERS)) {
    const item = member(c, span, kind);
    if (item) items.push(item);
  }
  return items;
}

/** A class, interface, enum, object or type literal member; undefined for index and call signatures, spreads. */
function member(c: Collector, span: Span, only: "field" | undefined): Item | undefined {
  const { source } = c;
  const lx = new Lexer(source.code, source.text, span.start, span.end);
  lx.next();
  skipDecorators(lx);
  let hidden = false;
  while (lx.kind === "ident" && MEMBER_MODIFIERS.has(lx.ident()!)) {
    const next = lx.peekChar();
    // `get(): T`, `static: boolean`: the word is the member's name, not a modifier.
    if (Number.isNaN(next) || "(:=;?!<,}".includes(String.fromCharCode(next))) break;
    if (lx.is("private") || lx.is("protected")) hidden = true;
    lx.next();
  }
  if (lx.isPunct("*")) lx.next();
  if (lx.isPunct("#")) {
    hidden = true;
    lx.next();
  }
  if (lx.kind === "punct" || (lx.is("new") && (lx.peekChar() === 40 || lx.peekChar() === 60)))
    return undefined;
  const name = lx.kind === "string" ? lx.value() : lx.code.slice(lx.start, lx.end);
  if (!name) return undefined;
  const nameAt = lx.start;
  lx.next();
  if (lx.isPunct("?") || lx.isPunct("!")) lx.next();
  const method = only === undefined && (lx.isPunct("(") || lx.isPunct("<"));
  const item = spanItem(source, span, name, nameAt, method ? "method" : "field");
  item.exported = !hidden;
  if (hidden) item.hidden = true;
  return item;
}

/**
 * `require("x")` and `import("x")` calls anywhere: with the names they are assigned to (`const m = require(…)`,
 * `const { a, b: c } = await import(…)`, `const f = require(…).f`), else as imports without bindings.
 */
function callImports(c: Collector): void {
  const { code, text } = c.source;
  for (const call of [
    ...moduleCalls(c.source, "require", false),
    ...moduleCalls(c.source, "import", false),
  ]) {
    if (c.requires.has(call.at)) continue;
    const assigned = assignmentBefore(code, call.at, ["const", "let", "var"]);
    const imported = call.member ?? "*";
    let bindings: ImportBinding[] = [];
    if (assigned?.name !== undefined) bindings = [{ local: assigned.name, imported }];
    else if (assigned?.pattern && imported === "*") {
      const lx = new Lexer(code, text, assigned.pattern.open, assigned.pattern.close + 1);
      lx.next();
      bindings = patternNames(lx).map(({ name: local, key }) => ({ local, imported: key }));
    }
    c.imports.push({ specifier: call.specifier, bindings, line: c.source.lineOf(assigned?.at ?? call.at) });
  }
}

/** Imports and outline of a TypeScript or JavaScript file (see `LanguageSupport.parse`). */
export function parseTypeScript(text: string): { imports: ModuleImport[]; outline: ModuleOutline } {
  const c: Collector = {
    source: new SourceText(text, "js"),
    imports: [],
    reexports: [],
    localExports: [],
    requires: new Set(),
  };
  const items: Item[] = [];
  statements(c, 0, text.length, items, 0);
  callImports(c);
  c.imports.sort((a, b) => a.line - b.line);
  return {
    imports: c.imports,
    outline: outlineOf(c.source, mergeOverloads(items), c.reexports, c.localExports, c.defaultExport),
  };
}

const KEYWORDS = new Set(
  (
    "abstract any as asserts async await bigint boolean break case catch class const constructor continue debugger " +
    "declare default delete do else enum export extends false finally for from function get if implements import " +
    "in infer instanceof interface is keyof let module namespace never new null number object of package private " +
    "protected public readonly require return satisfies set static string super switch symbol this throw true try " +
    "type typeof undefined unique unknown using var void while with yield"
  ).split(" "),
);

const SOURCE_EXTENSIONS = [".ts", ".tsx", ".d.ts", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs"];
/** A JavaScript extension in a specifier, and the sources that compile to it, most likely first. */
const COMPILED_FROM: Readonly<Record<string, readonly string[]>> = {
  ".js": [".ts", ".tsx", ".d.ts", ".js", ".jsx"],
  ".jsx": [".tsx", ".jsx"],
  ".mjs": [".mts", ".d.mts", ".mjs"],
  ".cjs": [".cts", ".d.cts", ".cjs"],
};

/** Files a path without resolution may be: itself, a source compiled to it, with an extension, an index file. */
function expand(base: string): string[] {
  const ext = path.extname(base);
  const compiled = COMPILED_FROM[ext];
  if (compiled) {
    const stem = base.slice(0, -ext.length);
    return compiled.map((e) => stem + e);
  }
  if (SOURCE_EXTENSIONS.includes(ext) || base.endsWith(".d.ts")) return [base];
  return [
    ...SOURCE_EXTENSIONS.map((e) => base + e),
    ...SOURCE_EXTENSIONS.map((e) => path.join(base, `index${e}`)),
  ];
}

/** Targets of the tsconfig `paths` pattern that matches a specifier best (exact, else longest prefix). */
function pathsTargets(specifier: string, tsconfig: TsconfigPaths): string[] {
  const paths = tsconfig.paths;
  if (!paths) return [];
  const base = tsconfig.baseUrl ?? tsconfig.dir;
  const exact = paths[specifier];
  if (exact) return exact.map((t) => path.resolve(base, t));
  const best = bestStarMatch(Object.entries(paths), specifier);
  if (!best) return [];
  return best.value.map((t) => path.resolve(base, t.replace("*", best.matched)));
}

function tsCandidates(specifier: string, fromFile: string, env: ResolveEnv): string[] {
  if (specifier === "" || specifier.includes("\0")) return [];
  if (specifier.startsWith(".")) {
    if (!/^\.\.?(\/|$)/.test(specifier)) return [];
    return expand(path.resolve(path.dirname(fromFile), specifier));
  }
  if (specifier.startsWith("/")) return expand(path.normalize(specifier));
  if (/^[a-z][a-z0-9+.-]*:/i.test(specifier)) return []; // node:fs, https://…
  const bases = env.tsconfig ? pathsTargets(specifier, env.tsconfig) : [];
  if (env.tsconfig?.baseUrl) bases.push(path.resolve(env.tsconfig.baseUrl, specifier));
  // A package of the same monorepo: its source, as `node_modules` (never read) would link it.
  const bare = env.packages && splitPackageSpecifier(specifier);
  const pkg = bare ? env.packages?.get(bare.name) : undefined;
  if (bare && pkg) bases.push(...entryCandidates(pkg, bare.subpath));
  return [...new Set(bases.flatMap(expand))];
}

/** TypeScript and JavaScript: ESM, CommonJS, `import()`, tsconfig `paths`. */
export const typescript: LanguageSupport = {
  family: "typescript",
  extensions: [".d.ts", ".d.mts", ".d.cts", ".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs"],
  parse: guardedParse(parseTypeScript),
  importHint: /\b(?:import|require)\b/,
  references: (lines, preceding) => findReferences(lines, { dialect: "js", keywords: KEYWORDS }, preceding),
  candidates: tsCandidates,
};
