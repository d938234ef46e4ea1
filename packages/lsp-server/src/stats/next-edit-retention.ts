import type { UsageTotals } from "@infill/core/usage";
import type { Position } from "vscode-languageserver";
import { codePoints } from "../completion/type-through.js";
import type { AppliedChange } from "../documents/position-map.js";
import type { TextBuffer } from "../documents/text-buffer.js";
import { CheckSchedule } from "./check-schedule.js";
import { PlaceIndex } from "./place-index.js";
import { retainedChars } from "./retention.js";
import { SYSTEM_TIMERS, type Timers } from "./timers.js";
import { retentionDelta } from "./usage-delta.js";

/** Applied next edits whose checks are pending, at most: the oldest beyond go unchecked. */
const CHECKED_AT_ONCE = 500;

/** Collaborators of {@link NextEditRetention}. */
export interface NextEditRetentionOptions {
  /** The text of an open document; undefined when it is not open. */
  buffer(uri: string): TextBuffer | undefined;
  /** The retention horizons, in seconds after an edit is applied (`usage.retentionChecks`, read at that moment). */
  horizons(): readonly number[];
  /** Count a check's result (a `retentionDelta`) for the edit's document. */
  count(delta: UsageTotals, uri: string): void;
  /** Default: Node's timers, unref'ed. */
  timers?: Timers | undefined;
}

/** One applied edit whose text is followed. */
interface Taken {
  readonly uri: string;
  readonly text: string;
  readonly chars: number;
  /** The text of its place when its document closed (a closed document counts as its last state). */
  snapshot: string | undefined;
}

/**
 * The retention of next edits, with the same checks as completions' (retention.ts): the text an applied edit put in
 * the document is followed through later edits (a closed place per edit, place-index.ts), and at each horizon what is
 * still there of it is counted. Deletions put no text there and are not checked.
 */
export class NextEditRetention {
  readonly #places = new Map<string, PlaceIndex<Taken>>();
  readonly #checks: CheckSchedule<Taken>;

  constructor(private readonly options: NextEditRetentionOptions) {
    this.#checks = new CheckSchedule(options.timers ?? SYSTEM_TIMERS, (taken, seconds) =>
      this.#check(taken, seconds),
    );
  }

  /** Edits checked later (for tests and `infill.status`). */
  get pending(): number {
    return this.#checks.size;
  }

  /** `uri` now holds `text` from `start` (the document as it is now). */
  applied(uri: string, text: string, start: Position, end: Position): void {
    const chars = codePoints(text);
    const horizons = [...new Set(this.options.horizons())].sort((a, b) => a - b);
    if (chars === 0 || horizons.length === 0 || !this.options.buffer(uri)) return;
    const taken: Taken = { uri, text, chars, snapshot: undefined };
    let index = this.#places.get(uri);
    if (!index) {
      index = new PlaceIndex();
      this.#places.set(uri, index);
    }
    index.add(taken, start, end);
    this.#checks.add(taken, horizons);
    if (this.#checks.size > CHECKED_AT_ONCE) this.#forget(this.#checks.oldest()!);
  }

  /** `uri` changed (the changes of one notification, in order, as applied): the places follow. */
  changed(uri: string, changes: readonly AppliedChange[]): void {
    const index = this.#places.get(uri);
    if (index) for (const change of changes) index.apply(change);
  }

  /** `uri` is closing (its text still readable): its places keep their last text. */
  closed(uri: string): void {
    const index = this.#places.get(uri);
    const buffer = this.options.buffer(uri);
    if (!index) return;
    for (const taken of index.items()) taken.snapshot = buffer ? this.#text(taken, index, buffer) : "";
    this.#places.delete(uri);
  }

  /** Run every pending check now (a closing server: its documents' last state), and stop the timer. */
  dispose(): void {
    this.#checks.runAll();
    this.#places.clear();
  }

  #check(taken: Taken, seconds: number): void {
    const index = this.#places.get(taken.uri);
    const buffer = this.options.buffer(taken.uri);
    const now = taken.snapshot ?? (index && buffer ? this.#text(taken, index, buffer) : "");
    this.options.count(retentionDelta(seconds, taken.chars, retainedChars(taken.text, now)), taken.uri);
    if (!this.#checks.has(taken)) this.#forget(taken);
  }

  #text(taken: Taken, index: PlaceIndex<Taken>, buffer: TextBuffer): string {
    const range = index.range(taken);
    return range ? buffer.slice(range.start, range.end) : "";
  }

  #forget(taken: Taken): void {
    this.#checks.drop(taken);
    const index = this.#places.get(taken.uri);
    index?.remove(taken);
    if (index?.size === 0) this.#places.delete(taken.uri);
  }
}
