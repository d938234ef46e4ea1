import type { LineSpan, RegionShape } from "./region.js";

// The structure of code without a grammar, read from its indentation: a block is a run of lines indented deeper
// than the line that opens it, with that line and the line that closes it (`}`, `end`, …). Pure.

/** How far a scan looks from the cursor, in lines: a region is far smaller, and a keystroke's request stays cheap. */
const SCAN_LINES = 400;

/** A line that closes a block at its opener's depth. */
const CLOSER = /^\s*(?:[}\])]|end\b|fi\b|done\b|esac\b|until\b)/;

/** The lines of a document, read one at a time. */
export interface Lines {
  lineAt(line: number): string;
  readonly lineCount: number;
}

/** The indentation of a line in columns (a tab counts 4), or undefined for a blank line. */
function indentOf(text: string): number | undefined {
  let columns = 0;
  for (const char of text) {
    if (char === " ") columns++;
    else if (char === "\t") columns += 4;
    else return columns;
  }
  return undefined;
}

/**
 * The blocks around `cursorLine` by indentation, innermost first (the document last), and the parts of each: its
 * lines at the depth just inside it, each with the deeper lines under it. Looks at most {@link SCAN_LINES} lines
 * either way.
 */
export function indentShape(lines: Lines, cursorLine: number): RegionShape {
  const low = Math.max(0, cursorLine - SCAN_LINES);
  const high = Math.min(lines.lineCount - 1, cursorLine + SCAN_LINES);
  const depth = (line: number) => indentOf(lines.lineAt(line));
  // A blank line belongs to the block of the nearest line with code.
  let anchor = cursorLine;
  while (anchor > low && depth(anchor) === undefined) anchor--;
  const ancestors: LineSpan[] = [];
  const inner: number[] = [];
  let level = depth(anchor) ?? 0;
  let start = anchor;
  let end = anchor;
  for (;;) {
    // The run of lines at this depth or deeper (blank ones too).
    while (start > low && (depth(start - 1) ?? level) >= level) start--;
    while (end < high && (depth(end + 1) ?? level) >= level) end++;
    // Trailing blank lines are not the block's (unless the cursor is on one).
    while (end > Math.max(start, cursorLine) && depth(end) === undefined) end--;
    const opener = start > low ? start - 1 : undefined;
    const openerDepth = opener === undefined ? undefined : depth(opener);
    if (opener === undefined || openerDepth === undefined || level === 0) {
      ancestors.push({ start: low, end: high });
      inner.push(level);
      break;
    }
    const closer = end + 1 <= high && depth(end + 1) === openerDepth && CLOSER.test(lines.lineAt(end + 1));
    ancestors.push({ start: opener, end: closer ? end + 1 : end });
    inner.push(level);
    start = opener;
    end = closer ? end + 1 : end;
    level = openerDepth;
  }
  return {
    ancestors,
    childrenOf: (i) => parts(lines, ancestors[i]!, inner[i]!),
  };
}

/**
 * The parts of a block: each line at `level` or shallower inside it (its opener, its statements, its closer), with
 * the deeper lines under it and the closer that ends them.
 */
function parts(lines: Lines, block: LineSpan, level: number): LineSpan[] {
  const found: LineSpan[] = [];
  for (let line = block.start; line <= block.end; line++) {
    const text = lines.lineAt(line);
    const indent = indentOf(text);
    if (indent === undefined) continue;
    const last = found.at(-1);
    // A closer at this depth closes what a line of this depth before it opened.
    const under = indent > level || (indent === level && CLOSER.test(text));
    if (last && under) found[found.length - 1] = { start: last.start, end: line };
    else found.push({ start: line, end: line });
  }
  return found;
}
