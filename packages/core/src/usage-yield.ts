// What completion earns for what it costs: characters taken and characters still there at each retention horizon,
// per US dollar and per 1000 generated tokens. Derived from totals, so `infill.status`, `infill usage` and the
// editors show the same figures.
import { horizonsOf, type UsageTotals } from "./usage-totals.js";

/** The characters still there at one horizon, and what they cost. */
export interface RetainedFigures {
  /** The horizon, in seconds after the suggestion was first taken. */
  seconds: number;
  /** Characters taken whose check at this horizon ran (younger ones are not checked yet). */
  checkedChars: number;
  /** Of those, the characters still in the document where they went. */
  retainedChars: number;
  /** `retainedChars / checkedChars`, 0..1; null when none was checked. */
  rate: number | null;
  /**
   * Characters kept per US dollar: characters taken per dollar times `rate` (so that takes too young to be checked,
   * and the cost of the requests behind them, do not skew it); null without a cost or a rate.
   */
  perDollar: number | null;
  /** Characters kept per 1000 generated tokens, the same way; null without generated tokens or a rate. */
  per1kOutputTokens: number | null;
}

/** What the characters taken and kept come to per dollar and per generated token. */
export interface UsageYield {
  /** Characters taken per US dollar of estimated cost; null when nothing priced was spent. */
  acceptedCharsPerDollar: number | null;
  /** Characters taken per 1000 generated tokens; null when no generated tokens were reported. */
  acceptedCharsPer1kOutputTokens: number | null;
  /** At each horizon (shortest first): those given, and any the totals have checks of. */
  retained: RetainedFigures[];
}

/** The yield of `totals`, listing at least the `horizons` given (in seconds). */
export function usageYield(totals: Readonly<UsageTotals>, horizons: readonly number[] = []): UsageYield {
  const perDollar = totals.cost > 0 ? totals.acceptedChars / totals.cost : null;
  const per1k = totals.completionTokens > 0 ? (totals.acceptedChars * 1000) / totals.completionTokens : null;
  const all = [...new Set([...horizons, ...horizonsOf(totals.retention)])].sort((a, b) => a - b);
  return {
    acceptedCharsPerDollar: perDollar,
    acceptedCharsPer1kOutputTokens: per1k,
    retained: all.map((seconds) => {
      const checks = totals.retention[String(seconds)];
      const checkedChars = checks?.checkedChars ?? 0;
      const retainedChars = checks?.retainedChars ?? 0;
      const rate = checkedChars > 0 ? Math.min(1, retainedChars / checkedChars) : null;
      return {
        seconds,
        checkedChars,
        retainedChars,
        rate,
        perDollar: perDollar !== null && rate !== null ? perDollar * rate : null,
        per1kOutputTokens: per1k !== null && rate !== null ? per1k * rate : null,
      };
    }),
  };
}

/** A horizon for people: `30 s`, `2 min`, `10 min`, `1.5 h`, `0.2 s`. */
export function formatHorizon(seconds: number): string {
  if (seconds < 60 || seconds % 60 !== 0) return `${seconds} s`;
  if (seconds < 3600 || seconds % 3600 !== 0) return `${seconds / 60} min`;
  return `${seconds / 3600} h`;
}
