import type { Position } from "vscode-languageserver";

/** What {@link buildPromptWindow} reads from a document; `TextBuffer` provides it. */
export interface PromptSource {
  /** Number of lines. */
  readonly lineCount: number;
  /** Text of a line without its terminator. */
  lineAt(line: number): string;
  /** Text between two valid positions, terminators included. */
  slice(start: Position, end: Position): string;
}

/** Options of {@link buildPromptWindow}. */
export interface PromptWindowOptions {
  /** Budget for `prompt` + `suffix`, in estimated tokens. Default 4096. */
  readonly budgetTokens?: number;
  /** Share of the budget reserved for the prefix (0–1); the rest is the suffix's. Default 0.75. */
  readonly prefixShare?: number;
  /**
   * Characters (UTF-16 units) per token for the estimate; 3.5 errs on the safe side for code (the DeepSeek V3
   * tokenizer measures 3.2–4.4). Default 3.5.
   */
  readonly charsPerToken?: number;
  /** Largest grid step, in lines, that a truncated prefix's start line is rounded up to. Default 64. */
  readonly stepLines?: number;
  /**
   * Minimum share (0–1) of the prefix budget the rounded-up prefix must still fill; when the largest step wastes
   * more, the step is halved until it does not (down to 1 line). Default 0.75.
   */
  readonly minPrefixFill?: number;
  /**
   * Grid step, in UTF-16 units, for the prefix start when the cursor line alone exceeds the prefix budget.
   * Default 256.
   */
  readonly stepChars?: number;
}

/** The FIM request text around a cursor. */
export interface PromptWindow {
  /** Text from the window start to the cursor (the FIM `prompt`). */
  readonly prompt: string;
  /** Text from the cursor to the window end (the FIM `suffix`). */
  readonly suffix: string;
  /** First line (0-based) in `prompt`; it starts at column 0 unless the cursor line alone overflows the budget. */
  readonly startLine: number;
  /** Last line (0-based) in `suffix`; the suffix includes that line's terminator when one follows. */
  readonly endLine: number;
}

/**
 * Estimated token count of `text` at `charsPerToken` characters (UTF-16 units) per token, rounded up.
 * @param charsPerToken default 3.5.
 */
export function estimateTokens(text: string, charsPerToken = 3.5): number {
  return Math.ceil(text.length / charsPerToken);
}

/**
 * Cuts the FIM `prompt` and `suffix` around `position` (UTF-16, clamped to the document) to a token budget, at
 * line boundaries, reading only the window's lines.
 *
 * Budget: `budgetTokens × charsPerToken` characters, `prefixShare` of it for the prefix; whatever one side does not
 * need goes to the other. A line costs its length + 1 (its terminator, counted as one character).
 *
 * Prefix start — the cache rule: DeepSeek bills a prompt prefix identical to an earlier request's (in 64-token
 * units, from token 0) at a fraction of the price. Cutting at the earliest line that fits would shift the start
 * with almost every keystroke once the document is longer than the budget, and a moved start changes token 0,
 * so nothing would ever hit. Instead the earliest fitting line is rounded UP to a multiple of `stepLines` (64),
 * a grid in absolute line numbers that typing at or below the start does not renumber. Rounding up leaves some
 * budget unused — that slack is what keeps the start put while the user types, until the prefix has grown past
 * it; then the start jumps forward to the next grid line. When the 64 grid would leave less than
 * `minPrefixFill` (75 %) of the prefix budget used (long lines, or a jump that would drop too much), the step is
 * halved (32, 16, … 1): still a fixed grid, with smaller jumps. The start only ever moves forward while typing.
 * When the cursor line alone overflows the prefix budget (minified code), the prefix starts mid-line, rounded up
 * to a multiple of `stepChars` columns.
 */
export function buildPromptWindow(
  source: PromptSource,
  position: Position,
  options: PromptWindowOptions = {},
): PromptWindow {
  const {
    budgetTokens = 4096,
    prefixShare = 0.75,
    charsPerToken = 3.5,
    stepLines = 64,
    minPrefixFill = 0.75,
    stepChars = 256,
  } = options;
  const lastLine = source.lineCount - 1;
  const line = Math.min(Math.max(0, position.line), lastLine);
  const cursorText = source.lineAt(line);
  const character =
    position.line > lastLine
      ? cursorText.length
      : Math.min(Math.max(0, position.character), cursorText.length);

  const total = Math.max(0, Math.floor(budgetTokens * charsPerToken));
  const suffixShare = total - Math.floor(total * prefixShare);

  // How much each side could use, measured only up to `total` so a huge document is never walked.
  const before = character;
  // The suffix's pieces carry their own line break: the rest of the cursor line with its break, then whole lines
  // with theirs (the last line of the document has none).
  const breakAfter = (l: number) => (l < lastLine ? 1 : 0);
  const after = cursorText.length - character + breakAfter(line);
  const prefixLengths: number[] = []; // prefixLengths[k] = cost of line (line - 1 - k)
  let prefixAvail = before;
  for (let l = line - 1; l >= 0 && prefixAvail <= total; l--) {
    const cost = source.lineAt(l).length + 1;
    prefixLengths.push(cost);
    prefixAvail += cost;
  }
  const suffixLengths: number[] = []; // suffixLengths[k] = cost of line (line + 1 + k)
  let suffixAvail = after;
  for (let l = line + 1; l <= lastLine && suffixAvail <= total; l++) {
    const cost = source.lineAt(l).length + breakAfter(l);
    suffixLengths.push(cost);
    suffixAvail += cost;
  }
  const suffixTake = Math.min(suffixAvail, Math.max(suffixShare, total - prefixAvail));
  const prefixTake = total - suffixTake;

  let prompt: string;
  let startLine: number;
  if (before > prefixTake) {
    startLine = line;
    let startChar = roundUp(before - prefixTake, stepChars);
    if (isLowSurrogate(cursorText.charCodeAt(startChar))) startChar += 1;
    prompt = cursorText.slice(Math.min(startChar, before), before);
  } else {
    let used = before;
    let k = 0;
    while (k < prefixLengths.length && used + prefixLengths[k]! <= prefixTake) used += prefixLengths[k++]!;
    const earliest = line - k;
    startLine =
      earliest === 0
        ? 0
        : stickyStart(earliest, line, used, prefixTake, prefixLengths, stepLines, minPrefixFill);
    prompt = source.slice({ line: startLine, character: 0 }, { line, character });
  }

  let suffix: string;
  let endLine: number;
  if (after > suffixTake) {
    // Not even the rest of the cursor line with its break fits: cut it (a cut past its end keeps it whole).
    endLine = line;
    let endChar = Math.min(cursorText.length, character + suffixTake);
    if (isLowSurrogate(cursorText.charCodeAt(endChar))) endChar -= 1;
    suffix = cursorText.slice(character, endChar);
  } else {
    let used = after;
    let k = 0;
    while (k < suffixLengths.length && used + suffixLengths[k]! <= suffixTake) used += suffixLengths[k++]!;
    endLine = line + k;
    const end =
      endLine === lastLine
        ? { line: endLine, character: source.lineAt(endLine).length }
        : { line: endLine + 1, character: 0 };
    suffix = source.slice({ line, character }, end);
  }

  return { prompt, suffix, startLine, endLine };
}

/**
 * The earliest fitting line `earliest` rounded up to the coarsest grid (stepLines, halved down to 1) that keeps at
 * least `minFill × prefixTake` characters between the start and the cursor.
 */
function stickyStart(
  earliest: number,
  cursorLine: number,
  used: number,
  prefixTake: number,
  prefixLengths: readonly number[],
  stepLines: number,
  minFill: number,
): number {
  const floorStep = Math.max(1, Math.floor(stepLines));
  for (let step = floorStep; step > 1; step = Math.floor(step / 2)) {
    const start = roundUp(earliest, step);
    if (start > cursorLine) continue;
    // Characters dropped between `earliest` and `start`: the costs of lines earliest .. start - 1.
    let dropped = 0;
    for (let l = earliest; l < start; l++) dropped += prefixLengths[cursorLine - 1 - l]!;
    if (used - dropped >= minFill * prefixTake) return start;
  }
  return earliest;
}

function roundUp(value: number, step: number): number {
  const s = Math.max(1, Math.floor(step));
  return Math.ceil(value / s) * s;
}

function isLowSurrogate(unit: number): boolean {
  return unit >= 0xdc00 && unit <= 0xdfff;
}
