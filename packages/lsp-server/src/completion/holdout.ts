// The `context.holdout` choice: which requests go without the repository context block, so that `infill usage --by
// context` can compare what users keep with and without it in their own codebase. The choice must not depend on
// what a request is about (or the comparison would be biased), and must stay the same while the user types in one
// place: the block starts the prompt, so flipping it would throw DeepSeek's prompt cache away on every flip. Hence a
// hash of the document, the region of the cursor and the day.

/**
 * Lines per region: the requests of one region of a document share the choice. The size of the repository
 * context's own regions (a cursor this far from where its block was chosen gets a new block), so holding out adds
 * about as many prompt-cache misses as moving around does anyway.
 */
export const HOLDOUT_REGION_LINES = 24;

/** FNV-1a, 32 bits, over UTF-16 code units: stable across processes and versions, and cheap. */
export function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/**
 * Whether a request at `line` (0-based) of the document `uri` on `day` (`YYYY-MM-DD`) goes without the context
 * block, for a `share` (0..1) of requests. The same document, region and day always get the same answer; the day
 * takes part so that no file is held out (or not) for a whole month, which would confound the file with the arm.
 */
export function heldOut(uri: string, line: number, day: string, share: number): boolean {
  if (!(share > 0)) return false;
  if (share >= 1) return true;
  const region = Math.floor(Math.max(0, line) / HOLDOUT_REGION_LINES);
  return fnv1a(`${day}\0${uri}\0${region}`) / 2 ** 32 < share;
}
