/**
 * What completion spent and earned over some period: counts, tokens and an estimated cost, nothing else (no code,
 * no file names). Every field adds up: the totals of two periods are the field-by-field sums ({@link addTotals}).
 */
export interface UsageTotals {
  /** Upstream requests sent. */
  requests: number;
  /** Requests aborted because the editor stopped waiting for them (a cancelled request, a closed document). */
  cancelled: number;
  /** Requests aborted because newer typing made them useless (a newer request, an edit before their cursor). */
  superseded: number;
  /** Requests that failed (an HTTP error, a timeout, a lost connection). */
  failed: number;
  /** Requests that ended without a usage report (cut short, aborted, or from a provider that reports none). */
  unreported: number;
  /** Prompt tokens served from the provider's context cache. */
  cacheHitTokens: number;
  /** Prompt tokens not in the cache (all prompt tokens when a provider does not say). */
  cacheMissTokens: number;
  /** Generated tokens. */
  completionTokens: number;
  /** Estimated cost of the tokens above in US dollars, at the prices known when they were counted. */
  cost: number;
  /** Tokens of models without a known price, left out of `cost`. */
  unpricedTokens: number;
  /** Distinct suggestions answered to the editor. */
  shown: number;
  /** Suggestions taken whole (accepted, or typed to their end). */
  accepted: number;
  /** Suggestions taken in part (a word, a line, or typed partway) and not whole. */
  acceptedPartly: number;
  /** Characters of suggestions taken, accepted or typed through (Unicode code points). */
  acceptedChars: number;
}

/** The fields of {@link UsageTotals}, in the order they are written. */
export const USAGE_FIELDS = [
  "requests",
  "cancelled",
  "superseded",
  "failed",
  "unreported",
  "cacheHitTokens",
  "cacheMissTokens",
  "completionTokens",
  "cost",
  "unpricedTokens",
  "shown",
  "accepted",
  "acceptedPartly",
  "acceptedChars",
] as const satisfies ReadonlyArray<keyof UsageTotals>;

/** Totals of nothing. */
export function emptyTotals(): UsageTotals {
  return Object.fromEntries(USAGE_FIELDS.map((field) => [field, 0])) as unknown as UsageTotals;
}

/** `into` plus `more`, field by field (`into` is changed and returned). */
export function addTotals(into: UsageTotals, more: Readonly<UsageTotals>): UsageTotals {
  for (const field of USAGE_FIELDS) into[field] += more[field];
  return into;
}

/** Whether nothing was counted. */
export function isEmptyTotals(totals: Readonly<UsageTotals>): boolean {
  return USAGE_FIELDS.every((field) => totals[field] === 0);
}

/** Share of prompt tokens served from the cache, 0..1; null when no prompt tokens were reported. */
export function cacheHitRatio(totals: Readonly<UsageTotals>): number | null {
  const prompt = totals.cacheHitTokens + totals.cacheMissTokens;
  return prompt > 0 ? totals.cacheHitTokens / prompt : null;
}

/** Share of shown suggestions taken whole or in part, 0..1; null when none was shown. */
export function acceptanceRate(totals: Readonly<UsageTotals>): number | null {
  return totals.shown > 0 ? Math.min(1, (totals.accepted + totals.acceptedPartly) / totals.shown) : null;
}
