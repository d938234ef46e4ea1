/** Which shape of completion the user asked for; `"auto"` decides per cursor with {@link completionMode}. */
export type LinePolicy = "auto" | "single-line" | "multi-line";

/** The shape of one completion: the rest of the current line, or a block of lines. */
export type CompletionMode = "single-line" | "multi-line";

/** What the editor inserts: `text` at the cursor, replacing the next `replaceEnd` UTF-16 units of the line. */
export interface FittedCompletion {
  /** Text to insert at the cursor; lines are joined with `"\n"`. */
  readonly text: string;
  /** How many UTF-16 units after the cursor, on the cursor line, the item's range covers (0 = pure insertion). */
  readonly replaceEnd: number;
}

/** The cursor's surroundings that {@link postProcess} and {@link isSettled} judge a completion against. */
export interface PostProcessContext {
  /** Text of the cursor line before the cursor. */
  readonly lineBefore: string;
  /** Text of the cursor line after the cursor (no terminator). */
  readonly lineAfter: string;
  /** Document text after the cursor, starting with `lineAfter`; may be long, only its first lines are read. */
  readonly suffix: string;
  /** Single or multi-line; usually from {@link completionMode}. */
  readonly mode: CompletionMode;
  /** Columns per tab when comparing indentation. Default 4. */
  readonly tabSize?: number;
}

// Non-blank lines of code below the cursor that a completion must reproduce before we call it "resumed".
const RESUME_LINES = 2;
// Lines of the suffix scanned for those non-blank lines (blank runs longer than this end the search).
const SUFFIX_SCAN_LINES = 50;

const CLOSER_CHARS = new Set([")", "]", "}", '"', "'", "`", ";", ","]);
const CLOSE_TO_OPEN: Readonly<Record<string, string>> = { ")": "(", "]": "[", "}": "{" };
const CLOSER_WORDS = new Set(["end", "fi", "done", "esac", "endif", "endfunction", "endwhile", "endfor"]);

// A line end that opens a block: brackets, `:` (Python, C labels) but not `::`, `=>`, an assignment `=` (not
// `==`, `!=`, `<=`, `>=`), Lua/Ruby/shell keywords, and Lua's `function name(args)`.
const BLOCK_OPENER =
  /(?:[{([]|(?<!:):|=>|(?<![=!<>])=|\b(?:do|then|else|begin|repeat)|\bfunction\b[^()]*\([^()]*\))\s*$/;

/** True when `text` has a non-whitespace character and all of them are closing brackets, quotes, `;` or `,`. */
export function isClosersOnly(text: string): boolean {
  let seen = false;
  for (const ch of text) {
    if (isWhitespace(ch)) continue;
    if (!CLOSER_CHARS.has(ch)) return false;
    seen = true;
  }
  return seen;
}

/** True when the text before the cursor ends (trailing whitespace aside) with something that opens a block. */
export function endsWithBlockOpener(lineBefore: string): boolean {
  return BLOCK_OPENER.test(lineBefore);
}

/**
 * Chooses single or multi-line for the cursor. `"single-line"` / `"multi-line"` policies are returned as is;
 * `"auto"` gives:
 * - single-line when text follows the cursor on its line, unless that text is only closing brackets, quotes,
 *   `;` or `,` (auto-paired, so the cursor is logically at the line end);
 * - multi-line on an empty or whitespace-only line, or at the end of a line ending in a block opener
 *   (`{ ( [ : => =`, `do`, `then`, `else`, `begin`, `repeat`, Lua `function f(…)`);
 * - single-line at the end of any other non-empty line.
 */
export function completionMode(lineBefore: string, lineAfter: string, policy: LinePolicy): CompletionMode {
  if (policy !== "auto") return policy;
  if (lineAfter.trim() !== "" && !isClosersOnly(lineAfter)) return "single-line";
  if (lineBefore.trim() === "" || endsWithBlockOpener(lineBefore)) return "multi-line";
  return "single-line";
}

/**
 * Indentation width of `line` in columns: a space is one column, a tab advances to the next multiple of `tabSize`.
 * @param tabSize columns per tab stop. Default 4.
 */
export function indentWidth(line: string, tabSize = 4): number {
  let width = 0;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i];
    if (ch === " ") width += 1;
    else if (ch === "\t") width += tabSize - (width % tabSize);
    else break;
  }
  return width;
}

/**
 * True for a line that only closes things: closing brackets with `;`/`,` (`}`, `});`, `)`, `],`) or block-end
 * keywords (`end`, `end)`, `fi`, `done`, `esac`, …).
 */
export function isCloserLine(line: string): boolean {
  const trimmed = line.trim();
  const words = trimmed.replace(/[)\]};,]/g, " ").trim();
  if (words === "") return /[)\]}]/.test(trimmed);
  return words.split(/\s+/).every((word) => CLOSER_WORDS.has(word));
}

/**
 * The first `count` non-blank lines of `suffix` after its first line (the rest of the cursor line), looking at
 * no more than 50 lines.
 */
export function nextNonBlankLines(suffix: string, count: number): string[] {
  const out: string[] = [];
  const breaks = /\r\n|\r|\n/g;
  let match = breaks.exec(suffix);
  for (let scanned = 0; match !== null && out.length < count && scanned < SUFFIX_SCAN_LINES; scanned++) {
    const start = match.index + match[0].length;
    match = breaks.exec(suffix);
    const line = suffix.slice(start, match === null ? suffix.length : match.index);
    if (line.trim() !== "") out.push(line);
  }
  return out;
}

/**
 * Fits a one-line completion to the rest of the cursor line (`lineAfter`) so nothing already there is inserted
 * twice:
 * 1. when the completion ends with the rest of the line (or, if the rest is only closers, with a prefix of it
 *    such as the `)` of `);`), and the part before has balanced brackets and quotes, that tail is dropped: for
 *    `foo(│)` and `a, b)` insert `a, b`. Whitespace before the dropped tail stays (the model's spacing before
 *    the existing text) unless the rest of the line itself starts with whitespace;
 * 2. otherwise, when the completion contains the rest of the line outside its own brackets and strings — for a
 *    closers-only rest, its closers in order (`x);` covers `)`, `hi", y)` covers `")`) — the item covers the
 *    rest of the line: `replaceEnd` = its length without trailing whitespace;
 * 3. otherwise the text is inserted unchanged with `replaceEnd` 0.
 */
export function fitToLineSuffix(text: string, lineAfter: string): FittedCompletion {
  const overlap = lineSuffixOverlap(text, lineAfter);
  if (overlap === null) return { text, replaceEnd: 0 };
  if (overlap.kind === "cover") return { text, replaceEnd: lineAfter.trimEnd().length };
  const kept = text.slice(0, text.length - overlap.length);
  return { text: /^\s/.test(lineAfter) ? kept.trimEnd() : kept, replaceEnd: 0 };
}

/**
 * How a completion's (last) line relates to the rest of the cursor line: it ends with the first `length`
 * characters of the trimmed rest (`tail`), or it contains the rest further left (`cover`), or neither (`null`).
 * See {@link fitToLineSuffix} for the rules. `open` holds the brackets the completion's earlier lines left open:
 * closers that match those belong to the completion, not to the rest of the line.
 */
type Overlap = { readonly kind: "tail"; readonly length: number } | { readonly kind: "cover" } | null;

function lineSuffixOverlap(text: string, lineAfter: string, open: readonly string[] = []): Overlap {
  const rest = lineAfter.trim();
  if (rest === "" || text === "") return null;
  const closersOnly = isClosersOnly(rest);

  for (let k = rest.length; k >= (closersOnly ? 1 : rest.length); k--) {
    if (text.endsWith(rest.slice(0, k)) && isBalanced(text.slice(0, text.length - k), open)) {
      return { kind: "tail", length: k };
    }
  }
  if (closersOnly) {
    const wanted = [...rest].filter((ch) => !isWhitespace(ch));
    let matched = 0;
    for (const index of scanBrackets(text, [...open]).topLevel) {
      if (text[index] === wanted[matched]) matched += 1;
      if (matched === wanted.length) return { kind: "cover" };
    }
  } else {
    for (let at = text.indexOf(rest); at !== -1; at = text.indexOf(rest, at + 1)) {
      if (isBalanced(text.slice(0, at), open)) return { kind: "cover" };
    }
  }
  return null;
}

/**
 * Turns a raw model completion into what the editor should insert, or `null` for no item:
 * 1. single-line mode keeps the first line only;
 * 2. code below resumes: the completion is cut before the line where it starts reproducing the next non-blank
 *    lines of the suffix (2 lines, or as many as the completion has; compared trimmed, and closer lines like `}`
 *    must also match in indentation). On a whitespace-only cursor line this applies to the first line too.
 *    A later line equal (trimmed) to `lineAfter` ends the completion after that line (the item then covers
 *    `lineAfter`);
 * 3. multi-line block end by indentation: after a block opener the block's indentation is that of the first
 *    non-blank new line, which must be deeper than the cursor line's; on a whitespace-only line it is the cursor
 *    column; elsewhere the cursor line's indentation. The completion stops at the first non-blank line indented
 *    less. That line is kept only when it is a closer line (`}`, `end`, `});`) that is not already in the
 *    document: it closes a bracket the completion itself opened; or, with text after the cursor, it ends with or
 *    covers that text (`};` before `;`); or no non-blank line follows the cursor, or the next one is indented
 *    less, or equally but is no closer line;
 * 4. trailing whitespace is trimmed (per line) and trailing blank lines dropped; nothing left → `null`;
 * 5. a one-line result goes through {@link fitToLineSuffix}; a multi-line result whose last line ends with or
 *    covers (part of) `lineAfter` covers that part with `replaceEnd`; otherwise, when a closing bracket follows
 *    the cursor right after an opening bracket (`{│}`) or indentation (`  │}`), that closer is moved to a line
 *    of its own at the cursor line's indentation (and covered).
 */
export function postProcess(raw: string, ctx: PostProcessContext): FittedCompletion | null {
  return fitKept(keptRaw(raw, ctx), ctx);
}

/**
 * The lines of a raw completion that {@link postProcess} keeps (rules 1–3), as they came (not trimmed), joined
 * with `"\n"`: `postProcess(raw, ctx)` is `fitKept(keptRaw(raw, ctx), ctx)`. What syntax-aware endings cut further.
 */
export function keptRaw(raw: string, ctx: PostProcessContext): string {
  const lines = raw.split("\n");
  const { end } = findEnd(lines, lines.length, ctx);
  return lines.slice(0, end ?? lines.length).join("\n");
}

/** Rules 4–5 of {@link postProcess} on lines it keeps (see {@link keptRaw}): what the editor inserts, or `null`. */
export function fitKept(kept: string, ctx: PostProcessContext): FittedCompletion | null {
  const lines = kept.split("\n");
  return assemble(lines, lines.length, ctx);
}

/**
 * For streaming: true as soon as `partialRaw` (a prefix of the completion) decides {@link postProcess}'s answer,
 * i.e. `postProcess(partialRaw + more, ctx)` equals `postProcess(partialRaw, ctx)` for any `more`, so the server
 * can stop the stream. Only complete lines (followed by `\n`) count: in single-line mode the first line break
 * settles it; in multi-line mode a complete line that ends the block (dedent), equals `lineAfter`, or starts
 * the code below (with the following line confirming it when the code below has two).
 */
export function isSettled(partialRaw: string, ctx: PostProcessContext): boolean {
  const lines = partialRaw.split("\n");
  return findEnd(lines, lines.length - 1, ctx).end !== null;
}

/**
 * For streaming ghost text: the lines of `partialRaw` (a prefix of the completion) that are already settled —
 * whole lines that {@link postProcess} keeps unchanged whatever follows — in the final answer's form (trailing
 * whitespace trimmed, lines joined with `"\n"`), or `null` when there are none yet. Whatever `more` arrives,
 * `postProcess(partialRaw + more, ctx).text` starts with these lines (as whole lines). So a line waits:
 * - until its line break arrives;
 * - while it may be the start of the code below (it equals the suffix's next non-blank line and the lines that
 *   would confirm it have not arrived), since the completion is cut before that line;
 * - when blank, until a kept line follows it (trailing blank lines are dropped);
 * - when it is the only line and text follows the cursor, since a one-line answer is fitted to the rest of the
 *   line (its tail may be dropped).
 *
 * Single-line mode has no partials: its one line is the answer.
 */
export function settledLines(partialRaw: string, ctx: PostProcessContext): string | null {
  if (ctx.mode === "single-line") return null;
  const lines = partialRaw.split("\n");
  const scan = findEnd(lines, lines.length - 1, ctx);
  const kept = keptLines(lines, scan.end ?? scan.kept);
  if (kept.length === 0 || (kept.length === 1 && ctx.lineAfter.trim() !== "")) return null;
  return kept.join("\n");
}

/**
 * How far {@link findEnd} got: `end` is the number of lines to keep once decided; while it is not (`null`),
 * the first `kept` lines are nevertheless known to be kept (the scan passed them).
 */
type EndScan =
  | { readonly end: number; readonly kept?: undefined }
  | { readonly end: null; readonly kept: number };

/**
 * Where the completion ends: the number of lines to keep, decided from the first `complete` lines only, or
 * `null` when those do not decide it yet (more text could change the answer) with the number of lines passed so
 * far. With `complete === lines.length` (the whole completion) it always decides.
 */
function findEnd(lines: readonly string[], complete: number, ctx: PostProcessContext): EndScan {
  const ends = (end: number): EndScan => ({ end });
  const undecided = (kept: number): EndScan => ({ end: null, kept });
  if (complete === 0) return undecided(0);
  const final = complete === lines.length;
  const tabSize = ctx.tabSize ?? 4;
  const blankBefore = ctx.lineBefore.trim() === "";
  const below = nextNonBlankLines(ctx.suffix, RESUME_LINES);
  const rest = ctx.lineAfter.trim();
  const fullLine = (k: number): string => (k === 0 ? ctx.lineBefore + lines[0]! : lines[k]!);

  const sameLine = (completion: string, existing: string): boolean => {
    const trimmed = completion.trim();
    if (trimmed !== existing.trim()) return false;
    return !isCloserLine(trimmed) || indentWidth(completion, tabSize) === indentWidth(existing, tabSize);
  };

  /** Does the code below resume at completion line `k`? Unknown while the lines needed are still streaming. */
  const resumesAt = (k: number, maxLines: number): "yes" | "no" | "unknown" => {
    const wanted = below.slice(0, maxLines);
    if (wanted.length === 0 || !sameLine(fullLine(k), wanted[0]!)) return "no";
    let index = k + 1;
    for (let j = 1; j < wanted.length; j++, index++) {
      while (index < complete && isBlank(lines[index]!)) index++;
      if (index >= complete) return final ? "yes" : "unknown";
      if (!sameLine(lines[index]!, wanted[j]!)) return "no";
    }
    return "yes";
  };

  // Brackets the completion opened and has not closed before the line being judged.
  const open: string[] = [];

  /** Is the closer line `k`, which ends the block, missing from the document (so it belongs to the completion)? */
  const keepCloser = (k: number): boolean => {
    const line = lines[k]!;
    if (!isCloserLine(line)) return false;
    if (open.length > 0) return true;
    if (rest !== "") return lineSuffixOverlap(line.trim(), ctx.lineAfter) !== null;
    const next = below[0];
    if (next === undefined) return true;
    const width = indentWidth(line, tabSize);
    const nextWidth = indentWidth(next, tabSize);
    return width > nextWidth || (width === nextWidth && !isCloserLine(next));
  };

  if (ctx.mode === "single-line") return ends(blankBefore && resumesAt(0, 1) === "yes" ? 0 : 1);

  if (blankBefore) {
    const resumed = resumesAt(0, RESUME_LINES);
    if (resumed === "unknown") return undecided(0);
    if (resumed === "yes") return ends(0);
  }

  const cursorIndent = indentWidth(ctx.lineBefore, tabSize);
  // After a block opener the block's indentation is set by its first non-blank line.
  let blockIndent: number | undefined =
    !blankBefore && endsWithBlockOpener(ctx.lineBefore) ? undefined : cursorIndent;

  scanBrackets(lines[0]!, open);
  for (let k = 1; k < complete; k++) {
    const line = lines[k]!;
    if (isBlank(line)) continue;
    const resumed = resumesAt(k, RESUME_LINES);
    if (resumed === "unknown") return undecided(k);
    if (resumed === "yes") return ends(k);
    if (rest !== "" && open.length === 0 && line.trim() === rest) return ends(k + 1);
    const width = indentWidth(line, tabSize);
    if (blockIndent === undefined) {
      if (width > cursorIndent) {
        blockIndent = width;
        scanBrackets(line, open);
        continue;
      }
    } else if (width >= blockIndent) {
      scanBrackets(line, open);
      continue;
    }
    return ends(keepCloser(k) ? k + 1 : k);
  }
  return final ? ends(lines.length) : undecided(complete);
}

/** The first `end` lines as the answer has them: trailing whitespace trimmed, trailing blank lines dropped. */
function keptLines(lines: readonly string[], end: number): string[] {
  const kept = lines.slice(0, end).map((line) => line.trimEnd());
  while (kept.length > 0 && kept[kept.length - 1]!.trim() === "") kept.pop();
  return kept;
}

function assemble(lines: readonly string[], end: number, ctx: PostProcessContext): FittedCompletion | null {
  const kept = keptLines(lines, end);
  if (kept.length === 0) return null;

  if (kept.length === 1) {
    const fitted = fitToLineSuffix(kept[0]!, ctx.lineAfter);
    return fitted.text.trim() === "" ? null : fitted;
  }

  // Several lines: whatever of the rest of the line they repeat is covered, never trimmed, so the last line
  // stays whole (trimming `)` off a last line `)` would leave a dangling line break).
  const text = kept.join("\n");
  const { lineAfter, lineBefore } = ctx;
  const rest = lineAfter.trim();
  const open: string[] = [];
  for (const line of kept.slice(0, -1)) scanBrackets(line, open);
  const overlap = lineSuffixOverlap(kept[kept.length - 1]!, lineAfter, open);
  if (overlap?.kind === "tail") {
    return { text, replaceEnd: lineAfter.length - lineAfter.trimStart().length + overlap.length };
  }
  if (overlap?.kind === "cover") return { text, replaceEnd: lineAfter.trimEnd().length };
  // A closing bracket left right after the cursor would end up glued to the last line: give it a line of its
  // own, at the column it had (the cursor line's indentation), as editors do on Enter between brackets.
  const opener = lineBefore.trimEnd().slice(-1);
  const afterOpener = opener === "(" || opener === "[" || opener === "{" || opener === "";
  if (CLOSE_TO_OPEN[rest[0] ?? ""] !== undefined && afterOpener) {
    const indent = lineBefore.slice(0, lineBefore.length - lineBefore.trimStart().length);
    return { text: `${text}\n${indent}${rest}`, replaceEnd: lineAfter.trimEnd().length };
  }
  return { text, replaceEnd: 0 };
}

function isBlank(line: string): boolean {
  return line.trim() === "";
}

function isWhitespace(ch: string): boolean {
  return ch.trim() === "";
}

interface BracketScan {
  /** Whether a quote without a partner occurs (it closes or opens a string outside the text). */
  readonly stray: boolean;
  /** Indices of characters outside the text's own brackets and strings (openers excluded). */
  readonly topLevel: readonly number[];
}

/**
 * Walks one line of code tracking brackets and strings; `stack` holds the brackets open before the line and is
 * left with those still open after it. A quote opens a string only when the same quote closes it later in the
 * line (escapes honoured); otherwise it is a stray character.
 */
function scanBrackets(text: string, stack: string[] = []): BracketScan {
  const topLevel: number[] = [];
  let stray = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (ch === '"' || ch === "'" || ch === "`") {
      const close = closingQuote(text, i);
      if (close !== -1) {
        i = close;
        continue;
      }
      stray = true;
    } else if (ch === "(" || ch === "[" || ch === "{") {
      stack.push(ch);
      continue;
    } else if (CLOSE_TO_OPEN[ch] !== undefined && stack.length > 0) {
      if (stack[stack.length - 1] === CLOSE_TO_OPEN[ch]) stack.pop();
      continue;
    }
    if (stack.length === 0) topLevel.push(i);
  }
  return { stray, topLevel };
}

function closingQuote(text: string, at: number): number {
  const quote = text[at];
  for (let i = at + 1; i < text.length; i++) {
    if (text[i] === "\\") i++;
    else if (text[i] === quote) return i;
  }
  return -1;
}

/** No bracket left open (counting those in `open` before the text) and no stray quote. */
function isBalanced(text: string, open: readonly string[] = []): boolean {
  const stack = [...open];
  return !scanBrackets(text, stack).stray && stack.length === 0;
}
