import type { Answer } from "./answer.js";

/**
 * The answer to one completion request, to be given once: the first `resolve` wins, later ones are ignored. A
 * newer request supersedes an older one by resolving its slot, a cancel resolves it too, and every step of the
 * pipeline stops as soon as its slot is settled.
 */
export class Slot {
  settled = false;
  /** The answer, once settled. */
  answer: Answer | undefined;
  #resolve!: (answer: Answer) => void;
  readonly promise = new Promise<Answer>((resolve) => {
    this.#resolve = resolve;
  });

  /** @param onPartial told the settled lines (relative to the request's cursor) while it streams, until answered. */
  constructor(readonly onPartial?: (text: string) => void) {}

  resolve(answer: Answer): void {
    if (this.settled) return;
    this.settled = true;
    this.answer = answer;
    this.#resolve(answer);
  }
}

/** Wait `ms` (the debounce), or less if the slot is answered meanwhile (superseded, cancelled). */
export function delayUnlessAnswered(ms: number, slot: Slot): Promise<void> {
  if (ms <= 0) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    void slot.promise.then(() => {
      clearTimeout(timer);
      resolve();
    });
  });
}
