import type { DidChangeTextDocumentParams, DidOpenTextDocumentParams, Position } from "vscode-languageserver";
import { fromClientCharacter, type PositionEncoding } from "./position-encoding.js";
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

  /** @param warn - told about a change that cannot be applied (the copy then differs from the client's) */
  constructor(private readonly warn: (message: string) => void = () => {}) {}

  get(uri: string): OpenDocument | undefined {
    return this.#docs.get(uri);
  }

  /** Every open document, in the order they were opened. */
  all(): IterableIterator<OpenDocument> {
    return this.#docs.values();
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
      let start: Position | null;
      if ("range" in change) {
        start = this.toUtf16(doc, change.range.start);
        const end = this.toUtf16(doc, change.range.end);
        if (!start || !end) {
          this.warn(
            `ignoring a change with an invalid range in ${textDocument.uri}: ${JSON.stringify(change.range)}`,
          );
          continue;
        }
        doc.buffer.applyChange({ range: { start, end }, text: change.text });
      } else {
        // Clients that send the whole text on every keystroke still type at one place: find it, so that what the
        // engine remembers for the text before it survives.
        start = firstDifference(doc.buffer.getText(), change.text);
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
}

/** The position (UTF-16) of the first character where two texts differ; line breaks are `\n`, `\r\n` or `\r`. */
export function firstDifference(before: string, after: string): Position {
  let at = 0;
  const common = Math.min(before.length, after.length);
  while (at < common && before.charCodeAt(at) === after.charCodeAt(at)) at++;
  // A `\r` kept before a changed `\n` is half of a line break that changed: start at the `\r`.
  if (at > 0 && after.charCodeAt(at - 1) === 13) at--;
  let line = 0;
  let lineStart = 0;
  for (let i = 0; i < at; i++) {
    const code = after.charCodeAt(i);
    if (code === 10 || (code === 13 && after.charCodeAt(i + 1) !== 10)) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, character: at - lineStart };
}
