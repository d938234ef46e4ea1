import type { Timers } from "./timers.js";

// The retention checks of every suggestion taken, on one timer. Suggestions are taken in time order, so the checks
// at one horizon fall due in the order they were added: a queue per horizon, whose heads are the only candidates
// for the next check, and one timer for the earliest of them (rearmed as it runs). Nothing per check but two array
// slots, and nothing at all once an item's last check ran.

/** One horizon's checks, in the order they fall due. */
interface Queue<T> {
  readonly items: T[];
  /** When each falls due, in ms of the timers' clock. */
  readonly due: number[];
  /** Where the queue starts (the slots before it ran; cut off once they are half of it). */
  head: number;
}

/** Runs `check(item, seconds)` at each horizon of each item added, on one timer; see check-schedule.ts. */
export class CheckSchedule<T> {
  readonly #queues = new Map<number, Queue<T>>();
  /** Horizons still to check, by item, the earliest added first. */
  readonly #pending = new Map<T, number[]>();
  #cancel: (() => void) | undefined;
  /** When the armed timer falls due. */
  #armedFor = Number.POSITIVE_INFINITY;

  constructor(
    private readonly timers: Timers,
    /** Called once per item and horizon, in the order they fall due; {@link has} already counts it done. */
    private readonly check: (item: T, seconds: number) => void,
  ) {}

  /** Items with checks pending. */
  get size(): number {
    return this.#pending.size;
  }

  /** Whether `item` has checks pending. */
  has(item: T): boolean {
    return this.#pending.has(item);
  }

  /** The horizons still to check for `item`, shortest first (none: an empty list). */
  pendingFor(item: T): readonly number[] {
    return this.#pending.get(item) ?? [];
  }

  /** The item added the earliest that still has checks pending. */
  oldest(): T | undefined {
    return this.#pending.keys().next().value;
  }

  /** Check `item` at each of `horizons` (seconds from now; shortest first, distinct); once per item. */
  add(item: T, horizons: readonly number[]): void {
    if (horizons.length === 0 || this.#pending.has(item)) return;
    const now = this.timers.now();
    this.#pending.set(item, [...horizons]);
    for (const seconds of horizons) {
      let queue = this.#queues.get(seconds);
      if (!queue) {
        queue = { items: [], due: [], head: 0 };
        this.#queues.set(seconds, queue);
      }
      queue.items.push(item);
      queue.due.push(now + seconds * 1000);
    }
    this.#arm();
  }

  /** Forget `item`'s pending checks (none of them is made); returns the horizons it had pending. */
  drop(item: T): readonly number[] {
    const horizons = this.#pending.get(item) ?? [];
    this.#pending.delete(item);
    // The oldest item is dropped (a bound): it is at the head of its queues, which frees its slots at once.
    for (const seconds of horizons) this.#skipDead(seconds);
    this.#arm();
    return horizons;
  }

  /** Make every pending check now, in the order they would fall due, and stop the timer. */
  runAll(): void {
    this.#run(Number.POSITIVE_INFINITY);
    this.#cancel?.();
    this.#cancel = undefined;
    this.#armedFor = Number.POSITIVE_INFINITY;
  }

  /** Run the checks due by `until`, earliest first. */
  #run(until: number): void {
    for (;;) {
      let next: number | undefined;
      let nextDue = until;
      for (const seconds of this.#queues.keys()) {
        const due = this.#headDue(seconds);
        if (due !== undefined && due <= nextDue) {
          next = seconds;
          nextDue = due;
        }
      }
      if (next === undefined) return;
      const queue = this.#queues.get(next)!;
      const item = queue.items[queue.head]!;
      this.#shift(next, queue);
      const horizons = this.#pending.get(item)!;
      horizons.splice(horizons.indexOf(next), 1);
      if (horizons.length === 0) this.#pending.delete(item);
      this.check(item, next);
    }
  }

  /** When the first live check of a horizon falls due (dropped items' slots at its head are cut off). */
  #headDue(seconds: number): number | undefined {
    const queue = this.#skipDead(seconds);
    return queue ? queue.due[queue.head] : undefined;
  }

  #skipDead(seconds: number): Queue<T> | undefined {
    const queue = this.#queues.get(seconds);
    while (queue && queue.head < queue.items.length) {
      const item = queue.items[queue.head]!;
      if (this.#pending.get(item)?.includes(seconds)) return queue;
      this.#shift(seconds, queue);
    }
    return this.#queues.get(seconds);
  }

  /** Take the head off a queue; an empty queue goes. */
  #shift(seconds: number, queue: Queue<T>): void {
    queue.head++;
    if (queue.head === queue.items.length) {
      this.#queues.delete(seconds);
    } else if (queue.head >= 64 && queue.head * 2 >= queue.items.length) {
      queue.items.splice(0, queue.head);
      queue.due.splice(0, queue.head);
      queue.head = 0;
    }
  }

  /** One timer, for the earliest check. */
  #arm(): void {
    let earliest = Number.POSITIVE_INFINITY;
    for (const seconds of [...this.#queues.keys()])
      earliest = Math.min(earliest, this.#headDue(seconds) ?? earliest);
    if (earliest === this.#armedFor) return;
    this.#cancel?.();
    this.#cancel = undefined;
    this.#armedFor = earliest;
    if (earliest === Number.POSITIVE_INFINITY) return;
    this.#cancel = this.timers.schedule(Math.max(0, earliest - this.timers.now()), () => {
      this.#cancel = undefined;
      this.#armedFor = Number.POSITIVE_INFINITY;
      this.#run(this.timers.now());
      this.#arm();
    });
  }
}
