import { tokenize } from "./tokenize.js";

/** Longest prompt tail, in tokens, that is looked up. Longer tails rarely change the match. */
const MAX_TAIL_TOKENS = 32;
/** Lines copied at most, so a match near the top of a long file does not copy the whole file. */
const MAX_LINES = 16;
/** Characters of the suffix's first line compared when looking for the point where it resumes. */
const MAX_SUFFIX_HEAD = 64;

const HAS_CONTENT = /\S/;
const OPENS_BLOCK = /(?:[{([:]|=>|->|\b(?:do|then))\s*$/;
const CLOSER = /^[)\]}]$/;
const CLOSES_BLOCK = /^\s*(?:[}\])]|(?:end|fi|done|esac)\b)/;

/** Text copied by {@link promptLookup}. */
export interface Continuation {
  /** The copied text; empty when the suffix resumes right at the cursor. */
  text: string;
  /** Which text it was copied from. */
  from: "prompt" | "suffix";
  /** Index (UTF-16 code units) in that text where the copy starts. */
  start: number;
  /** Length (UTF-16 code units) of the prompt tail that matched just before `start`. */
  matched: number;
}

/**
 * Prompt-lookup continuation: what an editor's next keystrokes most likely are, copied from text
 * the user already has.
 *
 * 1. Take the prompt's tail (its last 1–32 tokens) and find the longest one that occurs earlier
 *    in the prompt or anywhere in the suffix with something after it. Among occurrences of that
 *    tail, take the one nearest to the cursor (the latest in the prompt, the first in the suffix).
 * 2. Copy what follows it, until the first of:
 *    - the end of the text copied from (for the prompt: the cursor);
 *    - the suffix resuming: the copy reaches the suffix's first non-blank line (at a line start
 *      when that line is on a line of its own), so the completion does not repeat the suffix;
 *    - when the suffix starts with a closing bracket: a closing bracket in the copy that closes
 *      nothing opened in the copy (the cursor is inside brackets the suffix closes);
 *    - from a cursor line that holds only indentation (inside a block): the first blank line, or
 *      the first line indented less than the cursor (the rest of the block being written);
 *    - the end of the cursor's line, unless that line (with what was copied onto it) opens a
 *      block (ends with `{`, `(`, `[`, `:`, `=>`, `->`, `do` or `then`): then the block, through
 *      its closing line (`}`, `)`, `]`, `end`…) at the line's indentation, or up to its last line
 *      when a line indented as much or less that is not a closer comes first (Python);
 *    - 16 lines.
 *
 * Pure and deterministic.
 *
 * @param prompt - text before the cursor
 * @param suffix - text after the cursor (default `""`)
 * @param promptTokens - `tokenize(prompt)`, when the caller already has it
 * @param writeOn - with nothing but whitespace after the cursor (the end of a file), copy on past the natural end,
 *   up to 16 lines, as a model writes on at the end of a file (default false)
 * @param farther - copy after the `farther`-th occurrence of the tail in the prompt before the nearest one, or the
 *   earliest when there are fewer (default 0: the nearest): the simulator's stand-in for sampling
 * @returns the continuation, or `undefined` when no tail of the prompt occurs anywhere else
 */
export function promptLookup(
  prompt: string,
  suffix = "",
  promptTokens: readonly string[] = tokenize(prompt),
  writeOn = false,
  farther = 0,
): Continuation | undefined {
  const match = findMatch(prompt, suffix, promptTokens, farther);
  if (match === undefined) return undefined;
  const source = match.from === "prompt" ? prompt : suffix;
  const cursorLine = prompt.slice(prompt.lastIndexOf("\n") + 1);
  const end =
    writeOn && !HAS_CONTENT.test(suffix)
      ? linesEnd(source, match.start, source.length)
      : naturalEnd(source, match.start, source.length, cursorLine);
  const resume = minDefined(
    suffixResumes(source, match.start, end, suffix, cursorLine),
    closesOpenBracket(source, match.start, end, suffix),
  );
  let text = source.slice(match.start, resume ?? end);
  // The suffix brings its own leading whitespace; copying ours too would double it.
  if (resume !== undefined && /^\s/.test(suffix)) text = text.trimEnd();
  return { text, from: match.from, start: match.start, matched: match.matched };
}

interface Match {
  from: "prompt" | "suffix";
  start: number;
  matched: number;
}

function findMatch(
  prompt: string,
  suffix: string,
  tokens: readonly string[],
  farther: number,
): Match | undefined {
  const cursor = prompt.length;
  const maxTail = Math.min(MAX_TAIL_TOKENS, tokens.length);
  const tailStart = [cursor];
  for (let n = 1; n <= maxTail; n++) tailStart.push(tailStart[n - 1]! - tokens[tokens.length - n]!.length);

  const tailOf = (n: number): string => prompt.slice(tailStart[n]);
  // Something to copy must follow an occurrence, so it must start before `cursor - length`.
  const inPrompt = (tail: string): boolean => {
    const first = prompt.indexOf(tail);
    return first !== -1 && first < cursor - tail.length;
  };
  const inSuffix = (tail: string): number => {
    const at = suffix.indexOf(tail);
    return at !== -1 && at + tail.length < suffix.length ? at : -1;
  };

  // If a tail of n tokens occurs, its last n-1 tokens occur right after it, so "occurs" is
  // monotone in n and a binary search finds the longest tail in a handful of scans. The scans
  // use indexOf, which is far faster in V8 than lastIndexOf; the latter runs once, at the end.
  let lo = 0;
  let hi = maxTail;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    const tail = tailOf(mid);
    if (inPrompt(tail) || inSuffix(tail) !== -1) lo = mid;
    else hi = mid - 1;
  }
  if (lo === 0) return undefined;
  const tail = tailOf(lo);
  let promptAt = inPrompt(tail) ? prompt.lastIndexOf(tail, cursor - tail.length - 1) : -1;
  for (let k = 0; k < farther && promptAt > 0; k++) {
    const earlier = prompt.lastIndexOf(tail, promptAt - 1);
    if (earlier === -1) break;
    promptAt = earlier;
  }
  const suffixAt = inSuffix(tail);
  const promptDistance = promptAt === -1 ? Number.POSITIVE_INFINITY : cursor - promptAt - tail.length;
  const suffixDistance = suffixAt === -1 ? Number.POSITIVE_INFINITY : suffixAt;
  return promptDistance <= suffixDistance
    ? { from: "prompt", start: promptAt + tail.length, matched: tail.length }
    : { from: "suffix", start: suffixAt + tail.length, matched: tail.length };
}

function indentWidth(line: string): number {
  let width = 0;
  for (const ch of line) {
    if (ch === " ") width++;
    else if (ch === "\t") width += 4;
    else break;
  }
  return width;
}

/** Where the copy stops by the line rules (see {@link promptLookup}). */
function naturalEnd(source: string, start: number, limit: number, cursorLine: string): number {
  const firstBreak = source.indexOf("\n", start);
  if (firstBreak === -1 || firstBreak >= limit) return limit;
  const firstLine = cursorLine + source.slice(start, firstBreak);
  if (cursorLine !== "" && !HAS_CONTENT.test(cursorLine))
    return restOfBlock(source, firstBreak, limit, indentWidth(cursorLine));
  if (!OPENS_BLOCK.test(firstLine)) return firstBreak;
  const base = indentWidth(firstLine);
  // Blank lines inside the block are copied, blank lines after its last line are not.
  let contentEnd = firstBreak;
  let lines = 1;
  let lineStart = firstBreak + 1;
  while (lineStart < limit) {
    const br = source.indexOf("\n", lineStart);
    const lineEnd = br === -1 || br > limit ? limit : br;
    const line = source.slice(lineStart, lineEnd);
    if (HAS_CONTENT.test(line)) {
      const indent = indentWidth(line);
      if (indent < base) return contentEnd;
      if (indent === base) return CLOSES_BLOCK.test(line) ? lineEnd : contentEnd;
      contentEnd = lineEnd;
    }
    lines++;
    if (lines >= MAX_LINES) return contentEnd;
    lineStart = lineEnd + 1;
  }
  return limit;
}

/** Where the 16th line from `start` ends (or `limit`). */
function linesEnd(source: string, start: number, limit: number): number {
  let end = start;
  for (let lines = 0; lines < MAX_LINES; lines++) {
    const br = source.indexOf("\n", end + (lines === 0 ? 0 : 1));
    if (br === -1 || br >= limit) return limit;
    end = br;
  }
  return end;
}

/** From an indentation-only cursor line: the lines up to a blank one or one indented less than `base`. */
function restOfBlock(source: string, firstBreak: number, limit: number, base: number): number {
  let contentEnd = firstBreak;
  let lineStart = firstBreak + 1;
  for (let lines = 1; lineStart < limit && lines < MAX_LINES; lines++) {
    const br = source.indexOf("\n", lineStart);
    const lineEnd = br === -1 || br > limit ? limit : br;
    const line = source.slice(lineStart, lineEnd);
    if (!HAS_CONTENT.test(line) || indentWidth(line) < base) return contentEnd;
    contentEnd = lineEnd;
    lineStart = lineEnd + 1;
  }
  return lineStart >= limit ? limit : contentEnd;
}

/** Where, before `end`, the copy reaches text that equals the start of the suffix. */
function suffixResumes(
  source: string,
  start: number,
  end: number,
  suffix: string,
  cursorLine: string,
): number | undefined {
  const first = suffix.search(HAS_CONTENT);
  if (first === -1) return undefined;
  const br = suffix.indexOf("\n", first);
  const head = suffix
    .slice(first, br === -1 ? suffix.length : br)
    .trimEnd()
    .slice(0, MAX_SUFFIX_HEAD);
  const ownLine = suffix.lastIndexOf("\n", first) !== -1;
  for (let from = start; ; ) {
    const at = source.indexOf(head, from);
    if (at === -1 || at > end) return undefined;
    if (!ownLine || startsLine(source, start, at, cursorLine)) return at;
    from = at + 1;
  }
}

/** Where the copy closes a bracket it did not open, when the suffix starts with a closer. */
function closesOpenBracket(source: string, start: number, end: number, suffix: string): number | undefined {
  if (!CLOSER.test(suffix.trimStart().charAt(0))) return undefined;
  let depth = 0;
  for (let i = start; i < end; i++) {
    const ch = source.charAt(i);
    if (ch === "(" || ch === "[" || ch === "{") depth++;
    else if (CLOSER.test(ch) && depth-- === 0) return i;
  }
  return undefined;
}

function minDefined(a: number | undefined, b: number | undefined): number | undefined {
  return a === undefined ? b : b === undefined ? a : Math.min(a, b);
}

function startsLine(source: string, start: number, at: number, cursorLine: string): boolean {
  const br = source.lastIndexOf("\n", at - 1);
  const before = br >= start ? source.slice(br + 1, at) : cursorLine + source.slice(start, at);
  return !HAS_CONTENT.test(before);
}
