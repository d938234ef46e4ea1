import type { IncomingMessage, ServerResponse } from "node:http";
import type { SimRequest } from "./request-log.js";
import { MAX_DELAY_MS } from "./sim-options.js";

// One request/response pair as the simulator works on it: its record, the timers of its latency and pacing, and
// whether anything more may be written. Everything that waits on an exchange stops when it does.

const noop = (): void => {};

/** One request/response pair: its record, its timers, and whether work on it must stop. */
export class Exchange {
  readonly record: SimRequest;
  /** Set once nothing more may be written: the response ended, the client left, or the sim closes. */
  done = false;
  /** Set when the simulator itself dropped the connection (reset, cut, close), which is not an abort. */
  serverEnded = false;
  /** This request's latency when a `slow` fault set one; otherwise the server's. */
  latencyMs: number | undefined;
  readonly #cancels = new Set<() => void>();
  readonly #settle: () => void;

  /** @param path the request's path, without its query. */
  constructor(
    readonly req: IncomingMessage,
    readonly res: ServerResponse,
    path: string,
  ) {
    let settle = noop;
    const closed = new Promise<void>((resolve) => {
      settle = resolve;
    });
    this.#settle = settle;
    const receivedAt = performance.timeOrigin + performance.now();
    this.record = {
      path,
      body: undefined,
      headers: req.headers,
      receivedAt,
      status: 0,
      aborted: false,
      outputTokens: 0,
      closed,
    };
  }

  /** Resolves true after `ms`, or false as soon as the exchange stops. */
  wait(ms: number): Promise<boolean> {
    if (this.done) return Promise.resolve(false);
    if (ms <= 0) return Promise.resolve(true);
    const delay = Math.min(ms, MAX_DELAY_MS);
    return new Promise((resolve) => {
      const cancel = (): void => {
        clearTimeout(timer);
        this.#cancels.delete(cancel);
        resolve(false);
      };
      const timer = setTimeout(() => {
        this.#cancels.delete(cancel);
        resolve(!this.done);
      }, delay);
      this.#cancels.add(cancel);
    });
  }

  /** Calls `tick` every `ms` until the returned function is called or the exchange stops. */
  every(ms: number, tick: () => void): () => void {
    const timer = setInterval(tick, ms);
    const cancel = (): void => {
      clearInterval(timer);
      this.#cancels.delete(cancel);
    };
    this.#cancels.add(cancel);
    return cancel;
  }

  /** Stops all work on this exchange and its timers. */
  stop(): void {
    this.done = true;
    for (const cancel of [...this.#cancels]) cancel();
  }

  /** The response is over, one way or another. */
  closed(): void {
    if (!this.res.writableFinished && !this.serverEnded) this.record.aborted = true;
    this.stop();
    this.#settle();
  }

  /** Sends the status line and headers, and records the status. */
  writeHead(status: number, headers: Record<string, string | number>): void {
    this.record.status = status;
    this.res.writeHead(status, headers);
  }

  /** Ends the connection after what was written so far is flushed, without ending the HTTP message. */
  dropConnection(): void {
    this.serverEnded = true;
    this.done = true;
    const socket = this.res.socket;
    if (socket === null) return;
    socket.end(() => socket.destroy());
  }
}
