import type { CodeAction, Command, Position, Range, TextEdit, WorkspaceEdit } from "vscode-languageserver";
import type { OpenDocument } from "../documents/documents.js";
import { type PositionEncoding, toClientCharacter } from "../documents/position-encoding.js";
import type { NextEdit } from "../next-edit/answer-memory.js";
import { NEXT_EDIT_ACCEPTED_COMMAND } from "../stats/commands.js";

// Next edits in the shapes editors already render: copilot-language-server's `textDocument/copilotInlineEdit`
// answer (copilot-lsp, sidekick.nvim), and code actions (Helix, Eglot, lsp-mode).

/** One edit of a `textDocument/copilotInlineEdit` answer, as copilot-language-server writes it. */
export interface InlineEdit {
  range: Range;
  text: string;
  textDocument: { uri: string; version: number };
  command: Command;
}

/** The answer to `textDocument/copilotInlineEdit`: never null (copilot-lsp reads `result.edits` unguarded). */
export interface InlineEditList {
  edits: InlineEdit[];
}

/** The code action kind of a next edit. */
export const NEXT_EDIT_ACTION_KIND = "refactor.rewrite";

/** The command that reports an edit accepted: `[id]`, as copilot's item commands carry their id. */
function acceptCommand(edit: NextEdit): Command {
  return { title: "Accept next edit", command: NEXT_EDIT_ACCEPTED_COMMAND, arguments: [edit.id] };
}

/** A UTF-16 range of `doc` in the client's position encoding (a line past the end keeps its character). */
function clientRange(doc: OpenDocument, range: Range, encoding: PositionEncoding): Range {
  const at = (position: Position): Position =>
    encoding === "utf-16" || position.line >= doc.buffer.lineCount
      ? position
      : {
          line: position.line,
          character: toClientCharacter(doc.buffer.lineAt(position.line), position.character, encoding),
        };
  return { start: at(range.start), end: at(range.end) };
}

/** The edits as `textDocument/copilotInlineEdit` answers them, for the document as it is now. */
export function inlineEditList(
  doc: OpenDocument,
  edits: readonly NextEdit[],
  encoding: PositionEncoding,
): InlineEditList {
  return {
    edits: edits.map((edit) => ({
      range: clientRange(doc, edit.range, encoding),
      text: edit.text,
      textDocument: { uri: doc.uri, version: doc.version },
      command: acceptCommand(edit),
    })),
  };
}

/** Whether an edit touches lines `from` to `to` (both included). */
export function touchesLines(edit: NextEdit, from: number, to: number): boolean {
  return edit.range.start.line <= to && edit.range.end.line >= from;
}

/**
 * Each edit as a code action of kind `refactor.rewrite`, titled with what it changes: its edit (versioned when the
 * client takes `documentChanges`, so that an editor refuses it once the text moved on) and the accept command.
 */
export function nextEditActions(
  doc: OpenDocument,
  edits: readonly NextEdit[],
  encoding: PositionEncoding,
  documentChanges: boolean,
): CodeAction[] {
  return edits.map((edit, i) => {
    const change: TextEdit = { range: clientRange(doc, edit.range, encoding), newText: edit.text };
    const workspaceEdit: WorkspaceEdit = documentChanges
      ? { documentChanges: [{ textDocument: { uri: doc.uri, version: doc.version }, edits: [change] }] }
      : { changes: { [doc.uri]: [change] } };
    return {
      title: actionTitle(doc.buffer.slice(edit.range.start, edit.range.end), edit),
      kind: NEXT_EDIT_ACTION_KIND,
      ...(i === 0 ? { isPreferred: true } : {}),
      edit: workspaceEdit,
      command: acceptCommand(edit),
    };
  });
}

/** How much of a text a title quotes. */
const QUOTED = 40;

/** What an edit does, in a few words: `Next edit: replace "total" with "sum"`. */
export function actionTitle(removed: string, edit: NextEdit): string {
  const quote = (text: string) => {
    const line = text.replace(/\s+/g, " ").trim();
    return JSON.stringify(line.length > QUOTED ? `${line.slice(0, QUOTED - 1)}…` : line);
  };
  const lines = edit.range.end.line - edit.range.start.line;
  if (lines > 1 || edit.text.split("\n").length > 3) {
    return `Next edit: rewrite lines ${edit.range.start.line + 1}–${edit.range.end.line + 1}`;
  }
  if (removed.trim() === "") return `Next edit: insert ${quote(edit.text)}`;
  if (edit.text.trim() === "") return `Next edit: delete ${quote(removed)}`;
  return `Next edit: replace ${quote(removed)} with ${quote(edit.text)}`;
}
