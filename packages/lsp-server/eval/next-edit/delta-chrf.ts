// Zed's delta-chrF, the score its edit-prediction eval gives a prediction (zed-industries/zed, crates/edit_prediction
// eval metrics, `delta_chr_f`; read, not copied): how well the change a prediction makes matches the expected
// change, as a chrF over the character n-grams each change adds and removes. Pure.
//
// For n = 1…6: count the n-grams of the original, the expected and the actual text (whitespace collapsed: a run of
// spaces and tabs to one space, a run of line breaks to one); the expected delta is expected − original per n-gram,
// the actual delta actual − original; a negative count becomes a count of "¬n-gram" (a deletion). Precision and
// recall of the actual delta against the expected one (1 and 1 when both are empty); averaged over n; then the
// F-score with β = 0.5 (precision weighs more: a wrong edit costs the user more than a missing one), × 100.
// N-grams far from any change cancel out, so only the changed span of each text, with n − 1 characters of context
// on each side, is counted (as Zed does).

const ORDER = 6;
const BETA = 0.5;

/** Whitespace collapsed as Zed collapses it: runs of spaces and tabs to " ", runs of line breaks to "\n". */
function collapse(text: string): string {
  return text.replace(/[^\S\n]+/g, " ").replace(/\n+/g, "\n");
}

/** The changed spans of two texts, with `ORDER - 1` characters of context either side. */
function changedSpans(original: string, modified: string): [string, string] {
  const most = Math.min(original.length, modified.length);
  let head = 0;
  while (head < most && original[head] === modified[head]) head++;
  let tail = 0;
  while (tail < most - head && original[original.length - 1 - tail] === modified[modified.length - 1 - tail])
    tail++;
  if (head === original.length - tail && head === modified.length - tail) return ["", ""];
  const context = ORDER - 1;
  return [
    original.slice(Math.max(0, head - context), Math.min(original.length, original.length - tail + context)),
    modified.slice(Math.max(0, head - context), Math.min(modified.length, modified.length - tail + context)),
  ];
}

function ngrams(text: string, n: number): Map<string, number> {
  const counts = new Map<string, number>();
  const chars = [...text];
  for (let i = 0; i + n <= chars.length; i++) {
    const gram = chars.slice(i, i + n).join("");
    counts.set(gram, (counts.get(gram) ?? 0) + 1);
  }
  return counts;
}

/** after − before per n-gram, deletions as `¬gram`, zeros left out. */
function delta(before: Map<string, number>, after: Map<string, number>): Map<string, number> {
  const out = new Map<string, number>();
  for (const gram of new Set([...before.keys(), ...after.keys()])) {
    const d = (after.get(gram) ?? 0) - (before.get(gram) ?? 0);
    if (d > 0) out.set(gram, d);
    else if (d < 0) out.set(`¬${gram}`, -d);
  }
  return out;
}

/** Zed's delta-chrF of the actual change against the expected one, from 0 to 100 (100: the same change). */
export function deltaChrF(original: string, expected: string, actual: string): number {
  if (original === expected && expected === actual) return 100;
  const [o, e, a] = [collapse(original), collapse(expected), collapse(actual)];
  const [oForE, eSpan] = changedSpans(o, e);
  const [oForA, aSpan] = changedSpans(o, a);
  let precision = 0;
  let recall = 0;
  for (let n = 1; n <= ORDER; n++) {
    const want = delta(ngrams(oForE, n), ngrams(eSpan, n));
    const got = delta(ngrams(oForA, n), ngrams(aSpan, n));
    if (want.size === 0 && got.size === 0) {
      precision += 1;
      recall += 1;
      continue;
    }
    let truePositives = 0;
    let falsePositives = 0;
    let falseNegatives = 0;
    for (const [gram, count] of want) {
      const have = got.get(gram) ?? 0;
      truePositives += Math.min(count, have);
      if (have < count) falseNegatives += count - have;
      else falsePositives += have - count;
    }
    for (const [gram, count] of got) if (!want.has(gram)) falsePositives += count;
    precision += truePositives + falsePositives === 0 ? 0 : truePositives / (truePositives + falsePositives);
    recall += truePositives + falseNegatives === 0 ? 0 : truePositives / (truePositives + falseNegatives);
  }
  precision /= ORDER;
  recall /= ORDER;
  if (precision + recall === 0) return 0;
  return ((1 + BETA * BETA) * precision * recall * 100) / (BETA * BETA * precision + recall);
}
