// Telling a rename from other edits: the same identifier replaced by another, at one place or several, and nothing
// else changed. Pure.

const TOKEN = /[\p{L}\p{N}_$]+|\s+|[^\p{L}\p{N}_$\s]/gu;
const IDENTIFIER = /^[\p{L}_$][\p{L}\p{N}_$]*$/u;

/**
 * The rename `before` became `after`, when that is all the edit did: every difference between their tokens is one
 * identifier (`from`) replaced by another (`to`), the same pair at each place; undefined otherwise (an edit that
 * also changed something else, or replaced two different names, is not a rename).
 */
export function renameOf(before: string, after: string): { from: string; to: string } | undefined {
  if (before === after) return undefined;
  const a = before.match(TOKEN) ?? [];
  const b = after.match(TOKEN) ?? [];
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (
    tail < a.length - head &&
    tail < b.length - head &&
    a[a.length - 1 - tail] === b[b.length - 1 - tail]
  )
    tail++;
  const changedA = a.slice(head, a.length - tail);
  const changedB = b.slice(head, b.length - tail);
  // Several places: the tokens between them are the same, so both sides have as many tokens.
  if (changedA.length !== changedB.length || changedA.length === 0) return undefined;
  let pair: { from: string; to: string } | undefined;
  for (let i = 0; i < changedA.length; i++) {
    const from = changedA[i]!;
    const to = changedB[i]!;
    if (from === to) continue;
    if (!IDENTIFIER.test(from) || !IDENTIFIER.test(to)) return undefined;
    if (pair && (pair.from !== from || pair.to !== to)) return undefined;
    pair = { from, to };
  }
  return pair;
}
