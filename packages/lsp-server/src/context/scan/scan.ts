// Masks comments and string literals so that the per-language parsers can read code with plain character tests:
// no bracket, quote, keyword or identifier inside a comment or a string is left to mislead them.
import { Buffer } from "node:buffer";

/** Comment and string syntax of a language. */
export type Dialect = "c" | "js" | "python" | "go" | "rust" | "lua";

/** Character codes the parsers test for. */
export const CHAR = {
  TAB: 9,
  NL: 10,
  CR: 13,
  SPACE: 32,
  DQUOTE: 34,
  HASH: 35,
  DOLLAR: 36,
  QUOTE: 39,
  LPAREN: 40,
  RPAREN: 41,
  STAR: 42,
  COMMA: 44,
  MINUS: 45,
  DOT: 46,
  SLASH: 47,
  COLON: 58,
  SEMI: 59,
  LT: 60,
  EQUALS: 61,
  GT: 62,
  QUESTION: 63,
  AT: 64,
  LBRACKET: 91,
  BACKSLASH: 92,
  RBRACKET: 93,
  BACKTICK: 96,
  LBRACE: 123,
  RBRACE: 125,
} as const;

const { NL, CR, SPACE, DQUOTE, HASH, QUOTE, SLASH, STAR, BACKSLASH, BACKTICK, LBRACKET, RBRACKET, EQUALS } =
  CHAR;

/** Whether a UTF-16 unit may continue an identifier (non-ASCII counts: letters of every script). */
export function isIdentifierPart(c: number): boolean {
  return (
    (c >= 97 && c <= 122) ||
    (c >= 65 && c <= 90) ||
    (c >= 48 && c <= 57) ||
    c === 95 ||
    c === CHAR.DOLLAR ||
    c > 127
  );
}

/** Whether a UTF-16 unit may start an identifier. */
export function isIdentifierStart(c: number): boolean {
  return isIdentifierPart(c) && !(c >= 48 && c <= 57);
}

function isLineBreak(c: number): boolean {
  return c === NL || c === CR;
}

/** The masked text, written over a copy of the original's UTF-16 units. */
class Masker {
  readonly units: Uint16Array;
  private readonly buffer: Buffer;

  constructor(text: string) {
    // A buffer of its own (not a pooled slice) so that its offset suits a Uint16Array.
    this.buffer = Buffer.allocUnsafeSlow(text.length * 2);
    this.buffer.write(text, "utf16le");
    this.units = new Uint16Array(this.buffer.buffer, this.buffer.byteOffset, text.length);
  }

  /** Replaces `[start, end)` with spaces, keeping line breaks. */
  blank(start: number, end: number): void {
    const units = this.units;
    for (let i = start; i < end; i++) if (units[i] !== NL && units[i] !== CR) units[i] = SPACE;
  }

  /** A string literal `[start, end)`: a quote at each end, spaces (and the line breaks) between. */
  string(start: number, end: number, quote: number): void {
    if (end - start < 2) {
      this.blank(start, end);
      return;
    }
    const closes = !isLineBreak(this.units[end - 1]!);
    this.units[start] = quote;
    this.blank(start + 1, closes ? end - 1 : end);
    if (closes) this.units[end - 1] = quote;
  }

  /**
   * A literal that may not span lines, from `start` to `end` (what {@link quotedEnd} found): masked when it closed;
   * otherwise only its quote goes, and the rest of the line stays code. An apostrophe in JSX text (`Don't`) or a
   * stray quote must not swallow the brackets after it.
   * @returns where scanning goes on.
   */
  lineString(text: string, start: number, end: number): number {
    const quote = text.charCodeAt(start);
    if (end - start >= 2 && text.charCodeAt(end - 1) === quote) {
      this.string(start, end, quote);
      return end;
    }
    this.blank(start, start + 1);
    return start + 1;
  }

  result(): string {
    return this.buffer.toString("utf16le");
  }
}

/** A table of the ASCII characters at which a scanner stops. */
function stops(chars: string): Uint8Array {
  const table = new Uint8Array(128);
  for (const c of chars) table[c.charCodeAt(0)] = 1;
  return table;
}

/** The first index at or after `i` holding a character of `table`, or the text's length. */
function nextStop(text: string, i: number, table: Uint8Array): number {
  const n = text.length;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c < 128 && table[c] === 1) return i;
    i++;
  }
  return n;
}

/** Index of the first line break at or after `i`, or the text's length. */
function lineEnd(text: string, i: number): number {
  const n = text.length;
  while (i < n && !isLineBreak(text.charCodeAt(i))) i++;
  return i;
}

/**
 * End (exclusive) of a quoted literal opened at `start`: after the closing `quote`, or at the line break when
 * `singleLine` and none comes first (a backslash before a line break continues the literal), or at the end.
 */
function quotedEnd(text: string, start: number, quote: number, singleLine: boolean, escapes = true): number {
  const n = text.length;
  let i = start + 1;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === quote) return i + 1;
    if (c === BACKSLASH && escapes) {
      // A CRLF after a backslash is one continuation.
      i += text.charCodeAt(i + 1) === CR && text.charCodeAt(i + 2) === NL ? 3 : 2;
      continue;
    }
    if (singleLine && isLineBreak(c)) return i;
    i++;
  }
  return n;
}

/** Start of the identifier that ends just before `end`, or `end` when none does. */
function identifierStartBefore(text: string, end: number): number {
  let i = end;
  while (i > 0 && isIdentifierPart(text.charCodeAt(i - 1))) i--;
  return i;
}

/** `//` and `/* … *\/` comments (nested ones for Rust) at `i`: their end, or -1 when none starts there. */
function slashCommentEnd(text: string, i: number, nested: boolean): number {
  const next = text.charCodeAt(i + 1);
  if (next === SLASH) return lineEnd(text, i);
  if (next !== STAR) return -1;
  if (!nested) {
    const close = text.indexOf("*/", i + 2);
    return close === -1 ? text.length : close + 2;
  }
  let depth = 0;
  const n = text.length;
  for (let j = i; j < n; j++) {
    const c = text.charCodeAt(j);
    if (c === SLASH && text.charCodeAt(j + 1) === STAR) {
      depth++;
      j++;
    } else if (c === STAR && text.charCodeAt(j + 1) === SLASH) {
      depth--;
      j++;
      if (depth === 0) return j + 1;
    }
  }
  return n;
}

/**
 * The text with every comment and the content of every string literal replaced by spaces; line breaks are kept,
 * so offsets and line numbers are those of the original. A string literal becomes a quote (`"`, `'` or `` ` ``),
 * spaces and a closing quote of the same kind spanning exactly the literal (prefixes such as Python's `r`, Rust's
 * `r#`, extra quotes of `"""` and Lua's `[==[` turn into spaces). A quote that opens a one-line literal which
 * does not close on its line is blanked alone (JSX text, a stray apostrophe); a multi-line literal that does not
 * close runs to the text's end. A JavaScript regex literal keeps its slashes and loses its body, a template literal is masked
 * whole (its `${…}` included) unless `templateExpressions` keeps the code of its `${…}` (then the literal's text,
 * backticks and `${`/`}` included, becomes spaces; what references read). A leading byte order mark becomes a
 * space. Linear in the text's length; never throws.
 */
export function maskCode(text: string, dialect: Dialect, options: MaskOptions = {}): string {
  const m = new Masker(text);
  // A byte order mark would read as the start of an identifier.
  if (text.charCodeAt(0) === 0xfeff) m.blank(0, 1);
  switch (dialect) {
    case "c":
      maskCLike(text, m, false);
      break;
    case "js":
      maskCLike(text, m, true, options.templateExpressions === true);
      break;
    case "python":
      maskPython(text, m);
      break;
    case "go":
      maskGo(text, m);
      break;
    case "rust":
      maskRust(text, m);
      break;
    case "lua":
      maskLua(text, m);
      break;
  }
  return m.result();
}

/** Options of {@link maskCode}. */
export interface MaskOptions {
  /** Keep the code inside template literals' `${…}` (JavaScript). Default false: the literal is masked whole. */
  readonly templateExpressions?: boolean;
}

/** Keywords after which a `/` starts a regex literal rather than a division. */
const REGEX_AFTER = new Set(
  "return typeof instanceof in of new delete void throw case do else yield await".split(" "),
);

/**
 * Whether a `/` at `i` starts a regex: after an operator, an opening bracket, `}` or a keyword, not after a value
 * (a name, a number, a literal, `)`, `]`). Reads the masked units back, so comments before it are already blank.
 */
function regexAllowed(text: string, units: Uint16Array, i: number): boolean {
  let j = i - 1;
  while (j >= 0 && (units[j] === SPACE || units[j] === CHAR.TAB || isLineBreak(units[j]!))) j--;
  if (j < 0) return true;
  const c = units[j]!;
  if (isIdentifierPart(c)) {
    const start = identifierStartBefore(text, j + 1);
    return REGEX_AFTER.has(text.slice(start, j + 1));
  }
  // After `<` it is a JSX closing tag (`</div>`), not a regex.
  return !(
    c === CHAR.RPAREN ||
    c === RBRACKET ||
    c === DQUOTE ||
    c === QUOTE ||
    c === BACKTICK ||
    c === SLASH ||
    c === CHAR.LT
  );
}

/** End (after the closing slash) of a regex literal starting at `start`, or -1 when its line has none. */
function regexEnd(text: string, start: number): number {
  const n = text.length;
  let inClass = false;
  for (let i = start + 1; i < n; i++) {
    const c = text.charCodeAt(i);
    if (isLineBreak(c)) return -1;
    if (c === BACKSLASH) i++;
    else if (c === LBRACKET) inClass = true;
    else if (c === RBRACKET) inClass = false;
    else if (c === SLASH && !inClass) return i + 1;
  }
  return -1;
}

/** A template literal's text from `i` (after its backtick or an expression's `}`): where it ends or opens `${`. */
function templateRun(text: string, i: number): { end: number; opens: boolean } {
  const n = text.length;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === BACKSLASH) i += 2;
    else if (c === BACKTICK) return { end: i + 1, opens: false };
    else if (c === CHAR.DOLLAR && text.charCodeAt(i + 1) === CHAR.LBRACE) return { end: i + 2, opens: true };
    else i++;
  }
  return { end: n, opens: false };
}

const C_STOPS = stops("/\"'");
const JS_STOPS = stops("/\"'`{}");

function maskCLike(text: string, m: Masker, js: boolean, keepExpressions = false): void {
  const n = text.length;
  const table = js ? JS_STOPS : C_STOPS;
  // After a `/` that looked like a regex but did not close on its line, no regex until that line ends: each line
  // is then read at most twice, which keeps the scan linear.
  let noRegexUntil = -1;
  // Brace depth of each open template expression (`${`), innermost last; everything inside the outermost
  // template is masked as one literal when it closes.
  const braces: number[] = [];
  let templateStart = -1;
  const templateFrom = (from: number): number => {
    const run = templateRun(text, from);
    // Keeping expressions: each run of the literal's own text (from its backtick or `}` to its `${` or closing
    // backtick) goes as it is met, and the code between the runs stays.
    if (keepExpressions) m.blank(from - 1, run.end);
    if (run.opens) braces.push(0);
    else if (braces.length === 0 && !keepExpressions) m.string(templateStart, run.end, BACKTICK);
    return run.end;
  };
  // Whether what is at hand lies inside a literal that will be masked whole anyway.
  const masked = () => braces.length > 0 && !keepExpressions;
  let i = nextStop(text, 0, table);
  while (i < n) {
    const c = text.charCodeAt(i);
    const inTemplate = braces.length > 0;
    let next = i + 1;
    if (c === SLASH) {
      const end = slashCommentEnd(text, i, false);
      if (end !== -1) {
        if (!masked()) m.blank(i, end);
        next = end;
      } else if (js && i >= noRegexUntil && regexAllowed(text, m.units, i)) {
        const close = regexEnd(text, i);
        if (close !== -1) {
          if (!masked()) m.blank(i + 1, close - 1);
          next = close;
        } else noRegexUntil = lineEnd(text, i);
      }
    } else if (c === DQUOTE || c === QUOTE) {
      next = quotedEnd(text, i, c, true);
      if (!masked()) next = m.lineString(text, i, next);
    } else if (c === BACKTICK) {
      if (!inTemplate) templateStart = i;
      next = templateFrom(i + 1);
    } else if (inTemplate && c === CHAR.LBRACE) braces[braces.length - 1]!++;
    else if (inTemplate && c === CHAR.RBRACE) {
      if (braces[braces.length - 1] === 0) {
        braces.pop();
        next = templateFrom(i + 1);
      } else braces[braces.length - 1]!--;
    }
    i = nextStop(text, next, table);
  }
  if (braces.length > 0 && !keepExpressions) m.string(templateStart, n, BACKTICK);
}

const PYTHON_PREFIXES = new Set(["r", "u", "b", "f", "t", "br", "rb", "fr", "rf", "tr", "rt"]);
const PYTHON_STOPS = stops("#\"'");

function maskPython(text: string, m: Masker): void {
  const n = text.length;
  let i = nextStop(text, 0, PYTHON_STOPS);
  while (i < n) {
    const q = text.charCodeAt(i);
    if (q === HASH) {
      const end = lineEnd(text, i);
      m.blank(i, end);
      i = nextStop(text, end, PYTHON_STOPS);
      continue;
    }
    // A prefix (r, b, f, rb, …) is a word of its own right before the quote.
    const wordStart = identifierStartBefore(text, i);
    if (wordStart < i && PYTHON_PREFIXES.has(text.slice(wordStart, i).toLowerCase())) m.blank(wordStart, i);
    let end: number;
    if (text.charCodeAt(i + 1) === q && text.charCodeAt(i + 2) === q) {
      end = n;
      for (let j = i + 3; j < n; j++) {
        const d = text.charCodeAt(j);
        if (d === BACKSLASH) j++;
        else if (d === q && text.charCodeAt(j + 1) === q && text.charCodeAt(j + 2) === q) {
          end = j + 3;
          break;
        }
      }
      m.string(i, end, q);
    } else end = m.lineString(text, i, quotedEnd(text, i, q, true));
    i = nextStop(text, end, PYTHON_STOPS);
  }
}

const GO_STOPS = stops("/\"'`");

function maskGo(text: string, m: Masker): void {
  const n = text.length;
  let i = nextStop(text, 0, GO_STOPS);
  while (i < n) {
    const c = text.charCodeAt(i);
    let next = i + 1;
    if (c === SLASH) {
      const end = slashCommentEnd(text, i, false);
      if (end !== -1) {
        m.blank(i, end);
        next = end;
      }
    } else {
      // "…" and '…' (runes) end at their line; `…` (raw) may span lines and has no escapes.
      if (c === BACKTICK) {
        next = quotedEnd(text, i, c, false, false);
        m.string(i, next, DQUOTE);
      } else next = m.lineString(text, i, quotedEnd(text, i, c, true));
    }
    i = nextStop(text, next, GO_STOPS);
  }
}

const RUST_STOPS = stops("/\"'");

function maskRust(text: string, m: Masker): void {
  const n = text.length;
  let i = nextStop(text, 0, RUST_STOPS);
  while (i < n) {
    const c = text.charCodeAt(i);
    let next = i + 1;
    if (c === SLASH) {
      const end = slashCommentEnd(text, i, true);
      if (end !== -1) {
        m.blank(i, end);
        next = end;
      }
    } else if (c === DQUOTE) {
      // Raw strings r"…", r#"…"# (br, cr too): as many hashes close them as open them, and no escapes.
      let hashes = 0;
      while (text.charCodeAt(i - 1 - hashes) === HASH) hashes++;
      const wordStart = identifierStartBefore(text, i - hashes);
      const prefix = text.slice(wordStart, i - hashes);
      if (prefix === "r" || prefix === "br" || prefix === "cr") {
        const close = `"${"#".repeat(hashes)}`;
        const at = text.indexOf(close, i + 1);
        m.blank(wordStart, i);
        m.string(i, at === -1 ? n : at + 1, DQUOTE);
        next = at === -1 ? n : at + close.length;
        m.blank(at === -1 ? n : at + 1, next);
      } else {
        if (hashes === 0 && (prefix === "b" || prefix === "c")) m.blank(wordStart, i);
        next = quotedEnd(text, i, c, false);
        m.string(i, next, DQUOTE);
      }
    } else {
      const end = charLiteralEnd(text, i);
      if (end !== -1) {
        if (text.charCodeAt(i - 1) === 98 && !isIdentifierPart(text.charCodeAt(i - 2))) m.blank(i - 1, i); // b'x'
        m.string(i, end, QUOTE);
        next = end;
      } else {
        // A lifetime or a loop label ('a): not a literal, but a lone quote would read as one.
        next = Math.max(i + 1, identifierEndAfter(text, i + 1));
        m.blank(i, next);
      }
    }
    i = nextStop(text, next, RUST_STOPS);
  }
}

function identifierEndAfter(text: string, i: number): number {
  const n = text.length;
  while (i < n && isIdentifierPart(text.charCodeAt(i))) i++;
  return i;
}

/** End of a Rust char literal at `start` (`'a'`, `'\n'`, `'\u{1F600}'`, `'😀'`), or -1 for a lifetime. */
function charLiteralEnd(text: string, start: number): number {
  const first = text.charCodeAt(start + 1);
  if (first === BACKSLASH) {
    const limit = Math.min(text.length, start + 14);
    for (let i = start + 3; i < limit; i++) {
      const c = text.charCodeAt(i);
      if (c === QUOTE) return i + 1;
      if (isLineBreak(c)) return -1;
    }
    return -1;
  }
  if (isLineBreak(first) || Number.isNaN(first)) return -1;
  const width = first >= 0xd800 && first <= 0xdbff ? 2 : 1;
  return text.charCodeAt(start + 1 + width) === QUOTE ? start + 2 + width : -1;
}

/** Level of a Lua long bracket `[==[` at `i` (the number of `=`), or -1 when none opens there. */
function longBracketLevel(text: string, i: number): number {
  if (text.charCodeAt(i) !== LBRACKET) return -1;
  let j = i + 1;
  while (text.charCodeAt(j) === EQUALS) j++;
  return text.charCodeAt(j) === LBRACKET ? j - i - 1 : -1;
}

const LUA_STOPS = stops("-[\"'");

function maskLua(text: string, m: Masker): void {
  const n = text.length;
  const longClose = (from: number, level: number): number => {
    const close = `]${"=".repeat(level)}]`;
    const at = text.indexOf(close, from);
    return at === -1 ? n : at + close.length;
  };
  let i = nextStop(text, 0, LUA_STOPS);
  while (i < n) {
    const c = text.charCodeAt(i);
    let next = i + 1;
    if (c === CHAR.MINUS) {
      if (text.charCodeAt(i + 1) === CHAR.MINUS) {
        const level = longBracketLevel(text, i + 2);
        next = level === -1 ? lineEnd(text, i) : longClose(i + 4 + level, level);
        m.blank(i, next);
      }
    } else if (c === LBRACKET) {
      const level = longBracketLevel(text, i);
      if (level !== -1) {
        next = longClose(i + 2 + level, level);
        m.string(i, next, DQUOTE);
      }
    } else next = m.lineString(text, i, quotedEnd(text, i, c, true));
    i = nextStop(text, next, LUA_STOPS);
  }
}
