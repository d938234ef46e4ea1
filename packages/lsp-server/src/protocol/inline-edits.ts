import type { Command, Position, Range } from "vscode-languageserver";
import type { OpenDocument } from "../documents/documents.js";
import { type PositionEncoding, toClientCharacter } from "../documents/position-encoding.js";
import type { NextEdit } from "../next-edit/answer-memory.js";
import { NEXT_EDIT_ACCEPTED_COMMAND } from "../stats/commands.js";

// Next edits as copilot-language-server's `textDocument/copilotInlineEdit` answers them (copilot-lsp, sidekick.nvim),
// in the client's position encoding; code actions (next-edit-actions.ts) share the range and the accept command.

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

/** The command that reports an edit accepted: `[id]`, as copilot's item commands carry their id. */
export function acceptCommand(edit: NextEdit): Command {
  return { title: "Accept next edit", command: NEXT_EDIT_ACCEPTED_COMMAND, arguments: [edit.id] };
}

/** A UTF-16 range of `doc` in the client's position encoding (a line past the end keeps its character). */
export function clientRange(doc: OpenDocument, range: Range, encoding: PositionEncoding): Range {
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
