// `@infill/core/usage`: prices, usage totals and the usage log's writer, without the HTTP client or zod, for a
// process that must start fast (the language server counts usage from its first request but loads the client on
// first use). Everything here is also exported from `@infill/core`, with the log's reader.
export {
  type BilledTokens,
  estimateCost,
  type ModelPrice,
  PRICES,
  PRICES_AS_OF,
  priceOf,
} from "./prices.js";
export {
  CONTEXT_ARMS,
  type ContextArm,
  DEFAULT_USAGE_KIND,
  isContextArm,
  isUsageKind,
  UNKNOWN_DIMENSION,
  USAGE_KINDS,
  type UsageKind,
  usageLanguage,
} from "./usage-dimensions.js";
export { formatCost, formatPercent } from "./usage-format.js";
export { appendUsageRecords, localDay, type UsageRecord, usageDirectory, usageFile } from "./usage-log.js";
export {
  acceptanceRate,
  addTotals,
  cacheHitRatio,
  emptyTotals,
  horizonKey,
  horizonsOf,
  isEmptyTotals,
  type RetentionTotals,
  type UsageTotals,
} from "./usage-totals.js";
export { formatHorizon, type RetainedFigures, type UsageYield, usageYield } from "./usage-yield.js";
