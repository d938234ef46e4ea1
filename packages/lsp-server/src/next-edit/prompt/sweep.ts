// Sweep's next-edit model (sweepai's 1.5B, GGUF for llama.cpp), laid out as Zed sends it to a local server.
// Source, read, not copied: github.com/zed-industries/zed crates/edit_prediction/src/sweep_prompt.rs
// @ 24e24d84ea0b7406810cb5a00d5a6ecc8c6d3e88 (`build_prompt`, "the run_model ordering", and its test
// `test_build_prompt_uses_run_model_ordering`): `<|file_sep|>` sections, related files first, then the last three
// changes as `{path}.diff` holding `original:` and `updated:` (each side's lines, context included, 40 at most: the
// first 20, `...`, the last 19), then `original/{path}` (the window before the latest change in this file),
// `current/{path}` (the window now), and `updated/{path}` for the model to write. No cursor marker: the window is the
// region. The answer is the updated window, cut at `<|file_sep|>` or `</s>` (`clean_response_text`); an empty one is
// nothing. Zed refuses a prompt whose parts hold those two tokens; infill leaves such related files and changes out
// and reads no answer for such a region.
import { asRegion } from "../answer/rewritten-region.js";
import { answerTokenBudget } from "./answer-budget.js";
import type { EditEvent, Excerpt, NextEditFormat } from "./excerpt.js";
import { withoutFinalNewline } from "./markers.js";

const FILE_SEP = "<|file_sep|>";
const END_OF_TEXT = "</s>";
const RESERVED = [FILE_SEP, END_OF_TEXT];
const MAX_CHANGES = 3;
const MAX_CHANGE_LINES = 40;

function hasReserved(text: string): boolean {
  return RESERVED.some((token) => text.includes(token));
}

/** `<|file_sep|>path`, then the content with a final "\n". */
function fileBlock(path: string, content: string): string {
  return `${FILE_SEP}${path}\n${content}${content.endsWith("\n") ? "" : "\n"}`;
}

/** The lines joined without a final "\n"; past 40, the first 20, `...`, and the last 19. */
function limitedLines(text: string): string {
  const lines = text === "" ? [] : withoutFinalNewline(text).split("\n");
  if (lines.length <= MAX_CHANGE_LINES) return lines.join("\n");
  const head = MAX_CHANGE_LINES / 2;
  const tail = MAX_CHANGE_LINES - head - 1;
  return [...lines.slice(0, head), "...", ...lines.slice(-tail)].join("\n");
}

/** One change as a `{path}.diff` section. */
function changeBlock(event: EditEvent): string {
  const original = limitedLines(event.before);
  const updated = limitedLines(event.after);
  return fileBlock(
    `${event.path}.diff`,
    `original:\n${original}${original.endsWith("\n") ? "" : "\n"}updated:\n${updated}`,
  );
}

/**
 * The region as it was before the latest change in this file: that change's `before` put back where its `after`
 * meets the region (the whole of `before`, where `after` reaches past the region's edge). The region itself when no
 * change in this file touches it.
 */
export function originalWindow(excerpt: Excerpt, events: readonly EditEvent[]): string {
  const latest = events.findLast((event) => event.path === excerpt.path);
  const region = excerpt.region === "" ? [] : excerpt.region.split(/(?<=\n)/);
  if (!latest || latest.before === latest.after) return excerpt.region;
  const afterLines = latest.after === "" ? 0 : latest.after.split(/(?<=\n)/).length;
  const from = latest.newStartLine - excerpt.regionStartLine;
  const to = from + afterLines;
  if (to < 0 || from > region.length || (afterLines > 0 && (to === 0 || from === region.length))) {
    return excerpt.region;
  }
  return [...region.slice(0, Math.max(0, from)), latest.before, ...region.slice(Math.max(0, to))].join("");
}

/** Sweep: a raw prompt; the model writes the window again after `updated/{path}`. */
export const sweep: NextEditFormat = {
  name: "sweep",
  prompt({ excerpt, events, related }) {
    const { path, region } = excerpt;
    const changes = events
      .filter(
        (event) => event.before !== event.after && !hasReserved(event.before + event.after + event.path),
      )
      .slice(-MAX_CHANGES);
    const prompt =
      related
        .filter((file) => !hasReserved(file.text + file.path))
        .map((file) => fileBlock(file.path, file.text))
        .join("") +
      changes.map(changeBlock).join("") +
      fileBlock(`original/${path}`, withoutFinalNewline(originalWindow(excerpt, events))) +
      fileBlock(`current/${path}`, withoutFinalNewline(region)) +
      `${FILE_SEP}updated/${path}\n`;
    return { shape: "raw", prompt, stop: [...RESERVED], maxTokens: answerTokenBudget(region) };
  },
  rewrittenRegion(answer, { excerpt }) {
    if (hasReserved(excerpt.region)) return { ok: false, problem: "stray-marker" };
    const ends = RESERVED.map((token) => answer.indexOf(token)).filter((at) => at !== -1);
    const text = answer.slice(0, Math.min(answer.length, ...ends));
    if (text.trim() === "") return { ok: false, problem: "empty" };
    return asRegion(text, excerpt.region);
  },
};
