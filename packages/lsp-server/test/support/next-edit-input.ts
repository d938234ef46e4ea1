import type { EditEvent, Excerpt, NextEditInput } from "../../src/next-edit/prompt/excerpt.js";

/** Where an excerpt lies in a file: 0-based lines, ends included, and the cursor's line and column. */
export interface ExcerptPlace {
  context: readonly [number, number];
  region: readonly [number, number];
  cursor: readonly [number, number];
}

/** The excerpt of `text` (a file) at `place`, as the engine cuts one: whole lines, the cursor inside the region. */
export function excerptOf(path: string, text: string, place: ExcerptPlace): Excerpt {
  const lines = text.split(/(?<=\n)/);
  const join = (from: number, to: number) => lines.slice(from, to + 1).join("");
  const [cursorLine, cursorColumn] = place.cursor;
  return {
    path,
    languageId: "plaintext",
    startsFile: place.context[0] === 0,
    beforeRegion: join(place.context[0], place.region[0] - 1),
    region: join(place.region[0], place.region[1]),
    regionStartLine: place.region[0],
    cursorOffset: join(place.region[0], cursorLine - 1).length + cursorColumn,
    afterRegion: join(place.region[1] + 1, place.context[1]),
  };
}

/** An input with the excerpt and these events, and no related files unless given. */
export function inputOf(
  excerpt: Excerpt,
  events: EditEvent[] = [],
  related: NextEditInput["related"] = [],
): NextEditInput {
  return { excerpt, events, related };
}

/** An event that changed `before` into `after` at the same line of `path`. */
export function eventAt(path: string, line: number, before: string, after: string): EditEvent {
  return { path, oldStartLine: line, newStartLine: line, before, after };
}
