import { changedLines } from "./changed-lines.js";
import type { RegionRule, ShownEdit } from "./edit-task.js";
import { isIdentifier, isWordChar, replaceWord, sharedEnds } from "./words.js";

/** One identifier replaced by another. */
export interface Rename {
  from: string;
  to: string;
}

/** The identifier a changed line had where the new line has another, widened to whole words; none otherwise. */
function swappedWord(oldLine: string, newLine: string): Rename | undefined {
  const { head, tail } = sharedEnds(oldLine, newLine);
  let start = head;
  while (start > 0 && isWordChar(oldLine[start - 1])) start--;
  let oldEnd = oldLine.length - tail;
  let newEnd = newLine.length - tail;
  while (oldEnd < oldLine.length && isWordChar(oldLine[oldEnd])) {
    oldEnd++;
    newEnd++;
  }
  const from = oldLine.slice(start, oldEnd);
  const to = newLine.slice(start, newEnd);
  return isIdentifier(from) && isIdentifier(to) && from !== to ? { from, to } : undefined;
}

/** The rename an edit made: every line it changed swapped the same identifier for the same other one. */
export function renameOf(edit: ShownEdit): Rename | undefined {
  let rename: Rename | undefined;
  for (const line of changedLines(edit)) {
    const swapped = swappedWord(line.old, line.new);
    if (!swapped || (rename && (rename.from !== swapped.from || rename.to !== swapped.to))) return undefined;
    rename = swapped;
  }
  return rename;
}

/** (a) The last edit renamed `a` to `b`: every other whole-word `a` in the region becomes `b`. */
export const carryRename: RegionRule = (region, lastEdit) => {
  const rename = renameOf(lastEdit);
  return rename && region.map((line) => replaceWord(line, rename.from, rename.to));
};
