import type { ModelPrice } from "../prices.js";
import type { Usage } from "../schemas.js";

// The counts of a batch: requests sent, answered, failed and rate-limited, the tokens and cost of the answers, and
// the cost reserved by the requests in flight. Pure: outcomes in, figures out.

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

/** The counts of one batch; {@link progress} is updated in place. */
export class BatchTally {
  /** The counts (`inFlight`, `concurrency` and `elapsedMs` are the run's to fill in a snapshot). */
  readonly progress: BatchProgress = {
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
  /** The most the requests in flight can cost (US dollars). */
  reservedCost = 0;
  #completionTokensSeen = 0;
  #answersWithUsage = 0;

  /** Counts an answer: its usage, when the provider gave one, and its cost at `price`, when known. */
  answered(usage: Usage | undefined, price: ModelPrice | undefined): void {
    const progress = this.progress;
    if (usage !== undefined) {
      const hit = usage.prompt_cache_hit_tokens ?? 0;
      progress.promptTokens += usage.prompt_tokens;
      progress.cacheHitTokens += hit;
      progress.completionTokens += usage.completion_tokens;
      this.#completionTokensSeen += usage.completion_tokens;
      this.#answersWithUsage += 1;
      if (price !== undefined) {
        const { cacheHit, cacheMiss, output } = price;
        progress.cost +=
          (hit * cacheHit + (usage.prompt_tokens - hit) * cacheMiss + usage.completion_tokens * output) /
          1_000_000;
      }
    }
    progress.answered += 1;
  }

  /** Generated tokens an answer has had on average so far (16 before the first), for the bucket's estimate. */
  typicalCompletion(): number {
    return this.#answersWithUsage === 0 ? 16 : Math.ceil(this.#completionTokensSeen / this.#answersWithUsage);
  }
}
