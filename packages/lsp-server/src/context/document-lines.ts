import type { OpenDocument } from "../documents/documents.js";

/** What the open documents look like from repository context (`Documents` fits). */
export interface DocumentSource {
  get(uri: string): OpenDocument | undefined;
  all(): Iterable<OpenDocument>;
}

/** Lines `from` (inclusive) to `to` (exclusive) of a document, joined with `\n`. */
export function linesOf(doc: OpenDocument, from: number, to: number): string {
  const lines: string[] = [];
  for (let line = from; line < to && line < doc.buffer.lineCount; line++) lines.push(doc.buffer.lineAt(line));
  return lines.join("\n");
}

/** A text without its leading blank lines and trailing whitespace. */
export function trimBlankLines(text: string): string {
  return text.replace(/^(?:[ \t]*\n)+/, "").trimEnd();
}
