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
  /**
   * The sum over suggestions of (characters taken of it)²: with `acceptedChars` and `requests`, the variance of the
   * characters taken per request, for the interval of `infill usage --by context`.
   */
  acceptedCharsSq: number;
  /**
   * What the retention checks found, by horizon: the seconds after a suggestion was first taken, as a string
   * (`"30"`, `"600"`; see {@link horizonKey}).
   */
  retention: Record<string, RetentionTotals>;
}

/** What the retention checks at one horizon found. Every field adds up. */
export interface RetentionTotals {
  /** Characters taken (code points) whose check at this horizon ran. */
  checkedChars: number;
  /** Of those, the characters still in the document where they went. */
  retainedChars: number;
  /** The sum over checked suggestions of (characters still there)², for intervals. */
  retainedCharsSq: number;
}

/** The fields of {@link RetentionTotals}, in the order they are written. */
export const RETENTION_FIELDS = [
  "checkedChars",
  "retainedChars",
  "retainedCharsSq",
] as const satisfies ReadonlyArray<keyof RetentionTotals>;

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
  "acceptedCharsSq",
] as const satisfies ReadonlyArray<Exclude<keyof UsageTotals, "retention">>;

/** Totals of nothing. */
export function emptyTotals(): UsageTotals {
  // A literal rather than built from USAGE_FIELDS: it is made for every event counted, in every scope.
  return {
    requests: 0,
    cancelled: 0,
    superseded: 0,
    failed: 0,
    unreported: 0,
    cacheHitTokens: 0,
    cacheMissTokens: 0,
    completionTokens: 0,
    cost: 0,
    unpricedTokens: 0,
    shown: 0,
    accepted: 0,
    acceptedPartly: 0,
    acceptedChars: 0,
    acceptedCharsSq: 0,
    retention: {},
  };
}

/** A horizon in seconds as the key of {@link UsageTotals.retention}: `30` → `"30"`, `0.5` → `"0.5"`. */
export function horizonKey(seconds: number): string {
  return String(seconds);
}

/** The horizons of some retention totals, in seconds, shortest first. */
export function horizonsOf(retention: Readonly<Record<string, RetentionTotals>>): number[] {
  return Object.keys(retention)
    .map(Number)
    .filter((seconds) => Number.isFinite(seconds) && seconds > 0)
    .sort((a, b) => a - b);
}

/** `into` plus `more`, field by field and horizon by horizon (`into` is changed and returned). */
export function addTotals(into: UsageTotals, more: Readonly<UsageTotals>): UsageTotals {
  for (const field of USAGE_FIELDS) into[field] += more[field];
  for (const [horizon, checks] of Object.entries(more.retention)) {
    // Only horizons (a key such as `__proto__` from a log line is not one).
    if (!(Number(horizon) > 0)) continue;
    let target = into.retention[horizon];
    if (!target) {
      target = { checkedChars: 0, retainedChars: 0, retainedCharsSq: 0 };
      into.retention[horizon] = target;
    }
    for (const field of RETENTION_FIELDS) target[field] += checks[field];
  }
  return into;
}

/** Whether nothing was counted. */
export function isEmptyTotals(totals: Readonly<UsageTotals>): boolean {
  return (
    USAGE_FIELDS.every((field) => totals[field] === 0) &&
    Object.values(totals.retention).every((checks) => RETENTION_FIELDS.every((field) => checks[field] === 0))
  );
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
