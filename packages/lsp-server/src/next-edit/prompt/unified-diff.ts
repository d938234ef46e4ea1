import { lineChanges, splitLines } from "../answer/line-diff.js";
import type { EditEvent } from "./excerpt.js";

/**
 * How a hunk header writes a run of one line: `gnu` leaves the count out (`@@ -3 +3 @@`, as GNU diff and Rust's
 * `similar` crate write it, what Zed's Zeta saw), `always` writes it (`@@ -3,1 +3,1 @@`, as jsdiff's `createPatch`
 * writes it, what Continue's Instinct saw). Both write an empty run as starting at the line before it (`-4,0`).
 */
export type HunkCountStyle = "gnu" | "always";

/**
 * One edit event as a unified diff hunk with no file header: `@@ -a,b +c,d @@`, then the event's lines in order,
 * context `" "`, removed `-`, added `+` (within a change, the removed lines first). Every line ends in "\n"; a last
 * line without one is followed by `\ No newline at end of file`, as diff writes it. "" when nothing changed.
 */
export function unifiedDiffHunk(event: EditEvent, style: HunkCountStyle): string {
  const before = splitLines(event.before);
  const after = splitLines(event.after);
  const changes = lineChanges(before, after);
  if (changes.length === 0) return "";
  let body = "";
  let oldAt = 0;
  for (const change of changes) {
    for (const line of before.slice(oldAt, change.oldStart)) body += diffLine(" ", line);
    for (const line of before.slice(change.oldStart, change.oldEnd)) body += diffLine("-", line);
    for (const line of after.slice(change.newStart, change.newEnd)) body += diffLine("+", line);
    oldAt = change.oldEnd;
  }
  for (const line of before.slice(oldAt)) body += diffLine(" ", line);
  const oldRange = hunkRange(event.oldStartLine, before.length, style);
  const newRange = hunkRange(event.newStartLine, after.length, style);
  return `@@ -${oldRange} +${newRange} @@\n${body}`;
}

function diffLine(sign: string, line: string): string {
  return line.endsWith("\n") ? `${sign}${line}` : `${sign}${line}\n\\ No newline at end of file\n`;
}

/** `start,count` with a 1-based start; an empty run names the line before it (0 at the top of the file). */
function hunkRange(startLine: number, count: number, style: HunkCountStyle): string {
  if (count === 0) return `${startLine},0`;
  if (count === 1 && style === "gnu") return `${startLine + 1}`;
  return `${startLine + 1},${count}`;
}
