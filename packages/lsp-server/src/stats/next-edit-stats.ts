import { classify } from "@infill/core/failure";
import { addTotals, emptyTotals, type ModelPrice, priceOf } from "@infill/core/usage";
import type { UpstreamEnd } from "../upstream/upstream.js";
import { type NextEditEvent, type NextEditFate, nextFate } from "./next-edit-outcomes.js";
import type { NextEditFigures } from "./status-schema.js";
import { upstreamDelta } from "./usage-delta.js";

/** Edits whose fate is remembered, at most (the latest): an accept comes within seconds of the answer. */
const REMEMBERED = 2000;

/** What the counts read from the settings: the next-edit model and the prices. */
export interface NextEditStatsSettings {
  model: string;
  prices: Readonly<Record<string, ModelPrice>>;
}

/**
 * The counts of next edits, apart from completions' (so that neither's acceptance rate is the other's): their
 * upstream requests, tokens and estimated cost, the edits shown, accepted and dismissed, malformed answers by
 * problem, failures by kind.
 */
export class NextEditStats {
  readonly #totals = emptyTotals();
  #dismissed = 0;
  readonly #malformed: Record<string, number> = {};
  readonly #failures: Record<string, number> = {};
  readonly #fates = new Map<string, NextEditFate>();

  constructor(private readonly settings: () => NextEditStatsSettings) {}

  /** An upstream request starts; the function returned records how it ended. */
  upstream(): (end: UpstreamEnd) => void {
    const { model, prices } = this.settings();
    const price = priceOf(model, prices);
    return (end) => {
      addTotals(this.#totals, upstreamDelta(end, price));
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

  /** What happened to the edit `id` (see next-edit-outcomes.ts). */
  event(id: string, event: NextEditEvent): void {
    const { fate, delta } = nextFate(this.#fates.get(id), event);
    this.#fates.delete(id);
    if (fate) this.#fates.set(id, fate);
    while (this.#fates.size > REMEMBERED) this.#fates.delete(this.#fates.keys().next().value!);
    this.#totals.shown += delta.shown;
    this.#totals.accepted += delta.accepted;
    this.#dismissed += delta.dismissed;
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
      malformed: { ...this.#malformed },
      failures: { ...this.#failures },
    };
  }
}
