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
import { ResultQueue } from "./result-queue.js";
import { RetryQueue } from "./retry-queue.js";
import { FailureStreak, passesCostCap } from "./stop-rules.js";
import { TokenBucket } from "./token-bucket.js";
import { Wakeups } from "./wakeups.js";

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
 * progress. Nothing is sent until iteration starts; it can be iterated once. Leaving the loop early aborts the
 * requests in flight.
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
  readonly #results = new ResultQueue<BatchResult>();
  readonly #retries = new RetryQueue<Pending>();
  readonly #inFlight = new Set<Pending>();
  readonly #tally = new BatchTally();
  readonly #wakeups = new Wakeups();
  #pausedUntil = 0;
  #rateLimitedInARow = 0;
  /** The pump waits for the reader to catch up. */
  #behind = false;
  #started = false;
  #finished = false;
  #startedAt = 0;
  #endedAt: number | undefined;

  /** @throws {RangeError} for a bad concurrency bound, cap or cost. */
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
    this.#intake = new RequestIntake(
      options.model ?? this.#target.defaultModel,
      options.prices ?? {},
      options.maxCost !== undefined,
    );
    this.#maxRateLimitRetries = options.maxRateLimitRetries ?? BATCH_DEFAULTS.maxRateLimitRetries;
    this.#failing = new FailureStreak(options.stopAfterFailures ?? BATCH_DEFAULTS.stopAfterFailures);
    // One listener per request in flight: well past Node's warning threshold of 10, and not a leak.
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
    this.#wakeups.wake();
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<BatchResult, void, undefined> {
    if (this.#started) throw new Error("a batch can be iterated only once");
    this.#started = true;
    this.#startedAt = performance.now();
    let failure: { error: unknown } | undefined;
    const pump = this.#pump().catch((error: unknown) => {
      failure = { error };
      this.abort();
    });
    try {
      for (;;) {
        const result = this.#results.shift();
        if (result !== undefined) {
          // The pump waits while the reader is behind by highWater results.
          if (this.#behind && this.#results.size === 0) this.#wakeups.wake();
          yield result;
          continue;
        }
        if (this.#finished) break;
        await this.#wakeups.waitForResult();
      }
      await pump;
      if (failure !== undefined) throw failure.error;
    } finally {
      if (!this.#finished) {
        this.abort();
        await pump;
      }
    }
  }

  /** Sends requests while the limits allow, until the input and the retries are done and nothing is in flight. */
  async #pump(): Promise<void> {
    const input = iterate(this.#input);
    let inputDone = false;
    let position = 0;
    let held: Pending | undefined;
    const highWater = 2 * Math.max(this.#aimd.limit, 64);
    const progress = this.#tally.progress;
    const sleep = (ms?: number): Promise<void> => this.#wakeups.sleep(ms);
    try {
      while (!this.#abort.signal.aborted) {
        const buffered = this.#results.size;
        if (this.#inFlight.size >= this.#aimd.limit || buffered >= highWater) {
          this.#behind = buffered >= highWater;
          await sleep();
          this.#behind = false;
          continue;
        }
        let now = performance.now();
        if (this.#pausedUntil > now) {
          await sleep(this.#pausedUntil - now);
          continue;
        }
        let item: Pending | BatchFailure | undefined = held ?? this.#retries.takeDue(now);
        held = undefined;
        if (item === undefined) {
          const stopped = progress.stopped !== undefined;
          if (!inputDone && !stopped) {
            // An array's iterator answers at once: no need to wait a turn for it.
            const pending = input.next();
            const next = pending instanceof Promise ? await pending : pending;
            if (next.done) inputDone = true;
            else item = this.#intake.admit(next.value, ++position, this.#tally.typicalCompletion());
            if (item === undefined) continue;
            if ("error" in item) {
              this.#fail(item);
              continue;
            }
            now = performance.now();
          } else if (this.#retries.size > 0 && !stopped) {
            await sleep(this.#retries.soonest() - now);
            continue;
          } else if (this.#inFlight.size > 0) {
            await sleep();
            continue;
          } else {
            break;
          }
        }
        if (progress.stopped !== undefined) {
          progress.notSent += 1;
          continue;
        }
        if (this.#bucket !== undefined) {
          const wait = this.#bucket.take(item.taken, now);
          if (wait > 0) {
            held = item;
            this.emit("pause", { ms: wait, reason: "tokens-per-minute" });
            await sleep(wait);
            continue;
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
    } finally {
      if (!inputDone) await input.return?.();
      // Every request in flight settles (aborted ones at once) before the iteration ends: nothing is left running.
      while (this.#inFlight.size > 0) await sleep();
      this.#endedAt = performance.now();
      this.#finished = true;
      this.#wakeups.wake();
    }
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
    this.#target.complete(item.request, this.#callOptions).then(
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
      this.#wakeups.wake();
      return;
    }
    if (error instanceof RateLimitError && this.#rateLimited(item, error, now)) return;
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
    this.#wakeups.wake();
    return true;
  }

  #fail(failure: BatchFailure): void {
    this.#tally.progress.failed += 1;
    this.#push(failure);
  }

  #push(result: BatchResult): void {
    this.#results.push(result);
    if (this.listenerCount("progress") > 0) this.emit("progress", this.progress());
    this.#wakeups.wake();
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
