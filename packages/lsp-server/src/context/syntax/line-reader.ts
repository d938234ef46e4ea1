import type { ParseCallback, Point } from "web-tree-sitter";
import type { LineSource } from "../../documents/text-buffer.js";

// The parser's input callback over a document's own lines, so that a parse reads the buffer where it needs to (an
// incremental re-parse reads little more than what changed) and no joined text of the document is ever made. The
// parser asks for text at an offset and a point (row, column: UTF-16 units of the text with its lines joined by
// `\n`) and takes what comes back as the text from there on.

/**
 * How much one answer of the callback holds, at most, in UTF-16 units (a longer line comes whole): web-tree-sitter
 * copies an answer into a buffer of 5,120 units and asks again after what it took.
 */
const CHUNK = 4096;

/** Text read from the lines, and the point after it. */
interface Read {
  readonly text: string;
  readonly end: Point;
}

/** The text of `lines` (joined with `\n`) from `point` on, up to `stop` (a point, exclusive) when given. */
function readLines(lines: LineSource, point: Point, stop?: Point): Read | undefined {
  const last = lines.lineCount - 1;
  const endRow = stop ? Math.min(stop.row, last) : last;
  let row = point.row;
  if (row > endRow) return undefined;
  const first = lines.lineAt(row);
  if (stop && row === endRow) {
    const column = Math.min(stop.column, first.length);
    return { text: first.slice(point.column, column), end: { row, column } };
  }
  let text = first.slice(point.column);
  let end: Point = { row, column: first.length };
  while (row < endRow || (row < last && !stop)) {
    if (text.length >= CHUNK) return { text, end };
    text += "\n";
    row++;
    const line = lines.lineAt(row);
    if (stop && row === endRow) {
      const column = Math.min(stop.column, line.length);
      return { text: text + line.slice(0, column), end: { row, column } };
    }
    text += line;
    end = { row, column: line.length };
  }
  return { text, end };
}

/**
 * A parse callback from a function that reads at a point. The point the parser passes is used where a read does not
 * follow the one before: web-tree-sitter's `node.text` asks again with the first read's point for every chunk after
 * it, so a read that continues the one before goes on from where that one ended.
 */
function callback(read: (index: number, point: Point) => Read | undefined): ParseCallback {
  let nextIndex = -1;
  let nextPoint: Point = { row: 0, column: 0 };
  return (index, point) => {
    const got = read(index, index === nextIndex ? nextPoint : point);
    if (!got) return undefined;
    nextIndex = index + got.text.length;
    nextPoint = got.end;
    return got.text;
  };
}

/** The parse callback that reads `lines`, joined with `\n`. */
export function lineReader(lines: LineSource): ParseCallback {
  return callback((_index, point) => readLines(lines, point));
}

/** The point after `text`, from `point` (lines joined with `\n`). */
function after(point: Point, text: string): Point {
  const last = text.lastIndexOf("\n");
  if (last === -1) return { row: point.row, column: point.column + text.length };
  let rows = 0;
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) rows++;
  return { row: point.row + rows, column: text.length - last - 1 };
}

/**
 * The parse callback that reads `lines` (joined with `\n`) with `removed` at `offset` (at `point`) replaced by
 * `inserted`, without making that text: before the change it reads the lines up to the change's point, inside it
 * the inserted text, after it the lines from where the removed text ended, its points mapped back to them.
 */
export function variantReader(
  lines: LineSource,
  change: { offset: number; point: Point; removed: string; inserted: string },
): ParseCallback {
  const { offset, point: at, removed, inserted } = change;
  const insertedEnd = offset + inserted.length;
  const newEnd = after(at, inserted);
  const oldEnd = after(at, removed);
  // A point past the change in the variant, in the document's lines, and back.
  const toLines = (p: Point): Point =>
    p.row === newEnd.row
      ? { row: oldEnd.row, column: oldEnd.column + p.column - newEnd.column }
      : { row: p.row - newEnd.row + oldEnd.row, column: p.column };
  const toVariant = (p: Point): Point =>
    p.row === oldEnd.row
      ? { row: newEnd.row, column: newEnd.column + p.column - oldEnd.column }
      : { row: p.row - oldEnd.row + newEnd.row, column: p.column };
  return callback((index, point) => {
    if (index < offset) return readLines(lines, point, at);
    if (index < insertedEnd) {
      const text = inserted.slice(index - offset);
      return { text, end: newEnd };
    }
    const read = readLines(lines, toLines(point));
    return read && { text: read.text, end: toVariant(read.end) };
  });
}
