import { CHAR, type Dialect, maskCode } from "./scan.js";

/** A text's lines by number: what a declaration's snippet is cut from (it keeps no masked code). */
export class TextLines {
  /** Offset of each line's first character. */
  private readonly starts: number[];

  constructor(readonly text: string) {
    const starts = [0];
    for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) starts.push(i + 1);
    this.starts = starts;
  }

  get lineCount(): number {
    return this.starts.length;
  }

  /** Offset of a line's first character. */
  lineStart(line: number): number {
    return this.starts[line] ?? this.text.length;
  }

  /** Offset just past a line's last character, before its terminator (`\n` or `\r\n`). */
  lineEnd(line: number): number {
    const next = this.starts[line + 1];
    if (next === undefined) return this.text.length;
    return next >= 2 && this.text.charCodeAt(next - 2) === CHAR.CR ? next - 2 : next - 1;
  }

  /** The 0-based line holding an offset. */
  lineOf(offset: number): number {
    const starts = this.starts;
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  /** A line without its terminator. */
  line(line: number): string {
    return this.text.slice(this.lineStart(line), this.lineEnd(line));
  }

  /** Leading whitespace of a line. */
  indentation(line: number): string {
    const text = this.line(line);
    return text.slice(0, text.length - text.trimStart().length);
  }
}

/** A file's text next to its masked code (see {@link maskCode}), with a line index over both. */
export class SourceText extends TextLines {
  /** The masked code: same length and line breaks as `text`. */
  readonly code: string;

  constructor(text: string, dialect: Dialect) {
    super(text);
    this.code = maskCode(text, dialect);
  }

  /** Offset of the first non-blank character of a line's code, or -1 when the code is blank (or a comment). */
  firstCode(line: number): number {
    const end = this.lineEnd(line);
    for (let i = this.lineStart(line); i < end; i++) {
      const c = this.code.charCodeAt(i);
      if (c !== CHAR.SPACE && c !== CHAR.TAB && c !== 12) return i;
    }
    return -1;
  }

  /** Whether a line holds only a comment: text, but no code. */
  isCommentOnly(line: number): boolean {
    if (this.firstCode(line) !== -1) return false;
    const end = this.lineEnd(line);
    for (let i = this.lineStart(line); i < end; i++) {
      const c = this.text.charCodeAt(i);
      if (c !== CHAR.SPACE && c !== CHAR.TAB && c !== 12) return true;
    }
    return false;
  }

  /** First line of the comment block right above `line` (no blank line between), or `line` when none. */
  docStart(line: number): number {
    let start = line;
    while (start > 0 && this.isCommentOnly(start - 1)) start--;
    return start;
  }
}
