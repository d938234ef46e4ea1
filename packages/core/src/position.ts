/**
 * Converts an LSP-style position (0-based line, 0-based UTF-16 character) into an offset into `text`.
 * Lines end at `\n`, `\r\n` or `\r`, as in LSP; `character` may equal the line's length (end of line).
 *
 * @throws {RangeError} saying which coordinate is out of range and what the valid range is.
 */
export function offsetAt(text: string, line: number, character: number): number {
  if (!Number.isInteger(line) || line < 0) throw new RangeError(`line must be a non-negative integer`);
  if (!Number.isInteger(character) || character < 0) {
    throw new RangeError(`character must be a non-negative integer`);
  }
  let start = 0;
  for (let current = 0; current < line; current++) {
    const end = lineEnd(text, start);
    if (end === text.length) {
      throw new RangeError(`line ${line} is past the end (the text has ${current + 1} lines, 0–${current})`);
    }
    start = end + (text[end] === "\r" && text[end + 1] === "\n" ? 2 : 1);
  }
  const length = lineEnd(text, start) - start;
  if (character > length) {
    throw new RangeError(
      `character ${character} is past the end of line ${line} (it has ${length} characters)`,
    );
  }
  return start + character;
}

/** Splits `text` at a position into the FIM prompt (before) and suffix (after). */
export function splitAt(text: string, line: number, character: number): { prompt: string; suffix: string } {
  const offset = offsetAt(text, line, character);
  return { prompt: text.slice(0, offset), suffix: text.slice(offset) };
}

function lineEnd(text: string, from: number): number {
  for (let i = from; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10 || c === 13) return i;
  }
  return text.length;
}
