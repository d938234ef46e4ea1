/** The markers around the editable region and at the cursor, as Zeta, Instinct and infill's deepseek write them. */
export const REGION_START = "<|editable_region_start|>";
export const REGION_END = "<|editable_region_end|>";
export const CURSOR = "<|user_cursor_is_here|>";

/** An excerpt cut at its region: the text up to the region's first line, the region, the text from its end on. */
export interface MarkedExcerpt {
  /** Up to and including the start marker's line, the cursor marker taken out. */
  head: string;
  /** The region's lines, without "\n" and without the cursor marker. */
  region: string[];
  /** From the "\n" before the end marker on. */
  tail: string;
}

/** The excerpt's parts, or `undefined` when it has no region between markers. */
export function readMarkedExcerpt(excerpt: string): MarkedExcerpt | undefined {
  const text = excerpt.split(CURSOR).join("");
  const start = text.indexOf(REGION_START);
  const end = text.indexOf(REGION_END, start + 1);
  if (start === -1 || end === -1) return undefined;
  let from = start + REGION_START.length;
  if (text[from] === "\n") from++;
  const to = text[end - 1] === "\n" && end - 1 >= from ? end - 1 : end;
  return { head: text.slice(0, from), region: text.slice(from, to).split("\n"), tail: text.slice(to) };
}
