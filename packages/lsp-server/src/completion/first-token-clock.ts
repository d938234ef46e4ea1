import { LatencyWindow } from "./latency-window.js";

/** The time to first token assumed until some were measured, in ms. */
const FIRST_TOKEN_DEFAULT_MS = 400;
/**
 * A first token is never late before this, in ms: a fresh request could not do better, and the jitter of a quick
 * upstream (or of a busy machine) would otherwise send requests for nothing.
 */
const FIRST_TOKEN_MIN_MS = 150;
/** First-token latencies kept: the recent behaviour of the upstream. */
const FIRST_TOKEN_SAMPLES = 50;

/** A stream as the clock watches it. */
export interface WatchedStream {
  /** Its text so far. */
  readonly raw: string;
  /** When it started (`performance.now()`). */
  readonly startedAt: number;
  /** Settles when it ended. */
  readonly done: Promise<unknown>;
}

/**
 * The upstream's recent times to first token, and whether a stream's first token is late: later after its start
 * than nine in ten of the recent ones (at least 150 ms; 400 ms until some were measured).
 */
export class FirstTokenClock {
  readonly #recent = new LatencyWindow(FIRST_TOKEN_SAMPLES);

  /** A stream's first text came `ms` after it started. */
  record(ms: number): void {
    this.#recent.add(ms);
  }

  /** How long after its start a stream's first token is late, in ms. */
  get lateAfterMs(): number {
    return Math.max(FIRST_TOKEN_MIN_MS, this.#recent.summary().p90 ?? FIRST_TOKEN_DEFAULT_MS);
  }

  /**
   * Resolves true once the stream's first token is late and it still has no text; false when its text (or its
   * end) comes first. Never rejects.
   */
  late(stream: WatchedStream): Promise<boolean> {
    const inMs = Math.max(0, stream.startedAt + this.lateAfterMs - performance.now());
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(stream.raw === ""), inMs);
      timer.unref?.();
      void stream.done.then(() => {
        clearTimeout(timer);
        resolve(false);
      });
    });
  }
}
