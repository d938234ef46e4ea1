// The calls in flight under a caller's AbortSignal share one listener on it. A listener each made every call add
// and remove one on an EventTarget, a few µs a call: a batch passes its one signal to every request. The listener
// is removed when the last call under the signal settles, so a long-lived signal keeps nothing between calls.

/** What aborts when the caller's signal fires. */
export interface Abortable {
  abort(reason: unknown): void;
}

interface Watch {
  readonly members: Set<Abortable>;
  readonly listener: () => void;
}

const watches = new WeakMap<AbortSignal, Watch>();

/** Aborts `member` with `reason` when `signal` fires (the caller checks `signal.aborted` first). */
export function watchSignal(signal: AbortSignal, member: Abortable, reason: unknown): void {
  let watch = watches.get(signal);
  if (watch === undefined) {
    const members = new Set<Abortable>();
    const listener = (): void => {
      watches.delete(signal);
      for (const each of members) each.abort(reason);
      members.clear();
    };
    watch = { members, listener };
    watches.set(signal, watch);
    signal.addEventListener("abort", listener, { once: true });
  }
  watch.members.add(member);
}

/** Stops watching `signal` for `member`; the listener goes with the last member. */
export function unwatchSignal(signal: AbortSignal, member: Abortable): void {
  const watch = watches.get(signal);
  if (watch === undefined || !watch.members.delete(member)) return;
  if (watch.members.size > 0) return;
  watches.delete(signal);
  signal.removeEventListener("abort", watch.listener);
}
