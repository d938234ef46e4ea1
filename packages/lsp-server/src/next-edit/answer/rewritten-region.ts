/** The region as the model rewrote it, or a short countable reason why the answer gives none. */
export type RewrittenRegion = { ok: true; region: string } | { ok: false; problem: AnswerProblem };

/**
 * Why an answer could not be read: `no-region` (no region marker where one must be), `two-regions` (a marker twice),
 * `misplaced-marker` (the end before the start), `stray-marker` (another marker inside the region), `empty` (nothing
 * written where a whole region must be).
 */
export type AnswerProblem = "no-region" | "two-regions" | "misplaced-marker" | "stray-marker" | "empty";

/**
 * The region from the lines the model wrote (`text`: its last line with or without a final "\n"; "" for no line at
 * all, every line deleted), given the current region. The model cannot say whether the region's last line ends in
 * "\n" (every format puts a marker, a fence or a separator on the next line), so the current region's ending is kept.
 */
export function asRegion(text: string, currentRegion: string): RewrittenRegion {
  if (text === "") return { ok: true, region: "" };
  const lines = text.endsWith("\n") ? text.slice(0, -1) : text;
  return { ok: true, region: currentRegion.endsWith("\n") ? `${lines}\n` : lines };
}
