// Continue's Instinct (continuedev/instinct, fine-tuned from Qwen2.5-Coder-7B; `ollama run nate/instinct`), laid out
// as Continue sends it. Sources, github.com/continuedev/continue @ d0a3c0b626b5bebc3bef4742eec05a0242be0bab, read:
// core/nextEdit/constants.ts (the system prompt and the user prompt's opening sentence, the model's interface, kept
// word for word; Apache-2.0), core/nextEdit/templating/NextEditPromptEngine.ts (the user template: `### Context:`,
// `### User Edits:`, `### User Excerpt:` with the path, the excerpt, then a closing fence with no opening one and
// `### Response:`), core/nextEdit/templating/instinct.ts and its tests (`<|context_file|>: path` and `<|snippet|>`
// per related file; `User edited file "path"` and a ```diff block per change, jsdiff hunks with every count written,
// blank context lines and lines starting `---`/`+++` filtered out, as Continue does; the excerpt's lines joined with
// the region markers on lines of their own and the cursor marker inside), core/nextEdit/NextEditProvider.ts (changes
// oldest first, five kept plus the one in progress). The system prompt asks for the region only, without markers;
// Continue uses the answer as the region's lines. infill also reads an answer that kept the markers or a fence.
import { markedRegion } from "../answer/marked-region.js";
import { answerTokenBudget } from "./answer-budget.js";
import type { EditEvent, Excerpt, NextEditFormat } from "./excerpt.js";
import { CURSOR, REGION_END, REGION_START, withCursor, withoutFinalNewline } from "./markers.js";
import { unifiedDiffHunk } from "./unified-diff.js";

const CONTEXT_FILE = "<|context_file|>";
const SNIPPET = "<|snippet|>";
/** Continue keeps five finished changes and the one being typed. */
const MAX_EVENTS = 6;

/** Instinct's system prompt, as Continue sends it (`INSTINCT_SYSTEM_PROMPT`). */
export const INSTINCT_SYSTEM_PROMPT = `You are Instinct, an intelligent next-edit predictor developed by Continue.dev. Your role as an AI agent is to help developers complete their code tasks by predicting the next edit that they will make within the section of code marked by <|editable_region_start|> and <|editable_region_end|> tags.

You have access to the following information to help you make informed suggestions:

- Context: In the section marked "### Context", there are context items from potentially relevant files in the developer's codebase. Each context item consists of a <|context_file|> marker, the filepath, a <|snippet|> marker, and then some content from that file, in that order. Keep in mind that not all of the context information may be relevant to the task, so use your judgement to determine which parts to consider.
- User Edits: In the section marked "### User Edits:", there is a record of the most recent changes made to the code, helping you understand the evolution of the code and the developer's intentions. These changes are listed from most recent to least recent. It's possible that some of the edit diff history is entirely irrelevant to the developer's change. The changes are provided in a unified line-diff format, i.e. with pluses and minuses for additions and deletions to the code.
- User Excerpt: In the section marked "### User Excerpt:", there is a filepath to the developer's current file, and then an excerpt from that file. The <|editable_region_start|> and <|editable_region_end|> markers are within this excerpt. Your job is to rewrite only this editable region, not the whole excerpt. The excerpt provides additional context on the surroundings of the developer's edit.
- Cursor Position: Within the user excerpt's editable region, the <|user_cursor_is_here|> flag indicates where the developer's cursor is currently located, which can be crucial for understanding what part of the code they are focusing on. Do not produce this marker in your output; simply take it into account.

Your task is to predict and complete the changes the developer would have made next in the editable region. The developer may have stopped in the middle of typing. Your goal is to keep the developer on the path that you think they're following. Some examples include further implementing a class, method, or variable, or improving the quality of the code. Make sure the developer doesn't get distracted by ensuring your suggestion is relevant. Consider what changes need to be made next, if any. If you think changes should be made, ask yourself if this is truly what needs to happen. If you are confident about it, then proceed with the changes.

# Steps

1. **Review Context**: Analyze the context from the resources provided, such as recently viewed snippets, edit history, surrounding code, and cursor location.
2. **Evaluate Current Code**: Determine if the current code within the tags requires any corrections or enhancements.
3. **Suggest Edits**: If changes are required, ensure they align with the developer's patterns and improve code quality.
4. **Maintain Consistency**: Ensure indentation and formatting follow the existing code style.

# Output Format

- Provide only the revised code within the tags. Do not include the tags in your output.
- Ensure that you do not output duplicate code that exists outside of these tags.
- Avoid undoing or reverting the developer's last change unless there are obvious typos or errors.`;

/** The user prompt's first paragraph (`INSTINCT_USER_PROMPT_PREFIX`). */
const USER_PROMPT_OPENING =
  "Reference the user excerpt, user edits, and the snippets to understand the developer's intent. Update the " +
  "editable region of the user excerpt by predicting and completing the changes they would have made next. This " +
  "may be a deletion, addition, or modification of code.";

/** Related files as Continue's `contextSnippetsBlock` turns them out, an empty line between two. */
function contextBlock(related: readonly { path: string; text: string }[]): string {
  return related
    .map((file) => `${CONTEXT_FILE}: ${file.path}\n${SNIPPET}\n${withoutFinalNewline(file.text)}`)
    .join("\n\n");
}

/** One change as Continue's `editHistoryBlock` writes it, with the lines it filters out left out. */
export function instinctEvent(event: EditEvent): string {
  const lines = unifiedDiffHunk(event, "always")
    .split("\n")
    .filter((line) => line.trim() !== "" && !line.startsWith("---") && !line.startsWith("+++"))
    .filter((line) => /^[@+\- ]/.test(line));
  if (lines.length === 0) return "";
  return `User edited file ${JSON.stringify(event.path)}\n\n\`\`\`diff\n${lines.join("\n")}\n\`\`\``;
}

/** The excerpt's lines with the region between its markers and the cursor marked, joined by "\n". */
function excerptLines(excerpt: Excerpt): string {
  const lines = (text: string) => (text === "" ? [] : [withoutFinalNewline(text)]);
  const region = withCursor(withoutFinalNewline(excerpt.region), excerpt.cursorOffset);
  return [
    ...lines(excerpt.beforeRegion),
    REGION_START,
    region,
    REGION_END,
    ...lines(excerpt.afterRegion),
  ].join("\n");
}

/** The markers an Instinct answer may have kept, though asked not to. */
const MARKERS = {
  start: REGION_START,
  end: REGION_END,
  cursor: CURSOR,
  stray: [CONTEXT_FILE, SNIPPET],
} as const;

/** The answer without a fence around it, when it has one. */
function unfenced(answer: string): string {
  const lines = answer.trim().split("\n");
  if (lines.length < 2 || !lines[0]?.startsWith("```") || lines.at(-1) !== "```") return answer;
  return `${lines.slice(1, -1).join("\n")}\n`;
}

/** Continue's Instinct: chat; the answer is the region's lines. */
export const instinct: NextEditFormat = {
  name: "instinct",
  prompt({ excerpt, events, related }) {
    const edits = events
      .slice(-MAX_EVENTS)
      .map(instinctEvent)
      .filter((text) => text !== "")
      .join("\n");
    const user =
      `${USER_PROMPT_OPENING}\n\n### Context:\n${contextBlock(related)}\n\n### User Edits:\n\n${edits}\n\n` +
      `### User Excerpt:\n${excerpt.path}\n\n${excerptLines(excerpt)}\`\`\`\n### Response:`;
    return {
      shape: "chat",
      messages: [
        { role: "system", content: INSTINCT_SYSTEM_PROMPT },
        { role: "user", content: user },
      ],
      stop: [],
      maxTokens: answerTokenBudget(excerpt.region),
    };
  },
  rewrittenRegion(answer, { excerpt }) {
    if (answer.split(CURSOR).join("").trim() === "") return { ok: false, problem: "empty" };
    // Asked for the region alone; a kept start marker (Continue's own test model answers so) opens it instead.
    const marked = answer.includes(REGION_START) ? answer : `${REGION_START}\n${unfenced(answer)}`;
    return markedRegion(marked, MARKERS, excerpt.region);
  },
};
