/** The cursor marker in fixture sources. */
export const CURSOR = "│";

/** A document with a cursor, split the way the server sees it. */
export interface Fixture {
  /** The document without the marker. */
  readonly text: string;
  /** Cursor position in UTF-16 units. */
  readonly position: { readonly line: number; readonly character: number };
  /** Everything before the cursor. */
  readonly prefix: string;
  /** Everything after the cursor. */
  readonly suffix: string;
  /** Text of the cursor line before the cursor. */
  readonly lineBefore: string;
  /** Text of the cursor line after the cursor. */
  readonly lineAfter: string;
}

/**
 * Parses a source containing exactly one `│` at the cursor.
 * @throws Error when the marker is missing or repeated.
 */
export function fixture(source: string): Fixture {
  const at = source.indexOf(CURSOR);
  if (at === -1 || source.indexOf(CURSOR, at + 1) !== -1)
    throw new Error(`fixture needs exactly one ${CURSOR}`);
  const prefix = source.slice(0, at);
  const suffix = source.slice(at + CURSOR.length);
  const before = prefix.split(/\r\n|\r|\n/);
  const lineBefore = before[before.length - 1]!;
  const lineAfter = suffix.split(/\r\n|\r|\n/, 1)[0]!;
  return {
    text: prefix + suffix,
    position: { line: before.length - 1, character: lineBefore.length },
    prefix,
    suffix,
    lineBefore,
    lineAfter,
  };
}

/** Joins lines with `"\n"`, for readable multi-line fixtures. */
export function lines(...parts: string[]): string {
  return parts.join("\n");
}
