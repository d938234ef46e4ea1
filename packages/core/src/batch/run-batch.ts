import { EventEmitter, setMaxListeners } from "node:events";
import { RateLimitError, ValidationError } from "../errors.js";
import type { RequestOptions } from "../transport.js";
import type { LimitChange, Ticket } from "./aimd.js";
import { type BatchOptions, type BatchParts, batchParts } from "./batch-options.js";
import { answerOf, type BatchFailure, type BatchResult, failureOf, invalidRequest } from "./batch-record.js";
import { type BatchProgress, BatchTally } from "./batch-tally.js";
import type { TargetAnswer } from "./batch-target.js";
import type { BatchPause } from "./rate-limit-decision.js";
import { RateLimits } from "./rate-limits.js";
import { NOTHING, RecordReader } from "./record-reader.js";
import type { Pending } from "./request-intake.js";
import { ResultChannel } from "./result-channel.js";
import { RetryQueue } from "./retry-queue.js";
import { passesCostCap } from "./stop-rules.js";

// The stateful edge of a batch: it reads the input as it sends, keeps requests in flight under the limits the
// pure pieces compute (aimd.ts, token-bucket.ts, rate-limit-decision.ts, stop-rules.ts), and hands the results to
// the iteration as they finish.

/** The events of a {@link BatchRun}. */
export interface BatchEvents {
  /** After each result. */
  progress: [BatchProgress];
  /** The concurrency limit moved. */
  concurrency: [LimitChange];
  /** Sending pauses. */
  pause: [BatchPause];
}

/**
 * A running batch: an async iterable of its results, in the order they finish, and an EventEmitter of its
 * progress. Nothing is sent until iteration starts; it can be iterated once, by one reader. Leaving the loop early
 * aborts the requests in flight.
 */
export class BatchRun extends EventEmitter<BatchEvents> implements AsyncIterable<BatchResult> {
  readonly #reader: RecordReader;
  readonly #parts: BatchParts;
  readonly #rateLimits: RateLimits;
  readonly #abort = new AbortController();
  readonly #callOptions: RequestOptions;
  readonly #results: ResultChannel<BatchResult>;
  readonly #retries = new RetryQueue<Pending>();
  readonly #inFlight = new Set<Pending>();
  readonly #tally = new BatchTally();
  /** A request read (or let through by nothing but the bucket), to be sent before any other. */
  #held: Pending | undefined;
  /** In #fill, which must not run twice at once: what happens meanwhile is seen by the running one's next turn. */
  #filling = false;
  /** The one timer of the batch: the end of a pause, of the bucket's wait, of the soonest retry's wait. */
  #timer: NodeJS.Timeout | undefined;
  #started = false;
  /** The end has begun: the input is being closed. */
  #ending = false;
  #finished = false;
  #failure: { error: unknown } | undefined;
  #startedAt = 0;
  #endedAt: number | undefined;

  /** @throws {RangeError} for a bad concurrency bound, cap, cost or shard. */
  constructor(requests: AsyncIterable<unknown> | Iterable<unknown>, options: BatchOptions = {}) {
    super();
    this.#reader = new RecordReader(
      requests,
      (record) => {
        const item = record === NOTHING ? undefined : this.#admit(record);
        if (item !== undefined && this.#abort.signal.aborted) this.#tally.progress.notSent += 1;
        else this.#held = item;
        this.#fill();
      },
      (error) => {
        this.#failure ??= { error };
        this.abort();
        this.#fill();
      },
    );
    this.#parts = batchParts(options);
    this.#rateLimits = new RateLimits(this.#parts.aimd, this.#parts.maxRateLimitRetries);
    // Sending waits while the reader is this far behind, until it has caught up.
    this.#results = new ResultChannel(2 * Math.max(this.#parts.aimd.limit, 64), () => this.#fill());
    // One listener per request in flight (none with the client's own, but a ProviderClient's may add them).
    setMaxListeners(0, this.#abort.signal);
    const signal = options.signal;
    if (signal !== undefined) {
      if (signal.aborted) this.abort();
      else signal.addEventListener("abort", () => this.abort(), { once: true });
    }
    this.#callOptions = { signal: this.#abort.signal, timeoutMs: options.timeoutMs, retryRateLimited: false };
  }

  /** A snapshot of where the batch stands. */
  progress(): BatchProgress {
    return {
      ...this.#tally.progress,
      inFlight: this.#inFlight.size,
      concurrency: this.#parts.aimd.limit,
      elapsedMs: this.#started ? (this.#endedAt ?? performance.now()) - this.#startedAt : 0,
    };
  }

  /** Stops the batch: nothing more is sent, requests in flight are aborted (they give no result). */
  abort(): void {
    if (this.#abort.signal.aborted) return;
    this.#tally.progress.stopped ??= "aborted";
    this.#abort.abort();
    this.#fill();
  }

  [Symbol.asyncIterator](): AsyncIterator<BatchResult, undefined> {
    if (this.#started) throw new Error("a batch can be iterated only once");
    this.#started = true;
    this.#startedAt = performance.now();
    try {
      this.#reader.open();
    } catch (error) {
      this.#failure = { error };
      this.abort();
    }
    this.#fill();
    return {
      next: () => this.#results.next(),
      return: async () => {
        if (!this.#finished) {
          this.abort();
          await this.#results.closed();
        }
        return { value: undefined, done: true };
      },
    };
  }

  /**
   * Sends what the limits allow now. It runs again whenever that may change: a request lands, the reader catches
   * up, the input answers, the timer fires, the batch is aborted. Ends the batch when nothing is left to send and
   * nothing is in flight. A failure of the input ends it too, thrown to the reader after the last result.
   */
  #fill(): void {
    if (this.#filling || this.#ending || !this.#started) return;
    this.#filling = true;
    let over = false;
    try {
      over = this.#sendAll();
    } catch (error) {
      this.#failure ??= { error };
      this.abort();
    } finally {
      this.#filling = false;
    }
    if (over || (this.#abort.signal.aborted && this.#inFlight.size === 0 && !this.#reader.waiting))
      this.#end();
  }

  /** The loop of #fill. @returns true when the batch is over. */
  #sendAll(): boolean {
    const progress = this.#tally.progress;
    while (!this.#abort.signal.aborted) {
      if (this.#reader.waiting) return false;
      if (this.#results.full() || this.#inFlight.size >= this.#parts.aimd.limit) return false;
      const now = performance.now();
      const { pausedUntil } = this.#rateLimits;
      if (pausedUntil > now) return this.#wakeAt(pausedUntil);
      let item = this.#held ?? this.#retries.takeDue(now);
      this.#held = undefined;
      if (item === undefined) {
        const stopped = progress.stopped !== undefined;
        if (!this.#reader.done && !stopped) {
          const record = this.#reader.next();
          if (record === NOTHING) {
            if (this.#reader.waiting) return false;
            continue;
          }
          item = this.#admit(record);
          if (item === undefined) continue;
        } else if (this.#retries.size > 0 && !stopped) {
          return this.#wakeAt(this.#retries.soonest());
        } else {
          return this.#inFlight.size === 0;
        }
      }
      if (progress.stopped !== undefined) {
        progress.notSent += 1;
        continue;
      }
      if (this.#parts.bucket !== undefined) {
        const wait = this.#parts.bucket.take(item.taken, now);
        if (wait > 0) {
          this.#held = item;
          this.emit("pause", { ms: wait, reason: "tokens-per-minute" });
          return this.#wakeAt(now + wait);
        }
      }
      if (passesCostCap(this.#parts.maxCost, progress.cost, this.#tally.reservedCost, item.worstCost)) {
        this.#parts.bucket?.settle(item.taken, 0, now);
        progress.notSent += 1;
        this.#stop("max-cost");
        continue;
      }
      this.#send(item);
    }
    return false;
  }

  /** A record read: the request to send, if it gives one (a bad record's failure is a result at once). */
  #admit(record: unknown): Pending | undefined {
    const item = this.#parts.intake.admit(record, this.#reader.position, this.#tally.typicalCompletion());
    if (item === undefined || !("error" in item)) return item;
    this.#fail(item);
    return undefined;
  }

  /** Fills again at `at` (performance.now() ms; 1 ms from now at the soonest). @returns false, for #sendAll. */
  #wakeAt(at: number): false {
    clearTimeout(this.#timer);
    this.#timer = setTimeout(
      () => {
        this.#timer = undefined;
        this.#fill();
      },
      Math.max(1, Math.ceil(at - performance.now())),
    );
    return false;
  }

  /** The batch is over: the input closed (if it was left early), then the reader gets the end. */
  #end(): void {
    if (this.#ending) return;
    this.#ending = true;
    clearTimeout(this.#timer);
    const finish = (): void => {
      this.#endedAt = performance.now();
      this.#finished = true;
      this.#results.close(this.#failure ?? {});
    };
    const closing = this.#reader.close();
    if (closing instanceof Promise) {
      closing.then(finish, (error: unknown) => {
        this.#failure ??= { error };
        finish();
      });
    } else finish();
  }

  /** Nothing more is sent: the requests waiting to be sent again are not sent either. */
  #stop(reason: "max-cost" | "failing"): void {
    const progress = this.#tally.progress;
    if (progress.stopped !== undefined) return;
    progress.stopped = reason;
    progress.notSent += this.#retries.clear();
  }

  #send(item: Pending): void {
    item.ticket = this.#parts.aimd.send();
    if (item.rateLimits === 0) this.#tally.progress.sent += 1;
    this.#inFlight.add(item);
    this.#tally.reservedCost += item.worstCost;
    const started = performance.now();
    this.#parts.target.send(item.prepared, this.#callOptions).then(
      (answer) => this.#answered(item, answer, started),
      (error: unknown) => this.#failed(item, error),
    );
  }

  #land(item: Pending): void {
    this.#inFlight.delete(item);
    this.#tally.reservedCost -= item.worstCost;
  }

  #answered(item: Pending, answer: TargetAnswer, started: number): void {
    const now = performance.now();
    this.#land(item);
    this.#rateLimits.answered();
    this.#parts.failing.answered();
    this.#limitChanged(this.#parts.aimd.succeeded(this.#inFlight.size));
    const usage = answer.usage;
    this.#tally.answered(usage, item.price);
    this.#parts.bucket?.settle(item.taken, usage === undefined ? item.taken : usage.total_tokens, now);
    this.#push(answerOf(item.id, answer, now - started));
  }

  #failed(item: Pending, error: unknown): void {
    const now = performance.now();
    this.#land(item);
    // A 429 is not billed, and an aborted or failed request is assumed not to be.
    this.#parts.bucket?.settle(item.taken, 0, now);
    if (this.#abort.signal.aborted) {
      this.#fill();
      return;
    }
    if (error instanceof RateLimitError && this.#rateLimited(item, error, now)) {
      this.#fill();
      return;
    }
    if (this.#parts.failing.failed(error)) this.#stop("failing");
    this.#fail(error instanceof ValidationError ? invalidRequest(item, error) : failureOf(item.id, error));
  }

  /** Counts a 429, lowers the limit, pauses when it must. @returns true when the request goes again. */
  #rateLimited(item: Pending, error: RateLimitError, now: number): boolean {
    this.#tally.progress.rateLimited += 1;
    const ticket = item.ticket as Ticket;
    let older = 0;
    for (const other of this.#inFlight) if ((other.ticket as Ticket).seq < ticket.seq) older += 1;
    const { change, pause, retryAt } = this.#rateLimits.rateLimited(
      ticket,
      item.rateLimits,
      error,
      now,
      older,
    );
    this.#limitChanged(change);
    if (pause !== undefined) this.emit("pause", pause);
    if (retryAt === undefined) return false;
    item.notBefore = retryAt;
    item.rateLimits += 1;
    this.#retries.push(item);
    return true;
  }

  #fail(failure: BatchFailure): void {
    this.#tally.progress.failed += 1;
    this.#push(failure);
  }

  #push(result: BatchResult): void {
    this.#results.push(result);
    if (this.listenerCount("progress") > 0) this.emit("progress", this.progress());
    this.#fill();
  }

  #limitChanged(change: LimitChange | undefined): void {
    if (change !== undefined) this.emit("concurrency", change);
  }
}

/**
 * Fills in the middle for every request of a dataset: as many in flight as the account accepts (found by additive
 * increase and multiplicative decrease on 429s, honouring `Retry-After`), an optional tokens-per-minute cap and
 * cost cap, each record checked before it is sent.
 *
 * ```ts
 * const run = runBatch(requests, { client: new FimClient(), concurrency: 16 });
 * run.on("concurrency", ({ from, to }) => console.error(`concurrency ${from} → ${to}`));
 * for await (const result of run) {
 *   if ("error" in result) console.error(result.id, result.error.message);
 *   else console.log(result.id, result.text);
 * }
 * ```
 *
 * @param requests records `{ id, prompt, suffix?, … }` (see BatchRequest), read as they are needed: a generator
 *   over a file's lines is never read ahead of what is being sent. A record that is not a request (no id, a field
 *   the client refuses, an id seen before) gives a failure result naming its position (1-based) and is not sent.
 * @throws {RangeError} for a bad option; {ValidationError} from the default client's options.
 */
export function runBatch(
  requests: AsyncIterable<unknown> | Iterable<unknown>,
  options: BatchOptions = {},
): BatchRun {
  return new BatchRun(requests, options);
}
