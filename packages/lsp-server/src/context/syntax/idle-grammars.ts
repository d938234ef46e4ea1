// When grammars are let go: each one a while after it was last used (its trees, its parser and its queries), and the
// tree-sitter runtime with them once none is left, so that a language read an hour ago does not hold memory all day.
// The runtime (runtime.ts) does the releasing; this file decides when, and is told the setting and what to do after.

/** The clock and timers the tracker runs on (tests pass their own). */
export interface IdleClock {
  /** Now, in ms. */
  now(): number;
  /** Run `work` in `ms`, without keeping the process alive; returns a cancel. */
  schedule(ms: number, work: () => void): () => void;
}

const REAL_CLOCK: IdleClock = {
  now: () => performance.now(),
  schedule(ms, work) {
    const timer = setTimeout(work, ms).unref();
    return () => clearTimeout(timer);
  },
};

/**
 * Keys (grammars) each used now and then: those not used for `idleMs` are handed to `onIdle` and forgotten, one
 * timer at a time (armed for the first key that can go idle), so a use costs a clock read and a map write.
 */
export class IdleTracker<K> {
  readonly #lastUse = new Map<K, number>();
  readonly #clock: IdleClock;
  #idleMs: number;
  #cancel: (() => void) | undefined;

  constructor(
    private readonly onIdle: (keys: K[]) => void,
    options: { idleMs: number; clock?: IdleClock },
  ) {
    this.#idleMs = options.idleMs;
    this.#clock = options.clock ?? REAL_CLOCK;
  }

  /** `key` is in use now. */
  used(key: K): void {
    const now = this.#clock.now();
    this.#lastUse.set(key, now);
    if (!this.#cancel) this.#arm(now + this.#idleMs);
  }

  /** Forget `key` without calling `onIdle` (it was let go some other way). */
  forget(key: K): void {
    this.#lastUse.delete(key);
  }

  /** Keys in use: used less than `idleMs` ago. */
  get active(): K[] {
    return [...this.#lastUse.keys()];
  }

  /** How long a key stays after its last use, in ms; 0 keeps every key for good. */
  set idleMs(ms: number) {
    if (ms === this.#idleMs) return;
    this.#idleMs = ms;
    this.#disarm();
    this.#check();
  }

  #arm(at: number): void {
    if (this.#idleMs <= 0) return;
    this.#cancel = this.#clock.schedule(Math.max(0, at - this.#clock.now()), () => {
      this.#cancel = undefined;
      this.#check();
    });
  }

  #disarm(): void {
    this.#cancel?.();
    this.#cancel = undefined;
  }

  /** Hand over the keys gone idle, then arm the timer for the next one to go. */
  #check(): void {
    if (this.#idleMs <= 0) return;
    const now = this.#clock.now();
    const idle: K[] = [];
    let next = Number.POSITIVE_INFINITY;
    for (const [key, last] of this.#lastUse) {
      if (now - last >= this.#idleMs) idle.push(key);
      else next = Math.min(next, last + this.#idleMs);
    }
    for (const key of idle) this.#lastUse.delete(key);
    if (Number.isFinite(next)) this.#arm(next);
    if (idle.length > 0) this.onIdle(idle);
  }
}

/** How long a grammar stays loaded after its last use, by default: 10 minutes. */
export const DEFAULT_GRAMMAR_IDLE_MS = 10 * 60_000;

/** What the server tells the policy: the setting, and what to do once the runtime is let go. */
export interface GrammarIdleSettings {
  /** How long a grammar stays loaded after its last use, in ms; 0 keeps grammars for good. */
  idleMs: number;
  /** Called once the runtime itself was let go: its memory is garbage now (a full collection returns it). */
  afterRelease: () => void;
}

const settings: GrammarIdleSettings = { idleMs: DEFAULT_GRAMMAR_IDLE_MS, afterRelease: () => {} };
const listeners = new Set<(settings: GrammarIdleSettings) => void>();

/** Set the policy (the server does, from its settings); the runtime's tracker follows at once. */
export function configureGrammarIdle(next: Partial<GrammarIdleSettings>): void {
  Object.assign(settings, next);
  for (const listener of listeners) listener(settings);
}

/** The policy as set, and each later change of it, for the runtime's tracker. Returns an unsubscribe. */
export function followGrammarIdle(listener: (settings: GrammarIdleSettings) => void): () => void {
  listeners.add(listener);
  listener(settings);
  return () => listeners.delete(listener);
}
