// A corpus file as the next-edit oracles read it: its lines, its code with comments and literals blanked, and the
// whole-word occurrences of a name. Pure.
import { LANGUAGES, type Language } from "../languages.js";
import { blankNonCode } from "../source-lexer.js";

/** A name's occurrence: where it starts in the text, and on which line (0-based). */
export interface Occurrence {
  readonly offset: number;
  readonly line: number;
  /** Whether it is in code (not in a comment or a literal). */
  readonly inCode: boolean;
}

/** Characters that continue a name: `$` too, as PHP's variables and the simulator's words have it. */
const WORD = /[A-Za-z0-9_$]/;

/** Whether the character continues a name. */
export function isWordChar(char: string | undefined): boolean {
  return char !== undefined && WORD.test(char);
}

/** A source file, line breaks normalised to `\n` (an editor's lines; the eval's positions count them so). */
export class SourceText {
  readonly text: string;
  /** The text with comments and literals blanked to spaces (same length, same lines). */
  readonly code: string;
  readonly lines: readonly string[];
  /** The code's lines. */
  readonly codeLines: readonly string[];
  readonly #lineStarts: number[];

  constructor(
    readonly file: string,
    raw: string,
    readonly language: Language,
  ) {
    this.text = raw.replace(/\r\n?/g, "\n");
    this.code = blankNonCode(this.text, LANGUAGES[language].syntax);
    this.lines = this.text.split("\n");
    this.codeLines = this.code.split("\n");
    this.#lineStarts = [0];
    for (let at = this.text.indexOf("\n"); at !== -1; at = this.text.indexOf("\n", at + 1))
      this.#lineStarts.push(at + 1);
  }

  /** The offset where a line starts. */
  lineStart(line: number): number {
    return this.#lineStarts[line] ?? this.text.length;
  }

  /** The line (0-based) of an offset. */
  lineOf(offset: number): number {
    let low = 0;
    let high = this.#lineStarts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if (this.#lineStarts[mid]! <= offset) low = mid;
      else high = mid - 1;
    }
    return low;
  }

  /** Every whole-word occurrence of `name` in the text (comments and literals too), in order. */
  occurrences(name: string): Occurrence[] {
    const found: Occurrence[] = [];
    for (let at = this.text.indexOf(name); at !== -1; at = this.text.indexOf(name, at + 1)) {
      if (isWordChar(this.text[at - 1]) || isWordChar(this.text[at + name.length])) continue;
      found.push({ offset: at, line: this.lineOf(at), inCode: this.code.startsWith(name, at) });
    }
    return found;
  }
}
