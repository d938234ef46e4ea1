import { carryAddedParameter } from "./added-parameter.js";
import type { EditTask, RegionRule } from "./edit-task.js";
import { carryRename } from "./rename.js";
import { repeatOnTwins } from "./twin-lines.js";

/** The rules in the order they are tried; the first that changes the region wins. */
const RULES: readonly RegionRule[] = [carryRename, carryAddedParameter, repeatOnTwins];

/**
 * The simulator's edit model: the region after the edit that follows from the user's last edit (a rename carried to
 * the other uses, a parameter carried to the calls, a line's change repeated on its twins), or the region unchanged
 * when none follows. Deterministic, line for line: it never adds or removes a line.
 */
export function editedRegion(task: EditTask): string[] {
  const lastEdit = task.edits.at(-1);
  if (!lastEdit) return task.region;
  for (const rule of RULES) {
    const region = rule(task.region, lastEdit);
    if (region?.some((line, i) => line !== task.region[i])) return region;
  }
  return task.region;
}
