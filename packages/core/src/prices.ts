/** What a model costs, in US dollars per million tokens. */
export interface ModelPrice {
  /** Prompt tokens served from the provider's context cache. */
  cacheHit: number;
  /** Prompt tokens that were not in the cache. */
  cacheMiss: number;
  /** Generated tokens. */
  output: number;
}

/** Tokens of one or more requests, split the way they are billed. */
export interface BilledTokens {
  /** Prompt tokens served from the context cache. */
  cacheHit: number;
  /** Prompt tokens that were not in the cache. */
  cacheMiss: number;
  /** Generated tokens. */
  completion: number;
}

// DeepSeek's list prices for the V4 models, per million tokens, from the official "Models & Pricing" page
// (https://api-docs.deepseek.com/quick_start/pricing): the archived copy of 2026-04-26
// (https://megalodon.jp/ref/2026-0426-0157-09/https://api-docs.deepseek.com:443/quick_start/pricing) and the copies
// of the page up to 2026-07, which agree; read for infill on 2026-11-23. The cache-hit price is the one cut to a tenth
// of the launch price on 2026-04-26. The peak/off-peak pricing announced for 2026-07 (peak hours at twice the
// off-peak price) is known only from secondary sources and is not applied: a cost from this table is an estimate.
// Users correct or extend it with the `prices` setting of the language server.
/** List prices of the models DeepSeek serves FIM completions with (see the source in the comment above). */
export const PRICES: Readonly<Record<string, Readonly<ModelPrice>>> = Object.freeze({
  "deepseek-v4-flash": Object.freeze({ cacheHit: 0.0028, cacheMiss: 0.14, output: 0.28 }),
  "deepseek-v4-pro": Object.freeze({ cacheHit: 0.003625, cacheMiss: 0.435, output: 0.87 }),
});

/** The date of the newest copy of DeepSeek's pricing page that {@link PRICES} was checked against (YYYY-MM). */
export const PRICES_AS_OF = "2026-07";

/**
 * The price of `model`: from `overrides` first (a model there replaces the built-in entry whole), then from
 * {@link PRICES}; undefined when neither knows it.
 */
export function priceOf(
  model: string,
  overrides: Readonly<Record<string, ModelPrice>> = {},
): ModelPrice | undefined {
  return Object.hasOwn(overrides, model)
    ? overrides[model]
    : Object.hasOwn(PRICES, model)
      ? PRICES[model]
      : undefined;
}

/** What `tokens` cost at `price`, in US dollars: an estimate (list prices, no discounts or time-of-day rates). */
export function estimateCost(tokens: BilledTokens, price: ModelPrice): number {
  return (
    (tokens.cacheHit * price.cacheHit +
      tokens.cacheMiss * price.cacheMiss +
      tokens.completion * price.output) /
    1_000_000
  );
}
