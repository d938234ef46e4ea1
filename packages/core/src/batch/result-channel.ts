import { ResultQueue } from "./result-queue.js";

// The results of a running batch on their way to the reader of its iteration: handed to the reader at once when it
// is waiting, else queued; then the end, or the error that ended the batch, after the last result. An iterator of
// our own rather than an async generator, whose every yield costs a promise more (and a turn) per result.

/** The end of the results: the error that ended the batch, if one did. */
export interface ChannelEnd {
  error?: unknown;
}

/** The results between the batch that makes them and the one reader that takes them. */
export class ResultChannel<T> {
  readonly #queue = new ResultQueue<T>();
  readonly #highWater: number;
  readonly #onDrained: () => void;
  /** full() said yes: the reader is to say when it has caught up. */
  #wasFull = false;
  #closed: Promise<void> | undefined;
  #onClosed: (() => void) | undefined;
  #resolve: ((result: IteratorResult<T, undefined>) => void) | undefined;
  #reject: ((error: unknown) => void) | undefined;
  #end: ChannelEnd | undefined;
  /** The reader's read in progress, while it waits. */
  #waiting: Promise<unknown> | undefined;

  /**
   * @param highWater results queued, not yet read, at which the channel is full.
   * @param onDrained called when the reader has taken every result queued after full() said yes.
   */
  constructor(highWater: number, onDrained: () => void) {
    this.#highWater = highWater;
    this.#onDrained = onDrained;
  }

  /** Whether the reader is `highWater` results behind: then onDrained is called once it has caught up. */
  full(): boolean {
    this.#wasFull = this.#queue.size >= this.#highWater;
    return this.#wasFull;
  }

  /** Resolves once close() has been called. */
  closed(): Promise<void> {
    this.#closed ??=
      this.#end === undefined
        ? new Promise<void>((resolve) => {
            this.#onClosed = resolve;
          })
        : Promise.resolve();
    return this.#closed;
  }

  /** Hands a result to the reader. */
  push(item: T): void {
    const resolve = this.#resolve;
    if (resolve === undefined) {
      this.#queue.push(item);
      return;
    }
    this.#resolve = undefined;
    this.#reject = undefined;
    resolve({ value: item, done: false });
  }

  /** No more results: the reader gets those queued, then the end (`end.error` thrown, if set). */
  close(end: ChannelEnd): void {
    this.#end ??= end;
    this.#onClosed?.();
    const resolve = this.#resolve;
    const reject = this.#reject;
    if (resolve === undefined || reject === undefined) return;
    this.#resolve = undefined;
    this.#reject = undefined;
    this.#settle(resolve, reject);
  }

  /** The next result, or the end. A call made while another waits is answered after it, as a generator's. */
  next(): Promise<IteratorResult<T, undefined>> {
    if (this.#resolve !== undefined) {
      const next = (): Promise<IteratorResult<T, undefined>> => this.next();
      return (this.#waiting as Promise<unknown>).then(next, next);
    }
    const item = this.#queue.shift();
    if (item !== undefined) {
      if (this.#wasFull && this.#queue.size === 0) {
        this.#wasFull = false;
        this.#onDrained();
      }
      return Promise.resolve({ value: item, done: false });
    }
    const read = new Promise<IteratorResult<T, undefined>>((resolve, reject) => {
      if (this.#end !== undefined) this.#settle(resolve, reject);
      else {
        this.#resolve = resolve;
        this.#reject = reject;
      }
    });
    if (this.#resolve !== undefined) this.#waiting = read;
    return read;
  }

  #settle(resolve: (result: IteratorResult<T, undefined>) => void, reject: (error: unknown) => void): void {
    const end = this.#end as ChannelEnd;
    // The error once; an iterator that threw is done.
    this.#end = {};
    if ("error" in end) reject(end.error);
    else resolve({ value: undefined, done: true });
  }
}
