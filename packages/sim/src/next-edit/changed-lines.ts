import type { ShownEdit } from "./edit-task.js";

/** A line the user changed: what it was and what it became. */
export interface ChangedLine {
  old: string;
  new: string;
}

/**
 * The lines an edit changed one for one: the runs of lines it replaced by as many lines, paired in order (a run
 * replaced by more or fewer lines pairs nothing). The longest common subsequence of the two sides finds the runs.
 */
export function changedLines(edit: ShownEdit): ChangedLine[] {
  const { before, after } = edit;
  // lcs[i][j]: the longest common subsequence of before[i..] and after[j..].
  const lcs = Array.from({ length: before.length + 1 }, () => new Array<number>(after.length + 1).fill(0));
  for (let i = before.length - 1; i >= 0; i--) {
    for (let j = after.length - 1; j >= 0; j--) {
      const row = lcs[i] as number[];
      row[j] =
        before[i] === after[j]
          ? (lcs[i + 1]?.[j + 1] ?? 0) + 1
          : Math.max(lcs[i + 1]?.[j] ?? 0, row[j + 1] ?? 0);
    }
  }
  const pairs: ChangedLine[] = [];
  let removed: string[] = [];
  let added: string[] = [];
  const flush = () => {
    if (removed.length === added.length) {
      removed.forEach((old, k) => {
        pairs.push({ old, new: added[k] as string });
      });
    }
    removed = [];
    added = [];
  };
  let i = 0;
  let j = 0;
  while (i < before.length || j < after.length) {
    if (i < before.length && j < after.length && before[i] === after[j]) {
      flush();
      i++;
      j++;
    } else if (j >= after.length || (i < before.length && (lcs[i + 1]?.[j] ?? 0) >= (lcs[i]?.[j + 1] ?? 0))) {
      removed.push(before[i++] as string);
    } else added.push(after[j++] as string);
  }
  flush();
  return pairs;
}
