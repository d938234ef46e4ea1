// How the two sides of a running batch wait on each other: the pump (which sends) sleeps until a result, an abort
// or a time; the reader (the iteration) waits until a result or the end. Whatever changes wakes both.

/** The pump's and the reader's waits, and the wake-up that ends both. */
export class Wakeups {
  #pump: (() => void) | undefined;
  #reader: (() => void) | undefined;

  /** Ends the pump's sleep and the reader's wait, if either is waiting. */
  wake(): void {
    const pump = this.#pump;
    const reader = this.#reader;
    this.#pump = undefined;
    this.#reader = undefined;
    pump?.();
    reader?.();
  }

  /** The pump waits for something to change (a result, an abort), or `ms` at most (rounded up, ≥ 1 ms). */
  sleep(ms?: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = ms === undefined ? undefined : setTimeout(done, Math.max(1, Math.ceil(ms)));
      function done(): void {
        clearTimeout(timer);
        resolve();
      }
      this.#pump = done;
    });
  }

  /** The reader waits for the next result or the end. */
  waitForResult(): Promise<void> {
    return new Promise<void>((resolve) => {
      this.#reader = resolve;
    });
  }
}
