import type { Position } from "vscode-languageserver";
import { type AppliedChange, advance } from "../documents/position-map.js";
import { mapPlace } from "./suggestion-place.js";

// The closed places of one document (what was taken of suggestions whose retention checks are pending), followed
// through its edits at a cost that does not grow with how many there are. Kept sorted by start; a change maps
// exactly only the places that start on its lines or close enough above them to reach them (no place spans more
// lines than the widest one), and moves every place below it by the lines it added or removed lazily: one point
// update of a Fenwick tree of line shifts by position in the order, read back when a place's line is needed. Adding
// or removing a place (once per suggestion taken, or checked for the last time) folds the shifts in, in one pass.

interface Entry<T> {
  readonly item: T;
  /** The start's line, less the shifts pending at its index. */
  startLine: number;
  startCharacter: number;
  /** The end's line, less the same shifts. */
  endLine: number;
  endCharacter: number;
}

/** Closed places of one document, by item; see the comment at the top of place-index.ts. */
export class PlaceIndex<T> {
  #entries: Array<Entry<T>> = [];
  readonly #indexOf = new Map<T, number>();
  /** Fenwick tree over the entries' indices (1-based): the line shift of entry i is the sum of its first i + 1. */
  #tree = new Float64Array(1);
  /** The same point updates, plainly, to fold them in with one running sum. */
  #shifts = new Float64Array(0);
  #shifted = false;
  /** No place spans more lines than this (the widest, at the last fold; only ever raised in between). */
  #span = 0;
  #visited = 0;

  /** How many places it holds. */
  get size(): number {
    return this.#entries.length;
  }

  /** Places mapped one by one by {@link apply} so far (what an edit costs; for tests and benches). */
  get visited(): number {
    return this.#visited;
  }

  has(item: T): boolean {
    return this.#indexOf.has(item);
  }

  /** Follow `item`'s place, from `start` to `end` (positions of the text as it is now). */
  add(item: T, start: Position, end: Position): void {
    if (this.#indexOf.has(item)) this.remove(item);
    this.#fold();
    const entry: Entry<T> = {
      item,
      startLine: start.line,
      startCharacter: start.character,
      endLine: end.line,
      endCharacter: end.character,
    };
    let lo = 0;
    let hi = this.#entries.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (compareStarts(this.#entries[mid]!, entry) <= 0) lo = mid + 1;
      else hi = mid;
    }
    this.#entries.splice(lo, 0, entry);
    this.#reindex(lo, this.#entries.length);
    this.#span = Math.max(this.#span, end.line - start.line);
    this.#reset();
  }

  /** Stop following `item`'s place. */
  remove(item: T): void {
    const at = this.#indexOf.get(item);
    if (at === undefined) return;
    this.#fold();
    this.#entries.splice(at, 1);
    this.#indexOf.delete(item);
    this.#reindex(at, this.#entries.length);
    this.#span = this.#entries.reduce((span, e) => Math.max(span, e.endLine - e.startLine), 0);
    this.#reset();
  }

  /** Where `item`'s place is now; undefined when it is not followed here. */
  range(item: T): { start: Position; end: Position } | undefined {
    const at = this.#indexOf.get(item);
    if (at === undefined) return undefined;
    const entry = this.#entries[at]!;
    const shift = this.#shiftAt(at);
    return {
      start: { line: entry.startLine + shift, character: entry.startCharacter },
      end: { line: entry.endLine + shift, character: entry.endCharacter },
    };
  }

  /** Every item, in the order of their places. */
  items(): T[] {
    return this.#entries.map((entry) => entry.item);
  }

  /** Follow one change (positions in the text before it, as applied). */
  apply(change: AppliedChange): void {
    const n = this.#entries.length;
    if (n === 0) return;
    const { start, end } = change.range;
    const lines = advance(start, change.text).line - end.line;
    // The places that may touch the change: those starting from `span` lines above it down to its last line.
    const lo = this.#firstAfter(start.line - this.#span - 1);
    const hi = this.#firstAfter(end.line);
    if (lines !== 0 && hi < n) {
      this.#shifted = true;
      this.#shifts[hi]! += lines;
      for (let i = hi + 1; i <= n; i += i & -i) this.#tree[i]! += lines;
    }
    if (lo === hi) return;
    this.#visited += hi - lo;
    const mapped: Array<Entry<T>> = [];
    for (let i = lo; i < hi; i++) {
      const entry = this.#entries[i]!;
      const shift = this.#shiftAt(i);
      const [from, to] = mapPlace(
        { line: entry.startLine + shift, character: entry.startCharacter },
        { line: entry.endLine + shift, character: entry.endCharacter },
        change,
        false,
      );
      mapped.push({
        item: entry.item,
        startLine: from.line,
        startCharacter: from.character,
        endLine: to.line,
        endCharacter: to.character,
      });
      this.#span = Math.max(this.#span, to.line - from.line);
    }
    // Places inside what the change replaced may meet at its edges in another order; none leaves the window.
    mapped.sort(compareStarts);
    for (const [k, entry] of mapped.entries()) {
      const shift = this.#shiftAt(lo + k);
      entry.startLine -= shift;
      entry.endLine -= shift;
      this.#entries[lo + k] = entry;
    }
    this.#reindex(lo, hi);
  }

  /** The index of the first place starting below `line` (the entries' lines never decrease). */
  #firstAfter(line: number): number {
    let lo = 0;
    let hi = this.#entries.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.#entries[mid]!.startLine + this.#shiftAt(mid) <= line) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  #shiftAt(index: number): number {
    if (!this.#shifted) return 0;
    let sum = 0;
    for (let i = index + 1; i > 0; i -= i & -i) sum += this.#tree[i]!;
    return sum;
  }

  /** Put the pending shifts into the entries' lines. */
  #fold(): void {
    if (!this.#shifted) return;
    let shift = 0;
    for (const [i, entry] of this.#entries.entries()) {
      shift += this.#shifts[i]!;
      entry.startLine += shift;
      entry.endLine += shift;
    }
    this.#shifted = false;
  }

  /** Empty shift trees the size of the entries (after a fold). */
  #reset(): void {
    this.#tree = new Float64Array(this.#entries.length + 1);
    this.#shifts = new Float64Array(this.#entries.length);
  }

  #reindex(from: number, to: number): void {
    for (let i = from; i < to; i++) this.#indexOf.set(this.#entries[i]!.item, i);
  }
}

function compareStarts<T>(a: Entry<T>, b: Entry<T>): number {
  return a.startLine - b.startLine || a.startCharacter - b.startCharacter;
}
