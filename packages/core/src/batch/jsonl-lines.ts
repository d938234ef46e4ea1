// JSON Lines read as a stream, line by line, with each line's number and byte offsets: error records name the
// line, and resume needs the offset where a torn last line starts. A file is never read whole.

/** One line of a JSONL stream. */
export interface Line {
  /** 1-based line number. */
  number: number;
  /** The line's text, without its `\n` (nor a `\r` before it). */
  text: string;
  /** Byte offset of the line's first byte in the stream. */
  start: number;
  /** Byte offset just past the line, its `\n` included. */
  end: number;
  /** False for a last line that no `\n` ends: a line the writer may not have finished. */
  terminated: boolean;
}

const NEWLINE = 0x0a;
const RETURN = 0x0d;

/** Splits bytes into lines as they arrive. Pure; {@link readLines} drives it from a stream. */
export class LineSplitter {
  #carry: Buffer[] = [];
  #carryBytes = 0;
  #offset = 0;
  #number = 0;

  /** The lines that `chunk` completes. */
  push(chunk: Buffer): Line[] {
    const lines: Line[] = [];
    let from = 0;
    for (let at = chunk.indexOf(NEWLINE); at !== -1; at = chunk.indexOf(NEWLINE, from)) {
      const piece = chunk.subarray(from, at);
      const bytes =
        this.#carryBytes === 0
          ? piece
          : Buffer.concat([...this.#carry, piece], this.#carryBytes + piece.length);
      lines.push(this.#line(bytes, true));
      this.#carry = [];
      this.#carryBytes = 0;
      from = at + 1;
    }
    if (from < chunk.length) {
      this.#carry.push(chunk.subarray(from));
      this.#carryBytes += chunk.length - from;
    }
    return lines;
  }

  /** The last line, when the stream did not end with `\n`. */
  end(): Line | undefined {
    if (this.#carryBytes === 0) return undefined;
    const bytes = Buffer.concat(this.#carry, this.#carryBytes);
    this.#carry = [];
    this.#carryBytes = 0;
    return this.#line(bytes, false);
  }

  #line(bytes: Buffer, terminated: boolean): Line {
    const start = this.#offset;
    const end = start + bytes.length + (terminated ? 1 : 0);
    this.#offset = end;
    this.#number += 1;
    const content = terminated && bytes.at(-1) === RETURN ? bytes.subarray(0, -1) : bytes;
    return { number: this.#number, text: content.toString("utf8"), start, end, terminated };
  }
}

/** The lines of a byte stream (a file's read stream, stdin), in order, as they arrive. */
export async function* readLines(
  stream: AsyncIterable<Buffer | string>,
): AsyncGenerator<Line, void, undefined> {
  const splitter = new LineSplitter();
  for await (const chunk of stream) {
    yield* splitter.push(typeof chunk === "string" ? Buffer.from(chunk) : chunk);
  }
  const last = splitter.end();
  if (last !== undefined) yield last;
}
