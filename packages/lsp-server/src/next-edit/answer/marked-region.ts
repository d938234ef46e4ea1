import { asRegion, type RewrittenRegion } from "./rewritten-region.js";

/** The markers a format's answer carries around the region. */
export interface RegionMarkers {
  /** Opens the region; text before it (a fence, context lines) is not the region. */
  start: string;
  /** Closes the region; text after it is not the region. */
  end: string;
  /** Where the cursor was: dropped wherever it stands. */
  cursor: string;
  /** Markers that may not stand inside the region (the excerpt's own, another format's). */
  stray: readonly string[];
}

/**
 * The region written between `markers.start` and `markers.end`, strictly: exactly one of each, in that order, and
 * nothing else that marks; the "\n" after the opening marker and the one before the closing marker belong to the
 * markers, as the prompt wrote them. Without `markers.end` the region runs to the answer's end: the formats stop at
 * the end marker (the provider drops the stop string), or, asked for the region alone, may keep the start only.
 */
export function markedRegion(answer: string, markers: RegionMarkers, currentRegion: string): RewrittenRegion {
  const text = answer.split(markers.cursor).join("");
  const starts = occurrences(text, markers.start);
  const ends = occurrences(text, markers.end);
  if (starts > 1 || ends > 1) return { ok: false, problem: "two-regions" };
  if (starts === 0) return { ok: false, problem: ends === 0 ? "no-region" : "misplaced-marker" };
  const startAt = text.indexOf(markers.start);
  let from = startAt + markers.start.length;
  if (text[from] === "\n") from++;
  let to = text.length;
  if (ends === 1) {
    to = text.indexOf(markers.end);
    if (to < startAt) return { ok: false, problem: "misplaced-marker" };
  }
  // "START\nEND": the one "\n" is both the start's and the end's, and the region has no line at all.
  const inner = text.slice(Math.min(from, to), to);
  if (markers.stray.some((marker) => inner.includes(marker))) return { ok: false, problem: "stray-marker" };
  return asRegion(inner, currentRegion);
}

function occurrences(text: string, marker: string): number {
  let count = 0;
  for (let at = text.indexOf(marker); at !== -1; at = text.indexOf(marker, at + marker.length)) count++;
  return count;
}
