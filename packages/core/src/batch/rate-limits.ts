import type { RateLimitError } from "../errors.js";
import type { AimdController, LimitChange, Ticket } from "./aimd.js";
import { type BatchPause, rateLimitDecision } from "./rate-limit-decision.js";

// What the 429s do to a batch beyond each one's decision (rate-limit-decision.ts): the concurrency limit lowered,
// the 429s in a row counted, and the pause every request waits out.

/** What one 429 changed. */
export interface RateLimitOutcome {
  /** The limit's move, when it moved. */
  change: LimitChange | undefined;
  /** A pause of all sending, when one starts. */
  pause: BatchPause | undefined;
  /** When the request goes again (performance.now() ms); undefined when it has had its retries. */
  retryAt: number | undefined;
}

/** The 429s of a batch, and what they hold back. */
export class RateLimits {
  /** Nothing is sent before this (performance.now() ms). */
  pausedUntil = 0;
  readonly #aimd: AimdController;
  readonly #maxRetries: number;
  #inARow = 0;

  /** @param maxRetries 429s one request may have before it is an error. */
  constructor(aimd: AimdController, maxRetries: number) {
    this.#aimd = aimd;
    this.#maxRetries = maxRetries;
  }

  /** An answer came back: the 429s in a row end. */
  answered(): void {
    this.#inARow = 0;
  }

  /**
   * A 429 for the request sent with `ticket`, which had `attempts` before this one.
   * @param olderInFlight requests still in flight that were sent before it.
   */
  rateLimited(
    ticket: Ticket,
    attempts: number,
    error: RateLimitError,
    now: number,
    olderInFlight: number,
  ): RateLimitOutcome {
    if (this.#aimd.isNews(ticket)) this.#inARow += 1;
    const change = this.#aimd.rateLimited(ticket, olderInFlight);
    const { pause, retryAt } = rateLimitDecision(
      {
        now,
        retryAfterMs: error.retryAfterMs,
        rateLimitedInARow: this.#inARow,
        limit: this.#aimd.limit,
        pausedUntil: this.pausedUntil,
        attempts,
        maxRetries: this.#maxRetries,
      },
      Math.random,
    );
    if (pause !== undefined) this.pausedUntil = now + pause.ms;
    return { change, pause, retryAt };
  }
}
