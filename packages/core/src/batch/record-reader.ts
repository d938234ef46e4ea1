// The input of a batch, read one record at a time and never ahead of what is being sent: an iterable's records at
// once, an async iterable's when they come (a file's lines), each with its position; closed when the batch ends
// before it does.

/** What next() gives when there is no record now. */
export const NOTHING: unique symbol = Symbol("no record now");

/** The records of an iterable or async iterable, one at a time. */
export class RecordReader {
  readonly #input: AsyncIterable<unknown> | Iterable<unknown>;
  readonly #later: (record: unknown) => void;
  readonly #failed: (error: unknown) => void;
  #iterator: AsyncIterator<unknown> | Iterator<unknown> | undefined;
  #done = false;
  #waiting = false;
  #position = 0;

  /**
   * @param later takes a record an async input gave later, or NOTHING when it ended.
   * @param failed takes what an async input threw (it is done then).
   */
  constructor(
    input: AsyncIterable<unknown> | Iterable<unknown>,
    later: (record: unknown) => void,
    failed: (error: unknown) => void,
  ) {
    this.#input = input;
    this.#later = later;
    this.#failed = failed;
  }

  /** The input has ended (or failed, or was closed). */
  get done(): boolean {
    return this.#done;
  }

  /** An async input is being waited for: `later` gets its answer. */
  get waiting(): boolean {
    return this.#waiting;
  }

  /** The position (1-based) of the record read last. */
  get position(): number {
    return this.#position;
  }

  /** Starts reading. @throws what the input throws for its iterator (it is done then). */
  open(): void {
    const input = this.#input;
    try {
      this.#iterator =
        Symbol.asyncIterator in input ? input[Symbol.asyncIterator]() : input[Symbol.iterator]();
    } catch (error) {
      this.#done = true;
      throw error;
    }
  }

  /**
   * The next record, when the input has one now (an array's iterator answers at once: no need to wait a turn);
   * NOTHING when it has ended, or answers later (then `later` gets it).
   * @throws what a synchronous input throws.
   */
  next(): unknown {
    if (this.#done || this.#waiting || this.#iterator === undefined) return NOTHING;
    const next = this.#iterator.next();
    if (!(next instanceof Promise)) return this.#take(next);
    this.#waiting = true;
    next.then(
      (result: IteratorResult<unknown>) => {
        this.#waiting = false;
        this.#later(this.#take(result));
      },
      (error: unknown) => {
        this.#waiting = false;
        // An iterator that threw is done: it is not closed again.
        this.#done = true;
        this.#failed(error);
      },
    );
    return NOTHING;
  }

  /** Closes an input left before its end: what its return() gives (a promise, for an async one). */
  close(): unknown {
    if (this.#done) return undefined;
    this.#done = true;
    return this.#iterator?.return?.();
  }

  #take(result: IteratorResult<unknown>): unknown {
    if (result.done) {
      this.#done = true;
      return NOTHING;
    }
    this.#position += 1;
    return result.value;
  }
}
