import type { DidChangeTextDocumentParams, DidOpenTextDocumentParams, Position } from "vscode-languageserver";
import { fromClientCharacter, type PositionEncoding, toClientCharacter } from "./position-encoding.js";
import { comparePositions, TextBuffer } from "./text-buffer.js";

/** An open document as the server sees it. */
export interface OpenDocument {
  uri: string;
  languageId: string;
  version: number;
  buffer: TextBuffer;
}

/**
 * The open documents, kept in sync incrementally. Positions arrive in the negotiated encoding and are turned
 * into UTF-16 against the line they point into, so a change costs O(edit), not O(document).
 */
export class Documents {
  readonly #docs = new Map<string, OpenDocument>();
  /** The position encoding negotiated at `initialize`. */
  encoding: PositionEncoding = "utf-16";

  get(uri: string): OpenDocument | undefined {
    return this.#docs.get(uri);
  }

  get size(): number {
    return this.#docs.size;
  }

  didOpen({ textDocument }: DidOpenTextDocumentParams): void {
    this.#docs.set(textDocument.uri, {
      uri: textDocument.uri,
      languageId: textDocument.languageId,
      version: textDocument.version,
      buffer: new TextBuffer(textDocument.text),
    });
  }

  /**
   * Apply a change. Returns the earliest position (UTF-16) the change touched — the start of the document for a
   * full replacement — or `undefined` for a document that is not open (the change is dropped).
   */
  didChange({ textDocument, contentChanges }: DidChangeTextDocumentParams): Position | undefined {
    const doc = this.#docs.get(textDocument.uri);
    if (!doc) return undefined;
    let earliest: Position | undefined;
    for (const change of contentChanges) {
      let start: Position | null = { line: 0, character: 0 };
      if ("range" in change) {
        start = this.toUtf16(doc, change.range.start);
        const end = this.toUtf16(doc, change.range.end);
        if (!start || !end) continue;
        doc.buffer.applyChange({ range: { start, end }, text: change.text });
      } else {
        doc.buffer.setText(change.text);
      }
      if (!earliest || comparePositions(start, earliest) < 0) earliest = start;
    }
    doc.version = textDocument.version;
    return earliest ?? { line: 0, character: 0 };
  }

  didClose(uri: string): void {
    this.#docs.delete(uri);
  }

  /**
   * Turn a client position into a valid UTF-16 position in the document: `null` for a negative or non-integer
   * position; past the end of a line or the document it is clamped, as LSP says.
   */
  toUtf16(doc: OpenDocument, position: Position): Position | null {
    const { line, character } = position;
    if (!Number.isInteger(line) || !Number.isInteger(character) || line < 0 || character < 0) return null;
    if (this.encoding !== "utf-16" && line < doc.buffer.lineCount) {
      const utf16 = fromClientCharacter(doc.buffer.lineAt(line), character, this.encoding);
      return doc.buffer.clampPosition({ line, character: utf16 });
    }
    return doc.buffer.clampPosition(position);
  }

  /** Turn a UTF-16 position of the document into the negotiated encoding, for ranges sent back. */
  toClient(doc: OpenDocument, position: Position): Position {
    if (this.encoding === "utf-16") return position;
    const text = doc.buffer.lineAt(position.line);
    return { line: position.line, character: toClientCharacter(text, position.character, this.encoding) };
  }
}
