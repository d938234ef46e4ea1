/**
 * An estimated cost in US dollars as shown everywhere (`infill usage`, `infill.status`, the editors): `$0`, then six
 * decimals below a cent, four below a dollar, two from a dollar on. Fixed decimals, so that every editor's plugin
 * prints the same digits with its own printf.
 */
export function formatCost(usd: number): string {
  if (usd === 0) return "$0";
  const decimals = usd < 0.01 ? 6 : usd < 1 ? 4 : 2;
  return `$${usd.toFixed(decimals)}`;
}

/** A share 0..1 as a whole percentage, or `–` when there is none. */
export function formatPercent(ratio: number | null): string {
  return ratio === null ? "–" : `${Math.round(ratio * 100)} %`;
}
