// The timers of usage counting (a suggestion counted shown after a moment on screen, the retention checks), behind
// an interface so that tests run them on a fake clock.

/** Schedules work later; what `schedule` returns cancels it. */
export interface Timers {
  /** Milliseconds of a monotonic clock. */
  now(): number;
  /** Run `work` after `ms` milliseconds, unless the returned function is called first. */
  schedule(ms: number, work: () => void): () => void;
}

/** Node's timers, `unref`ed so that a pending check never keeps the process alive. */
export const SYSTEM_TIMERS: Timers = {
  now: () => performance.now(),
  schedule(ms, work) {
    const timer = setTimeout(work, ms);
    timer.unref?.();
    return () => clearTimeout(timer);
  },
};
