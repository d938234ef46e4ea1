/**
 * A tokens-per-minute limit as a server counts it: the tokens of the requests it answered in a sliding window (a
 * minute by default), each request's prompt and generated tokens counted when it is answered. A request is let in
 * while the tokens in the window and its own prompt tokens stay within the limit; a request larger than the limit
 * alone is let in when the window is empty (else it never could be). Pure: the caller passes the time.
 */
export class TokenWindow {
  readonly #limit: number;
  readonly #windowMs: number;
  /** Answered requests in the window, oldest first: when, and how many tokens. */
  readonly #entries: Array<{ at: number; tokens: number }> = [];
  #head = 0;
  #used = 0;

  /**
   * @param limit - tokens allowed in a window (≥ 1)
   * @param windowMs - the window's length in milliseconds (default 60 000: a minute)
   */
  constructor(limit: number, windowMs = 60_000) {
    if (!(limit >= 1 && Number.isFinite(limit)))
      throw new RangeError(`tokensPerMinute must be ≥ 1, got ${limit}`);
    if (!(windowMs > 0 && Number.isFinite(windowMs))) {
      throw new RangeError(`tokenWindowMs must be a positive number, got ${windowMs}`);
    }
    this.#limit = limit;
    this.#windowMs = windowMs;
  }

  /** Tokens counted in the window that ends at `now`. */
  used(now: number): number {
    this.#expire(now);
    return this.#used;
  }

  /**
   * Whether a request of `tokens` prompt tokens may be answered at `now`.
   * @returns 0 to let it in; otherwise the milliseconds until enough tokens have left the window.
   */
  admit(tokens: number, now: number): number {
    this.#expire(now);
    if (this.#used === 0 || this.#used + tokens <= this.#limit) return 0;
    let freed = 0;
    for (let i = this.#head; i < this.#entries.length; i++) {
      const entry = this.#entries[i]!;
      freed += entry.tokens;
      if (this.#used - freed + tokens <= this.#limit || freed === this.#used) {
        return Math.max(1, entry.at + this.#windowMs - now);
      }
    }
    return this.#windowMs;
  }

  /** Counts an answered request's tokens (prompt and generated) at `now`. */
  record(tokens: number, now: number): void {
    this.#entries.push({ at: now, tokens });
    this.#used += tokens;
  }

  #expire(now: number): void {
    while (this.#head < this.#entries.length && this.#entries[this.#head]!.at + this.#windowMs <= now) {
      this.#used -= this.#entries[this.#head]!.tokens;
      this.#head++;
    }
    // Drop what has expired once it is most of the array, so memory follows the window, not the run.
    if (this.#head > 1024 && this.#head * 2 > this.#entries.length) {
      this.#entries.splice(0, this.#head);
      this.#head = 0;
    }
  }
}
