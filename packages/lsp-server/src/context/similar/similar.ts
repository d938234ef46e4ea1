// Similar code: windows of lines from other files ranked by Jaccard similarity of their identifier sets to the
// lines before the cursor (what Copilot's neighbouring tabs and Cody's Jaccard retriever do). Pure.

/** Lines per window, and lines compared before the cursor. */
export const WINDOW_LINES = 20;
/** Lines between the starts of consecutive windows (windows overlap by half). */
export const WINDOW_STRIDE = 10;

const IDENTIFIER = /[A-Za-z_$][\w$]*/g;

/**
 * Words that say nothing about what code is about: keywords and ubiquitous names of the common languages. Matching
 * on them would make every window look alike.
 */
const STOP_WORDS = new Set(
  (
    "if else elif for while do return const let var function class import export from as def self this " +
    "true false null undefined None True False nil new in of is and or not pub fn mut use mod impl struct enum " +
    "type interface func package go local end then async await try catch except finally throw throws raise " +
    "public private protected static void int string number boolean bool any unknown never extends implements " +
    "super with yield lambda pass break continue switch case default match where crate Self typeof instanceof " +
    "delete get set require module exports println print console log err error ok nil string str len range " +
    "readonly declare namespace abstract override final val assert elseif repeat until goto defer chan map select"
  ).split(" "),
);

/** The identifiers of a text that similarity compares: keywords, stop words and one-letter names left out. */
export function identifierSet(text: string, into: Set<string> = new Set()): Set<string> {
  for (const match of text.matchAll(IDENTIFIER)) {
    const word = match[0];
    if (word.length > 1 && !STOP_WORDS.has(word)) into.add(word);
  }
  return into;
}

/** Jaccard similarity of two sets: |A ∩ B| / |A ∪ B|, 0 when both are empty. */
export function jaccard(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  let shared = 0;
  for (const word of small) if (large.has(word)) shared++;
  const union = a.size + b.size - shared;
  return union === 0 ? 0 : shared / union;
}

/** A window of lines, 0-based and inclusive, with the size of its identifier set. */
export interface LineWindow {
  readonly start: number;
  readonly end: number;
  readonly size: number;
}

/** The windows of a text and, for each identifier, the windows that hold it. */
export interface WindowIndex {
  readonly windows: readonly LineWindow[];
  readonly postings: ReadonlyMap<string, readonly number[]>;
}

/**
 * Cut lines into overlapping windows (`windowLines` long, starting every `stride` lines; the last one ends at the
 * last line) and index their identifiers. Windows without any identifier are left out.
 */
export function indexWindows(
  lines: readonly string[],
  windowLines = WINDOW_LINES,
  stride = WINDOW_STRIDE,
): WindowIndex {
  const perLine = lines.map((line) => identifierSet(line));
  const windows: LineWindow[] = [];
  const postings = new Map<string, number[]>();
  for (let start = 0; start < lines.length; start += stride) {
    const end = Math.min(lines.length, start + windowLines) - 1;
    const ids = new Set<string>();
    for (let line = start; line <= end; line++) for (const id of perLine[line]!) ids.add(id);
    if (ids.size > 0) {
      const index = windows.length;
      windows.push({ start, end, size: ids.size });
      for (const id of ids) {
        const list = postings.get(id);
        if (list) list.push(index);
        else postings.set(id, [index]);
      }
    }
    if (end === lines.length - 1) break;
  }
  return { windows, postings };
}

/** A window and its similarity to the query. */
export interface ScoredWindow {
  readonly window: LineWindow;
  readonly score: number;
}

/**
 * The `max` best windows of an index for a query set, by Jaccard similarity (ties: the earlier window), not
 * overlapping each other, each scoring at least `minScore`. Costs the total length of the query's postings, not
 * the number of windows.
 */
export function bestWindows(
  index: WindowIndex,
  query: ReadonlySet<string>,
  max: number,
  minScore = 0,
): ScoredWindow[] {
  if (max <= 0 || query.size === 0) return [];
  const shared = new Map<number, number>();
  for (const id of query) {
    const list = index.postings.get(id);
    if (list) for (const w of list) shared.set(w, (shared.get(w) ?? 0) + 1);
  }
  const scored: ScoredWindow[] = [];
  for (const [w, count] of shared) {
    const window = index.windows[w]!;
    const score = count / (query.size + window.size - count);
    if (score >= minScore && score > 0) scored.push({ window, score });
  }
  scored.sort((a, b) => b.score - a.score || a.window.start - b.window.start);
  const chosen: ScoredWindow[] = [];
  for (const candidate of scored) {
    if (chosen.length >= max) break;
    const { start, end } = candidate.window;
    if (chosen.every(({ window }) => end < window.start || start > window.end)) chosen.push(candidate);
  }
  return chosen;
}
