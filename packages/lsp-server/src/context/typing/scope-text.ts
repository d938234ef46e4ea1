// Code searched for how a name is bound: its text and masked code (comments and strings blanked), and the reading
// the rule tables share: the bracket around an offset, a type or a value read to where it ends. Pure.
import { findClose, findOpen, isBlank, isCloser, isOpener } from "../scan/lexer.js";
import { type Dialect, isIdentifierPart, maskCode } from "../scan/scan.js";

/** A piece of code (the lines above the cursor, a class's body, a declaration's lines) with its masked code. */
export class ScopeText {
  /** The masked code: the same length and line breaks as `text`, comments and strings blanked. */
  readonly code: string;

  constructor(
    readonly text: string,
    readonly dialect: Dialect,
    code?: string,
  ) {
    // A template literal's `${…}` is code (`${f.unpricedTokens}`).
    this.code = code ?? maskCode(text, dialect, { templateExpressions: true });
  }

  /** The code before `end`, as a scope of its own (a binding is searched above where it is used). */
  before(end: number): ScopeText {
    if (end >= this.text.length) return this;
    return new ScopeText(this.text.slice(0, end), this.dialect, this.code.slice(0, end));
  }

  /** Every match of a pattern (it must have the `g` flag) in the code, last one first: the nearest the end. */
  matches(pattern: RegExp): RegExpExecArray[] {
    const found = [...this.code.matchAll(pattern)];
    return found.reverse();
  }

  /** The offset of the innermost bracket (`(`, `[`, `{`) open at `at`, or -1 at the top level. */
  openerAt(at: number): number {
    let depth = 0;
    for (let i = at - 1; i >= 0; i--) {
      const c = this.code.charCodeAt(i);
      if (isCloser(c)) depth++;
      else if (isOpener(c)) {
        if (depth === 0) return i;
        depth--;
      }
    }
    return -1;
  }

  /** The offset of the bracket closing the one at `open`, or the code's length when it is still open. */
  closerOf(open: number): number {
    return findClose(this.code, open);
  }

  /** The offset of the bracket opening the one that closes at `close`, or -1. */
  openerOf(close: number): number {
    return findOpen(this.code, close);
  }

  /** The first offset at or after `at` that is not blank (line breaks too). */
  skipBlank(at: number): number {
    let i = at;
    while (i < this.code.length && isBlank(this.code.charCodeAt(i))) i++;
    return i;
  }

  /**
   * The text from `from` up to where a type or a value ends: a character of `stops` outside brackets (angle
   * brackets too when `angles`: a type's arguments), a line break outside brackets when `lineBreaks` (a statement
   * that continues on the next line only inside brackets or after an operator), or the end. Blanks at both ends
   * dropped; `end` is where it stopped.
   */
  read(from: number, stops: string, options: ReadOptions = {}): { text: string; end: number } {
    const { code } = this;
    let i = this.skipBlank(from);
    const start = i;
    let depth = 0;
    let angles = 0;
    for (; i < code.length; i++) {
      const c = code[i]!;
      if (depth === 0 && angles === 0) {
        if (options.arrow && c === "=" && code[i + 1] === ">") break;
        if (stops.includes(c) && !(c === "=" && (code[i + 1] === "=" || code[i + 1] === ">"))) break;
        if (c === "\n" && options.lineBreaks && !continues(code, i)) break;
      }
      if (isOpener(c.charCodeAt(0))) depth++;
      else if (isCloser(c.charCodeAt(0))) {
        if (depth === 0) break;
        depth--;
      } else if (options.angles && c === "<") angles++;
      else if (options.angles && c === ">" && code[i - 1] !== "=" && code[i - 1] !== "-" && angles > 0)
        angles--;
    }
    return { text: this.text.slice(start, i).trim(), end: i };
  }

  /** The identifier ending right before `at` (blanks skipped), with its start; undefined when none. */
  wordBefore(at: number): { word: string; start: number } | undefined {
    let end = at;
    while (end > 0 && isBlank(this.code.charCodeAt(end - 1))) end--;
    let start = end;
    while (start > 0 && isIdentifierPart(this.code.charCodeAt(start - 1))) start--;
    return start === end ? undefined : { word: this.code.slice(start, end), start };
  }
}

/** Options of {@link ScopeText.read}. */
export interface ReadOptions {
  /** `<` and `>` are brackets (a type's arguments). */
  readonly angles?: boolean;
  /** A line break outside brackets ends what is read, unless the line ends with an operator. */
  readonly lineBreaks?: boolean;
  /** An arrow `=>` outside brackets ends it (a TypeScript arrow function's body follows its return type). */
  readonly arrow?: boolean;
}

/** Whether the code around a line break at `i` continues the expression (an operator ends the line or starts the next). */
function continues(code: string, i: number): boolean {
  let before = i - 1;
  while (before >= 0 && (code[before] === " " || code[before] === "\t" || code[before] === "\r")) before--;
  let after = i + 1;
  while (after < code.length && isBlank(code.charCodeAt(after))) after++;
  const last = code[before] ?? "";
  const next = code[after] ?? "";
  return "=([{,.:?|&+-*/%<>!\\".includes(last) || (next === "." && code[after + 1] !== ".");
}

/** A name as a regular-expression source, escaped. */
export function escapeName(name: string): string {
  return name.replace(/[$.*+?^()[\]{}|\\]/g, "\\$&");
}

/** How a signature reads ({@link signatureReturn}). */
export interface SignatureSyntax {
  /** What comes between the parameters and the return type: `:`, `->`, or `""` (Go's result). */
  readonly marker: ":" | "->" | "";
  /** The bracket of type parameters after the name: `<…>`, or Go's `[…]`. */
  readonly typeParameters: "<" | "[";
  /** Where the return type ends outside brackets (the body, the end of the declaration). */
  readonly stops: string;
  /** An arrow `=>` ends it too (a TypeScript arrow function's body follows). */
  readonly arrow?: boolean;
}

/**
 * The return type a signature declares: past the name at `nameEnd`, its type parameters, its parameter list,
 * then the marker and the type up to where the body or the declaration starts (`where` clauses dropped).
 * Undefined when it declares none.
 */
export function signatureReturn(
  scope: ScopeText,
  nameEnd: number,
  syntax: SignatureSyntax,
): string | undefined {
  const { code } = scope;
  let i = scope.skipBlank(nameEnd);
  if (code[i] === syntax.typeParameters) {
    i = syntax.typeParameters === "<" ? closeAngle(code, i) + 1 : scope.closerOf(i) + 1;
    i = scope.skipBlank(i);
  }
  if (code[i] !== "(") return undefined;
  i = scope.closerOf(i) + 1;
  // Go's result may follow on the same line only.
  if (syntax.marker === "") {
    while (code[i] === " " || code[i] === "\t") i++;
  } else {
    i = scope.skipBlank(i);
    if (!code.startsWith(syntax.marker, i)) return undefined;
    i += syntax.marker.length;
  }
  // A type literal after the marker (`(): { a: string } {`) is the type, not the body.
  if (syntax.marker !== "") i = scope.skipBlank(i);
  const from = i;
  if (syntax.marker !== "" && code[i] === "{") i = scope.closerOf(i) + 1;
  const rest = scope.read(i, syntax.stops, {
    angles: syntax.typeParameters === "<",
    arrow: syntax.arrow === true,
  });
  const text = scope.text.slice(from, rest.end).trim();
  const type = text.replace(/\s+where\b[\s\S]*$/, "").trim();
  return type === "" ? undefined : type;
}

/** The offset of the `>` closing the `<` at `open` (nested ones counted, `=>` and `->` skipped). */
export function closeAngle(code: string, open: number): number {
  let depth = 0;
  for (let i = open; i < code.length; i++) {
    const c = code[i];
    if (c === "<") depth++;
    else if (c === ">" && code[i - 1] !== "=" && code[i - 1] !== "-" && --depth === 0) return i;
  }
  return code.length;
}
