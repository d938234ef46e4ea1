// The ctags oracle's view of a source file: its code with comments and literals blanked out, so that a name in a
// comment or a string is no hole. Pure. An approximation (no heredocs, regex literals or nested comments), shared
// with nothing in the server.
import type { Syntax } from "./languages.js";

/**
 * `text` with every comment and (unless `literals` is false) every string or character literal replaced by
 * spaces, line breaks kept: the same length, so offsets and lines stay those of `text`. A block comment delimiter
 * that starts with `\n` (Ruby's `=begin`) matches only at the start of a line.
 */
export function blankNonCode(text: string, syntax: Syntax, literals = true): string {
  const out = text.split("");
  const blank = (from: number, to: number) => {
    for (let i = from; i < to && i < out.length; i++) if (out[i] !== "\n" && out[i] !== "\r") out[i] = " ";
  };
  const atLineStart = (i: number) => i === 0 || text[i - 1] === "\n";
  let i = 0;
  while (i < text.length) {
    const found = commentEnd(text, i, syntax, atLineStart);
    const end = found ?? literalEnd(text, i, syntax);
    if (end === undefined) {
      i++;
      continue;
    }
    if (found !== undefined || literals) blank(i, end);
    i = end;
  }
  return out.join("");
}

/** The end of the comment starting at `i`, or undefined when none starts there. */
function commentEnd(
  text: string,
  i: number,
  syntax: Syntax,
  atLineStart: (i: number) => boolean,
): number | undefined {
  for (const [open, close] of syntax.blockComments) {
    const opener = open.startsWith("\n") ? open.slice(1) : open;
    if (!text.startsWith(opener, i) || (open.startsWith("\n") && !atLineStart(i))) continue;
    const at = text.indexOf(close, i + opener.length);
    return at === -1 ? text.length : at + close.length;
  }
  for (const open of syntax.lineComments) {
    if (!text.startsWith(open, i)) continue;
    const at = text.indexOf("\n", i);
    return at === -1 ? text.length : at;
  }
  return undefined;
}

/** The end of the string or character literal starting at `i`, or undefined when none starts there. */
function literalEnd(text: string, i: number, syntax: Syntax): number | undefined {
  const c = text[i]!;
  if (syntax.rust) {
    const raw = /^r(#*)"/.exec(text.slice(i, i + 12));
    if (raw && !isIdentifierChar(text[i - 1])) {
      const closer = `"${raw[1]}`;
      const at = text.indexOf(closer, i + raw[0].length);
      return at === -1 ? text.length : at + closer.length;
    }
    if (c === "'") return rustCharEnd(text, i);
  }
  if (syntax.verbatimStrings && c === "@" && text[i + 1] === '"') {
    let j = i + 2;
    while (j < text.length) {
      if (text[j] === '"' && text[j + 1] === '"') j += 2;
      else if (text[j] === '"') return j + 1;
      else j++;
    }
    return text.length;
  }
  if (syntax.tripleQuotes && (text.startsWith('"""', i) || text.startsWith("'''", i))) {
    const closer = text.slice(i, i + 3);
    let j = i + 3;
    while (j < text.length && !text.startsWith(closer, j)) j += text[j] === "\\" ? 2 : 1;
    return Math.min(text.length, j + 3);
  }
  if (syntax.rawQuotes?.includes(c)) {
    const at = text.indexOf(c, i + 1);
    return at === -1 ? text.length : at + 1;
  }
  if (syntax.quotes.includes(c)) {
    let j = i + 1;
    while (j < text.length && text[j] !== c) {
      if (text[j] === "\n" && !syntax.multilineStrings) return j;
      j += text[j] === "\\" ? 2 : 1;
    }
    return Math.min(text.length, j + 1);
  }
  return undefined;
}

/** A Rust character literal (`'a'`, `'\n'`, `'\u{1F600}'`) from `i`; a lifetime (`'a`) is no literal. */
function rustCharEnd(text: string, i: number): number | undefined {
  if (text[i + 1] === "\\") {
    const at = text.indexOf("'", i + 2);
    return at === -1 || at > i + 12 ? undefined : at + 1;
  }
  const code = text.codePointAt(i + 1);
  if (code === undefined) return undefined;
  const width = code > 0xffff ? 2 : 1;
  return text[i + 1 + width] === "'" ? i + 2 + width : undefined;
}

function isIdentifierChar(c: string | undefined): boolean {
  return c !== undefined && /[A-Za-z0-9_]/.test(c);
}
