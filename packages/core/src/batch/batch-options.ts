import { FimClient } from "../client.js";
import type { ModelPrice } from "../prices.js";
import type { ProviderClient } from "../provider-client.js";
import { AimdController } from "./aimd.js";
import { type BatchTarget, batchTarget } from "./batch-target.js";
import { RequestIntake } from "./request-intake.js";
import { type BatchShard, checkShard } from "./shard.js";
import { FailureStreak } from "./stop-rules.js";
import { TokenBucket } from "./token-bucket.js";

// The options of a batch: what each means, its default, and the checked parts a run is made of.

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

/** What a run is made of, from its options. */
export interface BatchParts {
  readonly target: BatchTarget;
  readonly intake: RequestIntake;
  readonly aimd: AimdController;
  readonly bucket: TokenBucket | undefined;
  readonly maxCost: number | undefined;
  readonly maxRateLimitRetries: number;
  readonly failing: FailureStreak;
}

/**
 * The parts of a run, each checked.
 * @throws {RangeError} for a bad concurrency bound, cap, cost or shard; {ValidationError} from the default client.
 */
export function batchParts(options: BatchOptions): BatchParts {
  const target = batchTarget(options.client ?? new FimClient());
  const aimd = new AimdController({
    initial: options.concurrency,
    min: options.minConcurrency,
    max: options.maxConcurrency,
  });
  const bucket =
    options.tokensPerMinute === undefined
      ? undefined
      : new TokenBucket(options.tokensPerMinute, performance.now());
  if (options.maxCost !== undefined && !(options.maxCost >= 0)) {
    throw new RangeError(`maxCost must be a non-negative number of US dollars, got ${options.maxCost}`);
  }
  const intake = new RequestIntake(target, {
    model: options.model ?? target.defaultModel,
    prices: options.prices ?? {},
    pricesNeeded: options.maxCost !== undefined,
    shard: options.shard === undefined ? undefined : checkShard(options.shard),
  });
  return {
    target,
    intake,
    aimd,
    bucket,
    maxCost: options.maxCost,
    maxRateLimitRetries: options.maxRateLimitRetries ?? BATCH_DEFAULTS.maxRateLimitRetries,
    failing: new FailureStreak(options.stopAfterFailures ?? BATCH_DEFAULTS.stopAfterFailures),
  };
}
