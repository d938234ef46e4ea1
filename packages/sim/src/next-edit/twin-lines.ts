import { type ChangedLine, changedLines } from "./changed-lines.js";
import type { RegionRule } from "./edit-task.js";
import { isIdentifier, tokens } from "./words.js";

/** The line's indentation. */
function indentOf(line: string): string {
  return /^\s*/.exec(line)?.[0] ?? "";
}

/**
 * The identifiers of `shape` renamed to make `line`, when `line` is `shape` but for other names: the same tokens,
 * identifiers apart, one name for one name both ways, and the tokens in `fixed` (the changed span) the same.
 */
function renaming(shape: string[], line: string[], fixed: [number, number]): Map<string, string> | undefined {
  if (shape.length !== line.length) return undefined;
  const forth = new Map<string, string>();
  const back = new Map<string, string>();
  for (let i = 0; i < shape.length; i++) {
    const [a, b] = [shape[i] as string, line[i] as string];
    if (a !== b && i >= fixed[0] && i < fixed[1]) return undefined;
    if (a === b && !isIdentifier(a)) continue;
    if (!isIdentifier(a) || !isIdentifier(b)) return undefined;
    if ((forth.get(a) ?? b) !== b || (back.get(b) ?? a) !== a) return undefined;
    forth.set(a, b);
    back.set(b, a);
  }
  return forth;
}

/** The twin `line` becomes when the user changed `pair.old` into `pair.new`; `undefined` if it is no twin. */
function twinChange(line: string, pair: ChangedLine): string | undefined {
  const indent = indentOf(line);
  const body = line.slice(indent.length);
  const oldBody = pair.old.trimStart();
  const newBody = pair.new.trimStart();
  if (oldBody === newBody || body === newBody) return undefined;
  if (body === oldBody) return indent + newBody;
  const oldTokens = tokens(oldBody);
  const newTokens = tokens(newBody);
  let head = 0;
  while (head < Math.min(oldTokens.length, newTokens.length) && oldTokens[head] === newTokens[head]) head++;
  let tail = 0;
  while (
    tail < Math.min(oldTokens.length, newTokens.length) - head &&
    oldTokens[oldTokens.length - 1 - tail] === newTokens[newTokens.length - 1 - tail]
  ) {
    tail++;
  }
  const names = renaming(oldTokens, tokens(body), [head, oldTokens.length - tail]);
  if (!names || [...names].every(([from, to]) => from === to)) return undefined;
  return indent + newTokens.map((token) => names.get(token) ?? token).join("");
}

/**
 * (c) The last edit changed a line: each line of the region equal to what it was, or equal but for other names
 * (the changed part itself the same), gets the same change, its own indentation and names kept.
 */
export const repeatOnTwins: RegionRule = (region, lastEdit) => {
  const pairs = changedLines(lastEdit);
  if (pairs.length === 0) return undefined;
  return region.map((line) => {
    for (const pair of pairs) {
      const twin = twinChange(line, pair);
      if (twin !== undefined) return twin;
    }
    return line;
  });
};
