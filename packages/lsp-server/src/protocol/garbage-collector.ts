// A full garbage collection, asked for when the server let something big go (a closed multi-megabyte buffer, the
// tree-sitter runtime once its grammars idled): V8 collects its old generation only when the heap has grown by
// enough since the last time, and after the big thing goes the server allocates little, so its memory would stay
// resident for hours. One collection, a moment later, returns it.
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

let gc: (() => void) | undefined;

/**
 * Collect garbage now, the whole heap (about 10–30 ms for this server's). V8's `gc` is not exposed to the server's
 * own context: it is taken from a new context, created with the flag that gives contexts one (the main context is
 * left as it is).
 */
export function collectGarbage(): void {
  if (!gc) {
    setFlagsFromString("--expose-gc");
    gc = runInNewContext("gc") as () => void;
  }
  gc();
}

/** Collections asked for in a burst (a workspace's buffers closed at once) are one, `delayMs` after the last. */
export class GarbageCollector {
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly delayMs = 100,
    private readonly collect: () => void = collectGarbage,
  ) {}

  /** Collect `delayMs` after the last call. */
  soon(): void {
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.collect();
    }, this.delayMs).unref();
  }
}
