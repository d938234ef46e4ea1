import { isEmptyTotals, type UsageTotals } from "@infill/core/usage";
import type { Position } from "vscode-languageserver";
import type { NoSuggestionReason } from "../completion/answer.js";
import { codePoints, type Suggestion } from "../completion/type-through.js";
import type { AppliedChange } from "../documents/position-map.js";
import type { TextBuffer } from "../documents/text-buffer.js";
import { takenAtPlace } from "./accept-inference.js";
import { CheckSchedule } from "./check-schedule.js";
import { FollowedPlaces } from "./followed-places.js";
import { retainedChars } from "./retention.js";
import { SuggestionPlace } from "./suggestion-place.js";
import { SYSTEM_TIMERS, type Timers } from "./timers.js";
import { retentionDelta, shownDelta, takenDelta } from "./usage-delta.js";

/**
 * A suggestion answered and not replaced counts as shown after this long, in ms, for clients that do not say when
 * they show one: the time Cody takes for a completion to have been seen (a suggestion replaced sooner flickered by).
 */
export const SHOWN_AFTER_MS = 750;

/** At most this many suggestions can still be reported taken or shown by id (the most recent ones). */
const REMEMBERED_SUGGESTIONS = 500;
/**
 * Suggestions taken whose retention checks are pending, at most: the oldest beyond are not checked (their checks
 * count as `unchecked`, see {@link RetentionQueue}).
 */
export const CHECKED_AT_ONCE = 2000;

/** Where the retention checks stand (`retentionQueue` in `infill.status`). */
export interface RetentionQueue {
  /** Suggestions taken whose retention checks are still to come (at most {@link CHECKED_AT_ONCE}). */
  pending: number;
  /** Places followed through edits: suggestions open to accept inference, and what was taken of those checked. */
  followed: number;
  /** Retention checks never made because {@link CHECKED_AT_ONCE} dropped their suggestion (one per horizon). */
  unchecked: number;
  /** Characters (code points) taken that those checks would have looked for, summed over them. */
  uncheckedChars: number;
}

/** What the editor needs to report taking an answer's text: the suggestion's id, and how much of it came before. */
export interface ShownSuggestion {
  /** Id of the suggestion, the argument of `infill.accepted` and `infill.shown`. */
  id: string;
  /** Characters (code points) of the suggestion before the answer's text: what was typed through already. */
  before: number;
}

/** Collaborators of {@link SuggestionOutcomes}; `S` is whatever a count is counted under. */
export interface OutcomesOptions<S> {
  /** Count `delta` under `scope`; `latencyMs` comes with a suggestion counted shown (its latency to the screen). */
  count(scope: S, delta: UsageTotals, latencyMs?: number): void;
  /** The text of an open document; undefined when it is not open. */
  buffer(uri: string): TextBuffer | undefined;
  /** The retention horizons, in seconds after a suggestion is first taken (read at that moment). */
  horizons(): readonly number[];
  /** Whether the client says when it shows a suggestion (`infill.shown`); otherwise {@link SHOWN_AFTER_MS} decides. */
  clientReportsShown(): boolean;
  /** Default: Node's timers, unref'ed. */
  timers?: Timers;
}

/** Everything that happens to one suggestion after it is answered. */
interface Outcome<S> {
  readonly id: string;
  readonly uri: string;
  readonly suggestion: Suggestion;
  readonly scope: S;
  /** Its length, in code points. */
  readonly total: number;
  /** Latency of the first answer that showed it, in ms. */
  readonly latencyMs: number;
  /** How far into it was taken, in code points. */
  reached: number;
  shown: boolean;
  /** Cancels the timer that counts it shown, while one runs. */
  shownTimer: (() => void) | undefined;
  /** Its place in the document while it is open to inference (then it is in its document's `#open`). */
  place: SuggestionPlace | undefined;
  /** Whether its place, closed on what was taken, is followed for its checks (in its document's index). */
  indexed: boolean;
  /** The text of its place when its document closed (a closed document counts as its last state). */
  snapshot: string | undefined;
}

/**
 * What becomes of each suggestion answered: whether it was shown (the client says so, or it stayed on screen for
 * {@link SHOWN_AFTER_MS}), how far it was taken (the item's `infill.accepted` command, type-through, or inferred from
 * the edit that put its text at its place, whichever reaches furthest: never counted twice), and how much of what was
 * taken is still there at each retention horizon. The rules are pure (accept-inference.ts, retention.ts,
 * usage-delta.ts); this class follows places through edits and runs the timers, and hands each count to `count`.
 */
export class SuggestionOutcomes<S> {
  readonly #bySuggestion = new WeakMap<Suggestion, Outcome<S>>();
  /** By id, the oldest first: an accept comes soon after its suggestion is shown, so the oldest go first. */
  readonly #byId = new Map<string, Outcome<S>>();
  /** Where the suggestions are as their documents are edited. */
  readonly #places = new FollowedPlaces<Outcome<S>>();
  /** The latest suggestion answered for each document: the one on screen, for the shown rule. */
  readonly #current = new Map<string, Outcome<S>>();
  /** The retention checks of every suggestion taken, on one timer. */
  readonly #checks: CheckSchedule<Outcome<S>>;
  readonly #timers: Timers;
  #nextId = 0;
  #unchecked = 0;
  #uncheckedChars = 0;

  constructor(private readonly options: OutcomesOptions<S>) {
    this.#timers = options.timers ?? SYSTEM_TIMERS;
    this.#checks = new CheckSchedule(this.#timers, (outcome, seconds) => this.#check(outcome, seconds));
  }

  /** Where the retention checks stand. */
  retentionQueue(): RetentionQueue {
    return {
      pending: this.#checks.size,
      followed: this.#places.size,
      unchecked: this.#unchecked,
      uncheckedChars: this.#uncheckedChars,
    };
  }

  /** Places an edit followed one by one so far, open and closed: what edits cost (for tests and benches). */
  get placesVisited(): number {
    return this.#places.visited;
  }

  /**
   * An answer for `uri` shows `text`, the rest of `suggestion`, with the cursor at `at` (UTF-16), after
   * `latencyMs`; `scope` is asked the first time. Returns the suggestion's id, and how much of it came before `text`.
   */
  answered(
    uri: string,
    suggestion: Suggestion,
    text: string,
    at: Position,
    latencyMs: number,
    scope: () => S,
  ): ShownSuggestion {
    let outcome = this.#bySuggestion.get(suggestion);
    if (!outcome) {
      outcome = {
        id: `s${++this.#nextId}`,
        uri,
        suggestion,
        scope: scope(),
        total: codePoints(suggestion.text),
        latencyMs,
        reached: 0,
        shown: false,
        shownTimer: undefined,
        place: undefined,
        indexed: false,
        snapshot: undefined,
      };
      this.#bySuggestion.set(suggestion, outcome);
      this.#byId.set(outcome.id, outcome);
      if (this.#byId.size > REMEMBERED_SUGGESTIONS) this.#byId.delete(this.#byId.keys().next().value!);
      this.#follow(outcome, at);
    }
    const previous = this.#current.get(uri);
    if (previous !== outcome) {
      // Replaced on screen: a suggestion not counted shown yet never will be by the timer.
      if (previous) this.#stopShownTimer(previous);
      this.#current.set(uri, outcome);
    }
    if (!outcome.shown && !outcome.shownTimer && !this.options.clientReportsShown()) {
      const shown = outcome;
      shown.shownTimer = this.#timers.schedule(SHOWN_AFTER_MS, () => {
        shown.shownTimer = undefined;
        this.#markShown(shown);
      });
    }
    return { id: outcome.id, before: Math.max(0, outcome.total - codePoints(text)) };
  }

  /**
   * A request for `uri` got no suggestion. Unless it was superseded or cancelled (the client then still shows what
   * it showed), the client now shows none: the suggestion it showed is replaced.
   */
  noAnswer(uri: string, reason: NoSuggestionReason): void {
    if (reason === "superseded" || reason === "cancelled") return;
    const current = this.#current.get(uri);
    if (current) this.#stopShownTimer(current);
    this.#current.delete(uri);
  }

  /** The client showed the suggestion `id` (`infill.shown`); false for an id not remembered. */
  reportedShown(id: string): boolean {
    const outcome = this.#byId.get(id);
    if (outcome) this.#markShown(outcome);
    return outcome !== undefined;
  }

  /** `infill.accepted`: suggestion `id` taken up to character `chars`; false for an id not remembered. */
  acceptedById(id: string, chars: number): boolean {
    const outcome = this.#byId.get(id);
    if (outcome) this.#take(outcome, chars);
    return outcome !== undefined;
  }

  /** A request found `chars` characters of `suggestion` typed. */
  typedThrough(suggestion: Suggestion, chars: number): void {
    const outcome = this.#bySuggestion.get(suggestion);
    if (outcome) this.#take(outcome, chars);
  }

  /** `uri` changed (the changes of one notification, in order, as applied): follow places, infer accepts. */
  changed(uri: string, changes: readonly AppliedChange[]): void {
    const buffer = this.options.buffer(uri);
    if (!buffer || changes.length === 0) return;
    // Closed places first: an open place that closes below joins them as the text is now.
    for (const outcome of this.#places.changed(uri, changes)) {
      // Gone already: dropped by the bound on checks while another suggestion of this edit was taken.
      const place = outcome.place;
      if (!place) continue;
      for (const change of changes) place.apply(change);
      if (place.settle(buffer)) this.#infer(outcome, buffer);
      // The text before its anchor changed: it can no longer be inferred. What was taken of it is still checked.
      else if (outcome.reached > 0) this.#close(outcome, buffer, place.text(buffer).length);
      else this.#places.unfollow(outcome);
    }
  }

  /** `uri` is closing (its text still readable): its places keep their last text. */
  closed(uri: string): void {
    const buffer = this.options.buffer(uri);
    this.#places.documentClosed(uri, (outcome) => {
      if (this.#checks.has(outcome) && buffer) outcome.snapshot = this.#places.text(outcome, buffer);
    });
    const current = this.#current.get(uri);
    if (current) this.#stopShownTimer(current);
    this.#current.delete(uri);
  }

  /** Run every pending retention check now (a closing server: its documents' last state), and stop the timers. */
  dispose(): void {
    this.#checks.runAll();
    for (const outcome of this.#current.values()) this.#stopShownTimer(outcome);
    this.#current.clear();
    this.#places.clear();
  }

  /** Start following where `outcome` goes, from its anchor to the answer's cursor (what was typed of it already). */
  #follow(outcome: Outcome<S>, at: Position): void {
    const buffer = this.options.buffer(outcome.uri);
    if (!buffer) return;
    const { suggestion } = outcome;
    const anchor = { line: suggestion.line, character: suggestion.character };
    const place = new SuggestionPlace(anchor, suggestion.linePrefix, at);
    if (!place.settle(buffer)) return;
    for (const old of this.#places.open(outcome, place)) {
      if (old.reached > 0) this.#close(old, buffer, old.place!.text(buffer).length);
      else this.#places.unfollow(old);
    }
    this.#infer(outcome, buffer);
  }

  /** What the text at an open place says of its suggestion. */
  #infer(outcome: Outcome<S>, buffer: TextBuffer): void {
    const place = outcome.place!;
    const inserted = place.text(buffer);
    const { text, replaceEnd } = outcome.suggestion;
    const found = takenAtPlace(text, inserted, place.following(buffer), replaceEnd);
    if (found.chars > outcome.reached) this.#take(outcome, found.chars);
    if (found.chars >= outcome.total) {
      this.#close(outcome, buffer, found.placeUnits);
    } else if (found.insertedUnits < inserted.length) {
      // The typing left the suggestion: the editor hides it, and nothing more of it can be taken here.
      this.#stopShownTimer(outcome);
      if (outcome.reached > 0) this.#close(outcome, buffer, found.placeUnits);
      else this.#places.unfollow(outcome);
    }
  }

  /** Close `outcome`'s place on what was taken; followed on (in its document's index) only while checks are pending. */
  #close(outcome: Outcome<S>, buffer: TextBuffer, units: number): void {
    this.#places.close(outcome, buffer, units, this.#checks.has(outcome));
  }

  #take(outcome: Outcome<S>, chars: number): void {
    // Taken means shown (a client may take an item before its suggestion counted shown).
    this.#markShown(outcome);
    const before = outcome.reached;
    const delta = takenDelta(outcome.total, before, chars);
    outcome.reached = Math.max(before, Math.min(Math.floor(chars), outcome.total));
    if (!isEmptyTotals(delta)) this.options.count(outcome.scope, delta);
    if (before === 0 && outcome.reached > 0) this.#scheduleChecks(outcome);
  }

  #markShown(outcome: Outcome<S>): void {
    this.#stopShownTimer(outcome);
    if (outcome.shown) return;
    outcome.shown = true;
    this.options.count(outcome.scope, shownDelta(), outcome.latencyMs);
  }

  #stopShownTimer(outcome: Outcome<S>): void {
    outcome.shownTimer?.();
    outcome.shownTimer = undefined;
  }

  /** Check what is left of what was taken at each horizon (none when its place is not followed). */
  #scheduleChecks(outcome: Outcome<S>): void {
    if (!this.#places.followed(outcome)) return;
    const horizons = [...new Set(this.options.horizons())].sort((a, b) => a - b);
    if (horizons.length === 0) return;
    this.#checks.add(outcome, horizons);
    if (this.#checks.size > CHECKED_AT_ONCE) {
      // The oldest goes, counted: its checks are never made, and the figures say so.
      const oldest = this.#checks.oldest()!;
      const dropped = this.#checks.drop(oldest).length;
      this.#unchecked += dropped;
      this.#uncheckedChars += dropped * oldest.reached;
      oldest.snapshot = undefined;
      this.#places.unfollow(oldest);
    }
  }

  /** The check of `outcome` at `seconds` (the schedule already counts it done). */
  #check(outcome: Outcome<S>, seconds: number): void {
    const buffer = this.#places.followed(outcome) ? this.options.buffer(outcome.uri) : undefined;
    const now = outcome.snapshot ?? (buffer ? this.#places.text(outcome, buffer) : "");
    const taken = takenText(outcome.suggestion.text, outcome.reached);
    const retained = retainedChars(taken, now);
    this.options.count(outcome.scope, retentionDelta(seconds, outcome.reached, retained));
    if (!this.#checks.has(outcome)) {
      // Its last check: nothing of it is kept but what its id still answers (the latest few hundred).
      outcome.snapshot = undefined;
      if (outcome.indexed) this.#places.unfollow(outcome);
    }
  }
}

/** The first `chars` code points of `text`. */
function takenText(text: string, chars: number): string {
  let units = 0;
  let n = 0;
  for (const ch of text) {
    if (n++ >= chars) break;
    units += ch.length;
  }
  return text.slice(0, units);
}
