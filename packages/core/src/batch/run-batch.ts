import { EventEmitter, setMaxListeners } from "node:events";
import { FimClient } from "../client.js";
import {
  AuthenticationError,
  ConnectionError,
  InsufficientBalanceError,
  NotFoundError,
  RateLimitError,
  ValidationError,
} from "../errors.js";
import { type ModelPrice, priceOf } from "../prices.js";
import type { ProviderClient } from "../provider-client.js";
import { backoffDelay, MAX_RETRY_AFTER_MS } from "../retry.js";
import type { RequestOptions } from "../transport.js";
import { AimdController, type LimitChange, type Ticket } from "./aimd.js";
import {
  type BatchAnswer,
  type BatchFailure,
  type BatchResult,
  type CheckedRecord,
  failureOf,
  invalid,
  invalidRequest,
  readRecord,
} from "./batch-record.js";
import { type BatchTarget, batchTarget, type TargetAnswer } from "./batch-target.js";
import { estimateTokens, FIM_MAX_TOKENS, worstCaseCost } from "./cost-estimate.js";
import { TokenBucket } from "./token-bucket.js";

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

/** Where a batch stands: counts since it started, for progress lines and the summary. */
export interface BatchProgress {
  /** Requests sent at least once. */
  sent: number;
  /** Results with an answer. */
  answered: number;
  /** Results with an error (bad records included). */
  failed: number;
  /** Requests in flight now. */
  inFlight: number;
  /** Requests allowed in flight now. */
  concurrency: number;
  /** 429 answers received (each sent again, up to `maxRateLimitRetries`). */
  rateLimited: number;
  /** Prompt tokens of the answers (the provider's counts). */
  promptTokens: number;
  /** Of those, served from the provider's prompt cache (where it says). */
  cacheHitTokens: number;
  /** Generated tokens of the answers. */
  completionTokens: number;
  /** What the answers cost at list prices, in US dollars (models without a known price count 0). */
  cost: number;
  /** Milliseconds since the batch started. */
  elapsedMs: number;
  /**
   * Why the batch ended early: `max-cost` (the next request could pass it), `failing` (`stopAfterFailures` requests
   * in a row failed for a reason of the account or the endpoint), `aborted`; undefined otherwise.
   */
  stopped: "max-cost" | "failing" | "aborted" | undefined;
  /** Requests not sent because the batch stopped early (known only for those already read). */
  notSent: number;
}

/** A pause before the next request is sent. */
export interface BatchPause {
  /** Milliseconds. */
  ms: number;
  /**
   * `retry-after`: a 429's Retry-After; `rate-limited`: more 429s in a row than requests allowed in flight, with no
   * Retry-After (a backoff); `tokens-per-minute`: the cap's bucket is empty.
   */
  reason: "retry-after" | "rate-limited" | "tokens-per-minute";
}

/** The events of a {@link BatchRun}. */
export interface BatchEvents {
  /** After each result. */
  progress: [BatchProgress];
  /** The concurrency limit moved. */
  concurrency: [LimitChange];
  /** Sending pauses. */
  pause: [BatchPause];
}

/** One request on its way: the checked record and how it has fared. */
interface Pending extends CheckedRecord {
  price: ModelPrice | undefined;
  /** Estimated prompt tokens. */
  promptTokens: number;
  /** What it took from the tokens-per-minute bucket, while in flight. */
  taken: number;
  /** The most it can cost (US dollars), reserved while in flight. */
  worstCost: number;
  /** 429s so far. */
  rateLimits: number;
  /** Not sent again before this time (performance.now() ms). */
  notBefore: number;
  ticket: Ticket | undefined;
}

/**
 * A running batch: an async iterable of its results, in the order they finish, and an EventEmitter of its
 * progress. Nothing is sent until iteration starts; it can be iterated once. Leaving the loop early aborts the
 * requests in flight.
 */
export class BatchRun extends EventEmitter<BatchEvents> implements AsyncIterable<BatchResult> {
  readonly #input: AsyncIterable<unknown> | Iterable<unknown>;
  readonly #target: BatchTarget;
  readonly #model: string | undefined;
  readonly #aimd: AimdController;
  readonly #bucket: TokenBucket | undefined;
  readonly #maxCost: number | undefined;
  readonly #prices: Readonly<Record<string, ModelPrice>>;
  readonly #maxRateLimitRetries: number;
  readonly #stopAfterFailures: number;
  #failingInARow = 0;
  readonly #abort = new AbortController();
  readonly #callOptions: RequestOptions;
  readonly #results: BatchResult[] = [];
  #resultsHead = 0;
  readonly #retries: Pending[] = [];
  readonly #inFlight = new Set<Pending>();
  readonly #seen = new Map<string, number>();
  #pausedUntil = 0;
  #rateLimitedInARow = 0;
  /** The pump waits for the reader to catch up. */
  #behind = false;
  #reservedCost = 0;
  #completionTokensSeen = 0;
  #answersWithUsage = 0;
  #started = false;
  #finished = false;
  #startedAt = 0;
  #endedAt: number | undefined;
  #wakePump: (() => void) | undefined;
  #wakeReader: (() => void) | undefined;
  readonly #progress: BatchProgress = {
    sent: 0,
    answered: 0,
    failed: 0,
    inFlight: 0,
    concurrency: 0,
    rateLimited: 0,
    promptTokens: 0,
    cacheHitTokens: 0,
    completionTokens: 0,
    cost: 0,
    elapsedMs: 0,
    stopped: undefined,
    notSent: 0,
  };

  /** @throws {RangeError} for a bad concurrency bound, cap or cost. */
  constructor(requests: AsyncIterable<unknown> | Iterable<unknown>, options: BatchOptions = {}) {
    super();
    this.#input = requests;
    this.#target = batchTarget(options.client ?? new FimClient());
    this.#model = options.model;
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
    this.#prices = options.prices ?? {};
    this.#maxRateLimitRetries = options.maxRateLimitRetries ?? BATCH_DEFAULTS.maxRateLimitRetries;
    this.#stopAfterFailures = options.stopAfterFailures ?? BATCH_DEFAULTS.stopAfterFailures;
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
      ...this.#progress,
      inFlight: this.#inFlight.size,
      concurrency: this.#aimd.limit,
      elapsedMs: this.#started ? (this.#endedAt ?? performance.now()) - this.#startedAt : 0,
    };
  }

  /** Stops the batch: nothing more is sent, requests in flight are aborted (they give no result). */
  abort(): void {
    if (this.#abort.signal.aborted) return;
    this.#progress.stopped ??= "aborted";
    this.#abort.abort();
    this.#wake();
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
        if (this.#resultsHead < this.#results.length) {
          const result = this.#results[this.#resultsHead] as BatchResult;
          this.#resultsHead += 1;
          if (this.#resultsHead > 1024 && this.#resultsHead * 2 > this.#results.length) {
            this.#results.splice(0, this.#resultsHead);
            this.#resultsHead = 0;
          }
          // The pump waits while the reader is behind by highWater results.
          if (this.#behind && this.#resultsHead === this.#results.length) this.#wake();
          yield result;
          continue;
        }
        if (this.#finished) break;
        await new Promise<void>((resolve) => {
          this.#wakeReader = resolve;
        });
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
    try {
      while (!this.#abort.signal.aborted) {
        const buffered = this.#results.length - this.#resultsHead;
        if (this.#inFlight.size >= this.#aimd.limit || buffered >= highWater) {
          this.#behind = buffered >= highWater;
          await this.#sleep();
          this.#behind = false;
          continue;
        }
        let now = performance.now();
        if (this.#pausedUntil > now) {
          await this.#sleep(this.#pausedUntil - now);
          continue;
        }
        let item = held ?? this.#dueRetry(now);
        held = undefined;
        if (item === undefined) {
          const stopped = this.#progress.stopped !== undefined;
          if (!inputDone && !stopped) {
            // An array's iterator answers at once: no need to wait a turn for it.
            const pending = input.next();
            const next = pending instanceof Promise ? await pending : pending;
            if (next.done) inputDone = true;
            else item = this.#admit(next.value, ++position);
            if (item === undefined) continue;
            now = performance.now();
          } else if (this.#retries.length > 0 && !stopped) {
            await this.#sleep(
              this.#retries.reduce((soonest, r) => Math.min(soonest, r.notBefore), Infinity) - now,
            );
            continue;
          } else if (this.#inFlight.size > 0) {
            await this.#sleep();
            continue;
          } else {
            break;
          }
        }
        if (this.#progress.stopped !== undefined) {
          this.#progress.notSent += 1;
          continue;
        }
        if (this.#bucket !== undefined) {
          const wait = this.#bucket.take(item.taken, now);
          if (wait > 0) {
            held = item;
            this.#emitPause(wait, "tokens-per-minute");
            await this.#sleep(wait);
            continue;
          }
        }
        if (
          this.#maxCost !== undefined &&
          this.#progress.cost + this.#reservedCost + item.worstCost > this.#maxCost
        ) {
          this.#bucket?.settle(item.taken, 0, now);
          this.#progress.notSent += 1;
          this.#stop("max-cost");
          continue;
        }
        this.#send(item);
      }
    } finally {
      if (!inputDone) await input.return?.();
      // Every request in flight settles (aborted ones at once) before the iteration ends: nothing is left running.
      while (this.#inFlight.size > 0) await this.#sleep();
      this.#endedAt = performance.now();
      this.#finished = true;
      this.#wake();
    }
  }

  /** Nothing more is sent: the requests waiting to be sent again are not sent either. */
  #stop(reason: "max-cost" | "failing"): void {
    if (this.#progress.stopped !== undefined) return;
    this.#progress.stopped = reason;
    this.#progress.notSent += this.#retries.length;
    this.#retries.length = 0;
  }

  /**
   * Reads an input record; a bad one becomes a failure result, a good one a request to send. Its request is checked
   * by the client before it is sent (a refused one gives a failure result too): checking it here as well would cost
   * a second validation of every request.
   */
  #admit(record: unknown, line: number): Pending | undefined {
    const checked = readRecord(record, line, this.#model ?? this.#target.defaultModel);
    if ("error" in checked) {
      this.#fail(checked);
      return undefined;
    }
    const first = this.#seen.get(checked.key);
    if (first !== undefined) {
      this.#fail(
        invalid(checked.id, line, `line ${line}: duplicate id ${checked.key} (first on line ${first})`),
      );
      return undefined;
    }
    this.#seen.set(checked.key, line);
    const price = checked.model === undefined ? undefined : priceOf(checked.model, this.#prices);
    if (this.#maxCost !== undefined && price === undefined) {
      const model = checked.model ?? "the server's model";
      this.#fail(
        invalid(checked.id, line, `line ${line}: no price is known for ${model}, so maxCost cannot bound it`),
      );
      return undefined;
    }
    const promptTokens = estimateTokens(checked.chars);
    const maxTokens = checked.maxTokens ?? FIM_MAX_TOKENS;
    // Spelled out rather than spread: one object shape for every request, built once each.
    return {
      id: checked.id,
      key: checked.key,
      line: checked.line,
      request: checked.request,
      model: checked.model,
      chars: checked.chars,
      maxTokens: checked.maxTokens,
      price,
      promptTokens,
      taken: promptTokens + (checked.maxTokens ?? this.#typicalCompletion()),
      worstCost: price === undefined ? 0 : worstCaseCost(promptTokens, maxTokens, price),
      rateLimits: 0,
      notBefore: 0,
      ticket: undefined,
    };
  }

  /** Generated tokens an answer has had on average so far (16 before the first), for the bucket's estimate. */
  #typicalCompletion(): number {
    return this.#answersWithUsage === 0 ? 16 : Math.ceil(this.#completionTokensSeen / this.#answersWithUsage);
  }

  #dueRetry(now: number): Pending | undefined {
    let due: number | undefined;
    for (let i = 0; i < this.#retries.length; i++) {
      const retry = this.#retries[i] as Pending;
      if (
        retry.notBefore <= now &&
        (due === undefined || retry.notBefore < (this.#retries[due] as Pending).notBefore)
      ) {
        due = i;
      }
    }
    return due === undefined ? undefined : this.#retries.splice(due, 1)[0];
  }

  #send(item: Pending): void {
    item.ticket = this.#aimd.send();
    if (item.rateLimits === 0) this.#progress.sent += 1;
    this.#inFlight.add(item);
    this.#reservedCost += item.worstCost;
    const started = performance.now();
    this.#target.complete(item.request, this.#callOptions).then(
      (answer) => this.#answered(item, answer, started),
      (error: unknown) => this.#failed(item, error),
    );
  }

  #land(item: Pending): void {
    this.#inFlight.delete(item);
    this.#reservedCost -= item.worstCost;
  }

  #answered(item: Pending, answer: TargetAnswer, started: number): void {
    const now = performance.now();
    this.#land(item);
    this.#rateLimitedInARow = 0;
    this.#failingInARow = 0;
    this.#limitChanged(this.#aimd.succeeded(this.#inFlight.size));
    const usage = answer.usage;
    const progress = this.#progress;
    if (usage !== undefined) {
      const hit = usage.prompt_cache_hit_tokens ?? 0;
      progress.promptTokens += usage.prompt_tokens;
      progress.cacheHitTokens += hit;
      progress.completionTokens += usage.completion_tokens;
      this.#completionTokensSeen += usage.completion_tokens;
      this.#answersWithUsage += 1;
      if (item.price !== undefined) {
        const { cacheHit, cacheMiss, output } = item.price;
        progress.cost +=
          (hit * cacheHit + (usage.prompt_tokens - hit) * cacheMiss + usage.completion_tokens * output) /
          1_000_000;
      }
    }
    this.#bucket?.settle(item.taken, usage === undefined ? item.taken : usage.total_tokens, now);
    const result: BatchAnswer = {
      id: item.id,
      text: answer.text,
      finish_reason: answer.finish_reason,
      usage: usage ?? null,
      latency_ms: Math.round(now - started),
    };
    if (answer.logprobs !== undefined) result.logprobs = answer.logprobs;
    progress.answered += 1;
    this.#push(result);
  }

  #failed(item: Pending, error: unknown): void {
    const now = performance.now();
    this.#land(item);
    // A 429 is not billed, and an aborted or failed request is assumed not to be.
    this.#bucket?.settle(item.taken, 0, now);
    if (this.#abort.signal.aborted) {
      this.#wake();
      return;
    }
    if (error instanceof RateLimitError) {
      this.#progress.rateLimited += 1;
      const ticket = item.ticket as Ticket;
      let older = 0;
      for (const other of this.#inFlight) if ((other.ticket as Ticket).seq < ticket.seq) older += 1;
      if (this.#aimd.isNews(ticket)) this.#rateLimitedInARow += 1;
      this.#limitChanged(this.#aimd.rateLimited(ticket, older));
      const retryAfter =
        error.retryAfterMs === undefined ? undefined : Math.min(error.retryAfterMs, MAX_RETRY_AFTER_MS);
      if (retryAfter !== undefined && retryAfter > 0 && now + retryAfter > this.#pausedUntil) {
        // The limit is the account's: nothing else goes before it passes either.
        this.#pausedUntil = now + retryAfter;
        this.#emitPause(retryAfter, "retry-after");
      }
      // 429s with no answer in between, each sent under the limit lowered by the one before, more than a window's
      // worth: the account is full with others' requests, and even one at a time would hammer it. Everything waits,
      // longer each time.
      const overflow = this.#rateLimitedInARow - this.#aimd.limit;
      if (retryAfter === undefined && overflow > 0) {
        const wait = backoffDelay(Math.min(overflow, 6), Math.random());
        if (now + wait > this.#pausedUntil) {
          this.#pausedUntil = now + wait;
          this.#emitPause(wait, "rate-limited");
        }
      }
      if (item.rateLimits < this.#maxRateLimitRetries) {
        // Over a concurrency limit the request only needs a free slot, which the lowered limit now governs: it goes
        // again at once; after a second 429 it waits, longer each time.
        item.notBefore =
          now +
          (retryAfter ?? (item.rateLimits === 0 ? 0 : backoffDelay(item.rateLimits - 1, Math.random())));
        item.rateLimits += 1;
        this.#retries.push(item);
        this.#wake();
        return;
      }
    }
    if (isAboutTheEndpoint(error)) {
      this.#failingInARow += 1;
      if (this.#stopAfterFailures > 0 && this.#failingInARow >= this.#stopAfterFailures)
        this.#stop("failing");
    }
    this.#fail(error instanceof ValidationError ? invalidRequest(item, error) : failureOf(item.id, error));
  }

  #fail(failure: BatchFailure): void {
    this.#progress.failed += 1;
    this.#push(failure);
  }

  #push(result: BatchResult): void {
    this.#results.push(result);
    if (this.listenerCount("progress") > 0) this.emit("progress", this.progress());
    this.#wake();
  }

  #limitChanged(change: LimitChange | undefined): void {
    if (change !== undefined) this.emit("concurrency", change);
  }

  #emitPause(ms: number, reason: BatchPause["reason"]): void {
    this.emit("pause", { ms, reason });
  }

  #wake(): void {
    const pump = this.#wakePump;
    const reader = this.#wakeReader;
    this.#wakePump = undefined;
    this.#wakeReader = undefined;
    pump?.();
    reader?.();
  }

  /** Waits for something to change (a result, an abort), or `ms` at most. */
  #sleep(ms?: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = ms === undefined ? undefined : setTimeout(done, Math.max(1, Math.ceil(ms)));
      function done(): void {
        clearTimeout(timer);
        resolve();
      }
      this.#wakePump = done;
    });
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

/** An error every request would get alike: the key, the balance, the endpoint, the connection. */
function isAboutTheEndpoint(error: unknown): boolean {
  return (
    error instanceof AuthenticationError ||
    error instanceof InsufficientBalanceError ||
    error instanceof NotFoundError ||
    error instanceof ConnectionError
  );
}

function iterate(
  input: AsyncIterable<unknown> | Iterable<unknown>,
): AsyncIterator<unknown> | Iterator<unknown> {
  return Symbol.asyncIterator in input ? input[Symbol.asyncIterator]() : input[Symbol.iterator]();
}
