// Confidence intervals for the figures of `infill usage --by context`: how sure a comparison of a few hundred
// requests with and without repository context can be. Closed forms on the counts the usage log keeps (sums and sums
// of squares), so no per-request data is ever stored.

/** The z of a two-sided 95 % interval. */
export const Z95 = 1.959963984540054;

/** An estimate and its interval. */
export interface Estimate {
  value: number;
  low: number;
  high: number;
}

/**
 * Wilson's score interval for a proportion, `successes` of `n` (better than the normal interval near 0 and 1 and on
 * small samples); null when `n` is 0.
 */
export function wilson(successes: number, n: number, z = Z95): Estimate | null {
  if (!(n > 0)) return null;
  const p = Math.min(1, Math.max(0, successes / n));
  const z2 = z * z;
  const centre = (p + z2 / (2 * n)) / (1 + z2 / n);
  const half = (z / (1 + z2 / n)) * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  return { value: p, low: Math.max(0, centre - half), high: Math.min(1, centre + half) };
}

/**
 * The difference of two proportions, `a` minus `b`, with Newcombe's hybrid score interval (method 10 of Newcombe
 * 1998, built from each side's Wilson interval); null when either side has no sample.
 */
export function proportionDifference(
  a: { successes: number; n: number },
  b: { successes: number; n: number },
  z = Z95,
): Estimate | null {
  const wa = wilson(a.successes, a.n, z);
  const wb = wilson(b.successes, b.n, z);
  if (!wa || !wb) return null;
  const value = wa.value - wb.value;
  return {
    value,
    low: value - Math.sqrt((wa.value - wa.low) ** 2 + (wb.high - wb.value) ** 2),
    high: value + Math.sqrt((wa.high - wa.value) ** 2 + (wb.value - wb.low) ** 2),
  };
}

/** A mean per unit, from the sum and the sum of squares of `n` values, with its standard error. */
export interface Mean {
  /** How many values. */
  n: number;
  mean: number;
  /** Standard error of the mean (sample variance over n); 0 with fewer than two values. */
  standardError: number;
}

/**
 * The mean of `n` values known by their `sum` and `sumOfSquares` (values not counted in either are zeros: a
 * request that got nothing taken adds to `n` only); null when `n` is 0.
 */
export function meanOf(sum: number, sumOfSquares: number, n: number): Mean | null {
  if (!(n > 0)) return null;
  const mean = sum / n;
  if (n < 2) return { n, mean, standardError: 0 };
  // Rounding can make a variance of identical values a hair below 0.
  const variance = Math.max(0, (sumOfSquares - n * mean * mean) / (n - 1));
  return { n, mean, standardError: Math.sqrt(variance / n) };
}

/**
 * `a` minus `b` with a normal (Welch) interval, each mean scaled by `scale` first (e.g. 1 / cost per request, for a
 * figure per dollar, the cost per request taken as known); null when either side is missing.
 */
export function meanDifference(
  a: Mean | null,
  b: Mean | null,
  scale: { a: number; b: number } = { a: 1, b: 1 },
  z = Z95,
): Estimate | null {
  if (!a || !b || !Number.isFinite(scale.a) || !Number.isFinite(scale.b)) return null;
  const value = a.mean * scale.a - b.mean * scale.b;
  const half = z * Math.hypot(a.standardError * scale.a, b.standardError * scale.b);
  return { value, low: value - half, high: value + half };
}
