// Where the user's last edit may have to be carried: the lines that mention a name it renamed or whose parameter
// list it changed, and the lines like one it changed (its twins). The region reaches for them, and the deepseek format
// does not force them into the answer's prefix. Pure.
import { lineChanges, splitLines } from "./answer/line-diff.js";
import type { EditEvent } from "./prompt/excerpt.js";

/** What an edit may be carried to. */
export interface CarriedEdit {
  /** Names whose other uses may need the same edit: a rename's old name, the function whose list the edit changed. */
  readonly names: readonly string[];
  /** The shapes of the lines the edit changed, as they were (see {@link shapeOf}): their twins may need it too. */
  readonly shapes: readonly string[];
}

const TOKEN = /[\p{L}\p{N}_$]+|\s+|[^\p{L}\p{N}_$\s]/gu;
const NAME = /^[\p{L}_$][\p{L}\p{N}_$]*$/u;
const WORD = /[\p{L}\p{N}_$]/u;
/** A changed line shorter than this (trimmed) is too plain to look for twins of (`}`, `end`, `i++;`). */
const MIN_TWIN_LENGTH = 8;

/** A line's shape: its tokens without indentation, names as one placeholder, so that twins share it. */
export function shapeOf(line: string): string {
  return (line.trim().match(TOKEN) ?? []).map((token) => (NAME.test(token) ? "\u0001" : token)).join("");
}

/** The name right before the innermost `(` still open at `at` in `line` (the callee whose arguments hold `at`). */
function calleeAt(line: string, at: number): string | undefined {
  let depth = 0;
  for (let i = at - 1; i >= 0; i--) {
    const char = line[i];
    if (char === ")") depth++;
    else if (char === "(") {
      if (depth === 0) return /([\p{L}_$][\p{L}\p{N}_$]*)\s*(?:<[^<>()]*>)?\s*$/u.exec(line.slice(0, i))?.[1];
      depth--;
    }
  }
  return undefined;
}

/**
 * What the user's last edit may be carried to: for a rename, its old name; otherwise, for a change inside a
 * parenthesised list (a parameter added, an argument changed), the function it belongs to, and the shapes of the
 * lines it changed.
 */
export function carriedEdit(event: EditEvent): CarriedEdit {
  // A rename is carried by name alone (the function whose parameter was renamed is not what changes).
  if (event.rename) return { names: [event.rename.from], shapes: [] };
  const names = new Set<string>();
  const shapes = new Set<string>();
  const before = splitLines(event.before).map((line) => line.replace(/\r?\n$/, ""));
  const after = splitLines(event.after).map((line) => line.replace(/\r?\n$/, ""));
  for (const change of lineChanges(before, after)) {
    for (let i = change.oldStart; i < change.oldEnd; i++) {
      const old = before[i]!;
      const now = after[change.newStart + (i - change.oldStart)];
      // Only names changed: the line's own new text has its shape, which says nothing of twins.
      const shape = shapeOf(old);
      if (old.trim().length >= MIN_TWIN_LENGTH && (now === undefined || shapeOf(now) !== shape))
        shapes.add(shape);
      if (now === undefined) continue;
      let head = 0;
      while (head < old.length && head < now.length && old[head] === now[head]) head++;
      const callee = calleeAt(old, head);
      if (callee) names.add(callee);
    }
  }
  return { names: [...names], shapes: [...shapes] };
}

/** Whether a line may need the edit carried to it: it mentions one of the names, or it has a changed line's shape. */
export function mayNeedEdit(line: string, carried: CarriedEdit): boolean {
  for (const name of carried.names) {
    for (let at = line.indexOf(name); at !== -1; at = line.indexOf(name, at + 1)) {
      if (!WORD.test(line[at - 1] ?? "") && !WORD.test(line[at + name.length] ?? "")) return true;
    }
  }
  return (
    carried.shapes.length > 0 &&
    line.trim().length >= MIN_TWIN_LENGTH &&
    carried.shapes.includes(shapeOf(line))
  );
}
