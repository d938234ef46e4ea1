/**
 * A failure the simulator plays instead of (or in the middle of) a normal answer. Faults are
 * consumed one per request to `/beta/completions`, in order; `times` repeats one (default 1).
 */
export type Fault =
  /** Answer `status` with DeepSeek's error body for it, and a `Retry-After` header when `retryAfter` is given. */
  | { type: "status"; status: number; retryAfter?: string; times?: number }
  /** Reset the connection (TCP RST) before any response byte. */
  | { type: "reset"; times?: number }
  /** Answer 200 with `content-type: application/json` and a body that is not JSON. */
  | { type: "garbage"; times?: number }
  /**
   * End the connection mid-response. Streaming: after `afterChunks` `data:` chunks (default 2:
   * the empty first chunk and one token), without `data: [DONE]`. Non-streaming: after half of
   * the JSON body (the `content-length` header announces all of it).
   */
  | { type: "cut"; afterChunks?: number; times?: number }
  /**
   * Fail after the response started. Streaming: after `afterChunks` events (default 2), the provider's in-stream
   * error (`data: {"error":…}`, Ollama's `{"error":…}` line), then the response ends. Non-streaming: the
   * provider's error body under status 200.
   */
  | { type: "stream-error"; afterChunks?: number; times?: number }
  /**
   * Answer normally, but after `latencyMs` instead of the server's own latency: a request that is slow to its first
   * token (a busy model, a long prompt) among quick ones.
   */
  | { type: "slow"; latencyMs: number; times?: number };

/** `data:` chunks a `cut` fault lets through when it does not say. */
export const DEFAULT_CUT_AFTER_CHUNKS = 2;

const ITEM = /^(\d{3}|reset|garbage|cut|stream-error|slow)(?:x(\d+))?(?::(.*))?$/;

/**
 * Parses the CLI's fault list: comma-separated items `NAME[xTIMES][:OPTION]`, where NAME is an
 * HTTP status (400–599), `reset`, `garbage`, `cut`, `stream-error` or `slow`; the OPTION of a status is
 * `retry-after=VALUE`, the OPTION of `cut` and `stream-error` is the number of chunks, the OPTION of `slow` (required)
 * the latency in milliseconds.
 *
 * @example parseFaults("503x2,429:retry-after=1,reset,garbage,cut:3,stream-error:1,slow:800")
 * @throws Error naming the item it could not read
 */
export function parseFaults(spec: string): Fault[] {
  const faults: Fault[] = [];
  for (const raw of spec.split(",")) {
    const item = raw.trim();
    if (item === "") continue;
    const match = ITEM.exec(item);
    if (match === null) {
      throw new Error(`invalid fault "${item}": expected STATUS, reset, garbage, cut, stream-error or slow`);
    }
    const [, name = "", timesText, option] = match;
    const times = timesText === undefined ? undefined : Number(timesText);
    if (times !== undefined && times < 1)
      throw new Error(`invalid fault "${item}": times must be at least 1`);
    const repeat = times === undefined ? {} : { times };
    if (/^\d{3}$/.test(name)) {
      const status = Number(name);
      if (status < 400 || status > 599) throw new Error(`invalid fault "${item}": status must be 400–599`);
      if (option === undefined) {
        faults.push({ type: "status", status, ...repeat });
        continue;
      }
      const retry = /^retry-after=(\S+)$/i.exec(option);
      if (retry === null)
        throw new Error(`invalid fault "${item}": the option of a status is retry-after=VALUE`);
      faults.push({ type: "status", status, retryAfter: retry[1]!, ...repeat });
    } else if (name === "slow") {
      if (option === undefined || !/^\d+$/.test(option))
        throw new Error(`invalid fault "${item}": the option of slow is a latency in milliseconds`);
      faults.push({ type: "slow", latencyMs: Number(option), ...repeat });
    } else if (name === "cut" || name === "stream-error") {
      if (option === undefined) {
        faults.push({ type: name, ...repeat });
        continue;
      }
      if (!/^\d+$/.test(option))
        throw new Error(`invalid fault "${item}": the option of ${name} is a chunk count`);
      faults.push({ type: name, afterChunks: Number(option), ...repeat });
    } else {
      if (option !== undefined) throw new Error(`invalid fault "${item}": ${name} takes no option`);
      faults.push(name === "reset" ? { type: "reset", ...repeat } : { type: "garbage", ...repeat });
    }
  }
  return faults;
}

/** Throws a TypeError when a fault object could not be played. */
export function checkFault(fault: Fault): void {
  const count = (value: number | undefined, min: number): boolean =>
    value === undefined || (Number.isInteger(value) && value >= min);
  if (!["status", "reset", "garbage", "cut", "stream-error", "slow"].includes(fault.type)) {
    throw new TypeError(`unknown fault type ${JSON.stringify((fault as { type: unknown }).type)}`);
  }
  if (!count(fault.times, 1)) throw new TypeError(`fault times must be an integer ≥ 1, got ${fault.times}`);
  if (
    fault.type === "status" &&
    !(Number.isInteger(fault.status) && fault.status >= 400 && fault.status <= 599)
  ) {
    throw new TypeError(`fault status must be an integer in 400–599, got ${fault.status}`);
  }
  if (fault.type === "slow" && !(Number.isInteger(fault.latencyMs) && fault.latencyMs >= 0)) {
    throw new TypeError(`fault latencyMs must be an integer ≥ 0, got ${fault.latencyMs}`);
  }
  if ((fault.type === "cut" || fault.type === "stream-error") && !count(fault.afterChunks, 0)) {
    throw new TypeError(`fault afterChunks must be an integer ≥ 0, got ${fault.afterChunks}`);
  }
}

/** The faults still to play, each with its remaining repetitions. */
export class FaultQueue {
  readonly #queue: { fault: Fault; left: number }[] = [];

  /** Appends faults; throws a TypeError (and queues none) when one is malformed. */
  push(...faults: Fault[]): void {
    for (const fault of faults) checkFault(fault);
    for (const fault of faults) this.#queue.push({ fault, left: fault.times ?? 1 });
  }

  /** The fault for the next request, or `undefined` when the queue is empty. */
  next(): Fault | undefined {
    const head = this.#queue[0];
    if (head === undefined) return undefined;
    head.left--;
    if (head.left === 0) this.#queue.shift();
    return head.fault;
  }
}
