import type { OpenDocument } from "../documents/documents.js";

/** What the open documents look like from repository context (`Documents` fits). */
export interface DocumentSource {
  get(uri: string): OpenDocument | undefined;
  all(): Iterable<OpenDocument>;
}

/** The whole text of each buffer as {@link wholeText} last joined it, and the revision it is of. */
const joined = new WeakMap<object, { revision: number; text: string }>();

/**
 * A document's whole text, lines joined with `\n` (what its parses read), joined once per revision of its buffer:
 * the repository context's parse and the completion's syntax tree share it.
 */
export function wholeText(doc: OpenDocument): string {
  const { buffer } = doc;
  const known = joined.get(buffer);
  if (known?.revision === buffer.revision) return known.text;
  // The buffer's own text, when its lines end in `\n` alone (most files): one join of its raw lines.
  let text = buffer.getText();
  if (text.includes("\r")) text = linesOf(doc, 0, buffer.lineCount);
  joined.set(buffer, { revision: buffer.revision, text });
  return text;
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
