// Twin lines: two lines near each other, equal but for indentation or one name, and a number in them changed on
// the first, to be changed the same way on the second. Pure.
import type { EditCase } from "./edit-case.js";
import type { SourceText } from "./source-text.js";

/** The most lines between two twins. */
const TWIN_GAP = 6;
/** Lines around the pair with no third line of the same shape: more than a region holds. */
export const UNIQUE_WITHIN = 40;

/** A line's tokens: names and numbers, runs of whitespace, every other character alone. */
export function tokens(line: string): string[] {
  return line.match(/[A-Za-z0-9_$]+|\s+|[^A-Za-z0-9_$\s]/g) ?? [];
}

export const isName = (token: string) => /^[A-Za-z_$]/.test(token);
export const isNumber = (token: string) => /^(?:0|[1-9]\d{0,8})$/.test(token);

/** The line's shape: its tokens, indentation left out, each name as `_`. Lines of one shape may be twins. */
export function shape(line: string): string {
  return tokens(line.trimStart())
    .map((token) => (isName(token) ? "_" : token))
    .join("\u0000");
}

/** Whether two lines are twins: equal but for indentation, or but for one name (the same place in both). */
function twins(a: string, b: string): boolean {
  const x = tokens(a.trim());
  const y = tokens(b.trim());
  if (x.length !== y.length) return false;
  const differ = x.flatMap((token, i) => (token === y[i] ? [] : [i]));
  return differ.length === 0 || (differ.length === 1 && isName(x[differ[0]!]!) && isName(y[differ[0]!]!));
}

/**
 * Every twin case of a file: lines i < j at most {@link TWIN_GAP} apart, twins (see {@link twins}), with at least a
 * name and a number (in code, not in a literal or comment), and no third line of their shape within
 * {@link UNIQUE_WITHIN} lines, so that only the twin follows from the change. The user changes the first number of
 * line i (`0` → `1`); the same number of line j is the remaining site.
 */
export function twinCases(source: SourceText): EditCase[] {
  const cases: EditCase[] = [];
  const { lines } = source;
  const shapes = lines.map(shape);
  const used = new Set<number>();
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (used.has(i) || line.trim().length < 6 || !tokens(line).some(isName)) continue;
    for (let j = i + 1; j <= Math.min(lines.length - 1, i + TWIN_GAP); j++) {
      if (shapes[j] !== shapes[i] || !twins(line, lines[j]!)) continue;
      const found = twinCase(source, i, j);
      const low = Math.max(0, i - UNIQUE_WITHIN);
      const high = Math.min(lines.length - 1, j + UNIQUE_WITHIN);
      let unique = true;
      for (let k = low; k <= high && unique; k++) unique = k === i || k === j || shapes[k] !== shapes[i];
      if (found && unique) {
        cases.push(found);
        used.add(j);
      }
      break;
    }
  }
  return cases;
}

/** The first number of a line that is in code (not in a literal or comment): its text and column. */
export function firstCodeNumber(
  source: SourceText,
  line: number,
): { token: string; column: number } | undefined {
  let column = 0;
  for (const token of tokens(source.lines[line]!)) {
    if (isNumber(token) && source.codeLines[line]!.startsWith(token, column)) return { token, column };
    column += token.length;
  }
  return undefined;
}

/** The case of twins i and j: the first number of line i in code, changed there and on line j. */
function twinCase(source: SourceText, i: number, j: number): EditCase | undefined {
  const a = firstCodeNumber(source, i);
  const b = firstCodeNumber(source, j);
  if (!a || !b || a.token !== b.token) return undefined;
  const to = String(Number(a.token) + 1);
  const at = (line: number, column: number) => source.lineStart(line) + column;
  return {
    id: `${source.file}:${i + 1}:twin:${j + 1}`,
    kind: "twin",
    file: source.file,
    first: { start: at(i, a.column), end: at(i, a.column) + a.token.length, text: to },
    rest: [{ start: at(j, b.column), end: at(j, b.column) + b.token.length, text: to }],
    what: `${a.token} → ${to}, line ${i + 1} and its twin ${j - i} below`,
  };
}
