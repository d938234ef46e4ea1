// How many requests a batch keeps in flight: additive increase, multiplicative decrease, as TCP's congestion
// window. DeepSeek answers 429 at once beyond an account's concurrency (2,500 for deepseek-v4-flash, 500 for
// deepseek-v4-pro, lower under load) and documents no other signal, so a 429 is the loss event. Pure: no clock, no
// I/O; run-batch.ts feeds it each request's outcome.

/** Options of {@link AimdController}. */
export interface AimdOptions {
  /** Requests in flight at the start. Default 8. */
  initial?: number | undefined;
  /** Never fewer in flight than this. Default 1. */
  min?: number | undefined;
  /** Never more in flight than this. Default 128 (the shared connection pool's sockets per origin). */
  max?: number | undefined;
  /** The limit is multiplied by this on a 429 (0 < factor < 1). Default 0.9. */
  decreaseFactor?: number | undefined;
}

/** Defaults of {@link AimdOptions}. */
export const AIMD_DEFAULTS = { initial: 8, min: 1, max: 128, decreaseFactor: 0.9 } as const;

/** A change of the limit, for the batch's `concurrency` event. */
export interface LimitChange {
  /** Requests allowed in flight before. */
  from: number;
  /** Requests allowed in flight now. */
  to: number;
  /** `increase` after successes with the limit in use, `rate-limited` after a 429. */
  reason: "increase" | "rate-limited";
}

/** What the controller needs to remember about one request it let through. */
export interface Ticket {
  /** Order of sending, from 1. */
  readonly seq: number;
}

/**
 * The concurrency limit of a batch.
 *
 * - **Slow start**: until the first 429, each success with the limit in use raises it by 1, so it doubles every
 *   round trip, as TCP's slow start does.
 * - **Additive increase**: after that, each such success raises it by 1/limit: one more request per round trip.
 *   A success while fewer than the limit were in flight raises nothing: a limit not in use has not been tested.
 * - **Multiplicative decrease**: a 429 multiplies it by `decreaseFactor` (rounded down, so by one at least), once
 *   per round: a 429 for a request sent before the last decrease says nothing new (it was sent under the old limit). The first 429 ends slow start:
 *   slow start may have overshot the server's limit by up to twice, and the factor alone would take many rounds to
 *   come back, so the limit goes to the requests sent before the 429'd one and still in flight (the server was
 *   holding those at once) when that is less than the factor's decrease.
 */
export class AimdController {
  readonly #min: number;
  readonly #max: number;
  readonly #factor: number;
  #limit: number;
  #slowStart = true;
  #sent = 0;
  /** The `seq` of the last request sent before the latest decrease. */
  #decreasedAfter = 0;

  /** @throws {RangeError} for a bound that is not a positive integer, or `initial` outside [min, max]. */
  constructor(options: AimdOptions = {}) {
    this.#min = positive("min", options.min ?? AIMD_DEFAULTS.min);
    this.#max = positive("max", options.max ?? Math.max(AIMD_DEFAULTS.max, this.#min));
    if (this.#max < this.#min) throw new RangeError(`max (${this.#max}) must be at least min (${this.#min})`);
    const initial = options.initial ?? Math.min(Math.max(AIMD_DEFAULTS.initial, this.#min), this.#max);
    this.#limit = positive("initial", initial);
    if (initial < this.#min || initial > this.#max) {
      throw new RangeError(`initial (${initial}) must be between min (${this.#min}) and max (${this.#max})`);
    }
    this.#factor = options.decreaseFactor ?? AIMD_DEFAULTS.decreaseFactor;
    if (!(this.#factor > 0 && this.#factor < 1)) {
      throw new RangeError(`decreaseFactor must be between 0 and 1 (exclusive), got ${this.#factor}`);
    }
  }

  /** Requests allowed in flight now: a whole number in [min, max]. */
  get limit(): number {
    return Math.floor(this.#limit);
  }

  /** True until the first 429. */
  get slowStart(): boolean {
    return this.#slowStart;
  }

  /** Whether a 429 for this request is news: it was sent after the latest decrease, under the limit now in force. */
  isNews(ticket: Ticket): boolean {
    return ticket.seq > this.#decreasedAfter;
  }

  /** A request is being sent. */
  send(): Ticket {
    this.#sent += 1;
    return { seq: this.#sent };
  }

  /**
   * A request came back with an answer (or an error that is not about the rate).
   * @param inFlight requests still in flight, this one no longer counted.
   * @returns the change, when the whole-number limit moved.
   */
  succeeded(inFlight: number): LimitChange | undefined {
    // The limit was in use when this one was in flight with the others.
    if (inFlight + 1 < this.limit) return undefined;
    const from = this.limit;
    this.#limit = Math.min(this.#max, this.#limit + (this.#slowStart ? 1 : 1 / this.#limit));
    return this.#change(from, "increase");
  }

  /**
   * A request was answered 429.
   * @param ticket what send() returned for it.
   * @param olderInFlight requests still in flight that were sent before it.
   * @returns the change, when the whole-number limit moved.
   */
  rateLimited(ticket: Ticket, olderInFlight: number): LimitChange | undefined {
    if (!this.isNews(ticket)) return undefined;
    const from = this.limit;
    // Down to a whole number: by one at least, so the next probe is a round trip away rather than a fraction of one.
    let next = Math.floor(this.#limit * this.#factor);
    if (this.#slowStart) next = Math.min(next, olderInFlight);
    this.#slowStart = false;
    this.#limit = Math.max(this.#min, next);
    this.#decreasedAfter = this.#sent;
    return this.#change(from, "rate-limited");
  }

  #change(from: number, reason: LimitChange["reason"]): LimitChange | undefined {
    const to = this.limit;
    return to === from ? undefined : { from, to, reason };
  }
}

function positive(name: string, value: number): number {
  if (!Number.isInteger(value) || value < 1)
    throw new RangeError(`${name} must be a positive integer, got ${value}`);
  return value;
}
