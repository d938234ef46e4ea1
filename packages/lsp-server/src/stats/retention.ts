import { codePoints } from "../completion/type-through.js";

// How much of an accepted suggestion is still in the document where it went: the accepted text against the text of
// its place now. Line by line, so that lines moved within the place still count, and each line by its longest common
// subsequence with the line it became, so that small edits (a renamed variable, an added argument) keep most of it.
// Pure; the place is followed by suggestion-place.ts and checked at the horizons by suggestion-outcomes.ts.

/** A line counts as kept when at least this share of its characters is still in the line it became. */
export const LINE_KEPT_FLOOR = 0.6;

/** The line it became must not be much longer than it: at least this share of that line comes from it. */
const CANDIDATE_FLOOR = 0.3;

/** Lines are compared on at most this many UTF-16 units (longer ones are rare in code, and cost quadratically). */
const LINE_UNITS = 400;

/** Beyond this many line pairs to compare, a line is only compared with the lines around where it was. */
const ALL_PAIRS = 20_000;
const BAND_LINES = 25;

/** A line this much like a candidate takes it without looking further (candidates are tried nearest first). */
const GOOD_ENOUGH = 0.9;

/**
 * The characters (code points) of `accepted` still in `now`, the text of its place today. Every line of `accepted`
 * with content counts by its trimmed length: a line found in `now` whole (trimmed, anywhere in it: moved lines count)
 * counts whole; else the line of `now` most like it, if at least {@link LINE_KEPT_FLOOR} of it is still there, counts
 * that share; else nothing. The share of the content kept, times the characters of `accepted`, rounded.
 */
export function retainedChars(accepted: string, now: string): number {
  const total = codePoints(accepted);
  const lines = accepted.split(/\r\n|\r|\n/).map((line) => line.trim());
  const weights = lines.map(codePoints);
  const content = weights.reduce((a, b) => a + b, 0);
  // Whitespace only: kept when it is still there as it was.
  if (content === 0) return now.includes(accepted) ? total : 0;

  const candidates = now
    .split(/\r\n|\r|\n/)
    .map((line) => line.trim())
    .filter((line) => line !== "");
  const used = new Array<boolean>(candidates.length).fill(false);
  const kept = new Array<number>(lines.length).fill(0);

  // Whole lines first, wherever they went.
  const where = new Map<string, number[]>();
  candidates.forEach((line, j) => {
    const list = where.get(line);
    if (list) list.push(j);
    else where.set(line, [j]);
  });
  const left: number[] = [];
  lines.forEach((line, i) => {
    if (line === "") return;
    const j = where.get(line)?.find((at) => !used[at]);
    if (j === undefined) left.push(i);
    else {
      used[j] = true;
      kept[i] = 1;
    }
  });

  // Then the others, the longest first, each against the free line most like it, trying the lines nearest to where
  // it was first (a line edited in place is found at once).
  left.sort((a, b) => weights[b]! - weights[a]!);
  const banded = left.length * candidates.length > ALL_PAIRS;
  for (const i of left) {
    const line = lines[i]!.slice(0, LINE_UNITS);
    const centre = Math.round((i * candidates.length) / lines.length);
    const order = candidates
      .map((_, j) => j)
      .filter((j) => !used[j] && (!banded || Math.abs(j - centre) <= BAND_LINES))
      .sort((a, b) => Math.abs(a - centre) - Math.abs(b - centre));
    let best = 0;
    let bestAt = -1;
    for (const j of order) {
      const other = candidates[j]!.slice(0, LINE_UNITS);
      // The longest common subsequence is at most the shorter line: no need to compute one that cannot win.
      if (Math.min(line.length, other.length) <= Math.max(best, LINE_KEPT_FLOOR - 1e-9) * line.length)
        continue;
      const common = lcsLength(line, other);
      if (common < CANDIDATE_FLOOR * other.length) continue;
      const share = common / line.length;
      if (share > best) {
        best = share;
        bestAt = j;
        if (share >= GOOD_ENOUGH) break;
      }
    }
    if (best >= LINE_KEPT_FLOOR) {
      used[bestAt] = true;
      kept[i] = best;
    }
  }
  const share = kept.reduce((sum, k, i) => sum + k * weights[i]!, 0) / content;
  return Math.round(total * share);
}

/** Length of the longest common subsequence of two strings, in UTF-16 units (two rows of the usual table). */
export function lcsLength(a: string, b: string): number {
  if (a.length === 0 || b.length === 0) return 0;
  let previous = new Uint16Array(b.length + 1);
  let current = new Uint16Array(b.length + 1);
  for (let i = 1; i <= a.length; i++) {
    const code = a.charCodeAt(i - 1);
    for (let j = 1; j <= b.length; j++) {
      current[j] =
        code === b.charCodeAt(j - 1) ? previous[j - 1]! + 1 : Math.max(previous[j]!, current[j - 1]!);
    }
    [previous, current] = [current, previous];
  }
  return previous[b.length]!;
}
