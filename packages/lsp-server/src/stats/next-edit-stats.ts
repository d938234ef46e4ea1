import { classify } from "@infill/core/failure";
import {
  addTotals,
  emptyTotals,
  type ModelPrice,
  priceOf,
  type UsageTotals,
  usageYield,
} from "@infill/core/usage";
import type { Range } from "vscode-languageserver";
import { codePoints } from "../completion/type-through.js";
import type { AppliedChange } from "../documents/position-map.js";
import type { TextBuffer } from "../documents/text-buffer.js";
import type { UpstreamEnd } from "../upstream/upstream.js";
import { type NextEditEvent, type NextEditFate, nextFate } from "./next-edit-outcomes.js";
import { NextEditRetention } from "./next-edit-retention.js";
import type { NextEditFigures } from "./status-schema.js";
import type { Timers } from "./timers.js";
import { upstreamDelta } from "./usage-delta.js";

/** Edits whose fate is remembered, at most (the latest): an accept comes within seconds of the answer. */
const REMEMBERED = 2000;

/** What the counts read from the settings: the next-edit model, the prices and the retention horizons. */
export interface NextEditStatsSettings {
  model: string;
  prices: Readonly<Record<string, ModelPrice>>;
  /** `usage.retentionChecks`, in seconds. */
  horizons: readonly number[];
}

/** Where each count also goes (the usage log, under kind `next-edit`), with the document it is of when known. */
export type NextEditLog = (delta: UsageTotals, uri: string | undefined) => void;

/**
 * The counts of next edits, apart from completions' (so that neither's acceptance rate is the other's): their
 * upstream requests, tokens and estimated cost, the edits shown, accepted and dismissed, the characters applied and
 * what is still there of them at each retention horizon, malformed answers by problem, failures by kind.
 */
export class NextEditStats {
  readonly #totals = emptyTotals();
  #dismissed = 0;
  readonly #malformed: Record<string, number> = {};
  readonly #failures: Record<string, number> = {};
  readonly #fates = new Map<string, { fate: NextEditFate; uri: string | undefined }>();
  readonly #retention: NextEditRetention;

  constructor(
    private readonly settings: () => NextEditStatsSettings,
    private readonly log: NextEditLog = () => {},
    /** The text of an open document (the retention checks read it); none: nothing is checked. */
    buffer: (uri: string) => TextBuffer | undefined = () => undefined,
    /** The retention checks' timers. Default: Node's, unref'ed. */
    timers?: Timers,
  ) {
    this.#retention = new NextEditRetention({
      buffer,
      horizons: () => this.settings().horizons,
      count: (delta, uri) => this.#add(delta, uri),
      timers,
    });
  }

  /** An upstream request for `uri` starts; the function returned records how it ended. */
  upstream(uri?: string): (end: UpstreamEnd) => void {
    const { model, prices } = this.settings();
    const price = priceOf(model, prices);
    return (end) => {
      const delta = upstreamDelta(end, price);
      this.#add(delta, uri);
      if (end.outcome === "failed") {
        const kind = classify(end.error)?.kind ?? "other";
        this.#failures[kind] = (this.#failures[kind] ?? 0) + 1;
      }
    };
  }

  /** An answer was not what its format says. */
  malformed(problem: string): void {
    this.#malformed[problem] = (this.#malformed[problem] ?? 0) + 1;
  }

  /** What happened to the edit `id` (see next-edit-outcomes.ts), of the document `uri` when the caller knows it. */
  event(id: string, event: NextEditEvent, uri?: string): void {
    const known = this.#fates.get(id);
    const { fate, delta } = nextFate(known?.fate, event);
    const of = uri ?? known?.uri;
    this.#fates.delete(id);
    if (fate) this.#fates.set(id, { fate, uri: of });
    while (this.#fates.size > REMEMBERED) this.#fates.delete(this.#fates.keys().next().value!);
    this.#totals.shown += delta.shown;
    this.#totals.accepted += delta.accepted;
    this.#dismissed += delta.dismissed;
    if (delta.shown !== 0 || delta.accepted !== 0) {
      const logged = emptyTotals();
      logged.shown = delta.shown;
      logged.accepted = delta.accepted;
      this.log(logged, of);
    }
  }

  /** `uri` now holds `edits` (each `range` where its text is now): their characters count, and are checked later. */
  applied(uri: string, edits: readonly { range: Range; text: string }[]): void {
    const delta = emptyTotals();
    for (const { range, text } of edits) {
      delta.acceptedChars += codePoints(text);
      this.#retention.applied(uri, text, range.start, range.end);
    }
    if (delta.acceptedChars > 0) this.#add(delta, uri);
  }

  /** `uri` changed: the applied edits' places follow. */
  changed(uri: string, changes: readonly AppliedChange[]): void {
    this.#retention.changed(uri, changes);
  }

  /** `uri` is closing (its text still readable). */
  closed(uri: string): void {
    this.#retention.closed(uri);
  }

  /** Make the pending retention checks now (a closing server) and stop their timer. */
  dispose(): void {
    this.#retention.dispose();
  }

  #add(delta: UsageTotals, uri: string | undefined): void {
    addTotals(this.#totals, delta);
    this.log(delta, uri);
  }

  /** The figures for `infill.status`. */
  figures(): NextEditFigures {
    const t = this.#totals;
    return {
      requests: t.requests,
      cancelled: t.cancelled,
      superseded: t.superseded,
      failed: t.failed,
      unreported: t.unreported,
      cacheHitTokens: t.cacheHitTokens,
      cacheMissTokens: t.cacheMissTokens,
      completionTokens: t.completionTokens,
      cost: t.cost,
      unpricedTokens: t.unpricedTokens,
      shown: t.shown,
      accepted: t.accepted,
      dismissed: this.#dismissed,
      acceptanceRate: t.shown > 0 ? t.accepted / t.shown : null,
      acceptedChars: t.acceptedChars,
      retained: usageYield(t, this.settings().horizons).retained.map(
        ({ seconds, checkedChars, retainedChars, rate }) => ({ seconds, checkedChars, retainedChars, rate }),
      ),
      malformed: { ...this.#malformed },
      failures: { ...this.#failures },
    };
  }
}
