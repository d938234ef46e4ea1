// A tokens-per-minute cap on the client side: a token bucket that refills continuously at the cap's rate. It holds
// a second's worth, not a minute's: providers that state a per-minute limit may enforce it over shorter periods
// (OpenAI says so of its own), and a minute's worth sent in the first second would trip them. Each request takes
// its estimated tokens when sent; the answer's usage settles the difference. Pure: the caller passes the time.

/**
 * Tokens-per-minute bucket. `take()` lets a request through while the bucket is not in debt; a request larger than
 * what is left may still go when the bucket is full (else one larger than the bucket could never go), leaving it in
 * debt until the refill pays it back.
 */
export class TokenBucket {
  /** The cap: tokens a minute. */
  readonly tokensPerMinute: number;
  /** What the bucket holds when full (tokens). */
  readonly capacity: number;
  #level: number;
  #at: number;

  /**
   * @param tokensPerMinute the cap, a positive number of tokens.
   * @param now the current time in milliseconds (any monotonic clock, e.g. `performance.now()`).
   * @param burstMs how many milliseconds' worth of tokens the bucket holds. Default 1000.
   * @throws {RangeError} for a cap that is not a positive finite number.
   */
  constructor(tokensPerMinute: number, now: number, burstMs = 1000) {
    if (!(tokensPerMinute > 0 && Number.isFinite(tokensPerMinute))) {
      throw new RangeError(`tokensPerMinute must be a positive number, got ${tokensPerMinute}`);
    }
    this.tokensPerMinute = tokensPerMinute;
    this.capacity = (tokensPerMinute * burstMs) / 60_000;
    this.#level = this.capacity;
    this.#at = now;
  }

  /** Tokens in the bucket at `now` (negative while in debt). */
  level(now: number): number {
    this.#refill(now);
    return this.#level;
  }

  /**
   * Takes `tokens` for a request about to be sent, or says how long to wait first.
   * @returns 0 when taken; otherwise the milliseconds until the request may go (nothing is taken).
   */
  take(tokens: number, now: number): number {
    this.#refill(now);
    const needed = Math.min(tokens, this.capacity);
    if (this.#level >= needed) {
      this.#level -= tokens;
      return 0;
    }
    return Math.ceil(((needed - this.#level) * 60_000) / this.tokensPerMinute);
  }

  /** Corrects what a request took (its estimate) by what it used (the answer's usage); refunds when it used less. */
  settle(taken: number, used: number, now: number): void {
    this.#refill(now);
    this.#level = Math.min(this.capacity, this.#level + taken - used);
  }

  #refill(now: number): void {
    if (now > this.#at) {
      this.#level = Math.min(this.capacity, this.#level + ((now - this.#at) * this.tokensPerMinute) / 60_000);
      this.#at = now;
    }
  }
}
