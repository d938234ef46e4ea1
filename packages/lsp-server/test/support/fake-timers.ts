import type { Timers } from "../../src/stats/timers.js";

/** Timers on a clock that only moves when a test says so. */
export class FakeTimers implements Timers {
  #now = 0;
  #next = 0;
  readonly #due = new Map<number, { at: number; work: () => void }>();

  now(): number {
    return this.#now;
  }

  schedule(ms: number, work: () => void): () => void {
    const id = this.#next++;
    this.#due.set(id, { at: this.#now + ms, work });
    return () => this.#due.delete(id);
  }

  /** Timers still to run. */
  get pending(): number {
    return this.#due.size;
  }

  /** Move the clock `ms` on, running what falls due in order (and what that schedules, when due too). */
  advance(ms: number): void {
    const end = this.#now + ms;
    for (;;) {
      let first: [number, { at: number; work: () => void }] | undefined;
      for (const entry of this.#due)
        if (entry[1].at <= end && (!first || entry[1].at < first[1].at)) first = entry;
      if (!first) break;
      this.#due.delete(first[0]);
      this.#now = first[1].at;
      first[1].work();
    }
    this.#now = end;
  }
}
