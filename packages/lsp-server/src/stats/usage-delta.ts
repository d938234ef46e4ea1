import type { Usage } from "@infill/core";
import { emptyTotals, estimateCost, horizonKey, type ModelPrice, type UsageTotals } from "@infill/core/usage";
import type { UpstreamEnd } from "../upstream/upstream.js";

// What each event adds to the usage totals: pure functions, so the counting rules are tested with tables and the
// tracker (tracker.ts) only routes the results to its buckets.

/** The tokens of a usage report, split as they are billed (no cache fields: all prompt tokens missed the cache). */
export function billedTokens(usage: Usage): { cacheHit: number; cacheMiss: number; completion: number } {
  const cacheHit = Math.max(0, usage.prompt_cache_hit_tokens ?? 0);
  const cacheMiss = Math.max(0, usage.prompt_cache_miss_tokens ?? usage.prompt_tokens - cacheHit);
  return { cacheHit, cacheMiss, completion: Math.max(0, usage.completion_tokens) };
}

/** What one upstream request adds, priced at `price` (undefined: a model without a price). */
export function upstreamDelta(
  end: Pick<UpstreamEnd, "outcome" | "usage">,
  price: ModelPrice | undefined,
): UsageTotals {
  const delta = emptyTotals();
  delta.requests = 1;
  if (end.outcome === "cancelled") delta.cancelled = 1;
  else if (end.outcome === "superseded") delta.superseded = 1;
  else if (end.outcome === "failed") delta.failed = 1;
  if (!end.usage) {
    delta.unreported = 1;
    return delta;
  }
  const tokens = billedTokens(end.usage);
  delta.cacheHitTokens = tokens.cacheHit;
  delta.cacheMissTokens = tokens.cacheMiss;
  delta.completionTokens = tokens.completion;
  if (price) delta.cost = estimateCost(tokens, price);
  else delta.unpricedTokens = tokens.cacheHit + tokens.cacheMiss + tokens.completion;
  return delta;
}

/** What showing a new suggestion adds. */
export function shownDelta(): UsageTotals {
  const delta = emptyTotals();
  delta.shown = 1;
  return delta;
}

/** How much of a suggestion has been taken. */
type Taken = "none" | "partly" | "whole";

function taken(reached: number, total: number): Taken {
  return reached <= 0 ? "none" : reached >= total ? "whole" : "partly";
}

/**
 * What taking a suggestion of `total` characters up to character `reached` adds, when it had been taken up to
 * `before`: the characters gained, and the move between "not taken", "taken in part" and "taken whole". Taking
 * less than before (a report that arrives late, a word accepted after the line it is in) adds nothing.
 */
export function takenDelta(total: number, before: number, reached: number): UsageTotals {
  const delta = emptyTotals();
  const from = Math.min(Math.max(before, 0), total);
  const to = Math.min(Math.max(reached, from), total);
  delta.acceptedChars = to - from;
  // The suggestion's square grows from from² to to²: summed, the squares of the characters taken per suggestion.
  delta.acceptedCharsSq = to * to - from * from;
  const was = taken(from, total);
  const now = taken(to, total);
  if (was !== now) {
    if (was === "partly") delta.acceptedPartly -= 1;
    if (now === "partly") delta.acceptedPartly += 1;
    if (now === "whole") delta.accepted += 1;
  }
  return delta;
}

/**
 * What one retention check adds: at the horizon of `seconds`, `checked` characters taken were looked for and
 * `retained` of them were still there.
 */
export function retentionDelta(seconds: number, checked: number, retained: number): UsageTotals {
  const delta = emptyTotals();
  const kept = Math.min(Math.max(retained, 0), checked);
  delta.retention[horizonKey(seconds)] = {
    checkedChars: checked,
    retainedChars: kept,
    retainedCharsSq: kept * kept,
  };
  return delta;
}
