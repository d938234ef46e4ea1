import type { Position, Range } from "vscode-languageserver";
import { comparePositions } from "./text-buffer.js";

// Following a place in a document through its edits: where a position is after a change, given what the change
// replaced. Positions are UTF-16, line breaks `\n`, `\r\n` or `\r` (as LSP counts lines).

/**
 * A change as it was applied: the range it replaced (UTF-16, in the text before the change), the text it put there,
 * and the text it replaced. {@link trimChange} and {@link fullTextChange} make it the smallest such change, so that a
 * client re-inserting the word before the cursor along with a completion, or sending the whole document, moves only
 * what really changed.
 */
export interface AppliedChange {
  readonly range: Range;
  readonly text: string;
  readonly replaced: string;
}

/** Which way a position at the edge of a change goes: before an insertion there, or after it. */
export type Stickiness = "before" | "after";

const CR = 13;
const LF = 10;

/** The position after `text` when it starts at `start`. */
export function advance(start: Position, text: string): Position {
  let line = start.line;
  let lineStart = -1;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === LF || (code === CR && text.charCodeAt(i + 1) !== LF)) {
      line++;
      lineStart = i;
    }
  }
  return lineStart === -1
    ? { line, character: start.character + text.length }
    : { line, character: text.length - lineStart - 1 };
}

/** Whether a cut at `at` would split a `\r\n` or a surrogate pair of `text`. */
function splitsUnit(text: string, at: number): boolean {
  if (at <= 0 || at >= text.length) return false;
  const before = text.charCodeAt(at - 1);
  const after = text.charCodeAt(at);
  return (before === CR && after === LF) || (before >= 0xd800 && before <= 0xdbff);
}

/** How many leading UTF-16 units `a` and `b` share, never splitting a line break or a character. */
function commonPrefix(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  let k = 0;
  while (k < n && a.charCodeAt(k) === b.charCodeAt(k)) k++;
  // A shared `\r` before a `\n` that one of them lacks is half of a line break that changed.
  if (splitsUnit(a, k) || splitsUnit(b, k)) k--;
  return k;
}

/** How many trailing units `a` and `b` share beyond their first `from`, never splitting a break or a character. */
function commonSuffix(a: string, b: string, from: number): number {
  const n = Math.min(a.length, b.length) - from;
  let m = 0;
  while (m < n && a.charCodeAt(a.length - 1 - m) === b.charCodeAt(b.length - 1 - m)) m++;
  while (m > 0 && (splitsUnit(a, a.length - m) || splitsUnit(b, b.length - m))) m--;
  return m;
}

/** `change` without the text its replacement and what it replaced share at either end. */
export function trimChange(change: AppliedChange): AppliedChange {
  const { replaced, text } = change;
  const k = commonPrefix(replaced, text);
  const m = commonSuffix(replaced, text, k);
  if (k === 0 && m === 0) return change;
  const start = advance(change.range.start, replaced.slice(0, k));
  const gone = replaced.slice(k, replaced.length - m);
  return {
    range: { start, end: advance(start, gone) },
    text: text.slice(k, text.length - m),
    replaced: gone,
  };
}

/** The smallest change that turns the text `before` into `after` (a client that sends whole documents). */
export function fullTextChange(before: string, after: string): AppliedChange {
  const k = commonPrefix(before, after);
  const m = commonSuffix(before, after, k);
  const start = advance({ line: 0, character: 0 }, before.slice(0, k));
  const replaced = before.slice(k, before.length - m);
  return {
    range: { start, end: advance(start, replaced) },
    text: after.slice(k, after.length - m),
    replaced,
  };
}

/**
 * Where `position` is after `change`: unmoved before it, shifted after it, and inside what it replaced (or at the
 * very place of an insertion) at its start (`before`) or after its new text (`after`). A position at the end of a
 * replaced range is the start of the text that follows it, so it goes after the new text either way.
 */
export function mapPosition(position: Position, change: AppliedChange, stick: Stickiness): Position {
  const { start, end } = change.range;
  if (comparePositions(position, start) < 0) return position;
  const inserted = advance(start, change.text);
  const toEnd = comparePositions(position, end);
  if (toEnd > 0 || (toEnd === 0 && comparePositions(start, end) < 0)) {
    return position.line === end.line
      ? { line: inserted.line, character: inserted.character + position.character - end.character }
      : { line: position.line + inserted.line - end.line, character: position.character };
  }
  return stick === "before" ? start : inserted;
}

/** Line breaks in `text` (`\n`, `\r\n` or `\r`). */
function lineBreaks(text: string): number {
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === LF || (code === CR && text.charCodeAt(i + 1) !== LF)) count++;
  }
  return count;
}

/** How many lines more the document has after `changes` than before (negative: fewer). */
export function lineDelta(changes: readonly AppliedChange[]): number {
  let delta = 0;
  for (const { text, replaced } of changes) delta += lineBreaks(text) - lineBreaks(replaced);
  return delta;
}
