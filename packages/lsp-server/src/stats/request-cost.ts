import { type PerformanceEntry, PerformanceObserver } from "node:perf_hooks";
import { getHeapStatistics } from "node:v8";

/** What a request cost the process while it ran (`$/infill/metrics`). */
export interface RequestCost {
  /** Garbage-collection pauses that started while it ran, summed, in ms (whoever allocated what they freed). */
  gcMs: number;
  /** V8's used heap after it minus before it, in bytes; `null` when a collection ran in between. */
  heapBytes: number | null;
}

/** One request being measured: from when it started. */
interface Window {
  readonly startedAt: number;
  readonly heapBefore: number;
}

/**
 * Measures the GC pauses and the heap growth of requests, for the `metrics` setting only: a `gc`
 * PerformanceObserver runs from the first request measured until {@link stop}, and nothing runs otherwise.
 *
 * Node reports a collection to observers two event-loop hops after it ends (a native immediate, then the observer's
 * own `setImmediate`), so a request's cost is known two `setImmediate`s after it ends; `v8.GCProfiler`, which knows
 * at once, costs 30–60 µs a request to start and stop, this ≈ 3 µs.
 */
export class RequestCosts {
  #observer: PerformanceObserver | undefined;
  /** Pauses observed, oldest first; kept while a request that started before them is measured. */
  #pauses: Array<{ startTime: number; duration: number }> = [];
  readonly #open = new Set<Window>();

  /** Start measuring a request; the function returned ends it and resolves to its cost once Node has reported it. */
  begin(): () => Promise<RequestCost> {
    if (!this.#observer) {
      this.#observer = new PerformanceObserver((list) => this.#observed(list.getEntries()));
      this.#observer.observe({ type: "gc" });
    }
    const window: Window = { startedAt: performance.now(), heapBefore: getHeapStatistics().used_heap_size };
    this.#open.add(window);
    return () => {
      const endedAt = performance.now();
      const heapAfter = getHeapStatistics().used_heap_size;
      return new Promise((resolve) => {
        setImmediate(() =>
          setImmediate(() => {
            this.#open.delete(window);
            let gcMs = 0;
            let collections = 0;
            for (const pause of this.#pauses) {
              if (pause.startTime < window.startedAt || pause.startTime > endedAt) continue;
              gcMs += pause.duration;
              collections++;
            }
            this.#forget();
            resolve({ gcMs, heapBytes: collections > 0 ? null : heapAfter - window.heapBefore });
          }),
        );
      });
    };
  }

  /** Stop observing (the `metrics` setting went off, or the server shuts down); requests still measured finish. */
  stop(): void {
    this.#observer?.disconnect();
    this.#observer = undefined;
  }

  #observed(entries: PerformanceEntry[]): void {
    if (this.#open.size === 0) return;
    for (const { startTime, duration } of entries) this.#pauses.push({ startTime, duration });
  }

  /** Drop the pauses no request being measured can contain. */
  #forget(): void {
    let oldest = Number.POSITIVE_INFINITY;
    for (const window of this.#open) oldest = Math.min(oldest, window.startedAt);
    const keep = this.#pauses.findIndex((pause) => pause.startTime >= oldest);
    this.#pauses = keep === -1 ? [] : this.#pauses.slice(keep);
  }
}
