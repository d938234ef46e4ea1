import { codePoints } from "../completion/type-through.js";

// Accepts inferred from the edit: whichever way the text got there (typed, inserted by a ghost-text accept, applied
// from a popup item with or without running its command, re-inserted by Eglot after its proxy), a suggestion is
// taken as far as the text now at its place agrees with it. Pure: the place is followed by suggestion-place.ts.

/** What the text at a suggestion's place holds of it. */
export interface TakenAtPlace {
  /** Characters (code points) of the suggestion's text that the place holds, from its start. */
  chars: number;
  /** UTF-16 units of the inserted text that agree with the suggestion (all of it, unless the typing left it). */
  insertedUnits: number;
  /** UTF-16 units of the inserted text and the following text that hold what was taken (the place to close on). */
  placeUnits: number;
}

const NOTHING: TakenAtPlace = { chars: 0, insertedUnits: 0, placeUnits: 0 };

/**
 * How much of a suggestion's `text` the text inserted at its place holds. `inserted` is what was put at the anchor
 * since the suggestion was shown; `following` the rest of its line after that. The longest start of the suggestion
 * that `inserted` begins with, with the freedom editors take on indentation (after a line break, the editor's
 * indentation stands for the suggestion's, as in type-through); with all of `inserted` matched, the suggestion may
 * go on over `following` for up to `replaceEnd` units (an auto-paired closer the suggestion covered, which an editor
 * left in place). A suggestion whose rest is only whitespace is held whole. Line breaks may be `\r\n` or `\r`.
 */
export function takenAtPlace(
  text: string,
  inserted: string,
  following: string,
  replaceEnd: number,
): TakenAtPlace {
  if (inserted === "" || text === "") return NOTHING;
  let i = 0;
  let j = 0;
  while (j < inserted.length && i < text.length) {
    // A line break of the document, `\r\n` or `\r`, against the suggestion's `\n`.
    const cr = inserted.charCodeAt(j) === 13;
    const unit = cr && text[i] === "\n" ? "\n" : inserted[j];
    if (unit !== text[i]) break;
    i += 1;
    j += cr && inserted.charCodeAt(j + 1) === 10 ? 2 : 1;
    if (unit !== "\n") continue;
    const textIndentEnd = skipIndent(text, i);
    const insertedIndentEnd = skipIndent(inserted, j);
    if (insertedIndentEnd === inserted.length) {
      // Only indentation typed so far: as much of the suggestion's as agrees.
      let k = 0;
      while (i + k < textIndentEnd && j + k < inserted.length && text[i + k] === inserted[j + k]) k++;
      i += k;
      j = insertedIndentEnd;
      break;
    }
    i = textIndentEnd;
    j = insertedIndentEnd;
  }
  // Stopped inside a character (its high surrogate agreed, the low one did not): not that character.
  if (i < text.length && isHighSurrogate(text.charCodeAt(i - 1))) {
    i--;
    j--;
  }
  let k = 0;
  if (j === inserted.length) {
    while (k < replaceEnd && k < following.length && i < text.length && following[k] === text[i]) {
      i++;
      k++;
    }
  }
  if (text.slice(i).trim() === "" && i > 0) i = text.length;
  return { chars: codePoints(text.slice(0, i)), insertedUnits: j, placeUnits: j + k };
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function skipIndent(text: string, from: number): number {
  let i = from;
  while (i < text.length && (text[i] === " " || text[i] === "\t")) i++;
  return i;
}
