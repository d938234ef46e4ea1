import type { LineChange } from "./line-change.js";

// Grouping a document's changes into the edits a person made: the keystrokes of one word, one line, one rename are
// one edit. Pure: the edge (edit-history.ts) gives each change with the lines around it.

/** Changes this close in time (ms) join the open group even a few lines apart. */
export const GROUP_WINDOW_MS = 1000;
/** Changes at most this many lines from the open group join it whenever they come. */
export const NEAR_LINES = 2;
/** A group spans at most this many lines: a change that would make it longer starts a group of its own. */
export const MAX_GROUP_LINES = 24;
/** Lines of unchanged context kept on each side of a group. */
export const CONTEXT_LINES = 2;

/** One edit as it grows: the lines it changed, before and now. */
export interface EditGroup {
  /** The document (its URI). */
  readonly uri: string;
  /** First line of `before` in the text before the group's first change. */
  oldStart: number;
  /** First line of `after` in the text now (moved by changes above it). */
  newStart: number;
  /** The lines the group changed, as they were. */
  before: string[];
  /** The same lines now. */
  after: string[];
  /** Unchanged lines just above and below it, as of its last change. */
  above: string[];
  below: string[];
  /** When its first and last change came (ms). */
  firstTime: number;
  lastTime: number;
  /** Whether a later change may still join it: only a document's latest group, until a change elsewhere. */
  open: boolean;
}

/** The text after a change, read by line (0-based), and how many lines it has. */
export interface LinesAfter {
  lineAt(line: number): string;
  readonly lineCount: number;
}

/**
 * Record a change of the document `uri` at `time` (ms): it joins the group open for that document when it is near it (within
 * {@link NEAR_LINES} lines, or {@link GROUP_WINDOW_MS} of its last change) and the group stays within
 * {@link MAX_GROUP_LINES}; otherwise it starts a group, and closes every other. Groups of the same document below the
 * change move by the lines it added or removed. Mutates `groups` (oldest first) and returns the group the change went
 * to. O(the group's lines).
 */
export function recordChange(
  groups: EditGroup[],
  uri: string,
  change: LineChange,
  text: LinesAfter,
  time: number,
): EditGroup {
  const s = change.startLine;
  const e = s + change.oldLines.length;
  const delta = change.newLines.length - change.oldLines.length;
  const latest = groups.at(-1);
  const open = latest?.open && latest.uri === uri ? latest : undefined;
  const joined = open && joins(open, s, e, time) ? open : undefined;
  // Only the latest group can be open; the others of the document move when lines were added or removed above them.
  if (latest && latest !== joined) latest.open = false;
  if (delta !== 0) {
    for (const group of groups) {
      if (group !== joined && group.uri === uri && group.newStart >= e) group.newStart += delta;
    }
  }
  if (joined) {
    extend(joined, change, text, time);
    return joined;
  }
  const created: EditGroup = {
    uri,
    oldStart: s,
    newStart: s,
    before: [...change.oldLines],
    after: [...change.newLines],
    above: [],
    below: [],
    firstTime: time,
    lastTime: time,
    open: true,
  };
  withContext(created, text);
  groups.push(created);
  return created;
}

/** Whether a change of lines `[s, e)` (before it) at `time` joins the open group. */
function joins(group: EditGroup, s: number, e: number, time: number): boolean {
  const gs = group.newStart;
  const ge = gs + group.after.length;
  const span = Math.max(e, ge) - Math.min(s, gs);
  if (span > MAX_GROUP_LINES) return false;
  const gap = Math.max(s - ge, gs - e, 0);
  return gap <= NEAR_LINES || time - group.lastTime <= GROUP_WINDOW_MS;
}

/** Grow `group` by a change that joins it: its lines before and after now cover both. */
function extend(group: EditGroup, change: LineChange, text: LinesAfter, time: number): void {
  const s = change.startLine;
  const e = s + change.oldLines.length;
  const delta = change.newLines.length - change.oldLines.length;
  const gs = group.newStart;
  const ge = gs + group.after.length;
  group.lastTime = time;
  if (s >= gs && e <= ge) {
    // Inside the group (most keystrokes): its lines before stay, its lines now take the change; the lines around
    // it only move when lines were added or removed.
    group.after.splice(s - gs, e - s, ...change.newLines);
    if (delta !== 0) withContext(group, text);
    return;
  }
  const lo = Math.min(s, gs);
  const hi = Math.max(e, ge);
  // A line's text just before this change: above it, and below it, the text after it has it (moved by `delta`).
  const before = (line: number) =>
    line < s ? text.lineAt(line) : line < e ? change.oldLines[line - s]! : text.lineAt(line + delta);
  const outside = (from: number, to: number) => {
    const lines: string[] = [];
    for (let line = from; line < to; line++) lines.push(before(line));
    return lines;
  };
  const headLines = outside(lo, gs);
  const tailLines = outside(ge, hi);
  // Lines outside the group were unchanged by it: as they were before this change is as they were before it.
  group.before = [...headLines, ...group.before, ...tailLines];
  const current = [...headLines, ...group.after, ...tailLines];
  current.splice(s - lo, e - s, ...change.newLines);
  group.after = current;
  group.oldStart -= gs - lo;
  group.newStart = lo;
  withContext(group, text);
}

/** Read the unchanged lines around a group from the text after its last change. */
function withContext(group: EditGroup, text: LinesAfter): void {
  const top = Math.max(0, group.newStart - CONTEXT_LINES);
  group.above = [];
  for (let line = top; line < group.newStart; line++) group.above.push(text.lineAt(line));
  const end = group.newStart + group.after.length;
  group.below = [];
  for (let line = end; line < Math.min(text.lineCount, end + CONTEXT_LINES); line++) {
    group.below.push(text.lineAt(line));
  }
}
