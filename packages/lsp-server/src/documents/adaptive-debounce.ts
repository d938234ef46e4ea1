/** Gaps between requests kept per document and kind: enough for a stable estimate, few enough to follow a change. */
const WINDOW = 24;
/** Fewer gaps than this, and the cadence is not known yet: wait the upper bound. */
const MIN_SAMPLES = 5;
/**
 * The shortest wait, in ms, and the shortest gap that counts as cadence. Shorter gaps come from key repeat, a
 * macro, or requests that queued up while the server was busy (loading a module, reading files) and were read
 * together; learning them would make the next bursts cost a request per key.
 */
const MIN_WAIT_MS = 20;
/** Median absolute deviations above the median gap: about two standard deviations of a normal spread. */
const SPREAD = 3;
/** The share of gaps the wait covers at least, whatever their spread. */
const COVERED = 0.8;
/** Added for timers that fire late and the message's trip from the editor, in ms. */
const SLACK_MS = 1;

/**
 * How long to wait after a request before going upstream, in ms, given the recent gaps between one document's
 * requests (in ms, any order): just longer than the typist's usual gap between keystrokes, so that a burst still
 * costs one request while the last keystroke waits as little as possible.
 *
 * Gaps of `maxMs` or more are pauses between bursts, and gaps under 20 ms are not typing; neither counts. The estimate is the median
 * gap plus three median absolute deviations (robust to the odd long gap within a burst), and at least the 80th
 * percentile (gaps that hardly vary have no deviation to go by), plus a millisecond of slack; at least 20 ms, at
 * most `maxMs`, and `maxMs` until five gaps are known.
 *
 * @param maxMs the upper bound (the `debounceMs` setting); 0 means no wait at all.
 */
export function adaptiveWait(gaps: readonly number[], maxMs: number): number {
  if (maxMs <= 0) return 0;
  const inBurst = gaps.filter((gap) => gap >= MIN_WAIT_MS && gap < maxMs).sort((a, b) => a - b);
  if (inBurst.length < MIN_SAMPLES) return maxMs;
  const median = middle(inBurst);
  const deviation = middle(inBurst.map((gap) => Math.abs(gap - median)).sort((a, b) => a - b));
  const covered = inBurst[Math.min(inBurst.length - 1, Math.floor(COVERED * inBurst.length))]!;
  const wait = Math.ceil(Math.max(median + SPREAD * deviation, covered) + SLACK_MS);
  return Math.min(maxMs, Math.max(MIN_WAIT_MS, wait));
}

/** The median of sorted values. */
function middle(sorted: readonly number[]): number {
  const half = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[half]! : (sorted[half - 1]! + sorted[half]!) / 2;
}

/**
 * The stateful edge: the gaps between one document's requests of one kind, as they arrive. A new document starts
 * from another's gaps (the same person types in every document), then learns its own.
 */
export class Cadence {
  readonly #gaps: number[];
  #last: number | undefined;

  constructor(from?: Cadence) {
    this.#gaps = from ? [...from.#gaps] : [];
  }

  /** A request arrived at `now` (ms, a monotonic clock). */
  record(now: number): void {
    if (this.#last !== undefined) {
      this.#gaps.push(now - this.#last);
      if (this.#gaps.length > WINDOW) this.#gaps.shift();
    }
    this.#last = now;
  }

  /** The wait before going upstream for the request just recorded, in ms (see {@link adaptiveWait}). */
  waitMs(maxMs: number): number {
    return adaptiveWait(this.#gaps, maxMs);
  }
}
