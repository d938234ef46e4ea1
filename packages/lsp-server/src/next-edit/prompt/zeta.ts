// Zed's Zeta (zed-industries/zeta on Hugging Face, fine-tuned from Qwen2.5-Coder-7B), laid out as it was trained.
// Sources, all github.com/zed-industries/zed, read, not copied:
// - crates/zeta/src/zeta.rs @ 0043a496327f6706c52491c38ff7396f5094b1b9, `Event::to_prompt`: `User edited {:?}:`
//   (the path quoted) and a ```diff block of `language::unified_diff` (hunk counts of 1 left out); events oldest
//   first, an empty line between two.
// - crates/zeta/src/input_excerpt.rs @ 0d6926886567df0c1e4ef14cb919d3fa89957a12: the fenced excerpt,
//   `<|start_of_file|>`, the region markers on lines of their own, the region ending at its last line's end.
// - crates/zeta_prompt/src/zeta_prompt.rs, `mod zeta1` (`format_zeta1_prompt`): the instruction and headings; its
//   tests give whole prompts. crates/edit_prediction/src/zeta.rs: requests to custom servers stop at
//   `<|editable_region_end|>`. Zed's newer zeta1 code writes the path unquoted and, its ranges now ending after the
//   last "\n", an empty line before the end marker: infill keeps the layout the model learnt.
// - crates/edit_prediction/src/zeta1.rs @ 0b96bbf139e4454391bd00c4f5f341752eb7ac8c, `parse_edits`: the answer is
//   the excerpt rewritten; only what stands between the markers counts, the cursor marker dropped, the "\n" after
//   the start marker and before the end marker belonging to the markers.
import { markedRegion } from "../answer/marked-region.js";
import { answerTokenBudget } from "./answer-budget.js";
import type { EditEvent, Excerpt, NextEditFormat } from "./excerpt.js";
import {
  CURSOR,
  REGION_END,
  REGION_START,
  START_OF_FILE,
  withCursor,
  withoutFinalNewline,
} from "./markers.js";
import { unifiedDiffHunk } from "./unified-diff.js";

const INSTRUCTION =
  "### Instruction:\n" +
  "You are a code completion assistant and your task is to analyze user edits and then rewrite an excerpt that " +
  "the user provides, suggesting the appropriate edits within the excerpt, taking into account the cursor " +
  "location.\n\n";
const EDITS_HEADING = "### User Edits:\n\n";
const EXCERPT_HEADING = "### User Excerpt:\n\n";
const RESPONSE_HEADING = "### Response:\n";

/** Zed kept at most 16 events (`MAX_EVENT_COUNT`). */
const MAX_EVENTS = 16;

/** The markers of a Zeta-style answer, for {@link markedRegion}. */
export const ZETA_ANSWER_MARKERS = {
  start: REGION_START,
  end: REGION_END,
  cursor: CURSOR,
  stray: [START_OF_FILE],
} as const;

/**
 * One event as Zeta read it: `User edited "path":` and a ```` ```diff ```` block holding the hunk (which ends in a
 * "\n", so an empty line stands before the closing fence, as in Zed's prompts). "" when the event changed nothing.
 */
export function zetaEvent(event: EditEvent): string {
  const hunk = unifiedDiffHunk(event, "gnu");
  return hunk === "" ? "" : `User edited ${JSON.stringify(event.path)}:\n\`\`\`diff\n${hunk}\n\`\`\``;
}

/** The events, oldest first, an empty line between two. */
export function zetaEvents(events: readonly EditEvent[]): string {
  return events
    .map(zetaEvent)
    .filter((text) => text !== "")
    .join("\n\n");
}

/**
 * The fenced excerpt: ```` ```path ````, `<|start_of_file|>` when it starts the file, the context above, the region
 * between its markers with the cursor marked, the context below, the closing fence.
 */
export function zetaExcerpt(excerpt: Excerpt): string {
  const region = withCursor(withoutFinalNewline(excerpt.region), excerpt.cursorOffset);
  const after = excerpt.afterRegion === "" ? "" : `\n${withoutFinalNewline(excerpt.afterRegion)}`;
  return (
    `\`\`\`${excerpt.path}\n${excerpt.startsFile ? `${START_OF_FILE}\n` : ""}${excerpt.beforeRegion}` +
    `${REGION_START}\n${region}\n${REGION_END}${after}\n\`\`\``
  );
}

/** Zed's Zeta: a raw prompt; the model writes the excerpt again, stopped at the region's end. */
export const zeta: NextEditFormat = {
  name: "zeta",
  prompt({ excerpt, events }) {
    const prompt =
      `${INSTRUCTION}${EDITS_HEADING}${zetaEvents(events.slice(-MAX_EVENTS))}\n\n` +
      `${EXCERPT_HEADING}${zetaExcerpt(excerpt)}\n\n${RESPONSE_HEADING}`;
    // The answer writes the fence, the context above and the region before it stops.
    const written = `${excerpt.path}${excerpt.beforeRegion}${excerpt.region}`;
    return { shape: "raw", prompt, stop: [REGION_END], maxTokens: answerTokenBudget(written) };
  },
  rewrittenRegion(answer, { excerpt }) {
    return markedRegion(answer, ZETA_ANSWER_MARKERS, excerpt.region);
  },
};
