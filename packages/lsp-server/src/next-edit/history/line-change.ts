import { type AppliedChange, advance, mapPosition } from "../../documents/position-map.js";
import { TextBuffer } from "../../documents/text-buffer.js";

/** A change to a document as whole lines: what the history groups. */
export interface LineChange {
  /** First changed line (0-based), the same in the text before and after the change. */
  readonly startLine: number;
  /** The changed lines before the change, without their line breaks. */
  readonly oldLines: readonly string[];
  /** The lines that replaced them. */
  readonly newLines: readonly string[];
}

const LINE_BREAK = /\r\n|\r|\n/;

/**
 * The whole lines a change replaced and put in their place, given the text after it (`lineAt`, 0-based): the lines
 * it touches are read from the document, and what they held before is put together from the start of the first,
 * the replaced text and the end of the last. Lines equal on both sides at either end are left out (deleting a
 * whole line touches the next one's start), so `startLine` is the first line that really differs. O(the change and
 * its lines): never the document's text.
 */
export function lineChange(change: AppliedChange, lineAt: (line: number) => string): LineChange {
  const { start } = change.range;
  const inserted = splitLines(change.text);
  const first = lineAt(start.line);
  const lastLine = start.line + inserted.length - 1;
  const last = lastLine === start.line ? first : lineAt(lastLine);
  // The last new line ends with what followed the change: the text after the inserted part of it.
  const insertedTail = inserted.at(-1)!.length;
  const tailStart = inserted.length === 1 ? start.character + insertedTail : insertedTail;
  const before = first.slice(0, start.character) + change.replaced + last.slice(tailStart);
  const newLines: string[] = [];
  for (let line = start.line; line <= lastLine; line++) {
    newLines.push(line === start.line ? first : line === lastLine ? last : lineAt(line));
  }
  return trimEqualLines(start.line, splitLines(before), newLines);
}

/** A text's lines (a keystroke's text has one: no regular expression for it). */
function splitLines(text: string): string[] {
  return text.includes("\n") || text.includes("\r") ? text.split(LINE_BREAK) : [text];
}

/** A change without the lines both sides share at either end (a side may be left with none: a pure insertion). */
function trimEqualLines(startLine: number, oldLines: string[], newLines: string[]): LineChange {
  let head = 0;
  while (head < oldLines.length && head < newLines.length && oldLines[head] === newLines[head]) head++;
  let tail = 0;
  while (
    tail < oldLines.length - head &&
    tail < newLines.length - head &&
    oldLines[oldLines.length - 1 - tail] === newLines[newLines.length - 1 - tail]
  )
    tail++;
  return {
    startLine: startLine + head,
    oldLines: oldLines.slice(head, oldLines.length - tail),
    newLines: newLines.slice(head, newLines.length - tail),
  };
}

/**
 * The whole lines a notification's changes replaced, as one change (an editor may send a burst of keystrokes in one
 * `didChange`: Neovim does, within 150 ms): the lines the changes reach in the text after all of them, and the same
 * lines before, found by taking the changes back, last first, on a copy of just those lines. O(the lines touched).
 */
export function notificationChange(
  changes: readonly AppliedChange[],
  lineAt: (line: number) => string,
): LineChange | undefined {
  if (changes.length === 0) return undefined;
  if (changes.length === 1) return lineChange(changes[0]!, lineAt);
  // Where each change's new text is in the final text: moved by the changes after it.
  let top = Number.POSITIVE_INFINITY;
  let bottom = -1;
  changes.forEach((change, i) => {
    let start = change.range.start;
    let end = advance(start, change.text);
    for (const later of changes.slice(i + 1)) {
      start = mapPosition(start, later, "before");
      end = mapPosition(end, later, "after");
    }
    top = Math.min(top, start.line);
    bottom = Math.max(bottom, end.line);
  });
  const after: string[] = [];
  for (let line = top; line <= bottom; line++) after.push(lineAt(line));
  // Every change lies inside these lines, so none moves the lines above them: line `top` is the copy's first line
  // whichever change is taken back.
  const copy = new TextBuffer(after.join("\n"));
  for (let i = changes.length - 1; i >= 0; i--) {
    const { range, text, replaced } = changes[i]!;
    const start = { line: range.start.line - top, character: range.start.character };
    copy.applyChange({ range: { start, end: advance(start, text) }, text: replaced });
  }
  const before: string[] = [];
  for (let line = 0; line < copy.lineCount; line++) before.push(copy.lineAt(line));
  return trimEqualLines(top, before, after);
}
