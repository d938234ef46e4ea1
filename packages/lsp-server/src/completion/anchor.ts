import type { Position } from "vscode-languageserver";
import type { OpenDocument } from "../documents/documents.js";

/** Type-through looks at most this many lines between the anchor and the cursor. */
const TYPE_THROUGH_MAX_LINES = 16;

/** Where a request was made: its cursor (UTF-16) and its line split there. */
export interface Anchor {
  line: number;
  character: number;
  linePrefix: string;
  lineRest: string;
}

/** The anchor of a request at `position` (UTF-16) in `doc`. */
export function anchorAt(doc: OpenDocument, position: Position): Anchor {
  const text = doc.buffer.lineAt(position.line);
  return {
    line: position.line,
    character: position.character,
    linePrefix: text.slice(0, position.character),
    lineRest: text.slice(position.character),
  };
}

/** The text typed between an anchor and the cursor, or null when the cursor is before it or too far away. */
export function typedSince(doc: OpenDocument, from: Position, to: Position): string | null {
  if (to.line < from.line || (to.line === from.line && to.character < from.character)) return null;
  if (to.line - from.line > TYPE_THROUGH_MAX_LINES || from.line >= doc.buffer.lineCount) return null;
  if (from.character > doc.buffer.lineAt(from.line).length) return null;
  return doc.buffer.slice(from, to);
}
