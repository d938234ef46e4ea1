import { type LineChange, lineChanges, splitLines } from "./line-diff.js";

/** Replace `[startOffset, endOffset)` of the current region (UTF-16 offsets) by `text`. */
export interface RegionEdit {
  startOffset: number;
  endOffset: number;
  text: string;
}

/**
 * The smallest edits that turn `current` into `rewritten`, nearest the cursor first (an edit holding the cursor, then
 * by distance; the earlier of two as near). The regions are diffed by lines; a run of lines replaced by as many
 * lines is paired line by line (a rename on two neighbouring lines is two edits), any other run is one edit; each
 * is trimmed of the text its two sides share at the start and at the end. Offsets are all in `current`: apply the
 * edits from the last offset to the first. Empty when the two are equal.
 */
export function regionEdits(current: string, rewritten: string, cursorOffset: number): RegionEdit[] {
  const oldLines = splitLines(current);
  const newLines = splitLines(rewritten);
  const lineStarts = offsetsOf(oldLines);
  const edits: RegionEdit[] = [];
  for (const change of lineChanges(oldLines, newLines)) {
    for (const [oldStart, oldEnd, newStart, newEnd] of pairs(change)) {
      const start = lineStarts[oldStart] ?? current.length;
      const end = lineStarts[oldEnd] ?? current.length;
      const edit = trimmed(start, current.slice(start, end), newLines.slice(newStart, newEnd).join(""));
      if (edit) edits.push(edit);
    }
  }
  return edits.sort(
    (a, b) => distance(a, cursorOffset) - distance(b, cursorOffset) || a.startOffset - b.startOffset,
  );
}

/** The line ranges to make edits of: each line of an equal-sized run on its own, otherwise the run whole. */
function pairs(change: LineChange): [number, number, number, number][] {
  const { oldStart, oldEnd, newStart, newEnd } = change;
  if (oldEnd - oldStart !== newEnd - newStart) return [[oldStart, oldEnd, newStart, newEnd]];
  return Array.from({ length: oldEnd - oldStart }, (_, i) => [
    oldStart + i,
    oldStart + i + 1,
    newStart + i,
    newStart + i + 1,
  ]);
}

/** The offset each line starts at, and one past the last line. */
function offsetsOf(lines: readonly string[]): number[] {
  const starts = [0];
  for (const line of lines) starts.push((starts.at(-1) ?? 0) + line.length);
  return starts;
}

/** The edit replacing `removed` at `start` by `inserted`, less what both share at each end; none if they are equal. */
function trimmed(start: number, removed: string, inserted: string): RegionEdit | undefined {
  if (removed === inserted) return undefined;
  let head = 0;
  const most = Math.min(removed.length, inserted.length);
  while (head < most && removed[head] === inserted[head]) head++;
  let tail = 0;
  while (tail < most - head && removed[removed.length - 1 - tail] === inserted[inserted.length - 1 - tail])
    tail++;
  // Never split a surrogate pair: an edit starts and ends on a whole character.
  if (head > 0 && isHighSurrogate(removed.charCodeAt(head - 1))) head--;
  if (tail > 0 && isLowSurrogate(removed.charCodeAt(removed.length - tail))) tail--;
  return {
    startOffset: start + head,
    endOffset: start + removed.length - tail,
    text: inserted.slice(head, inserted.length - tail),
  };
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/** 0 when the edit holds the cursor (its ends included), otherwise how far the nearer end is. */
function distance(edit: RegionEdit, cursor: number): number {
  if (cursor < edit.startOffset) return edit.startOffset - cursor;
  if (cursor > edit.endOffset) return cursor - edit.endOffset;
  return 0;
}
