// The editable region of a next-edit request: the lines the model may rewrite, chosen around the cursor along the
// code's structure (syntax nodes, or indentation blocks), within a number of lines. Pure.

/** Lines `start` to `end`, both included (0-based). */
export interface LineSpan {
  readonly start: number;
  readonly end: number;
}

/** The structure around the cursor: the spans that enclose it, and what each one holds. */
export interface RegionShape {
  /** The spans that hold the cursor's line, innermost first, each within the next. */
  readonly ancestors: readonly LineSpan[];
  /** The parts of `ancestors[i]` (its children: statements, members, lines), in order. */
  childrenOf(i: number): readonly LineSpan[];
}

const size = (span: LineSpan) => span.end - span.start + 1;

/**
 * The region: the largest span around the cursor that fits `maxLines`, grown by whole parts of the span that holds
 * it (the statements before and after, alternately below then above) while they fit. When not even the innermost
 * span fits, `maxLines` lines around the cursor inside it. The whole document when it fits.
 */
export function chooseRegion(
  cursorLine: number,
  lineCount: number,
  shape: RegionShape,
  maxLines: number,
): LineSpan {
  const document = { start: 0, end: Math.max(0, lineCount - 1) };
  const ancestors = [...shape.ancestors, document];
  let fit = -1;
  while (fit + 1 < ancestors.length && size(ancestors[fit + 1]!) <= maxLines) fit++;
  if (fit === ancestors.length - 1) return document;
  if (fit === -1) return around(cursorLine, ancestors[0]!, maxLines);
  const chosen = ancestors[fit]!;
  const parent = fit + 1;
  const parts = parent < shape.ancestors.length ? shape.childrenOf(parent) : lineParts(document);
  return grow(chosen, parts, maxLines);
}

/** `maxLines` lines around `line` (a third above it, the rest below: the next edit is more often below), inside `within`. */
function around(line: number, within: LineSpan, maxLines: number): LineSpan {
  const lines = Math.max(1, maxLines);
  let start = Math.max(within.start, line - Math.floor((lines - 1) / 3));
  const end = Math.min(within.end, start + lines - 1);
  start = Math.max(within.start, end - lines + 1);
  return { start, end };
}

/** `span` grown by whole parts next to it, below then above in turn, while it fits `maxLines`. */
function grow(span: LineSpan, parts: readonly LineSpan[], maxLines: number): LineSpan {
  let { start, end } = span;
  const below = parts.filter((part) => part.start > end);
  const above = parts.filter((part) => part.end < start).reverse();
  let i = 0;
  let j = 0;
  let grew = true;
  while (grew) {
    grew = false;
    const next = below[i];
    if (next && next.end - start + 1 <= maxLines) {
      end = next.end;
      i++;
      grew = true;
    }
    const previous = above[j];
    if (previous && end - previous.start + 1 <= maxLines) {
      start = previous.start;
      j++;
      grew = true;
    }
  }
  return { start, end };
}

/** A span's lines as its parts. */
function lineParts(span: LineSpan): LineSpan[] {
  const parts: LineSpan[] = [];
  for (let line = span.start; line <= span.end; line++) parts.push({ start: line, end: line });
  return parts;
}

/**
 * The region made to hold the sites nearest the cursor (lines the user's last edit may have to be carried to: the
 * uses of a renamed name, the calls of a function whose parameters changed), as many as fit `maxLines` with the
 * cursor's line, nearest first: `region` when it holds them; otherwise the lines from the first to the last of them,
 * grown a line at a time toward `region`'s ends (below first) while they fit. A model can only carry an edit to the
 * lines it may rewrite.
 */
export function reachSites(
  region: LineSpan,
  cursorLine: number,
  sites: readonly number[],
  maxLines: number,
): LineSpan {
  let start = cursorLine;
  let end = cursorLine;
  const nearest = [...sites].sort((a, b) => Math.abs(a - cursorLine) - Math.abs(b - cursorLine) || a - b);
  for (const site of nearest) {
    const from = Math.min(start, site);
    const to = Math.max(end, site);
    if (to - from + 1 > maxLines) continue;
    start = from;
    end = to;
  }
  if (start >= region.start && end <= region.end) return region;
  for (let grew = true; grew && end - start + 1 < maxLines; ) {
    grew = false;
    if (end < region.end) {
      end++;
      grew = true;
    }
    if (start > region.start && end - start + 1 < maxLines) {
      start--;
      grew = true;
    }
  }
  return { start, end };
}
