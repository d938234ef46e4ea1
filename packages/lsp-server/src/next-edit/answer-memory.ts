import type { Position, Range } from "vscode-languageserver";
import { type AppliedChange, advance, mapPosition } from "../documents/position-map.js";
import { comparePositions } from "../documents/text-buffer.js";

/** One edit of an answer, in the document (UTF-16 positions). */
export interface NextEdit {
  /** Names it in the accept command and the counts. */
  readonly id: string;
  readonly range: Range;
  readonly text: string;
}

/** Lines `start` to `end` (0-based, both included). */
export interface LineSpan {
  readonly start: number;
  readonly end: number;
}

/** An answer remembered for one version of a document: the edits still to show, nearest the cursor first. */
export interface RememberedAnswer {
  readonly uri: string;
  readonly version: number;
  readonly edits: readonly NextEdit[];
  /** The region the model rewrote (every edit is inside it), in this version's lines. */
  readonly region: LineSpan;
}

/** What a change did to a remembered answer. */
export type Followed =
  /**
   * The change applied some of its edits (and nothing else): the others, moved, hold for the new version. `applied`
   * are those edits with their range where their text is now.
   */
  | { kind: "advanced"; answer: RememberedAnswer; applied: NextEdit[] }
  /** Anything else: the answer is for a text that is gone. */
  | { kind: "dropped"; dropped: readonly NextEdit[] };

/**
 * Follow an answer through one `didChange` (its changes, as applied, and the text after them): when the changes only
 * applied edits of the answer (each edit a change touched is in the document now, whole, at its place), the rest is
 * the answer for the new version, moved by the changes, so that Tab, Tab, Tab walks through a rename without a
 * request; any other change drops it (an answer made for another text is never shown).
 */
export function followAnswer(
  answer: RememberedAnswer,
  version: number,
  changes: readonly AppliedChange[],
  text: { slice(start: Position, end: Position): string },
): Followed {
  let edits = answer.edits.map((edit) => ({
    edit,
    start: edit.range.start,
    end: edit.range.end,
    touched: false,
  }));
  for (const change of changes) {
    edits = edits.map((entry) => {
      const touched = entry.touched || touches(change.range, entry);
      return {
        edit: entry.edit,
        touched,
        start: mapPosition(entry.start, change, "before"),
        end: mapPosition(entry.end, change, touched ? "after" : "before"),
      };
    });
  }
  let region = answer.region;
  for (const change of changes) region = followLines(region, change);
  const applied = edits.filter((entry) => entry.touched);
  const holds = (entry: (typeof edits)[number]) =>
    text.slice(entry.start, advance(entry.start, entry.edit.text)) === entry.edit.text;
  if (applied.length === 0 || !applied.every(holds)) return { kind: "dropped", dropped: answer.edits };
  return {
    kind: "advanced",
    applied: applied.map(({ edit, start }) => ({
      id: edit.id,
      range: { start, end: advance(start, edit.text) },
      text: edit.text,
    })),
    answer: {
      uri: answer.uri,
      version,
      edits: edits
        .filter((entry) => !entry.touched)
        .map(({ edit, start, end }) => ({ id: edit.id, range: { start, end }, text: edit.text })),
      region,
    },
  };
}

/** Lines through a change: its first line stays, its last one ends where that line's end went. */
function followLines(span: LineSpan, change: AppliedChange): LineSpan {
  return {
    start: mapPosition({ line: span.start, character: 0 }, change, "before").line,
    end: mapPosition({ line: span.end, character: Number.MAX_SAFE_INTEGER }, change, "after").line,
  };
}

/** Whether a change's range meets an edit's (touching counts: typing right at its edge changes what it meets). */
function touches(range: Range, edit: { start: Position; end: Position }): boolean {
  return comparePositions(range.start, edit.end) <= 0 && comparePositions(range.end, edit.start) >= 0;
}

/** The edits nearest `position` first: by lines away, then by characters on the same line. */
export function nearestFirst(edits: readonly NextEdit[], position: Position): NextEdit[] {
  const distance = (edit: NextEdit) => {
    const { start, end } = edit.range;
    if (position.line < start.line) return [start.line - position.line, 0];
    if (position.line > end.line) return [position.line - end.line, 0];
    const column =
      position.line === start.line && position.character < start.character
        ? start.character - position.character
        : position.line === end.line && position.character > end.character
          ? position.character - end.character
          : 0;
    return [0, column];
  };
  return [...edits]
    .map((edit) => ({ edit, key: distance(edit) }))
    .sort((a, b) => a.key[0]! - b.key[0]! || a.key[1]! - b.key[1]!)
    .map(({ edit }) => edit);
}
