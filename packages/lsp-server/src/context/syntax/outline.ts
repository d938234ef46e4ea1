// From a syntax tree and the matches of a language's tags-style query to the `{ imports, outline }` the context
// pipeline wants: the same declarations, members, doc comments and body lines a hand-written parser finds, so
// that resolution, ranking, snippets and the block do not know which parser ran.
import type { Node, QueryMatch } from "web-tree-sitter";
import { type LocalExport, mergeOverloads, outlineOf, type Parsed } from "../scan/parse-result.js";
import type { Item } from "../scan/snippet.js";
import { TextLines } from "../scan/source-text.js";
import type { DeclarationKind, ModuleImport, ReExport } from "../types.js";

/** The kinds a query may name in `@definition.<kind>`. */
const KINDS = new Set<string>([
  "function",
  "class",
  "interface",
  "type",
  "enum",
  "variable",
  "module",
  "method",
  "field",
  "struct",
  "trait",
]);

/** Kinds whose definitions hold members (methods, fields, nested types). */
const CONTAINERS = new Set<DeclarationKind>(["class", "interface", "struct", "enum", "trait", "module"]);
/** Kinds that declare types: never locals of a type declaration, hoisted out of modules. */
const TYPES = new Set<DeclarationKind>(["class", "interface", "struct", "enum", "trait", "type"]);

/** Kinds a more specific pattern may refine. */
const GENERIC = new Set<DeclarationKind>(["type", "variable"]);

/** A definition a query found, before it is placed among the others. */
export interface Definition {
  /** The node whose lines are the declaration (its attributes, modifiers and template header included). */
  readonly node: Node;
  /** The node that names it. */
  readonly name: Node;
  readonly kind: DeclarationKind;
}

/** What a language adds to the generic reading of its query's captures. */
export interface SyntaxRules {
  /**
   * The definition of a `@definition.<kind>` capture that has no `@name` but a `@declarator` (C and C++: the name
   * sits inside pointer, array and function declarators); undefined to skip it.
   */
  declarator?(declaration: Node, declarator: Node, kind: DeclarationKind): Definition | undefined;
  /** The node whose lines a definition spans, when it is not the captured one (a C++ `template <…>` header). */
  outer?(node: Node): Node;
  /**
   * Whether a definition is visible to other files (a member: outside its container). `container` is the
   * definition that holds a member, undefined at the top level.
   */
  exported(definition: Definition, container: Definition | undefined): boolean;
  /** The import statements of an `@import` capture (none for a statement it does not recognise). */
  imports(node: Node): ModuleImport[];
  /** What an `@export` capture exports: re-exports, local names under other names, the default export. */
  exports?(node: Node): ModuleExports;
  /** A name for a definition other than its name node's text (Go-like receivers, `Foo::bar`). */
  nameOf?(definition: Definition): string | undefined;
  /**
   * The kind of a definition when its node says more than its pattern (Kotlin's `interface` and `enum class` are
   * class declarations); null to drop it (a Zig `const std = @import("std")` is an import, not a declaration).
   */
  kindOf?(definition: Definition): DeclarationKind | null | undefined;
  /** The node whose brackets are a definition's body, when it is neither its `body` field nor its last block. */
  body?(node: Node): Node | undefined;
  /** Whether a node before a declaration documents it like a comment (Elixir's `@doc "…"`). Default: comments. */
  isDoc?(node: Node): boolean;
  /**
   * Kinds of container that are also namespaces: a type declared in one is a declaration of its own (hoisted to
   * where the container is listed), not a member. Default `module` (Ruby's and Elixir's modules); Ruby's classes
   * too, since `class Pry; class Indent` declares `Pry::Indent`, which code names `Indent` or `Pry::Indent`.
   */
  namespaces?: ReadonlySet<DeclarationKind>;
  /**
   * The package line read from the text when the query's `@package` capture finds none (group 1): a text cut
   * before its namespace's closing brace (the head of a file, parsed alone) may lose the namespace node.
   */
  packageLine?: RegExp;
}

/** What a module's export statements say besides its declarations (see `ModuleOutline`). */
export interface ModuleExports {
  reexports?: ReExport[];
  localExports?: LocalExport[];
  defaultExport?: string;
}

/** The exports of a whole file, gathered from its `@export` captures. */
interface CollectedExports {
  reexports: ReExport[];
  localExports: LocalExport[];
  defaultExport?: string;
}

/** The last row a node covers: a node that ends at a line's start (a preprocessor line's newline) ends above it. */
export function lastRow(node: Node): number {
  const end = node.endPosition;
  return end.column === 0 && end.row > node.startPosition.row ? end.row - 1 : end.row;
}

/** Whether a node is a comment (`comment`, `line_comment`, `block_comment`, …). */
function isComment(node: Node): boolean {
  return node.type.includes("comment");
}

/** First row of the comment block right above `node` (adjacent lines, no blank line between), or its own row. */
function docStartOf(node: Node, rules: SyntaxRules): number {
  const isDoc = (n: Node) => isComment(n) || rules.isDoc?.(n) === true;
  let start = node.startPosition.row;
  // A comment before a body's first statement may sit outside the body node (Ruby's `class … # doc \n def`).
  let first = node.previousSibling;
  if (!first && node.parent && node.parent.startIndex === node.startIndex)
    first = node.parent.previousSibling;
  for (let previous = first; previous && isDoc(previous); previous = previous.previousSibling) {
    if (lastRow(previous) < start - 1) break;
    // A trailing comment of the line before (`int x; // x`) documents that line, not this declaration.
    const before = previous.previousSibling;
    if (before && !isDoc(before) && lastRow(before) === previous.startPosition.row) break;
    start = previous.startPosition.row;
  }
  return start;
}

const BODY = /(?:body|block|_list|statement)$/;

/** The body of a declaration: its `body` field, else the last named child that is a block of some sort. */
function bodyOf(node: Node): Node | undefined {
  const field = node.childForFieldName("body");
  if (field) return field;
  const last = node.lastNamedChild;
  return last && BODY.test(last.type) && last.type !== "parameter_list" ? last : undefined;
}

/** The lines of a declaration's body: `{…}` by its brackets; `… end` (Ruby, Elixir) from the head to the `end`. */
function bodyLines(node: Node, text: string, rules: SyntaxRules): Item["body"] | undefined {
  const body = rules.body?.(node) ?? bodyOf(node);
  if (!body || body.endIndex <= body.startIndex) return undefined;
  const closer = text.charCodeAt(body.endIndex - 1);
  // `}`, `)`, `]`, or `do … end` (Elixir): the body is its own brackets.
  if (closer === 125 || closer === 41 || closer === 93 || body.lastChild?.type === "end")
    return { open: body.startPosition.row, close: lastRow(body) };
  const open = body.previousSibling ? lastRow(body.previousSibling) : node.startPosition.row;
  const end = lastRow(node);
  return end > lastRow(body) ? { open, close: end } : { open };
}

/** The item of a dropped definition: never listed. */
const DROPPED: Item = {
  name: "",
  kind: "variable",
  exported: false,
  docStart: 0,
  start: 0,
  nameLine: 0,
  end: 0,
};

/** A definition placed: its item, and the placed definition that holds it. */
interface Placed {
  readonly definition: Definition;
  readonly item: Item;
  /** The nearest enclosing definition, whatever its kind. */
  readonly parent: Placed | undefined;
  /** Where it is listed: undefined at the top level, else the container it is a member of; null when dropped. */
  owner: Placed | undefined | null;
}

/** The definitions and imports of a query's matches. */
function collect(
  matches: readonly QueryMatch[],
  rules: SyntaxRules,
): {
  definitions: Definition[];
  imports: ModuleImport[];
  exports: CollectedExports;
  bases: Node[];
  pkg: string | undefined;
} {
  const definitions: Definition[] = [];
  const imports: ModuleImport[] = [];
  const bases: Node[] = [];
  let pkg: string | undefined;
  const exports: CollectedExports = {
    reexports: [],
    localExports: [],
  };
  const seen = new Map<string, number>();
  for (const match of matches) {
    let node: Node | undefined;
    let kind: string | undefined;
    let name: Node | undefined;
    let declarator: Node | undefined;
    for (const capture of match.captures) {
      const captured = capture.name;
      if (captured === "name") name = capture.node;
      else if (captured === "declarator") declarator = capture.node;
      else if (captured === "import") imports.push(...rules.imports(capture.node));
      else if (captured === "base") bases.push(capture.node);
      else if (captured === "package") pkg ??= capture.node.text.replace(/\s+/g, "").replace(/^\\/, "");
      else if (captured === "export" && rules.exports) {
        const found = rules.exports(capture.node);
        exports.reexports.push(...(found.reexports ?? []));
        exports.localExports.push(...(found.localExports ?? []));
        if (found.defaultExport !== undefined) exports.defaultExport = found.defaultExport;
      } else if (captured.startsWith("definition.")) {
        node = capture.node;
        kind = captured.slice("definition.".length);
      }
    }
    if (!node || !kind || !KINDS.has(kind)) continue;
    const outer = rules.outer ? rules.outer(node) : node;
    let definition = name
      ? { node: outer, name, kind: kind as DeclarationKind }
      : declarator && rules.declarator?.(outer, declarator, kind as DeclarationKind);
    if (!definition) continue;
    const refined = rules.kindOf?.(definition);
    if (refined === null) continue;
    if (refined) definition = { ...definition, kind: refined };
    const key = `${definition.node.startIndex}:${definition.node.endIndex}:${definition.name.startIndex}`;
    const index = seen.get(key);
    if (index === undefined) {
      seen.set(key, definitions.length);
      definitions.push(definition);
    } else if (GENERIC.has(definitions[index]!.kind)) {
      // Two patterns named one declaration (`type T struct` as a type and a struct): the more specific kind wins.
      definitions[index] = definition;
    }
  }
  imports.sort((a, b) => a.line - b.line);
  return { definitions, imports, exports, bases, pkg };
}

/** The default {@link SyntaxRules.namespaces}. */
const MODULES: ReadonlySet<DeclarationKind> = new Set(["module"]);

/** Where a definition goes given its nearest enclosing one: a member, the top level (undefined), or nowhere. */
function ownerOf(
  kind: DeclarationKind,
  parent: Placed | undefined,
  namespaces: ReadonlySet<DeclarationKind>,
): Placed | undefined | null {
  if (!parent) return undefined;
  const outer = parent.definition.kind;
  // A function's or a variable's locals are not declarations of the file.
  if (outer === "function" || outer === "method") return null;
  if (CONTAINERS.has(outer)) {
    // A namespace (a Ruby or Elixir module): its types are declarations of their own, its functions its members.
    if (namespaces.has(outer) && (TYPES.has(kind) || kind === "module")) return parent.owner;
    return parent.owner === null ? null : parent;
  }
  // Inside a typedef or a variable's initialiser: a type declared there belongs where that declaration does.
  return TYPES.has(kind) ? parent.owner : null;
}

/**
 * A `@base` capture (a superclass, a mixin, the class of an assigned instance) as a base of the innermost definition
 * that holds it, unless that is a function (whose locals are not declarations): its name as written, when it is a
 * name or a path of names (`Helpers::Text`; `::PP` is `PP`; `self` and expressions are none).
 */
function addBase(placed: readonly Placed[], base: Node): void {
  let holder: Placed | undefined;
  for (const p of placed) {
    const { node } = p.definition;
    if (node.startIndex <= base.startIndex && base.endIndex <= node.endIndex) {
      if (!holder || node.startIndex >= holder.definition.node.startIndex) holder = p;
    }
  }
  if (!holder || holder.item === DROPPED) return;
  const kind = holder.definition.kind;
  if (kind === "function" || kind === "method") return;
  // As written, less a leading root (`::PP`); a path of names only (`self` and expressions are none).
  const name = base.text.trim().replace(/^(?:::|\\|\.)/, "");
  if (!/^[\p{L}_][\p{L}\p{N}_]*(?:(?:::|\\|\.)[\p{L}_][\p{L}\p{N}_]*)*$/u.test(name) || name === "self")
    return;
  holder.item.bases ??= [];
  if (!holder.item.bases.includes(name)) holder.item.bases.push(name);
}

/**
 * The imports and outline of a parsed text from its query's matches: definitions nested in a class-like container
 * are its members (functions become methods, variables fields), definitions inside functions are dropped, types in
 * a module or a typedef are hoisted; each keeps the comment block right above it as its doc, and its body's lines
 * for the snippet.
 */
export function outlineFromMatches(text: string, matches: readonly QueryMatch[], rules: SyntaxRules): Parsed {
  const { definitions, imports, exports, bases, pkg } = collect(matches, rules);
  const placed: Placed[] = [];
  definitions.sort((a, b) => a.node.startIndex - b.node.startIndex || b.node.endIndex - a.node.endIndex);
  const top: Item[] = [];
  const stack: Placed[] = [];
  for (const definition of definitions) {
    const { node } = definition;
    while (stack.length > 0 && stack[stack.length - 1]!.definition.node.endIndex < node.endIndex) stack.pop();
    // A definition that spans exactly its parent (a declarator's sibling) is not inside it.
    let parent = stack[stack.length - 1];
    while (
      parent &&
      parent.definition.node.startIndex === node.startIndex &&
      parent.definition.node.endIndex === node.endIndex
    )
      parent = parent.parent;
    const owner = ownerOf(definition.kind, parent, rules.namespaces ?? MODULES);
    if (owner === null) {
      // Dropped (a local), and so is everything inside it: nothing more is read of it.
      const dropped: Placed = { definition, item: DROPPED, parent, owner };
      stack.push(dropped);
      if (bases.length > 0) placed.push(dropped);
      continue;
    }
    let kind = definition.kind;
    if (owner) {
      if (kind === "function") kind = "method";
      else if (kind === "variable") kind = "field";
    }
    const container = owner ?? undefined;
    const name = rules.nameOf?.(definition) ?? definition.name.text;
    const item: Item = {
      name,
      kind,
      exported: rules.exported({ ...definition, kind }, container?.definition),
      docStart: docStartOf(node, rules),
      start: node.startPosition.row,
      nameLine: definition.name.startPosition.row,
      end: lastRow(node),
    };
    const body = bodyLines(node, text, rules);
    if (body) item.body = body;
    const here: Placed = { definition: { ...definition, kind }, item, parent, owner };
    stack.push(here);
    if (bases.length > 0) placed.push(here);
    if (owner) {
      if (!item.exported) item.hidden = true;
      owner.item.members ??= [];
      owner.item.members.push(item);
    } else top.push(item);
  }
  for (const base of bases) addBase(placed, base);
  const merge = (items: Item[]): Item[] =>
    mergeOverloads(items).map((item) => (item.members ? { ...item, members: merge(item.members) } : item));
  const { reexports, localExports, defaultExport } = exports;
  return {
    imports,
    outline: outlineOf(
      new TextLines(text),
      merge(top),
      reexports,
      localExports,
      defaultExport,
      pkg ?? rules.packageLine?.exec(text)?.[1]?.replace(/\s+/g, ""),
    ),
  };
}
