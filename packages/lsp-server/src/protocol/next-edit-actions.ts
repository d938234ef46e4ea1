import type { CodeAction, Position, TextEdit, WorkspaceEdit } from "vscode-languageserver";
import type { OpenDocument } from "../documents/documents.js";
import type { PositionEncoding } from "../documents/position-encoding.js";
import { type NextEdit, nearestFirst, type RememberedAnswer } from "../next-edit/answer-memory.js";
import { acceptCommand, clientRange } from "./inline-edits.js";

// Next edits as code actions, for editors that render none of the inline-edit shapes (Helix, Eglot, lsp-mode):
// which edits a request for some lines gets, and the actions they become.

/** The code action kind of a next edit. */
export const NEXT_EDIT_ACTION_KIND = "refactor.rewrite";

/**
 * How far a code action request reaches: `lines`, the edits on the lines asked about (an editor asking by itself,
 * for a light bulb or a hint, lights it only where an edit is); `region`, the same, or, when none is there, the
 * nearest edit of the answer as long as the lines are in the region the model rewrote (the user asked, and an editor
 * that draws no next edit cannot show them where the edits are).
 */
export type ActionReach = "lines" | "region";

/** A next edit a code action offers; `elsewhere` when it is not on the lines asked about. */
export interface OfferedEdit {
  edit: NextEdit;
  elsewhere: boolean;
}

/** Whether an edit touches lines `from` to `to` (both included). */
export function touchesLines(edit: NextEdit, from: number, to: number): boolean {
  return edit.range.start.line <= to && edit.range.end.line >= from;
}

/**
 * The edits of `answer` a code action request from `start` to line `to` (UTF-16) gets, nearest `start` first: those
 * touching its lines; with reach `region`, when none does and its lines meet the answer's region, the nearest one.
 */
export function offeredEdits(
  answer: RememberedAnswer | undefined,
  start: Position,
  to: number,
  reach: ActionReach,
): OfferedEdit[] {
  if (!answer) return [];
  const nearest = nearestFirst(answer.edits, start);
  const touching = nearest.filter((edit) => touchesLines(edit, start.line, to));
  if (touching.length > 0) return touching.map((edit) => ({ edit, elsewhere: false }));
  const inRegion = start.line <= answer.region.end && to >= answer.region.start;
  return reach === "region" && inRegion && nearest[0] ? [{ edit: nearest[0], elsewhere: true }] : [];
}

/**
 * Each edit as a code action of kind `refactor.rewrite`, titled with what it changes (and on which line, when it is
 * not on the lines asked about): its edit (versioned when the client takes `documentChanges`, so that an editor
 * refuses it once the text moved on) and the accept command. The first is the preferred one.
 */
export function nextEditActions(
  doc: OpenDocument,
  offered: readonly OfferedEdit[],
  encoding: PositionEncoding,
  documentChanges: boolean,
): CodeAction[] {
  return offered.map(({ edit, elsewhere }, i) => {
    const change: TextEdit = { range: clientRange(doc, edit.range, encoding), newText: edit.text };
    const workspaceEdit: WorkspaceEdit = documentChanges
      ? { documentChanges: [{ textDocument: { uri: doc.uri, version: doc.version }, edits: [change] }] }
      : { changes: { [doc.uri]: [change] } };
    return {
      title: actionTitle(doc.buffer.slice(edit.range.start, edit.range.end), edit, elsewhere),
      kind: NEXT_EDIT_ACTION_KIND,
      ...(i === 0 ? { isPreferred: true } : {}),
      edit: workspaceEdit,
      command: acceptCommand(edit),
    };
  });
}

/** How much of a text a title quotes. */
const QUOTED = 40;

/**
 * What an edit does, in a few words: `Next edit: replace "total" with "sum"`; `Next edit (line 4): …` when `elsewhere`
 * (not on the lines asked about). Lines are 1-based, as editors show them.
 */
export function actionTitle(removed: string, edit: NextEdit, elsewhere = false): string {
  const quote = (text: string) => {
    const line = text.replace(/\s+/g, " ").trim();
    return JSON.stringify(line.length > QUOTED ? `${line.slice(0, QUOTED - 1)}…` : line);
  };
  const lines = edit.range.end.line - edit.range.start.line;
  if (lines > 1 || edit.text.split("\n").length > 3) {
    return `Next edit: rewrite lines ${edit.range.start.line + 1}–${edit.range.end.line + 1}`;
  }
  const head = elsewhere ? `Next edit (line ${edit.range.start.line + 1})` : "Next edit";
  if (removed.trim() === "") return `${head}: insert ${quote(edit.text)}`;
  if (edit.text.trim() === "") return `${head}: delete ${quote(removed)}`;
  return `${head}: replace ${quote(removed)} with ${quote(edit.text)}`;
}
