import { CHAR, isIdentifierPart, isIdentifierStart } from "./scan.js";

/** What the current token is. */
export type TokenKind = "ident" | "string" | "number" | "punct" | "eof";

/** Whether a character opens a bracket pair: `(`, `[` or `{`. */
export function isOpener(c: number): boolean {
  return c === CHAR.LPAREN || c === CHAR.LBRACKET || c === CHAR.LBRACE;
}

/** Whether a character closes a bracket pair: `)`, `]` or `}`. */
export function isCloser(c: number): boolean {
  return c === CHAR.RPAREN || c === CHAR.RBRACKET || c === CHAR.RBRACE;
}

/** Whether a character is blank: space, tab, form feed, line break. */
export function isBlank(c: number): boolean {
  return c === CHAR.SPACE || c === 9 || c === CHAR.NL || c === CHAR.CR || c === 12;
}

/**
 * Offset of the bracket that closes the one at `open` in masked code, all three kinds counted as one depth (masked
 * code has no bracket in a string or a comment, and a mismatched pair should not derail the rest); `limit` when it
 * does not close before it.
 */
export function findClose(code: string, open: number, limit = code.length): number {
  let depth = 0;
  for (let i = open; i < limit; i++) {
    const c = code.charCodeAt(i);
    if (isOpener(c)) depth++;
    else if (isCloser(c) && --depth === 0) return i;
  }
  return limit;
}

/** Offset of the bracket that opens the one that closes at `close`, searching back to `limit`; -1 when none. */
export function findOpen(code: string, close: number, limit = 0): number {
  let depth = 0;
  for (let i = close; i >= limit; i--) {
    const c = code.charCodeAt(i);
    if (isCloser(c)) depth++;
    else if (isOpener(c) && --depth === 0) return i;
  }
  return -1;
}

/** The index of the previous non-blank character before `i`, or -1. */
export function previousCode(code: string, i: number): number {
  while (i >= 0 && isBlank(code.charCodeAt(i))) i--;
  return i;
}

/** The identifier ending at `end` (inclusive) in code, with its start; undefined when none ends there. */
export function identifierBefore(code: string, end: number): { word: string; start: number } | undefined {
  let start = end;
  while (start >= 0 && isIdentifierPart(code.charCodeAt(start))) start--;
  return start === end ? undefined : { word: code.slice(start + 1, end + 1), start: start + 1 };
}

/**
 * Tokens of masked code (see `maskCode`) between two offsets, one at a time and without allocation: the current
 * token is `kind` over `[start, end)`. Punctuation comes one character per token.
 */
export class Lexer {
  kind: TokenKind = "eof";
  start = 0;
  end = 0;
  /** Whether a line break separates the current token from the previous one. */
  newline = false;

  constructor(
    readonly code: string,
    /** The original text, for string values. */
    readonly text: string,
    private pos: number,
    readonly limit: number = code.length,
  ) {}

  /** Moves to the next token and returns its kind. */
  next(): TokenKind {
    const { code, limit } = this;
    let i = this.pos;
    this.newline = false;
    while (i < limit) {
      const c = code.charCodeAt(i);
      if (!isBlank(c)) break;
      if (c === CHAR.NL) this.newline = true;
      i++;
    }
    this.start = i;
    if (i >= limit) {
      this.end = this.pos = limit;
      this.kind = "eof";
      return this.kind;
    }
    const c = code.charCodeAt(i);
    if (isIdentifierStart(c)) {
      i++;
      while (i < limit && isIdentifierPart(code.charCodeAt(i))) i++;
      this.kind = "ident";
    } else if (c >= 48 && c <= 57) {
      i++;
      while (i < limit && (isIdentifierPart(code.charCodeAt(i)) || code.charCodeAt(i) === 46)) i++;
      this.kind = "number";
    } else if (c === CHAR.DQUOTE || c === CHAR.QUOTE || c === CHAR.BACKTICK) {
      const close = code.indexOf(code[i]!, i + 1);
      i = close === -1 || close >= limit ? limit : close + 1;
      this.kind = "string";
    } else {
      i++;
      this.kind = "punct";
    }
    this.end = this.pos = i;
    return this.kind;
  }

  /** Whether the current token is the identifier `word`. */
  is(word: string): boolean {
    return (
      this.kind === "ident" && this.end - this.start === word.length && this.code.startsWith(word, this.start)
    );
  }

  /** Whether the current token is the punctuation character `ch`. */
  isPunct(ch: string): boolean {
    return this.kind === "punct" && this.code.charCodeAt(this.start) === ch.charCodeAt(0);
  }

  /** The current identifier, or undefined when the token is something else. */
  ident(): string | undefined {
    return this.kind === "ident" ? this.code.slice(this.start, this.end) : undefined;
  }

  /** The value of the current string token, from the original text; undefined for other tokens. */
  value(): string | undefined {
    return this.kind === "string" ? stringValue(this.text, this.start, this.end) : undefined;
  }

  /** The first character after the current token that is not blank (NaN at the limit). */
  peekChar(): number {
    let i = this.end;
    while (i < this.limit && isBlank(this.code.charCodeAt(i))) i++;
    return i < this.limit ? this.code.charCodeAt(i) : Number.NaN;
  }

  /** The identifier after the current token, without moving; undefined when the next token is not one. */
  peekIdent(): string | undefined {
    let i = this.end;
    while (i < this.limit && isBlank(this.code.charCodeAt(i))) i++;
    if (i >= this.limit || !isIdentifierStart(this.code.charCodeAt(i))) return undefined;
    let j = i + 1;
    while (j < this.limit && isIdentifierPart(this.code.charCodeAt(j))) j++;
    return this.code.slice(i, j);
  }

  /** When the current token opens a bracket, moves past its closer (the next token is then read by next()). */
  skipBalanced(): void {
    if (this.kind !== "punct" || !isOpener(this.code.charCodeAt(this.start))) return;
    const close = findClose(this.code, this.start, this.limit);
    this.end = this.pos = Math.min(close + 1, this.limit);
  }

  /** Moves the reading position (the next token starts at or after `offset`). */
  seek(offset: number): void {
    this.pos = offset;
  }
}

/** The value of a string literal in the original text between `[start, end)` (its quotes and prefixes dropped). */
export function stringValue(text: string, start: number, end: number): string {
  const literal = text.slice(start, end);
  const long = /^\[(=*)\[/.exec(literal);
  if (long)
    return literal.slice(long[0].length, literal.endsWith(`]${long[1]}]`) ? -long[0].length : undefined);
  const q = literal[0];
  if (q === undefined) return "";
  const width = literal.startsWith(q.repeat(3)) && literal.length >= 6 ? 3 : 1;
  const closed = literal.length >= 2 * width && literal.endsWith(q.repeat(width));
  return literal.slice(width, closed ? literal.length - width : undefined);
}
