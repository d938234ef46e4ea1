import type { EditEvent } from "../prompt/excerpt.js";
import type { EditGroup } from "./edit-groups.js";
import { renameOf } from "./rename.js";

/** How many events a prompt carries at most, and their budget in estimated tokens. */
export interface EventBudget {
  readonly maxEvents: number;
  readonly maxTokens: number;
}

/** About 16 events in 1,500 tokens: the last minute or so of a person's edits, a fraction of a prompt. */
export const EVENT_BUDGET: EventBudget = { maxEvents: 16, maxTokens: 1500 };

/** Characters per estimated token (code averages 3–4). */
const CHARS_PER_TOKEN = 3.5;

/**
 * The events a prompt carries, from the groups of edits (oldest first): newest first while they fit `budget`, then
 * in the order they happened, each named by `pathOf` (a document it gives no path is left out: excluded, or
 * outside the workspace). An edit that changed nothing (typed and taken back) or only whitespace is left out;
 * one that only replaced an identifier says so (`rename`).
 */
export function eventsOf(
  groups: readonly EditGroup[],
  pathOf: (uri: string) => string | undefined,
  budget: EventBudget = EVENT_BUDGET,
): EditEvent[] {
  const chosen: EditEvent[] = [];
  let tokens = 0;
  for (let i = groups.length - 1; i >= 0 && chosen.length < budget.maxEvents; i--) {
    const group = groups[i]!;
    const changedBefore = group.before.join("\n");
    const changedAfter = group.after.join("\n");
    const path = pathOf(group.uri);
    if (path === undefined || withoutWhitespace(changedBefore) === withoutWhitespace(changedAfter)) continue;
    const event = eventOf(group, path, changedBefore, changedAfter);
    tokens += Math.ceil((event.path.length + event.before.length + event.after.length) / CHARS_PER_TOKEN);
    if (tokens > budget.maxTokens) break;
    chosen.push(event);
  }
  return chosen.reverse();
}

function eventOf(group: EditGroup, path: string, changedBefore: string, changedAfter: string): EditEvent {
  const above = group.above.length;
  const rename = renameOf(changedBefore, changedAfter);
  return {
    path,
    oldStartLine: group.oldStart - above,
    newStartLine: group.newStart - above,
    before: wholeLines([...group.above, ...group.before, ...group.below]),
    after: wholeLines([...group.above, ...group.after, ...group.below]),
    ...(rename ? { rename } : {}),
  };
}

/** Lines as text, each ending with its line break (so that no lines and one empty line differ). */
function wholeLines(lines: readonly string[]): string {
  let text = "";
  for (const line of lines) text += `${line}\n`;
  return text;
}

function withoutWhitespace(text: string): string {
  return text.replace(/\s+/g, "");
}
