// Names in code lines, as the edit model sees them: ASCII identifiers (letters, digits, `_`, `$`).

const WORD_CHAR = /[A-Za-z0-9_$]/;
const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** Whether the character can stand in an identifier. */
export function isWordChar(char: string | undefined): boolean {
  return char !== undefined && WORD_CHAR.test(char);
}

/** Whether the text is one identifier. */
export function isIdentifier(text: string): boolean {
  return IDENTIFIER.test(text);
}

/** The line with every whole-word `from` replaced by `to`. */
export function replaceWord(line: string, from: string, to: string): string {
  let out = "";
  let at = 0;
  for (let found = line.indexOf(from); found !== -1; found = line.indexOf(from, found + from.length)) {
    if (isWordChar(line[found - 1]) || isWordChar(line[found + from.length])) continue;
    out += line.slice(at, found) + to;
    at = found + from.length;
  }
  return out + line.slice(at);
}

/** How many characters two texts share at the start, and then at the end (never overlapping). */
export function sharedEnds(a: string, b: string): { head: number; tail: number } {
  const most = Math.min(a.length, b.length);
  let head = 0;
  while (head < most && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < most - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  return { head, tail };
}

/** A line's tokens: identifiers and numbers, runs of whitespace, and every other character alone. */
export function tokens(line: string): string[] {
  return line.match(/[A-Za-z0-9_$]+|\s+|[^A-Za-z0-9_$\s]/g) ?? [];
}
