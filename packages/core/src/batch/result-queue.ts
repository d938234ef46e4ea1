// The results of a batch between the requests that finish and the reader of the iteration: first in, first out,
// in one array read from a moving head (shift() on a long array would copy it each time), compacted once most of
// it has been read. Pure.

/** A first-in first-out queue of results. */
export class ResultQueue<T> {
  #items: T[] = [];
  #head = 0;

  /** Results waiting to be read. */
  get size(): number {
    return this.#items.length - this.#head;
  }

  /** Queues a result. */
  push(item: T): void {
    this.#items.push(item);
  }

  /** Takes the oldest result; undefined when none is waiting. */
  shift(): T | undefined {
    if (this.#head >= this.#items.length) return undefined;
    const item = this.#items[this.#head] as T;
    this.#head += 1;
    if (this.#head > 1024 && this.#head * 2 > this.#items.length) {
      this.#items.splice(0, this.#head);
      this.#head = 0;
    }
    return item;
  }
}
