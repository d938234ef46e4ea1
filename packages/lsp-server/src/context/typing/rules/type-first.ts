// Declarations that write the type before the name (Java, C#, C++): `Store s = …`, `final List<Item> items;`,
// `const Table* t`, a parameter, a for-each, a field, a method's return type, read backwards from the name. Pure.
import { isBlank } from "../../scan/lexer.js";
import { isIdentifierPart } from "../../scan/scan.js";
import type { Binding } from "../rules.js";
import { closeAngle, escapeName, type ScopeText } from "../scope-text.js";

/** How a language writes a declaration whose type comes first (a row of its rule table). */
export interface TypeFirstSyntax {
  /** Words before a type that are no part of it (`final`, `static`, `const`, `public`…). */
  readonly modifiers: ReadonlySet<string>;
  /** Words that are never a type (`return`, `new`, `throw`…): a name after one is a value, not a declaration. */
  readonly keywords: ReadonlySet<string>;
  /** Types that are the value's (`var`, `auto`). */
  readonly inferred: ReadonlySet<string>;
  /** Words right after which a declaration starts inside an expression (`x is Store s`, `out Store s`). */
  readonly introducers?: ReadonlySet<string>;
  /** `X x(…)` and `X x{…}` declare x (C++). */
  readonly constructs?: boolean;
  /** A for-each writes `in` (C#'s `foreach (var x in xs)`) rather than `:`. */
  readonly foreachIn?: boolean;
}

const NAME = "(?<![\\p{L}\\p{N}_$.])";
const NAME_END = "(?![\\p{L}\\p{N}_$])";

/** A type as written, cleaned for parsing: qualifiers (`const`, `struct`) and C++'s `*` and `&` left out. */
export function cleanType(text: string): string {
  return text
    .replace(/\b(?:const|volatile|struct|class|typename|mutable|constexpr)\b/g, " ")
    .replace(/&&|[*&^]/g, " ")
    .replace(/\s+/g, " ")
    .replace(/\s*([<>,.:[\]])\s*/g, "$1")
    .replace(/,/g, ", ")
    .trim();
}

/**
 * The type written right before the name that starts at `nameStart` (blanks between them): a qualified name with
 * its type arguments, `[]`, `*`, `&`, `?`, when what precedes it starts a declaration (a bracket, a `;`, a
 * modifier, an annotation). Undefined when it is no declaration of that shape.
 */
export function typeBefore(scope: ScopeText, nameStart: number, syntax: TypeFirstSyntax): string | undefined {
  const { code } = scope;
  let end = nameStart;
  while (end > 0 && isBlank(code.charCodeAt(end - 1))) end--;
  let j = end;
  let base: string | undefined;
  for (;;) {
    // Suffixes: `[]`, `*`, `&`, `?`, `<…>`, with blanks between them.
    for (;;) {
      const c = code[j - 1];
      if (c === "*" || c === "&" || c === "?" || (c !== undefined && j < end && isBlank(c.charCodeAt(0))))
        j--;
      else if (c === "]" && code[j - 2] === "[") j -= 2;
      // `Table* const t`: a constant pointer.
      else if (c === "t" && /[*&]\s*const$/.test(code.slice(Math.max(0, j - 40), j))) j -= 5;
      else if (c === ">" && code[j - 2] !== "-" && code[j - 2] !== "=") {
        const open = angleOpen(code, j - 1);
        if (open < 0) return undefined;
        j = open;
      } else break;
    }
    let s = j;
    while (s > 0 && isIdentifierPart(code.charCodeAt(s - 1))) s--;
    if (s === j || /^\d/.test(code.slice(s, j))) return undefined;
    base ??= code.slice(s, j);
    j = s;
    if (code[j - 1] === "." && code[j - 2] !== ".") j--;
    else if (code[j - 1] === ":" && code[j - 2] === ":") j -= 2;
    else break;
  }
  const word = code.slice(j, end).match(/^[\p{L}_$][\p{L}\p{N}_$]*/u)?.[0] ?? "";
  if (syntax.keywords.has(word) || syntax.modifiers.has(word) || syntax.keywords.has(base ?? ""))
    return undefined;
  if (!declarationStarts(scope, j, syntax)) return undefined;
  return scope.text.slice(j, end).trim();
}

/** Whether a declaration may start at `at`: after a bracket, a `;`, a label's `:`, a modifier or an annotation. */
function declarationStarts(scope: ScopeText, at: number, syntax: TypeFirstSyntax): boolean {
  const { code } = scope;
  let i = at;
  for (;;) {
    while (i > 0 && isBlank(code.charCodeAt(i - 1))) i--;
    if (i === 0) return true;
    const c = code[i - 1]!;
    if ("(,;{}[]".includes(c) || (c === ":" && code[i - 2] !== ":") || (c === ">" && code[i - 2] !== "-"))
      return true;
    if (c === ")") {
      // An annotation's arguments: `@Named("x") Store s`.
      const open = scope.openerOf(i - 1);
      const word = open > 0 ? scope.wordBefore(open) : undefined;
      if (!word || code[word.start - 1] !== "@") return false;
      i = word.start - 1;
      continue;
    }
    const word = scope.wordBefore(i);
    if (!word) return false;
    if (code[word.start - 1] === "@") i = word.start - 1;
    else if (syntax.introducers?.has(word.word)) return true;
    else if (syntax.modifiers.has(word.word)) i = word.start;
    else return false;
  }
}

/** The `<` that opens the `>` at `close`, or -1. */
function angleOpen(code: string, close: number): number {
  let depth = 0;
  for (let i = close; i >= 0; i--) {
    const c = code[i];
    if (c === ">" && code[i - 1] !== "-") depth++;
    else if (c === "<" && --depth === 0) return closeAngle(code, i) === close ? i : -1;
    else if (c === ";" || c === "{" || c === "}" || c === "(" || c === ")") return -1;
  }
  return -1;
}

/** The type's first name, for telling `var` and `auto` (`const auto&` too). */
function inferred(type: string, syntax: TypeFirstSyntax): boolean {
  return syntax.inferred.has(cleanType(type));
}

/**
 * How `name` is bound at the end of the scope: the nearest declaration above of a local, a parameter, a field or a
 * for-each's variable whose type comes first (`var`/`auto` give the value, a for-each's an element of it).
 */
export function typeFirstBinding(
  scope: ScopeText,
  name: string,
  syntax: TypeFirstSyntax,
): Binding | undefined {
  const { code } = scope;
  for (const m of scope.matches(new RegExp(`${NAME}${escapeName(name)}${NAME_END}`, "gu"))) {
    const after = scope.skipBlank(m.index + name.length);
    const c = code[after] ?? ";";
    const loop =
      c === ":" ? code[after + 1] !== ":" : syntax.foreachIn === true && /^in\b/.test(code.slice(after));
    const assigns = c === "=" && code[after + 1] !== "=";
    const constructs = syntax.constructs === true && (c === "(" || c === "{");
    if (!loop && !assigns && !constructs && !";,)&|".includes(c)) continue;
    const type = typeBefore(scope, m.index, syntax);
    if (type === undefined) continue;
    const at = m.index;
    if (loop) {
      const value = scope.read(after + (c === ":" ? 1 : 2), "").text;
      if (!inferred(type, syntax)) return { type: cleanType(type), at };
      return value ? { value, inner: true, at } : undefined;
    }
    if (!inferred(type, syntax)) return { type: cleanType(type), at };
    if (!assigns) return undefined;
    const value = scope.read(after + 1, ";,", { angles: true }).text;
    const made = constructed(value);
    if (made) return { type: made, at };
    return value ? { value, at } : undefined;
  }
  return undefined;
}

/**
 * The type a value constructs when it says so before its arguments: `new X(…)`, `new X { … }` (C#'s object
 * initializer), `std::make_unique<X>(…)`, `std::make_shared<X>(…)`.
 */
export function constructed(value: string): string | undefined {
  const m = /^(?:new\s+|(?:std::)?make_(?:unique|shared)\s*(?=<))/.exec(value);
  if (!m) return undefined;
  let i = m[0].length;
  if (value[i] === "<") {
    const close = closeAngle(value, i);
    return close < value.length ? cleanType(value.slice(i + 1, close)) || undefined : undefined;
  }
  const name = /^[\p{L}_$][\p{L}\p{N}_$]*(?:(?:\.|::)[\p{L}_$][\p{L}\p{N}_$]*)*/u.exec(value.slice(i))?.[0];
  if (!name) return undefined;
  i += name.length;
  const args = value[i] === "<" ? closeAngle(value, i) + 1 : i;
  const rest = value.slice(args).trimStart();
  return rest.startsWith("(") || rest.startsWith("{") ? cleanType(value.slice(m[0].length, args)) : undefined;
}

/**
 * A field's or property's declared type (its value's when it is `var`), a method's return type when `name` is a
 * method: the first declaration of `name` in the lines whose type comes first.
 */
export function typeFirstDeclared(
  lines: ScopeText,
  name: string,
  syntax: TypeFirstSyntax,
): Binding | undefined {
  const { code } = lines;
  for (const m of code.matchAll(new RegExp(`${NAME}${escapeName(name)}${NAME_END}`, "gu"))) {
    const after = lines.skipBlank(m.index + name.length);
    const c = code[after] ?? ";";
    if (c === "(" || c === "<") {
      const type = typeFirstReturns(lines, name, syntax);
      return type === undefined ? undefined : { type };
    }
    if (!"=;,{".includes(c)) continue;
    const type = typeBefore(lines, m.index, syntax);
    if (type === undefined) continue;
    if (!inferred(type, syntax)) return { type: cleanType(type), at: m.index };
    const value = c === "=" && lines.read(after + 1, ";,", { angles: true }).text;
    return value ? { value, at: m.index } : undefined;
  }
  return undefined;
}

/**
 * A method's or function's declared return type: the type before its name (an owner's `X::` skipped, C++), or the
 * type after `->` when that is `auto` (C++'s trailing return type). Constructors have none.
 */
export function typeFirstReturns(
  lines: ScopeText,
  name: string,
  syntax: TypeFirstSyntax,
): string | undefined {
  const { code } = lines;
  for (const m of code.matchAll(new RegExp(`${NAME}${escapeName(name)}\\s*(?=[(<])`, "gu"))) {
    let open = m.index + m[0].length;
    if (code[open] === "<") open = lines.skipBlank(closeAngle(code, open) + 1);
    if (code[open] !== "(") continue;
    let start = m.index;
    // `Status DBImpl::Get(…)`: the owner's path before the name.
    while (code[start - 1] === ":" && code[start - 2] === ":") {
      let s = start - 2;
      if (code[s - 1] === ">") s = angleOpenOf(code, s - 1);
      while (s > 0 && isIdentifierPart(code.charCodeAt(s - 1))) s--;
      if (s === start - 2) break;
      start = s;
    }
    const type = typeBefore(lines, start, syntax);
    if (type === undefined) continue;
    if (!inferred(type, syntax)) return cleanType(type) || undefined;
    const close = lines.closerOf(open);
    const trailing = /^[^{;=]*?->/.exec(code.slice(close + 1));
    if (!trailing) return undefined;
    return cleanType(lines.read(close + 1 + trailing[0].length, "{;=", { angles: true }).text) || undefined;
  }
  return undefined;
}

function angleOpenOf(code: string, close: number): number {
  const open = angleOpen(code, close);
  return open < 0 ? close + 1 : open;
}
