import type { Position } from "vscode-languageserver";
import type { OpenDocument } from "../documents/documents.js";
import { type PositionEncoding, toClientCharacter } from "../documents/position-encoding.js";
import { type Placement, wordBefore } from "./completion-items.js";

/** What is placed: text to insert at a UTF-16 position, replacing `replaceEnd` UTF-16 units after it. */
export interface Placed {
  text: string;
  /** The cursor, UTF-16. */
  position: Position;
  /** UTF-16 units after `position` on its line that the insertion replaces (auto-paired closers). */
  replaceEnd: number;
}

/**
 * Where a suggestion goes in the client's terms: the cursor and the end of what it replaces in the client's
 * position encoding, and the word before the cursor (popup clients filter on it). Undefined when the line is gone
 * (the document shrank meanwhile).
 */
export function placementIn(
  doc: OpenDocument,
  placed: Placed,
  encoding: PositionEncoding,
): Omit<Placement, "accept"> | undefined {
  const { line: lineNumber, character } = placed.position;
  if (lineNumber >= doc.buffer.lineCount) return undefined;
  const line = doc.buffer.lineAt(lineNumber);
  const word = wordBefore(line.slice(0, character));
  const encode = (utf16: number) => toClientCharacter(line, utf16, encoding);
  const cursor = encode(character);
  return {
    text: placed.text,
    position: { line: lineNumber, character: cursor },
    end: { line: lineNumber, character: encode(Math.min(line.length, character + placed.replaceEnd)) },
    wordBefore: word,
    wordBeforeLength: cursor - encode(character - word.length),
  };
}
