// infill's own format, for DeepSeek's chat models through Chat Prefix Completion (Beta; /work/shared/spec
// deepseek-fim-facts.md §9): an instruction as the system message, then one user message with the related files, the
// edit history as Zeta writes it (unified diffs) and the excerpt with Zeta's markers (zeta.ts); the answer's start is
// forced to the region's opening marker and the region's lines above the cursor line, which the model is not to
// rewrite, and the request stops at the closing marker. Stable parts first, for DeepSeek's prefix cache: the system
// message never changes, related files change seldom, the history grows at its end, the excerpt changes every time.
import { markedRegion } from "../answer/marked-region.js";
import { carriedEdit, mayNeedEdit } from "../carried-edit.js";
import { answerTokenBudget } from "./answer-budget.js";
import type { EditEvent, Excerpt, NextEditFormat } from "./excerpt.js";
import { REGION_END, REGION_START } from "./markers.js";
import { ZETA_ANSWER_MARKERS, zetaEvents, zetaExcerpt } from "./zeta.js";

/** The system message: what the sections are and what to write. */
export const DEEPSEEK_NEXT_EDIT_SYSTEM_PROMPT = `You predict the next edit a developer makes to their code.

The user message has these sections:
- "### Related files:" (when there are any): code from other files of the project, each in a fence named by its path.
- "### User Edits:": the developer's recent edits, oldest first, each a unified diff after a line 'User edited "path":'.
- "### User Excerpt:": an excerpt of the file being edited, in a fence named by its path. In it, the editable region lies between the lines ${REGION_START} and ${REGION_END}, and <|user_cursor_is_here|> marks the cursor; <|start_of_file|> on the first line says the excerpt starts the file.

Rewrite the editable region as it will be once the developer has made the edit that follows from their recent edits: a rename carried to the other uses of the name, a parameter added to a function carried to its calls, a change to one line repeated on the lines like it, an unfinished line finished. Keep every other line exactly as it is, indentation included. Never undo the developer's edits. If no edit follows, write the region unchanged.

Answer with the region only: ${REGION_START} on its own line, the region's lines, then ${REGION_END}. No cursor marker, no code from outside the region, no fence, no explanation. Your answer is already begun with the opening marker and the region's lines above the cursor's line; continue from the cursor's line.`;

/** The related files section, or "" when there are none. */
function relatedSection(related: readonly { path: string; text: string }[]): string {
  if (related.length === 0) return "";
  const files = related.map(
    (file) => `\`\`\`${file.path}\n${file.text}${file.text.endsWith("\n") ? "" : "\n"}\`\`\``,
  );
  return `### Related files:\n\n${files.join("\n\n")}\n\n`;
}

/**
 * The region's lines above the cursor's line (whole lines, each with its "\n") that the answer is begun with: up to
 * the first that the user's last edit may have to be carried to (a use of a renamed name, a call of a function whose
 * parameters changed, a twin of a changed line), which the model must be free to rewrite.
 */
function linesAboveCursor(excerpt: Excerpt, events: readonly EditEvent[]): string {
  if (excerpt.cursorOffset <= 0) return "";
  const lineBreak = excerpt.region.lastIndexOf("\n", excerpt.cursorOffset - 1);
  const above = excerpt.region.slice(0, lineBreak + 1);
  const last = events.at(-1);
  if (!last || above === "") return above;
  const carried = carriedEdit(last);
  let kept = 0;
  for (const line of above.split(/(?<=\n)/)) {
    if (mayNeedEdit(line, carried)) break;
    kept += line.length;
  }
  return above.slice(0, kept);
}

/** DeepSeek's chat models: system and user messages, the answer begun for them, stopped at the region's end. */
export const deepseek: NextEditFormat = {
  name: "deepseek",
  prompt({ excerpt, events, related }) {
    const edits = zetaEvents(events);
    const user =
      `${relatedSection(related)}### User Edits:\n\n${edits === "" ? "(none)" : edits}\n\n` +
      `### User Excerpt:\n\n${zetaExcerpt(excerpt)}`;
    const above = linesAboveCursor(excerpt, events);
    return {
      shape: "chat",
      messages: [
        { role: "system", content: DEEPSEEK_NEXT_EDIT_SYSTEM_PROMPT },
        { role: "user", content: user },
      ],
      prefix: `${REGION_START}\n${above}`,
      stop: [REGION_END],
      maxTokens: answerTokenBudget(excerpt.region.slice(above.length)),
    };
  },
  rewrittenRegion(answer, { excerpt }) {
    return markedRegion(answer, ZETA_ANSWER_MARKERS, excerpt.region);
  },
};
