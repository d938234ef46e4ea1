import type { ShownEdit } from "./edit-task.js";

/**
 * The edits written as ```diff blocks in `text`, in order: each block's context lines on both sides, its `-` lines
 * before, its `+` lines after (hunk headers and `\ No newline` notes skipped).
 */
export function diffBlockEdits(text: string): ShownEdit[] {
  const edits: ShownEdit[] = [];
  for (const block of text.matchAll(/```diff\n([\s\S]*?)\n```/g)) {
    const edit: ShownEdit = { before: [], after: [] };
    for (const line of (block[1] ?? "").split("\n")) {
      const sign = line[0];
      const rest = line.slice(1);
      if (sign === " ") {
        edit.before.push(rest);
        edit.after.push(rest);
      } else if (sign === "-") edit.before.push(rest);
      else if (sign === "+") edit.after.push(rest);
    }
    edits.push(edit);
  }
  return edits;
}
