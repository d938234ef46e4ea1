import { backoffDelay, MAX_RETRY_AFTER_MS } from "../retry.js";

// What a 429 means for a batch beyond its concurrency limit (aimd.ts lowers that): whether all sending pauses, and
// when the request goes again. Pure: the state and a source of randomness in, the decision out.

/** A pause before the next request is sent. */
export interface BatchPause {
  /** Milliseconds. */
  ms: number;
  /**
   * `retry-after`: a 429's Retry-After; `rate-limited`: more 429s in a row than requests allowed in flight, with no
   * Retry-After (a backoff); `tokens-per-minute`: the cap's bucket is empty.
   */
  reason: "retry-after" | "rate-limited" | "tokens-per-minute";
}

/** Where a batch stands when a 429 comes back. */
export interface RateLimitState {
  /** The time (ms, the clock `pausedUntil` is on). */
  now: number;
  /** The 429's Retry-After (ms), if it had one. */
  retryAfterMs: number | undefined;
  /** 429s with no answer in between, this one included. */
  rateLimitedInARow: number;
  /** Requests allowed in flight, after this 429 lowered the limit. */
  limit: number;
  /** Nothing is sent before this time (ms). */
  pausedUntil: number;
  /** 429s the request had before this one. */
  attempts: number;
  /** How many times a request is sent again after a 429 (`maxRateLimitRetries`). */
  maxRetries: number;
}

/** What to do after a 429. */
export interface RateLimitDecision {
  /** All sending pauses this long from `now` (it ends later than the pause there was); undefined: no new pause. */
  pause: BatchPause | undefined;
  /** When the request goes again; undefined when it has had its retries and fails. */
  retryAt: number | undefined;
}

/**
 * Decides what a 429 leads to. A Retry-After pauses every request (the limit is the account's). Without one, more
 * 429s in a row than the limit allows in flight mean the account is full with others' requests: everything waits,
 * longer each time. The request itself goes again at once after its first 429 (over a concurrency limit it only
 * needs a free slot, which the lowered limit now governs), after a backoff on the next ones, or after Retry-After.
 *
 * @param random numbers in [0, 1) for the backoffs' jitter, `Math.random` in production; called for the pause
 *   first, then for the request's backoff.
 */
export function rateLimitDecision(state: RateLimitState, random: () => number): RateLimitDecision {
  const { now, attempts } = state;
  const retryAfter =
    state.retryAfterMs === undefined ? undefined : Math.min(state.retryAfterMs, MAX_RETRY_AFTER_MS);
  let pause: BatchPause | undefined;
  if (retryAfter !== undefined && retryAfter > 0 && now + retryAfter > state.pausedUntil) {
    pause = { ms: retryAfter, reason: "retry-after" };
  }
  const overflow = state.rateLimitedInARow - state.limit;
  if (retryAfter === undefined && overflow > 0) {
    const wait = backoffDelay(Math.min(overflow, 6), random());
    if (now + wait > state.pausedUntil) pause = { ms: wait, reason: "rate-limited" };
  }
  if (attempts >= state.maxRetries) return { pause, retryAt: undefined };
  const retryAt = now + (retryAfter ?? (attempts === 0 ? 0 : backoffDelay(attempts - 1, random())));
  return { pause, retryAt };
}
