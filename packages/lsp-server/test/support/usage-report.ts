import type { Usage } from "@infill/core";

/** A usage report as DeepSeek sends it: 1000 prompt tokens, 896 of them from the cache, 12 generated. */
export const USAGE: Usage = {
  prompt_tokens: 1000,
  prompt_cache_hit_tokens: 896,
  prompt_cache_miss_tokens: 104,
  completion_tokens: 12,
  total_tokens: 1012,
};

/** What {@link USAGE} costs at deepseek-v4-flash's list prices, in US dollars. */
export const USAGE_FLASH_COST = (896 * 0.0028 + 104 * 0.14 + 12 * 0.28) / 1e6;
