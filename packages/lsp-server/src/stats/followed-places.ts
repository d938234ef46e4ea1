import type { AppliedChange } from "../documents/position-map.js";
import type { TextBuffer } from "../documents/text-buffer.js";
import { PlaceIndex } from "./place-index.js";
import type { SuggestionPlace } from "./suggestion-place.js";

/** Suggestions whose place is followed open to inference, per document, at most (the latest go on). */
const OPEN_PLACES_PER_DOCUMENT = 3;

/** What a followed suggestion carries of its place. */
export interface Followed {
  readonly uri: string;
  /** Its place while it is open to inference (then it is among its document's open places). */
  place: SuggestionPlace | undefined;
  /** Whether its place, closed on what was taken, is followed in its document's index (for retention checks). */
  indexed: boolean;
}

/**
 * Where suggestions are in their documents as they are edited: the few open to inference (their text may still be
 * taken), and, in an index per document, the closed places of those whose retention checks are pending. Edits visit
 * a few open places and, through the index, only the closed places they reach.
 */
export class FollowedPlaces<T extends Followed> {
  /** The suggestions whose place is open to inference, by document (a few: {@link OPEN_PLACES_PER_DOCUMENT}). */
  readonly #open = new Map<string, T[]>();
  /** By document, the closed places of suggestions whose retention checks are pending (an edit visits a few). */
  readonly #closed = new Map<string, PlaceIndex<T>>();
  /** Open places walked by edits (closed ones are counted by their indexes). */
  #openVisited = 0;
  /** Closed places visited by the indexes of documents no longer followed. */
  #closedVisited = 0;

  /** Places followed now, open and closed. */
  get size(): number {
    let followed = 0;
    for (const open of this.#open.values()) followed += open.length;
    for (const index of this.#closed.values()) followed += index.size;
    return followed;
  }

  /** Places an edit followed one by one so far, open and closed: what edits cost (for tests and benches). */
  get visited(): number {
    let visited = this.#openVisited + this.#closedVisited;
    for (const index of this.#closed.values()) visited += index.visited;
    return visited;
  }

  /**
   * Follow `item` at `place`, open to inference. Returns the items of its document beyond the bound, oldest first,
   * still open: the caller closes or drops each.
   */
  open(item: T, place: SuggestionPlace): T[] {
    item.place = place;
    const open = this.#open.get(item.uri) ?? [];
    this.#open.set(item.uri, open);
    open.push(item);
    return open.slice(0, Math.max(0, open.length - OPEN_PLACES_PER_DOCUMENT));
  }

  /**
   * A document changed: its closed places follow the changes; returns its open items, for the caller to follow one
   * by one (a copy: the caller may close them meanwhile).
   */
  changed(uri: string, changes: readonly AppliedChange[]): T[] {
    const index = this.#closed.get(uri);
    if (index) for (const change of changes) index.apply(change);
    const open = this.#open.get(uri);
    if (!open) return [];
    this.#openVisited += open.length;
    return [...open];
  }

  /** Whether `item`'s place is followed, open or closed. */
  followed(item: T): boolean {
    return item.place !== undefined || item.indexed;
  }

  /** The text of `item`'s followed place. */
  text(item: T, buffer: TextBuffer): string {
    if (item.place) return item.place.text(buffer);
    const range = this.#closed.get(item.uri)?.range(item);
    return range ? buffer.slice(range.start, range.end) : "";
  }

  /** Close `item`'s open place on its first `units` and, with `index`, follow it on in its document's index. */
  close(item: T, buffer: TextBuffer, units: number, index: boolean): void {
    const place = item.place!;
    place.close(buffer, units);
    this.unfollow(item);
    if (!index) return;
    let places = this.#closed.get(item.uri);
    if (!places) {
      places = new PlaceIndex();
      this.#closed.set(item.uri, places);
    }
    places.add(item, place.start, place.end);
    item.indexed = true;
  }

  /** Stop following `item`'s place, open or closed. */
  unfollow(item: T): void {
    if (item.place) {
      item.place = undefined;
      const open = this.#open.get(item.uri);
      const at = open?.indexOf(item) ?? -1;
      if (at !== -1) open!.splice(at, 1);
      if (open?.length === 0) this.#open.delete(item.uri);
    }
    if (item.indexed) {
      item.indexed = false;
      const index = this.#closed.get(item.uri);
      index?.remove(item);
      if (index?.size === 0) {
        this.#closedVisited += index.visited;
        this.#closed.delete(item.uri);
      }
    }
  }

  /** `uri` closes: its items, open and closed, are followed no more; `last` reads each first, as it is. */
  documentClosed(uri: string, last: (item: T) => void): void {
    const index = this.#closed.get(uri);
    const items = [...(this.#open.get(uri) ?? []), ...(index?.items() ?? [])];
    for (const item of items) {
      last(item);
      item.place = undefined;
      item.indexed = false;
    }
    this.#open.delete(uri);
    if (index) this.#closedVisited += index.visited;
    this.#closed.delete(uri);
  }

  /** Follow nothing more. */
  clear(): void {
    this.#open.clear();
    this.#closed.clear();
  }
}
