import { TokenWindow } from "./token-window.js";

// Whether a request may be answered now, as a provider's rate limits decide: no more than so many answered at once
// (DeepSeek's per-account concurrency), and no more tokens in a sliding window than a tokens-per-minute limit.
// Pure: the caller passes the time and says when a request is over.

/** The admission limits of a simulator over requests of type `T`. */
export class Admission<T> {
  readonly #active = new Set<T>();
  readonly #concurrencyLimit: number;
  readonly #window: TokenWindow | undefined;
  /** The most requests being answered at once, so far. */
  peak = 0;

  /**
   * @param concurrencyLimit the most requests answered at once, ≥ 1; `Infinity` for no limit.
   * @param tokensPerMinute the most tokens in a window; undefined for no limit.
   * @param tokenWindowMs the window, in milliseconds. Default 60 000.
   * @throws {RangeError} for a bad tokens-per-minute limit or window (see {@link TokenWindow}).
   */
  constructor(
    concurrencyLimit: number,
    tokensPerMinute: number | undefined,
    tokenWindowMs: number | undefined,
  ) {
    this.#concurrencyLimit = concurrencyLimit;
    this.#window =
      tokensPerMinute === undefined ? undefined : new TokenWindow(tokensPerMinute, tokenWindowMs);
  }

  /**
   * Counts a request as being answered, unless as many as the limit already are: then it is refused (the 429
   * DeepSeek answers at once) and not counted.
   * @returns whether it was admitted.
   */
  enter(request: T): boolean {
    if (this.#active.size >= this.#concurrencyLimit) return false;
    this.#active.add(request);
    this.peak = Math.max(this.peak, this.#active.size);
    return true;
  }

  /** The request is over (answered, refused or gone); a request never admitted is ignored. */
  leave(request: T): void {
    this.#active.delete(request);
  }

  /** The requests being answered now. */
  active(): Iterable<T> {
    return this.#active;
  }

  /**
   * Admits an answer's tokens into the window, counted from `now`: its `promptTokens` must fit, and then its
   * `totalTokens` (prompt and generated) are recorded.
   * @returns 0 when admitted (or there is no limit), else the milliseconds until the prompt would fit.
   */
  admitTokens(promptTokens: number, totalTokens: number, now: number): number {
    const window = this.#window;
    if (window === undefined) return 0;
    const waitMs = window.admit(promptTokens, now);
    if (waitMs > 0) return waitMs;
    window.record(totalTokens, now);
    return 0;
  }
}
