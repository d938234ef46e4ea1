import { Cadence } from "../documents/adaptive-debounce.js";

/** A clock and timers (tests run them on a fake clock). */
export interface Clock {
  /** Milliseconds of a monotonic clock. */
  now(): number;
  /** Run `work` after `ms` milliseconds, unless the returned function is called first. */
  schedule(ms: number, work: () => void): () => void;
}

/** Node's timers, `unref`ed: a pause never keeps the process alive. */
export const SYSTEM_CLOCK: Clock = {
  now: () => performance.now(),
  schedule(ms, work) {
    const timer = setTimeout(work, ms);
    timer.unref?.();
    return () => clearTimeout(timer);
  },
};

/** The pause after one edit: over when its wait passed with no edit since, or cut short by the next edit. */
export interface Pause {
  readonly version: number;
  /** Settles when the pause is over or cut short (never rejects). */
  readonly over: Promise<void>;
  /** Whether the wait passed (the user paused), rather than the next edit coming first. */
  readonly paused: () => boolean;
}

/**
 * When the user pauses after an edit, per document: the wait is learned from the gaps between the document's edits
 * like completion's debounce (`adaptive-debounce.ts`: just longer than the typist's usual gap, at most `maxMs`), so
 * that a burst of typing ends in one pause, and the last keystroke waits as little as possible.
 */
export class Pauses {
  readonly #cadences = new Map<string, Cadence>();
  #lastCadence: Cadence | undefined;
  readonly #pending = new Map<string, { pause: Pause; cancel: () => void; settle: () => void }>();

  constructor(private readonly clock: Clock) {}

  /**
   * An edit made version `version` of `uri`: the pause after it starts (cutting the one before short), and `then`
   * runs once it is over (not when cut short).
   */
  start(uri: string, version: number, maxMs: number, adaptive: boolean, then: () => void): Pause {
    this.cut(uri);
    const cadence = this.#cadence(uri);
    cadence.record(this.clock.now());
    const wait = adaptive ? cadence.waitMs(maxMs) : maxMs;
    let paused = false;
    let settle!: () => void;
    const over = new Promise<void>((resolve) => {
      settle = resolve;
    });
    const pause: Pause = { version, over, paused: () => paused };
    const cancel = this.clock.schedule(wait, () => {
      this.#pending.delete(uri);
      paused = true;
      then();
      settle();
    });
    this.#pending.set(uri, { pause, cancel, settle });
    return pause;
  }

  /** The pause of `uri` still running, if any. */
  running(uri: string): Pause | undefined {
    return this.#pending.get(uri)?.pause;
  }

  /** Cut the running pause of `uri` short (a new edit, the document closed). */
  cut(uri: string): void {
    const pending = this.#pending.get(uri);
    if (!pending) return;
    this.#pending.delete(uri);
    pending.cancel();
    pending.settle();
  }

  /** Forget a closed document. */
  forget(uri: string): void {
    this.cut(uri);
    this.#cadences.delete(uri);
  }

  #cadence(uri: string): Cadence {
    let cadence = this.#cadences.get(uri);
    if (!cadence) {
      cadence = new Cadence(this.#lastCadence);
      this.#cadences.set(uri, cadence);
    }
    this.#lastCadence = cadence;
    return cadence;
  }
}
