import { EventEmitter, setMaxListeners } from "node:events";
import { FimClient } from "../client.js";
import { RateLimitError, ValidationError } from "../errors.js";
import type { ModelPrice } from "../prices.js";
import type { ProviderClient } from "../provider-client.js";
import type { RequestOptions } from "../transport.js";
import { AimdController, type LimitChange, type Ticket } from "./aimd.js";
import {
  type BatchAnswer,
  type BatchFailure,
  type BatchResult,
  failureOf,
  invalidRequest,
} from "./batch-record.js";
import { type BatchProgress, BatchTally } from "./batch-tally.js";
import { type BatchTarget, batchTarget, type TargetAnswer } from "./batch-target.js";
import { type BatchPause, rateLimitDecision } from "./rate-limit-decision.js";
import { type Pending, RequestIntake } from "./request-intake.js";
import { ResultChannel } from "./result-channel.js";
import { RetryQueue } from "./retry-queue.js";
import { type BatchShard, checkShard } from "./shard.js";
import { FailureStreak, passesCostCap } from "./stop-rules.js";
import { TokenBucket } from "./token-bucket.js";

// The stateful edge of a batch: it reads the input as it sends, keeps requests in flight under the limits the
// pure pieces compute (aimd.ts, token-bucket.ts, rate-limit-decision.ts, stop-rules.ts), and hands the results to
// the iteration as they finish.

/** Options of {@link runBatch}. Every one is optional. */
export interface BatchOptions {
  /**
   * The client that sends the requests. Default: `new FimClient()` (DeepSeek, `DEEPSEEK_API_KEY`). Its own retries
   * of 500, 503 and connection failures apply; a 429 comes back to the batch at once, which slows down.
   */
  client?: FimClient | ProviderClient | undefined;
  /** The model of requests that name none. Default: the client's (`deepseek-v4-flash` for FimClient). */
  model?: string | undefined;
  /** Requests in flight at the start. Default 8. */
  concurrency?: number | undefined;
  /** Never fewer in flight than this, however many 429s come back. Default 1. */
  minConcurrency?: number | undefined;
  /** Never more in flight than this. Default 128 (the shared pool's sockets per origin). */
  maxConcurrency?: number | undefined;
  /**
   * A cap on tokens a minute (prompt and generated), counted ahead with each request's estimate (prompt characters
   * ÷ 3.5, plus its `max_tokens` or the average generated so far) and corrected by the answer's usage. Default none.
   */
  tokensPerMinute?: number | undefined;
  /**
   * Stops sending (in US dollars, at list prices) before the cost could pass this: what the answers cost plus the
   * most each request in flight and the next one can cost (every prompt token a cache miss, `max_tokens`
   * generated, 4096 when unset). Needs a price for every model. Default none.
   */
  maxCost?: number | undefined;
  /** Prices that correct or add to the list prices (per million tokens, see `PRICES`). Default none. */
  prices?: Readonly<Record<string, ModelPrice>> | undefined;
  /** How many times one request is sent again after a 429 before it is an error. Default 10. */
  maxRateLimitRetries?: number | undefined;
  /**
   * Stops sending after this many requests in a row failed with an error about the account or the endpoint rather
   * than the request (401, 402, 404, a connection that could not be made after the client's retries): the rest
   * would fail alike. Default 10; 0 never stops.
   */
  stopAfterFailures?: number | undefined;
  /** Bound on one request (ms), all the client's own retries included. Default: the client's `timeoutMs` (60 s). */
  timeoutMs?: number | undefined;
  /** Stops the batch: requests in flight are aborted and give no result; the iteration ends. */
  signal?: AbortSignal | undefined;
  /**
   * Takes only the records of one shard of N: those whose key (the id's JSON text, or `line:N` for a record without
   * one) hashes to `index` with FNV-1a, modulo `count` (see shard.ts); the others give no result. N runs over the
   * same input, each with its own index, answer every record once between them, wherever they run; `index` from 0 to
   * `count − 1`. Each run's concurrency options are its own: see the README for sharing an account's limit.
   * Default: every record.
   */
  shard?: BatchShard | undefined;
}

/** Defaults of {@link BatchOptions}. */
export const BATCH_DEFAULTS = { maxRateLimitRetries: 10, stopAfterFailures: 10 } as const;

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
  readonly #input: AsyncIterable<unknown> | Iterable<unknown>;
  readonly #target: BatchTarget;
  readonly #intake: RequestIntake;
  readonly #aimd: AimdController;
  readonly #bucket: TokenBucket | undefined;
  readonly #maxCost: number | undefined;
  readonly #maxRateLimitRetries: number;
  readonly #failing: FailureStreak;
  readonly #abort = new AbortController();
  readonly #callOptions: RequestOptions;
  readonly #results = new ResultChannel<BatchResult>(() => {
    if (this.#behind) this.#fill();
  });
  readonly #retries = new RetryQueue<Pending>();
  readonly #inFlight = new Set<Pending>();
  readonly #tally = new BatchTally();
  #iterator: AsyncIterator<unknown> | Iterator<unknown> | undefined;
  #inputDone = false;
  /** Records read from the input so far: the position of the next one is this plus one. */
  #position = 0;
  /** A request read (or let through by nothing but the bucket), to be sent before any other. */
  #held: Pending | undefined;
  /** Waiting for the input's next record: the answer fills again. */
  #reading = false;
  /** In #fill, which must not run twice at once: what happens meanwhile is seen by the running one's next turn. */
  #filling = false;
  /** The one timer of the batch: the end of a pause, of the bucket's wait, of the soonest retry's wait. */
  #timer: NodeJS.Timeout | undefined;
  #pausedUntil = 0;
  #rateLimitedInARow = 0;
  /** Results the reader has not taken before sending stops until it does. */
  #highWater = 0;
  /** Sending waits for the reader to catch up. */
  #behind = false;
  #started = false;
  /** The end has begun: the input is being closed. */
  #ending = false;
  #finished = false;
  #failure: { error: unknown } | undefined;
  #onFinished: (() => void) | undefined;
  #startedAt = 0;
  #endedAt: number | undefined;

  /** @throws {RangeError} for a bad concurrency bound, cap, cost or shard. */
  constructor(requests: AsyncIterable<unknown> | Iterable<unknown>, options: BatchOptions = {}) {
    super();
    this.#input = requests;
    this.#target = batchTarget(options.client ?? new FimClient());
    this.#aimd = new AimdController({
      initial: options.concurrency,
      min: options.minConcurrency,
      max: options.maxConcurrency,
    });
    this.#bucket =
      options.tokensPerMinute === undefined
        ? undefined
        : new TokenBucket(options.tokensPerMinute, performance.now());
    if (options.maxCost !== undefined && !(options.maxCost >= 0)) {
      throw new RangeError(`maxCost must be a non-negative number of US dollars, got ${options.maxCost}`);
    }
    this.#maxCost = options.maxCost;
    this.#intake = new RequestIntake(this.#target, {
      model: options.model ?? this.#target.defaultModel,
      prices: options.prices ?? {},
      pricesNeeded: options.maxCost !== undefined,
      shard: options.shard === undefined ? undefined : checkShard(options.shard),
    });
    this.#maxRateLimitRetries = options.maxRateLimitRetries ?? BATCH_DEFAULTS.maxRateLimitRetries;
    this.#failing = new FailureStreak(options.stopAfterFailures ?? BATCH_DEFAULTS.stopAfterFailures);
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
      concurrency: this.#aimd.limit,
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
    this.#highWater = 2 * Math.max(this.#aimd.limit, 64);
    try {
      this.#iterator = iterate(this.#input);
    } catch (error) {
      this.#inputDone = true;
      this.#failure = { error };
      this.abort();
    }
    this.#fill();
    return {
      next: () => this.#results.next(),
      return: async () => {
        if (!this.#finished) {
          this.abort();
          await new Promise<void>((resolve) => {
            if (this.#finished) resolve();
            else this.#onFinished = resolve;
          });
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
    if (over || (this.#abort.signal.aborted && this.#inFlight.size === 0 && !this.#reading)) this.#end();
  }

  /** The loop of #fill. @returns true when the batch is over. */
  #sendAll(): boolean {
    const progress = this.#tally.progress;
    while (!this.#abort.signal.aborted) {
      if (this.#reading) return false;
      const buffered = this.#results.size;
      this.#behind = buffered >= this.#highWater;
      if (this.#behind || this.#inFlight.size >= this.#aimd.limit) return false;
      const now = performance.now();
      if (this.#pausedUntil > now) return this.#wakeAt(this.#pausedUntil);
      let item = this.#held ?? this.#retries.takeDue(now);
      this.#held = undefined;
      if (item === undefined) {
        const stopped = progress.stopped !== undefined;
        if (!this.#inputDone && !stopped) {
          const next = (this.#iterator as Iterator<unknown>).next();
          // An array's iterator answers at once: no need to wait a turn for it.
          if (next instanceof Promise) {
            this.#read(next);
            return false;
          }
          item = this.#admit(next);
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
      if (this.#bucket !== undefined) {
        const wait = this.#bucket.take(item.taken, now);
        if (wait > 0) {
          this.#held = item;
          this.emit("pause", { ms: wait, reason: "tokens-per-minute" });
          return this.#wakeAt(now + wait);
        }
      }
      if (passesCostCap(this.#maxCost, progress.cost, this.#tally.reservedCost, item.worstCost)) {
        this.#bucket?.settle(item.taken, 0, now);
        progress.notSent += 1;
        this.#stop("max-cost");
        continue;
      }
      this.#send(item);
    }
    return false;
  }

  /** Takes the input's answer: the request to send, if it gives one (a bad record's failure is a result at once). */
  #admit(next: IteratorResult<unknown>): Pending | undefined {
    if (next.done) {
      this.#inputDone = true;
      return undefined;
    }
    this.#position += 1;
    const item = this.#intake.admit(next.value, this.#position, this.#tally.typicalCompletion());
    if (item === undefined || !("error" in item)) return item;
    this.#fail(item);
    return undefined;
  }

  /** Waits for an input that answers later (a file's lines): one record at a time, never read ahead. */
  #read(next: Promise<IteratorResult<unknown>>): void {
    this.#reading = true;
    next.then(
      (result) => {
        this.#reading = false;
        const item = this.#admit(result);
        if (item !== undefined && this.#abort.signal.aborted) this.#tally.progress.notSent += 1;
        else this.#held = item;
        this.#fill();
      },
      (error: unknown) => {
        this.#reading = false;
        // An iterator that threw is done: it is not closed again.
        this.#inputDone = true;
        this.#failure ??= { error };
        this.abort();
        this.#fill();
      },
    );
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
      this.#onFinished?.();
    };
    const closing = this.#inputDone ? undefined : this.#iterator?.return?.();
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
    item.ticket = this.#aimd.send();
    if (item.rateLimits === 0) this.#tally.progress.sent += 1;
    this.#inFlight.add(item);
    this.#tally.reservedCost += item.worstCost;
    const started = performance.now();
    this.#target.send(item.prepared, this.#callOptions).then(
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
    this.#rateLimitedInARow = 0;
    this.#failing.answered();
    this.#limitChanged(this.#aimd.succeeded(this.#inFlight.size));
    const usage = answer.usage;
    this.#tally.answered(usage, item.price);
    this.#bucket?.settle(item.taken, usage === undefined ? item.taken : usage.total_tokens, now);
    const result: BatchAnswer = {
      id: item.id,
      text: answer.text,
      finish_reason: answer.finish_reason,
      usage: usage ?? null,
      latency_ms: Math.round(now - started),
    };
    if (answer.logprobs !== undefined) result.logprobs = answer.logprobs;
    this.#push(result);
  }

  #failed(item: Pending, error: unknown): void {
    const now = performance.now();
    this.#land(item);
    // A 429 is not billed, and an aborted or failed request is assumed not to be.
    this.#bucket?.settle(item.taken, 0, now);
    if (this.#abort.signal.aborted) {
      this.#fill();
      return;
    }
    if (error instanceof RateLimitError && this.#rateLimited(item, error, now)) {
      this.#fill();
      return;
    }
    if (this.#failing.failed(error)) this.#stop("failing");
    this.#fail(error instanceof ValidationError ? invalidRequest(item, error) : failureOf(item.id, error));
  }

  /** Counts a 429, lowers the limit, pauses when it must. @returns true when the request goes again. */
  #rateLimited(item: Pending, error: RateLimitError, now: number): boolean {
    this.#tally.progress.rateLimited += 1;
    const ticket = item.ticket as Ticket;
    let older = 0;
    for (const other of this.#inFlight) if ((other.ticket as Ticket).seq < ticket.seq) older += 1;
    if (this.#aimd.isNews(ticket)) this.#rateLimitedInARow += 1;
    this.#limitChanged(this.#aimd.rateLimited(ticket, older));
    const { pause, retryAt } = rateLimitDecision(
      {
        now,
        retryAfterMs: error.retryAfterMs,
        rateLimitedInARow: this.#rateLimitedInARow,
        limit: this.#aimd.limit,
        pausedUntil: this.#pausedUntil,
        attempts: item.rateLimits,
        maxRetries: this.#maxRateLimitRetries,
      },
      Math.random,
    );
    if (pause !== undefined) {
      this.#pausedUntil = now + pause.ms;
      this.emit("pause", pause);
    }
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

function iterate(
  input: AsyncIterable<unknown> | Iterable<unknown>,
): AsyncIterator<unknown> | Iterator<unknown> {
  return Symbol.asyncIterator in input ? input[Symbol.asyncIterator]() : input[Symbol.iterator]();
}
