import { findClose, isBlank, isCloser, isOpener } from "./lexer.js";
import { CHAR, isIdentifierPart } from "./scan.js";

/** A range of offsets `[start, end)`. */
export interface Span {
  readonly start: number;
  readonly end: number;
}

/** How statements of a brace language end (in masked code, brackets balanced, at depth 0). */
export interface SplitRules {
  /** A `,` ends a statement too (member lists: enums, object literals, struct fields). Default false. */
  readonly commas?: boolean;
  /**
   * A `{` after a name, a string, `)`, `]`, `}` or `>` (not after `=`, `:`, `(`, an operator) is a body: the `}`
   * that closes it ends the statement (`function f() {…}`, `class A extends B<C> {…}`). Default false.
   */
  readonly bodies?: boolean;
  /**
   * When a line break ends a statement: never (`;` and bodies do: Rust); after a value, as Go inserts semicolons;
   * or as JavaScript's semicolon insertion does in formatted code: when neither the line's end nor the next line's
   * start continues an expression and the next line is not indented deeper than the statement's first line.
   */
  readonly lineBreaks: "never" | "go" | "js";
}

// What `last` holds besides a character code: the previous token was a name or a number.
const VALUE = -1;
const ARROW = -2;

/** Words after which a `{` opens a list, an object or a type, never a body. */
const LITERAL_AFTER = new Set(
  "import export type return typeof as satisfies extends keyof in of case throw yield await void delete readonly infer is".split(
    " ",
  ),
);
/** Characters that leave an expression unfinished at the end of a line. */
const CONTINUES_AFTER = new Set([..."=,([{.:?|&+-*/%<!~^"].map((c) => c.charCodeAt(0)));
/** Characters that continue the previous line's expression at the start of the next. */
const CONTINUES_BEFORE = new Set([...".?:|&=+*/%,>"].map((c) => c.charCodeAt(0)));
const BODY_AFTER = new Set<number>([
  VALUE,
  ARROW,
  // Type arguments: `struct Error<F: Fmt> {`, `impl<T> Foo<T> {`, `fn f() -> Vec<u8> {`, `class A extends B<C> {`.
  CHAR.GT,
  // Rust's never type and item macros: `fn exit() -> ! {`, `thread_local! {`.
  33,
  CHAR.RPAREN,
  CHAR.RBRACKET,
  CHAR.RBRACE,
  CHAR.DQUOTE,
  CHAR.QUOTE,
  CHAR.BACKTICK,
]);
const GO_ENDS_AFTER = new Set<number>([
  VALUE,
  CHAR.RPAREN,
  CHAR.RBRACKET,
  CHAR.RBRACE,
  CHAR.DQUOTE,
  CHAR.QUOTE,
]);
const { GT, AT, DOT, SEMI, COMMA } = CHAR;

/** Column of the first non-blank character on the line holding `offset`. */
function lineIndent(code: string, offset: number): number {
  const start = code.lastIndexOf("\n", offset - 1) + 1;
  let i = start;
  while (i < offset && (code.charCodeAt(i) === CHAR.SPACE || code.charCodeAt(i) === 9)) i++;
  return i - start;
}

/** The statements of `[from, to)` in masked code, in order; separators (`;`, `,`) and blanks are left out. */
export function splitStatements(code: string, from: number, to: number, rules: SplitRules): Span[] {
  const spans: Span[] = [];
  let i = from;
  while (i < to) {
    const c = code.charCodeAt(i);
    if (isBlank(c) || c === SEMI || (rules.commas && c === COMMA)) {
      i++;
      continue;
    }
    const end = Math.max(statementEnd(code, i, to, rules), i + 1);
    spans.push({ start: i, end });
    i = end;
  }
  return spans;
}

function statementEnd(code: string, start: number, to: number, rules: SplitRules): number {
  const indent = lineIndent(code, start);
  let last = 0;
  // The last word read (when `last` is VALUE), to tell `import {` from a body.
  let word = "";
  // While only decorators (`@a.b(…)`) have been read, a line break does not end the statement.
  let decorators = code.charCodeAt(start) === AT;
  let i = start;
  while (i < to) {
    const c = code.charCodeAt(i);
    if (c === CHAR.NL) {
      if (
        rules.lineBreaks !== "never" &&
        last !== 0 &&
        !decorators &&
        endsAtBreak(code, i, to, last, indent, rules)
      )
        return i;
      i++;
      continue;
    }
    if (isBlank(c)) {
      i++;
      continue;
    }
    if (c === SEMI || (rules.commas && c === COMMA)) return i + 1;
    if (isCloser(c)) return i;
    if (isOpener(c)) {
      const close = findClose(code, i, to);
      if (
        rules.bodies &&
        c === CHAR.LBRACE &&
        BODY_AFTER.has(last) &&
        !(last === VALUE && LITERAL_AFTER.has(word))
      )
        return Math.min(close + 1, to);
      if (decorators && !(c === CHAR.LPAREN && last === VALUE)) decorators = false;
      last = code.charCodeAt(close);
      i = close + 1;
      continue;
    }
    if (isIdentifierPart(c)) {
      if (decorators && last !== AT && last !== DOT) decorators = false;
      const wordStart = i;
      while (i < to && isIdentifierPart(code.charCodeAt(i))) i++;
      word = i - wordStart <= 10 ? code.slice(wordStart, i) : "";
      last = VALUE;
      continue;
    }
    if (decorators && !(c === AT && (last === 0 || last === VALUE || last === CHAR.RPAREN)) && c !== DOT)
      decorators = false;
    last = c === GT && last === CHAR.EQUALS ? ARROW : c;
    // A string is one token: skip to its closing quote (the content is blank in masked code).
    if (c === CHAR.DQUOTE || c === CHAR.QUOTE || c === CHAR.BACKTICK) {
      const close = code.indexOf(code[i]!, i + 1);
      i = close === -1 || close >= to ? to : close + 1;
      continue;
    }
    i++;
  }
  return to;
}

function endsAtBreak(
  code: string,
  nl: number,
  to: number,
  last: number,
  indent: number,
  rules: SplitRules,
): boolean {
  if (rules.lineBreaks === "go") return GO_ENDS_AFTER.has(last);
  if (CONTINUES_AFTER.has(last)) return false;
  let j = nl + 1;
  while (j < to && isBlank(code.charCodeAt(j))) j++;
  if (j >= to) return true;
  if (CONTINUES_BEFORE.has(code.charCodeAt(j))) return false;
  return lineIndent(code, j) <= indent;
}
