// Lone lines, the control: a number changed on a line that has no twin near it, so that no edit follows from the
// change and any suggestion is false. Pure.
import type { EditCase } from "./edit-case.js";
import type { SourceText } from "./source-text.js";
import { firstCodeNumber, isName, shape, tokens, UNIQUE_WITHIN } from "./twin-cases.js";

/**
 * Every lone case of a file: a line with a name and a number in code, no other line of its shape (see twin-cases.ts:
 * names as one placeholder) within {@link UNIQUE_WITHIN} lines either side, and no other whole-word occurrence of
 * that number within them (a constant repeated elsewhere may well be changed with it). The user changes the number
 * (`0` → `1`); nothing else is to do.
 */
export function loneCases(source: SourceText): EditCase[] {
  const cases: EditCase[] = [];
  const { lines } = source;
  const shapes = lines.map(shape);
  const words = lines.map((line) => new Set(tokens(line)));
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.trim().length < 6 || ![...words[i]!].some(isName)) continue;
    const number = firstCodeNumber(source, i);
    if (!number) continue;
    const low = Math.max(0, i - UNIQUE_WITHIN);
    const high = Math.min(lines.length - 1, i + UNIQUE_WITHIN);
    let lone = true;
    for (let k = low; k <= high && lone; k++) {
      if (k === i) continue;
      lone = shapes[k] !== shapes[i] && !words[k]!.has(number.token);
    }
    if (!lone) continue;
    const start = source.lineStart(i) + number.column;
    const to = String(Number(number.token) + 1);
    cases.push({
      id: `${source.file}:${i + 1}:lone`,
      kind: "lone",
      file: source.file,
      first: { start, end: start + number.token.length, text: to },
      rest: [],
      what: `${number.token} → ${to}, line ${i + 1}, no twin`,
    });
  }
  return cases;
}
