// The requests of a batch waiting to be sent again after a 429, each not before its own time. Pure: the caller
// passes the time.

/** Requests waiting to be sent again, each not before its `notBefore` (ms). */
export class RetryQueue<T extends { notBefore: number }> {
  readonly #items: T[] = [];

  /** Requests waiting. */
  get size(): number {
    return this.#items.length;
  }

  /** Queues a request to go again once its `notBefore` has come. */
  push(item: T): void {
    this.#items.push(item);
  }

  /** Takes the request that has waited longest past its time at `now` (the first queued among equals), if any. */
  takeDue(now: number): T | undefined {
    let due: number | undefined;
    for (let i = 0; i < this.#items.length; i++) {
      const item = this.#items[i] as T;
      if (
        item.notBefore <= now &&
        (due === undefined || item.notBefore < (this.#items[due] as T).notBefore)
      ) {
        due = i;
      }
    }
    return due === undefined ? undefined : this.#items.splice(due, 1)[0];
  }

  /** The earliest `notBefore` of the requests waiting; `Infinity` when none is. */
  soonest(): number {
    return this.#items.reduce((soonest, item) => Math.min(soonest, item.notBefore), Infinity);
  }

  /** Drops every request waiting. @returns how many there were. */
  clear(): number {
    const count = this.#items.length;
    this.#items.length = 0;
    return count;
  }
}
