import { indentWidth, type PostProcessContext, postProcess, settledLines } from "./postprocess.js";
import type { Suggestion } from "./type-through.js";

// The hot streak: what the model wrote past the end of the suggestion shown, as the next suggestions, each
// anchored where the previous one ends once it is accepted. Pure: the engine reads the stream on past the shown
// suggestion (up to `hotStreak.maxTokens`) and hands its whole text here.

/** A suggestion of the streak: where the user will be once the ones before it are accepted. */
export interface StreakSuggestion extends Suggestion {
  /**
   * What must sit in the document from the streak's first anchor for this one to apply: the first anchor, and the
   * text of the suggestions before it (accepted), joined.
   */
  readonly lead: { readonly line: number; readonly character: number; readonly text: string };
}

/**
 * The next suggestions after `shown` (a block answered from `raw`, the whole text the stream wrote), each cut at a
 * blank line before code that is not deeper than the block's first line: a paragraph of code, as a developer
 * accepts them one after the other. Empty when `raw` does not start with the shown text (post-processing changed
 * it), when nothing usable follows, or for one line (single-line requests stop at the line break).
 *
 * @param ctx what the shown suggestion was judged against (its cursor's surroundings and the suffix).
 */
export function hotStreak(raw: string, shown: Suggestion, ctx: PostProcessContext): StreakSuggestion[] {
  if (ctx.mode !== "multi-line" || shown.text === "" || !raw.startsWith(shown.text)) return [];
  // Once accepted, the cursor sits after the shown text; what the suggestion replaced of the line is gone.
  const lineAfter = ctx.lineAfter.slice(shown.replaceEnd);
  const after: PostProcessContext = {
    ...ctx,
    lineBefore: lastLine(shown.linePrefix + shown.text),
    lineAfter,
    suffix: ctx.suffix.slice(shown.replaceEnd),
    mode: "multi-line",
  };
  const rest = postProcess(raw.slice(shown.text.length), after);
  if (!rest || rest.text.trim() === "") return [];
  const out: StreakSuggestion[] = [];
  let lead = shown.text;
  for (const text of paragraphs(rest.text)) {
    const end = endOf(shown, lead);
    out.push({
      uri: shown.uri,
      line: end.line,
      character: end.character,
      linePrefix: end.linePrefix,
      lineRest: lineAfter,
      text,
      replaceEnd: 0,
      lead: { line: shown.line, character: shown.character, text: lead },
    });
    lead += text;
  }
  return out;
}

/**
 * For a block streaming in: its first paragraph, once whole (the settled lines hold a second one's start), so it
 * can be shown while what follows becomes the hot streak. Undefined until then, and for a cursor with text after it
 * on its line (a one-line answer is fitted to it).
 */
export function firstParagraph(raw: string, ctx: PostProcessContext): string | undefined {
  if (ctx.mode !== "multi-line" || ctx.lineAfter.trim() !== "") return undefined;
  const settled = settledLines(raw, ctx);
  if (settled === null) return undefined;
  const split = paragraphs(settled);
  return split.length > 1 && split[0]!.trim() !== "" ? split[0] : undefined;
}

/**
 * `text` (which starts at the end of a line: with a line break, or on the same line) in paragraphs: a paragraph
 * ends before a blank line that is followed by a line indented no deeper than the paragraph's first non-blank line.
 * Each paragraph keeps the line breaks before it, so the paragraphs joined are `text`.
 */
export function paragraphs(text: string): string[] {
  const lines = text.split("\n");
  const starts = [0];
  let indent: number | undefined;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.trim() === "") continue;
    const width = indentWidth(line);
    if (indent !== undefined && width <= indent && lines[i - 1]!.trim() === "") {
      // The next paragraph starts with the blank lines before it.
      let cut = i - 1;
      while (cut > starts.at(-1)! + 1 && lines[cut - 1]!.trim() === "") cut--;
      starts.push(cut);
      indent = width;
    } else indent ??= width;
  }
  return starts.map((start, k) => (k === 0 ? "" : "\n") + lines.slice(start, starts[k + 1]).join("\n"));
}

/** Where the text `lead`, inserted at the suggestion's anchor, ends, and the text of that line before it. */
function endOf(shown: Suggestion, lead: string): { line: number; character: number; linePrefix: string } {
  const breaks = lead.split("\n").length - 1;
  const linePrefix = lastLine(shown.linePrefix + lead);
  return { line: shown.line + breaks, character: linePrefix.length, linePrefix };
}

function lastLine(text: string): string {
  return text.slice(text.lastIndexOf("\n") + 1);
}
