import { AuthenticationError, ConnectionError, InsufficientBalanceError, NotFoundError } from "../errors.js";

// When a batch stops sending before its input is done: its cost could pass the cap, or requests keep failing for a
// reason every request shares (the key, the balance, the endpoint, the connection), so the rest would fail alike.
// Pure: outcomes and figures in, a decision out.

/** An error every request would get alike: the key, the balance, the endpoint, the connection. */
export function isAboutTheEndpoint(error: unknown): boolean {
  return (
    error instanceof AuthenticationError ||
    error instanceof InsufficientBalanceError ||
    error instanceof NotFoundError ||
    error instanceof ConnectionError
  );
}

/**
 * Whether sending a request that can cost `next` more could take the batch past `maxCost` (US dollars): what the
 * answers cost (`spent`), plus the most the requests in flight can cost (`reserved`), plus `next`. Never with no cap.
 */
export function passesCostCap(
  maxCost: number | undefined,
  spent: number,
  reserved: number,
  next: number,
): boolean {
  return maxCost !== undefined && spent + reserved + next > maxCost;
}

/** Failures about the endpoint in a row, against `stopAfterFailures` (0: never stop). */
export class FailureStreak {
  readonly #stopAfter: number;
  #inARow = 0;

  /** @param stopAfter how many in a row stop the batch; 0 never stops it. */
  constructor(stopAfter: number) {
    this.#stopAfter = stopAfter;
  }

  /** An answer came back: the streak is broken. */
  answered(): void {
    this.#inARow = 0;
  }

  /**
   * A request failed for good with `error` (one about the request itself leaves the streak as it is).
   * @returns true when the batch must stop.
   */
  failed(error: unknown): boolean {
    if (!isAboutTheEndpoint(error)) return false;
    this.#inARow += 1;
    return this.#stopAfter > 0 && this.#inARow >= this.#stopAfter;
  }
}
