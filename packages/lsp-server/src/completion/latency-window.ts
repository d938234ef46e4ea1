/** Percentiles of the latest latencies, in ms (null when there are none yet). */
export interface LatencySummary {
  p50: number | null;
  p90: number | null;
  /** How many latencies the percentiles are taken over (at most the window's size). */
  samples: number;
}

/**
 * The latest latencies (a ring of `size`, default 1000) and their percentiles: recent behaviour rather than the
 * whole life of a server that may run for days, in constant memory.
 */
export class LatencyWindow {
  readonly #samples: number[] = [];
  #next = 0;

  constructor(private readonly size = 1000) {}

  /** Record one latency, in ms. */
  add(ms: number): void {
    if (!Number.isFinite(ms) || ms < 0) return;
    if (this.#samples.length < this.size) this.#samples.push(ms);
    else this.#samples[this.#next] = ms;
    this.#next = (this.#next + 1) % this.size;
  }

  /** p50 and p90 by the nearest-rank method, rounded to 0.1 ms. */
  summary(): LatencySummary {
    const sorted = [...this.#samples].sort((a, b) => a - b);
    const at = (p: number) =>
      sorted.length === 0 ? null : Math.round(sorted[Math.ceil(p * sorted.length) - 1]! * 10) / 10;
    return { p50: at(0.5), p90: at(0.9), samples: sorted.length };
  }
}
