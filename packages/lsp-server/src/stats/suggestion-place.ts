import type { Position } from "vscode-languageserver";
import { type AppliedChange, advance, mapPosition } from "../documents/position-map.js";
import { comparePositions, type TextBuffer } from "../documents/text-buffer.js";

/**
 * Where a suggestion's text goes in its document, followed through the document's edits. While it is *open* it is
 * the text inserted at the suggestion's anchor since it was shown (what accept inference reads): an insertion at
 * the anchor or at its end goes in, and the text before the anchor on its line must stay as it was (as for
 * type-through), which also puts the anchor back where it belongs after an editor deleted and re-inserted the word
 * before it. Once *closed* (the suggestion was taken to its end, or the typing left it) it is the text that was
 * taken: edits inside it change it, insertions at its edges stay out, and what comes before it may change freely.
 */
export class SuggestionPlace {
  #start: Position;
  #end: Position;
  #open = true;

  /**
   * @param anchor where the suggestion was made (UTF-16).
   * @param linePrefix the text of the anchor's line before it, when the suggestion was made.
   * @param end where the text inserted so far ends (the cursor of the answer, when the user had typed some of the
   *   suggestion already); default the anchor.
   */
  constructor(
    anchor: Position,
    private readonly linePrefix: string,
    end: Position = anchor,
  ) {
    this.#start = anchor;
    this.#end = comparePositions(end, anchor) < 0 ? anchor : end;
  }

  get open(): boolean {
    return this.#open;
  }

  get start(): Position {
    return this.#start;
  }

  get end(): Position {
    return this.#end;
  }

  /** Follow one change. */
  apply(change: AppliedChange): void {
    [this.#start, this.#end] = mapPlace(this.#start, this.#end, change, this.#open);
  }

  /**
   * After the changes of one notification: an open place whose anchor line no longer starts with the text that was
   * before the anchor is lost (false); otherwise its anchor is put right after that text.
   */
  settle(buffer: TextBuffer): boolean {
    if (!this.#open) return true;
    const line = this.#start.line;
    if (line >= buffer.lineCount || !buffer.lineAt(line).startsWith(this.linePrefix)) return false;
    this.#start = { line, character: this.linePrefix.length };
    if (comparePositions(this.#end, this.#start) < 0) this.#end = this.#start;
    return true;
  }

  /** The text of the place in `buffer`. */
  text(buffer: TextBuffer): string {
    return buffer.slice(this.#start, this.#end);
  }

  /** The rest of the line after the place. */
  following(buffer: TextBuffer): string {
    const { line, character } = this.#end;
    return line < buffer.lineCount ? buffer.lineAt(line).slice(character) : "";
  }

  /**
   * Close it around the first `units` UTF-16 units of its text and the rest of its line (what held the suggestion:
   * see `takenAtPlace`).
   */
  close(buffer: TextBuffer, units: number): void {
    if (!this.#open) return;
    this.#end = advance(this.#start, (this.text(buffer) + this.following(buffer)).slice(0, units));
    this.#open = false;
  }
}

/**
 * Where the place from `start` to `end` is after `change`: an open place takes in an insertion at either edge (its
 * start stays before it, its end goes after it), a closed one leaves it out; its end never comes before its start.
 */
export function mapPlace(
  start: Position,
  end: Position,
  change: AppliedChange,
  open: boolean,
): [start: Position, end: Position] {
  const mappedStart = mapPosition(start, change, open ? "before" : "after");
  const mappedEnd = mapPosition(end, change, open ? "after" : "before");
  return [mappedStart, comparePositions(mappedEnd, mappedStart) < 0 ? mappedStart : mappedEnd];
}
