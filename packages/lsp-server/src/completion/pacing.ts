import { Cadence } from "../documents/adaptive-debounce.js";
import type { Settings } from "../settings/settings.js";
import type { RequestKind } from "./answer.js";
import { type Release, UpstreamGate } from "./upstream-gate.js";

/** The settings pacing reads, at each request. */
export type PacingSettings = Pick<Settings, "debounceMs" | "adaptiveDebounce" | "maxConcurrent">;

/**
 * How fast requests go upstream: the debounce, learned from each document's typing cadence per kind of request,
 * and the cap on upstream requests in flight over every document (`maxConcurrent`).
 */
export class Pacing {
  readonly #cadences = new Map<string, Map<RequestKind, Cadence>>();
  /** The cadence learned last, which a document new to pacing starts from. */
  #lastCadence: Cadence | undefined;
  readonly #gate: UpstreamGate;

  constructor(private readonly settings: () => PacingSettings) {
    this.#gate = new UpstreamGate(() => settings().maxConcurrent);
  }

  /** Upstream requests in flight now, and requests waiting for a slot. */
  get load(): { inFlight: number; waiting: number } {
    return { inFlight: this.#gate.inUse, waiting: this.#gate.waiting };
  }

  /**
   * A request of `kind` for `uri` arrived at `now` (ms, monotonic): the debounce it waits, in ms. One the user
   * invoked waits none; its arrival still counts in the cadence.
   */
  arrived(uri: string, kind: RequestKind, now: number, invoked: boolean): number {
    const cadence = this.#cadence(uri, kind);
    cadence.record(now);
    if (invoked) return 0;
    const { debounceMs, adaptiveDebounce } = this.settings();
    return adaptiveDebounce ? cadence.waitMs(debounceMs) : debounceMs;
  }

  /** Take an upstream slot (see {@link UpstreamGate.enter}): undefined when `giveUp` settles first. */
  enter(giveUp: Promise<unknown>): Promise<Release | undefined> {
    return this.#gate.enter(giveUp);
  }

  /** Forget a closed document's cadence. */
  forget(uri: string): void {
    this.#cadences.delete(uri);
  }

  #cadence(uri: string, kind: RequestKind): Cadence {
    let byKind = this.#cadences.get(uri);
    if (!byKind) {
      byKind = new Map();
      this.#cadences.set(uri, byKind);
    }
    let cadence = byKind.get(kind);
    if (!cadence) {
      cadence = new Cadence(this.#lastCadence);
      byKind.set(kind, cadence);
    }
    this.#lastCadence = cadence;
    return cadence;
  }
}
