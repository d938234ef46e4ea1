import type { DidChangeTextDocumentParams, DidOpenTextDocumentParams, Position } from "vscode-languageserver";
import { fromClientCharacter, type PositionEncoding } from "./position-encoding.js";
import { type AppliedChange, fullTextChange, trimChange } from "./position-map.js";
import { comparePositions, TextBuffer } from "./text-buffer.js";

/**
 * A content change as the document applied it (see {@link AppliedChange}), with where it starts in the text as
 * parsers read it: `offset`, in UTF-16 units of the text before the change with its lines joined by `\n`
 * ({@link TextBuffer.offsetAt}). What a syntax tree needs to follow the edit without comparing texts.
 */
export interface DocumentChange extends AppliedChange {
  readonly offset: number;
}

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

  /** @param warn - told about a change that cannot be applied (the copy then differs from the client's) */
  constructor(private readonly warn: (message: string) => void = () => {}) {}

  get(uri: string): OpenDocument | undefined {
    return this.#docs.get(uri);
  }

  /** Every open document, in the order they were opened. */
  all(): IterableIterator<OpenDocument> {
    return this.#docs.values();
  }

  /**
   * Open a document. Opened again while open (a reload from disk), it returns the change from the text it had: the
   * smallest one (see position-map.ts).
   */
  didOpen({ textDocument }: DidOpenTextDocumentParams): AppliedChange | undefined {
    const open = this.#docs.get(textDocument.uri);
    const reload = open && fullTextChange(open.buffer.getText(), textDocument.text);
    this.#docs.set(textDocument.uri, {
      uri: textDocument.uri,
      languageId: textDocument.languageId,
      version: textDocument.version,
      buffer: new TextBuffer(textDocument.text),
    });
    return reload;
  }

  /**
   * Apply a change. Returns the earliest position (UTF-16) the change touched, and each content change as applied
   * (the smallest equivalent one, in order); `undefined` for a document that is not open (the change is dropped).
   */
  didChange({
    textDocument,
    contentChanges,
  }: DidChangeTextDocumentParams): { from: Position; changes: DocumentChange[] } | undefined {
    const doc = this.#docs.get(textDocument.uri);
    if (!doc) return undefined;
    let earliest: Position | undefined;
    const changes: DocumentChange[] = [];
    for (const change of contentChanges) {
      let applied: AppliedChange;
      let offset: number;
      if ("range" in change) {
        const start = this.toUtf16(doc, change.range.start);
        const end = this.toUtf16(doc, change.range.end);
        if (!start || !end) {
          this.warn(
            `ignoring a change with an invalid range in ${textDocument.uri}: ${JSON.stringify(change.range)}`,
          );
          continue;
        }
        const [from, to] = comparePositions(start, end) <= 0 ? [start, end] : [end, start];
        applied = trimChange({
          range: { start: from, end: to },
          text: change.text,
          replaced: doc.buffer.slice(from, to),
        });
        offset = doc.buffer.offsetAt(applied.range.start);
        doc.buffer.applyChange({ range: { start, end }, text: change.text });
      } else {
        // Clients that send the whole text on every keystroke still type at one place: find it, so that what the
        // engine remembers for the text before it survives.
        applied = fullTextChange(doc.buffer.getText(), change.text);
        offset = doc.buffer.offsetAt(applied.range.start);
        doc.buffer.setText(change.text);
      }
      changes.push({ ...applied, offset });
      const start = applied.range.start;
      if (!earliest || comparePositions(start, earliest) < 0) earliest = start;
    }
    doc.version = textDocument.version;
    return { from: earliest ?? { line: 0, character: 0 }, changes };
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
}
