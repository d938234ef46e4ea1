import type { Position, Range } from "vscode-languageserver";

/**
 * One `textDocument/didChange` content change: incremental when `range` is present (positions in UTF-16 code
 * units), a full replacement otherwise. LSP's `TextDocumentContentChangeEvent` is assignable to it.
 */
export interface TextChange {
  /** The replaced range; absent for a full-text change. */
  readonly range?: Range | undefined;
  /** The new text for the range (or the whole document). */
  readonly text: string;
}

/** A document's lines as parsers read them (a {@link TextBuffer}, or a {@link LineSnapshot} of one). */
export interface LineSource {
  /** Number of lines (at least 1). */
  readonly lineCount: number;
  /** Text of a line (0-based) without its terminator. */
  lineAt(line: number): string;
}

/** A line terminator as found in the document; `""` for the last line, which has none. */
export type LineEnding = "\n" | "\r\n" | "\r" | "";

const LF = 10;
const CR = 13;

/** Options of {@link TextBuffer}. */
export interface TextBufferOptions {
  /**
   * Lines per chunk when chunks are (re)built; a chunk that grows past twice this is rebuilt. Default 512. Tests
   * use tiny values to exercise chunk boundaries.
   */
  readonly chunkLines?: number;
}

/**
 * Splits text into raw lines that keep their terminator (`\n`, `\r\n` or `\r`, as LSP counts them). The last
 * element has no terminator and may be `""`, so the result is never empty and `join("")` gives `text` back.
 */
function splitRawLines(text: string): string[] {
  const lines: string[] = [];
  let start = 0;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const ch = text.charCodeAt(i);
    if (ch === LF) {
      lines.push(text.slice(start, i + 1));
      start = i + 1;
    } else if (ch === CR) {
      const end = text.charCodeAt(i + 1) === LF ? i + 2 : i + 1;
      lines.push(text.slice(start, end));
      start = end;
      i = end - 1;
    }
  }
  lines.push(text.slice(start));
  return lines;
}

/** Length of the terminator at the end of a raw line (0, 1 or 2 UTF-16 units). */
function eolLength(raw: string): number {
  const n = raw.length;
  if (n === 0) return 0;
  const last = raw.charCodeAt(n - 1);
  if (last === LF) return n >= 2 && raw.charCodeAt(n - 2) === CR ? 2 : 1;
  return last === CR ? 1 : 0;
}

/** Index of the chunk holding `line` (which must exist), given each chunk's first line: a binary search. */
function chunkHolding(starts: readonly number[], line: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >>> 1;
    if (starts[mid]! <= line) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** Length of a raw line without its terminator. */
function contentLength(raw: string): number {
  return raw.length - eolLength(raw);
}

function hasLineBreak(text: string): boolean {
  return text.includes("\n") || text.includes("\r");
}

/**
 * The document store behind incremental sync. Lines are kept raw — each with its own terminator, so mixed
 * `\n` / `\r\n` / `\r` endings round-trip exactly — in chunks of a few hundred lines with a table of each
 * chunk's first line number. An edit rewrites only the lines it touches, splices one chunk and shifts the chunk
 * table: O(edit + touched lines' length + chunks), about a microsecond for a keystroke on a 100k-line document,
 * never a copy of the document. A single flat array would move the whole tail on every line-count change: about
 * 8 µs per Enter at 100k lines but 0.7 ms at 1M (measured on Node 20), and much worse through a spread `splice`.
 *
 * Invariant: every line but the last ends with exactly one terminator, and a line ending in a lone `\r` is never
 * followed by a line starting with `\n` (that pair is one `\r\n` break), so the lines always equal what LSP's
 * rule finds in `getText()`.
 */
export class TextBuffer {
  /** Non-empty arrays of raw lines. */
  #chunks: string[][] = [];
  /** `#starts[c]` = number of the first line in `#chunks[c]`. */
  #starts: number[] = [];
  /** Per chunk: its lines' content lengths plus one break each (`\n`-joined), or -1 until counted again. */
  #joined: number[] = [];
  #lineCount = 0;
  #length = 0;
  #revision = 0;
  readonly #chunkLines: number;

  /**
   * @param text the initial document content.
   * @param options tuning; the defaults suit any document size.
   */
  constructor(text: string, options: TextBufferOptions = {}) {
    this.#chunkLines = Math.max(1, Math.floor(options.chunkLines ?? 512));
    this.setText(text);
  }

  /** Length of the whole text in UTF-16 code units, terminators included (kept up to date, not counted). */
  get length(): number {
    return this.#length;
  }

  /** How many times the content was set or changed: what is derived from the text holds while it stays the same. */
  get revision(): number {
    return this.#revision;
  }

  /** Number of lines (at least 1; a trailing line break starts an empty last line). */
  get lineCount(): number {
    return this.#lineCount;
  }

  /**
   * Text of line `line` (0-based) without its terminator.
   * @throws RangeError when `line` is not an integer in `[0, lineCount)`.
   */
  lineAt(line: number): string {
    const raw = this.#raw(line);
    const eol = eolLength(raw);
    return eol === 0 ? raw : raw.slice(0, raw.length - eol);
  }

  /**
   * The terminator of line `line`: `"\n"`, `"\r\n"`, `"\r"`, or `""` for the last line.
   * @throws RangeError when `line` is not an integer in `[0, lineCount)`.
   */
  lineEndingAt(line: number): LineEnding {
    const raw = this.#raw(line);
    return raw.slice(raw.length - eolLength(raw)) as LineEnding;
  }

  /**
   * The text as it is now, to be read later whatever is edited meanwhile: a copy of the lists of lines (not of the
   * lines), a few microseconds for thousands of lines.
   */
  snapshot(): LineSnapshot {
    return new LineSnapshot(
      this.#chunks.map((chunk) => chunk.slice()),
      this.#starts.slice(),
      this.#lineCount,
      this.#revision,
    );
  }

  /**
   * The offset of a position in the text as its lines joined with `\n` read it (every line break one unit, whatever
   * the document's own: what parsers of the document see), the position clamped by {@link clampPosition}. About a
   * microsecond: each chunk's length is kept, recounted only after an edit in it.
   * @throws RangeError when the position is negative or not an integer.
   */
  offsetAt(position: Position): number {
    const { line, character } = this.#clampOrThrow(position);
    const c = this.#chunkOf(line);
    let offset = 0;
    for (let i = 0; i < c; i++) offset += this.#joinedLength(i);
    const chunk = this.#chunks[c]!;
    for (let i = 0, n = line - this.#starts[c]!; i < n; i++) offset += contentLength(chunk[i]!) + 1;
    return offset + character;
  }

  /** The whole document, as it was given (its line endings kept): one join of its lines. */
  getText(): string {
    return this.#chunks.map((chunk) => chunk.join("")).join("");
  }

  /** Replaces the whole content (a full-sync change). */
  setText(text: string): void {
    this.#revision++;
    const lines = splitRawLines(text);
    this.#chunks = [];
    this.#starts = [];
    this.#joined = [];
    this.#insertChunks(0, lines, 0);
    this.#lineCount = lines.length;
    this.#length = text.length;
  }

  /**
   * Applies one LSP content change: a full replacement when `range` is absent, otherwise replaces `range`
   * (clamped by {@link clampPosition}; a reversed range is reordered) with `text`.
   * @throws RangeError when a range position is negative or not an integer.
   */
  applyChange(change: TextChange): void {
    const { range, text } = change;
    if (range === undefined) {
      this.setText(text);
      return;
    }
    this.#revision++;
    let start = this.#clampOrThrow(range.start);
    let end = this.#clampOrThrow(range.end);
    if (comparePositions(start, end) > 0) [start, end] = [end, start];

    // Characters are clamped to the line content, so the terminator of the end line stays in the region.
    let region =
      this.#raw(start.line).slice(0, start.character) + text + this.#raw(end.line).slice(end.character);
    let from = start.line;
    // A region starting with "\n" right after a line ending in a lone "\r" fuses into one "\r\n" break.
    if (from > 0 && region.charCodeAt(0) === LF) {
      const prev = this.#raw(from - 1);
      if (prev.charCodeAt(prev.length - 1) === CR) {
        region = prev + region;
        from -= 1;
      }
    }

    if (from === start.line && start.line === end.line && !hasLineBreak(text)) {
      this.#setRaw(from, region); // the common keystroke: one line in, one line out
      return;
    }
    const replacement = splitRawLines(region);
    // Unless the region reaches the end of the document it ends with the end line's terminator, which leaves an
    // empty trailing piece that is not a line of its own.
    if (end.line < this.#lineCount - 1) replacement.pop();
    this.#replaceLines(from, end.line + 1, replacement);
  }

  /**
   * The text between two positions, copying only that span. Positions are clamped by {@link clampPosition};
   * `""` when `end` is before `start`.
   * @throws RangeError when a position is negative or not an integer.
   */
  slice(start: Position, end: Position): string {
    const s = this.#clampOrThrow(start);
    const e = this.#clampOrThrow(end);
    if (comparePositions(s, e) >= 0) return "";
    if (s.line === e.line) return this.#raw(s.line).slice(s.character, e.character);
    const parts: string[] = [this.#raw(s.line).slice(s.character)];
    let c = this.#chunkOf(s.line + 1);
    let i = s.line + 1 - this.#starts[c]!;
    for (let line = s.line + 1; line < e.line; line++, i++) {
      if (i === this.#chunks[c]!.length) {
        c += 1;
        i = 0;
      }
      parts.push(this.#chunks[c]![i]!);
    }
    parts.push(this.#raw(e.line).slice(0, e.character));
    return parts.join("");
  }

  /**
   * Applies LSP's position rules: a character past the line end means the line end, a line past the last line
   * means the end of the document. Returns `null` for a negative or non-integer line or character (invalid).
   */
  clampPosition(pos: Position): Position | null {
    const { line, character } = pos;
    if (!Number.isInteger(line) || !Number.isInteger(character) || line < 0 || character < 0) return null;
    const lastLine = this.#lineCount - 1;
    if (line > lastLine) return { line: lastLine, character: this.#contentLength(lastLine) };
    return { line, character: Math.min(character, this.#contentLength(line)) };
  }

  #contentLength(line: number): number {
    return contentLength(this.#raw(line));
  }

  /** Chunk `c`'s length with its lines joined by `\n` and a `\n` after each (the last line's is not counted). */
  #joinedLength(c: number): number {
    let length = this.#joined[c]!;
    if (length < 0) {
      length = 0;
      for (const raw of this.#chunks[c]!) length += contentLength(raw) + 1;
      this.#joined[c] = length;
    }
    return length;
  }

  /** Index of the chunk holding `line` (which must exist). */
  #chunkOf(line: number): number {
    return chunkHolding(this.#starts, line);
  }

  #raw(line: number): string {
    if (!Number.isInteger(line) || line < 0 || line >= this.#lineCount) {
      throw new RangeError(`line ${line} is outside [0, ${this.#lineCount})`);
    }
    const c = this.#chunkOf(line);
    return this.#chunks[c]![line - this.#starts[c]!]!;
  }

  #setRaw(line: number, raw: string): void {
    const c = this.#chunkOf(line);
    const chunk = this.#chunks[c]!;
    const at = line - this.#starts[c]!;
    this.#length += raw.length - chunk[at]!.length;
    chunk[at] = raw;
    this.#joined[c] = -1;
  }

  /** Replaces lines `[from, to)` with `replacement` (never empty: a document always has a line). */
  #replaceLines(from: number, to: number, replacement: string[]): void {
    const delta = replacement.length - (to - from);
    for (const raw of replacement) this.#length += raw.length;
    for (let line = from; line < to; line++) this.#length -= this.#raw(line).length;
    const first = this.#chunkOf(from);
    const last = this.#chunkOf(to - 1);
    const firstChunk = this.#chunks[first]!;
    if (first === last && firstChunk.length + delta <= 2 * this.#chunkLines) {
      this.#joined[first] = -1;
      const offset = from - this.#starts[first]!;
      if (delta === 0) {
        for (let i = 0; i < replacement.length; i++) firstChunk[offset + i] = replacement[i]!;
      } else {
        firstChunk.splice(offset, to - from, ...replacement);
        for (let c = first + 1; c < this.#starts.length; c++) this.#starts[c]! += delta;
      }
    } else {
      const lastChunk = this.#chunks[last]!;
      const lines = firstChunk
        .slice(0, from - this.#starts[first]!)
        .concat(replacement, lastChunk.slice(to - this.#starts[last]!));
      const start = this.#starts[first]!;
      this.#chunks.splice(first, last - first + 1);
      this.#starts.splice(first, last - first + 1);
      this.#joined.splice(first, last - first + 1);
      const added = this.#insertChunks(first, lines, start);
      for (let c = first + added; c < this.#starts.length; c++) this.#starts[c]! += delta;
    }
    this.#lineCount += delta;
  }

  /** Inserts `lines` as new chunks at chunk index `at`, the first starting at line `start`; returns how many. */
  #insertChunks(at: number, lines: string[], start: number): number {
    const chunks: string[][] = [];
    const starts: number[] = [];
    for (let i = 0; i < lines.length; i += this.#chunkLines) {
      chunks.push(lines.slice(i, i + this.#chunkLines));
      starts.push(start + i);
    }
    this.#chunks = this.#chunks.slice(0, at).concat(chunks, this.#chunks.slice(at));
    this.#starts = this.#starts.slice(0, at).concat(starts, this.#starts.slice(at));
    this.#joined = this.#joined.slice(0, at).concat(
      chunks.map(() => -1),
      this.#joined.slice(at),
    );
    return chunks.length;
  }

  #clampOrThrow(pos: Position): Position {
    const clamped = this.clampPosition(pos);
    if (clamped === null) throw new RangeError(`invalid position ${pos.line}:${pos.character}`);
    return clamped;
  }
}

/** Orders two positions: negative when `a` is before `b`, 0 when equal, positive after. */
export function comparePositions(a: Position, b: Position): number {
  return a.line !== b.line ? a.line - b.line : a.character - b.character;
}

/**
 * A document's lines as they were when {@link TextBuffer.snapshot} was taken, whatever is edited since: for work that
 * reads the text later than the request it serves (a parse after the upstream request is written).
 */
export class LineSnapshot {
  /** @internal made by {@link TextBuffer.snapshot} */
  constructor(
    private readonly chunks: readonly (readonly string[])[],
    private readonly starts: readonly number[],
    /** Number of lines (at least 1). */
    readonly lineCount: number,
    /** The buffer's revision it is of. */
    readonly revision: number,
  ) {}

  #text: string | undefined;

  /**
   * Text of line `line` (0-based) without its terminator.
   * @throws RangeError when `line` is not an integer in `[0, lineCount)`.
   */
  lineAt(line: number): string {
    if (!Number.isInteger(line) || line < 0 || line >= this.lineCount) {
      throw new RangeError(`line ${line} is outside [0, ${this.lineCount})`);
    }
    const c = chunkHolding(this.starts, line);
    const raw = this.chunks[c]![line - this.starts[c]!]!;
    return raw.slice(0, raw.length - eolLength(raw));
  }

  /** The whole text, lines joined with `\n`: joined on the first call. */
  text(): string {
    this.#text ??= this.chunks
      .map((chunk) => chunk.map((raw) => raw.slice(0, raw.length - eolLength(raw))).join("\n"))
      .join("\n");
    return this.#text;
  }
}
