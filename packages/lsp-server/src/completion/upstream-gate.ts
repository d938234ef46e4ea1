/** Gives back a slot taken with {@link UpstreamGate.enter}. Calling it again does nothing. */
export type Release = () => void;

interface Waiter {
  grant: (release: Release | undefined) => void;
  /** Set once it was granted a slot or gave up. */
  done: boolean;
}

/**
 * A cap on the upstream requests in flight at once, over every document: DeepSeek limits concurrency per account
 * and answers 429 beyond it, and fifty documents typing at once should not send fifty requests.
 *
 * Waiting requests are served newest first: the newest is what the user looks at now, and the oldest are the most
 * likely to be superseded or cancelled before a slot frees up. A waiter that gives up (its LSP request was
 * superseded or cancelled) leaves the queue and never goes upstream.
 */
export class UpstreamGate {
  #inUse = 0;
  /** Waiters, oldest first; the newest is served first. */
  readonly #queue: Waiter[] = [];

  /** @param capacity the most slots in use at once, read at each entry and release (the setting may change). */
  constructor(private readonly capacity: () => number) {}

  /** Slots in use now. */
  get inUse(): number {
    return this.#inUse;
  }

  /** Requests waiting for a slot now. */
  get waiting(): number {
    return this.#queue.length;
  }

  /**
   * Take a slot: at once when one is free, else when one frees up and no newer request waits. Resolves undefined
   * when `giveUp` settles first (nothing to release then). Never rejects.
   *
   * A promise rather than an AbortSignal: aborting one builds a DOMException with its stack, on every request.
   */
  enter(giveUp?: PromiseLike<unknown>): Promise<Release | undefined> {
    if (this.#inUse < this.capacity() && this.#queue.length === 0) return Promise.resolve(this.#take());
    return new Promise((resolve) => {
      const waiter: Waiter = { grant: resolve, done: false };
      this.#queue.push(waiter);
      giveUp?.then(() => {
        if (waiter.done) return;
        waiter.done = true;
        this.#queue.splice(this.#queue.indexOf(waiter), 1);
        resolve(undefined);
      });
    });
  }

  #take(): Release {
    this.#inUse++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#inUse--;
      this.#admit();
    };
  }

  /** Hand free slots to the newest waiters. */
  #admit(): void {
    while (this.#inUse < this.capacity()) {
      const waiter = this.#queue.pop();
      if (waiter === undefined) return;
      waiter.done = true;
      waiter.grant(this.#take());
    }
  }
}
