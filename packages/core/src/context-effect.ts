// Whether repository context pays for itself in the user's own codebase: the requests the `context.holdout` setting
// sent without the repository block against those sent with it, from the usage log's sums. Held-out requests are
// chosen by a stable hash of the document and region (independently of what they are about), so the two arms differ
// only by the context block.
import {
  type Estimate,
  type Mean,
  meanDifference,
  meanOf,
  proportionDifference,
  wilson,
} from "./interval.js";
import { formatCount, textTable } from "./text-table.js";
import { formatCost, formatPercent } from "./usage-format.js";
import type { UsageTotals } from "./usage-totals.js";
import { formatHorizon } from "./usage-yield.js";

/** One arm's figures, per request and per dollar, with their uncertainty. */
export interface ArmFigures {
  /** Upstream requests (the sample size). */
  requests: number;
  /** Estimated cost per request, US dollars; null without requests. */
  costPerRequest: number | null;
  /** Suggestions taken (whole or in part) over those shown, with Wilson's interval; null when none was shown. */
  acceptanceRate: Estimate | null;
  /** Characters taken per request (a request that gave nothing taken counts 0). */
  acceptedPerRequest: Mean | null;
  /** Characters still there at each horizon, per request. */
  keptPerRequest: Array<{ seconds: number; mean: Mean | null }>;
}

/** The two arms side by side, and the difference "with context" minus "held out" with 95 % intervals. */
export interface ContextEffect {
  with: ArmFigures;
  heldOut: ArmFigures;
  difference: {
    /** In proportion points (0.11 = 11 points), Newcombe's interval. */
    acceptanceRate: Estimate | null;
    /** Characters taken per request. */
    acceptedPerRequest: Estimate | null;
    /** Characters taken per dollar (each arm's cost per request taken as known). */
    acceptedPerDollar: Estimate | null;
    keptPerRequest: Array<{ seconds: number; estimate: Estimate | null }>;
    keptPerDollar: Array<{ seconds: number; estimate: Estimate | null }>;
  };
}

function arm(totals: Readonly<UsageTotals>, horizons: readonly number[]): ArmFigures {
  const n = totals.requests;
  return {
    requests: n,
    costPerRequest: n > 0 ? totals.cost / n : null,
    acceptanceRate: wilson(totals.accepted + totals.acceptedPartly, totals.shown),
    acceptedPerRequest: meanOf(totals.acceptedChars, totals.acceptedCharsSq, n),
    keptPerRequest: horizons.map((seconds) => {
      const checks = totals.retention[String(seconds)];
      return { seconds, mean: meanOf(checks?.retainedChars ?? 0, checks?.retainedCharsSq ?? 0, n) };
    }),
  };
}

/** 1 / cost per request: turns a mean per request into a figure per dollar; NaN when nothing priced was spent. */
function perDollar(a: ArmFigures): number {
  return a.costPerRequest && a.costPerRequest > 0 ? 1 / a.costPerRequest : Number.NaN;
}

/** The effect of context from the totals of the requests sent with it (`on`) and held out (`holdout`). */
export function contextEffect(
  on: Readonly<UsageTotals>,
  holdout: Readonly<UsageTotals>,
  horizons: readonly number[],
): ContextEffect {
  const a = arm(on, horizons);
  const b = arm(holdout, horizons);
  const dollars = { a: perDollar(a), b: perDollar(b) };
  return {
    with: a,
    heldOut: b,
    difference: {
      acceptanceRate: proportionDifference(
        { successes: on.accepted + on.acceptedPartly, n: on.shown },
        { successes: holdout.accepted + holdout.acceptedPartly, n: holdout.shown },
      ),
      acceptedPerRequest: meanDifference(a.acceptedPerRequest, b.acceptedPerRequest),
      acceptedPerDollar: meanDifference(a.acceptedPerRequest, b.acceptedPerRequest, dollars),
      keptPerRequest: horizons.map((seconds, i) => ({
        seconds,
        estimate: meanDifference(a.keptPerRequest[i]!.mean, b.keptPerRequest[i]!.mean),
      })),
      keptPerDollar: horizons.map((seconds, i) => ({
        seconds,
        estimate: meanDifference(a.keptPerRequest[i]!.mean, b.keptPerRequest[i]!.mean, dollars),
      })),
    },
  };
}

/** A number with at most one decimal under 100 and none above, with separators. */
function amount(n: number): string {
  return Math.abs(n) < 100 ? n.toFixed(1) : formatCount(n);
}

function signed(n: number, format: (n: number) => string): string {
  const text = format(Math.abs(n));
  return n > 0 ? `+${text}` : n < 0 ? `−${text}` : text;
}

/** `+3.2 (−1.0 to +7.4)`, or `–`. */
function difference(estimate: Estimate | null, format: (n: number) => string = amount): string {
  if (!estimate || !Number.isFinite(estimate.value)) return "–";
  return `${signed(estimate.value, format)} (${signed(estimate.low, format)} to ${signed(estimate.high, format)})`;
}

const points = (n: number) => `${Math.round(n * 100)} pts`;

function rate(estimate: Estimate | null): string {
  if (!estimate) return "–";
  return `${formatPercent(estimate.value)} (${Math.round(estimate.low * 100)}–${Math.round(estimate.high * 100)} %)`;
}

function mean(m: Mean | null, scale = 1): string {
  return m && Number.isFinite(scale) ? amount(m.mean * scale) : "–";
}

/**
 * The comparison as text: the sample sizes, the figures of each arm and their difference with a 95 % interval, and
 * what can be said from it (about the characters kept at the longest horizon per dollar, else those taken).
 */
export function formatContextEffect(effect: ContextEffect): string {
  const { with: a, heldOut: b, difference: d } = effect;
  if (b.requests === 0) {
    return (
      "No request was held out from repository context in this period: set `context.holdout` (e.g. 0.1) in " +
      "infill-lsp's settings to measure what context earns in your own use.\n"
    );
  }
  const rows: string[][] = [
    ["", "with context", "held out", "difference (95 % interval)"],
    ["requests", formatCount(a.requests), formatCount(b.requests), ""],
    [
      "cost per request",
      a.costPerRequest === null ? "–" : formatCost(a.costPerRequest),
      b.costPerRequest === null ? "–" : formatCost(b.costPerRequest),
      "",
    ],
    ["acceptance rate", rate(a.acceptanceRate), rate(b.acceptanceRate), difference(d.acceptanceRate, points)],
    [
      "accepted chars per request",
      mean(a.acceptedPerRequest),
      mean(b.acceptedPerRequest),
      difference(d.acceptedPerRequest),
    ],
  ];
  a.keptPerRequest.forEach(({ seconds, mean: m }, i) => {
    rows.push([
      `kept at ${formatHorizon(seconds)} per request`,
      mean(m),
      mean(b.keptPerRequest[i]!.mean),
      difference(d.keptPerRequest[i]!.estimate),
    ]);
  });
  rows.push([
    "accepted chars per $",
    mean(a.acceptedPerRequest, perDollar(a)),
    mean(b.acceptedPerRequest, perDollar(b)),
    difference(d.acceptedPerDollar),
  ]);
  a.keptPerRequest.forEach(({ seconds, mean: m }, i) => {
    rows.push([
      `kept at ${formatHorizon(seconds)} per $`,
      mean(m, perDollar(a)),
      mean(b.keptPerRequest[i]!.mean, perDollar(b)),
      difference(d.keptPerDollar[i]!.estimate),
    ]);
  });
  const longest = d.keptPerDollar.at(-1);
  const [what, judged] = longest
    ? [`characters kept at ${formatHorizon(longest.seconds)} per dollar`, longest.estimate]
    : ["characters taken per dollar", d.acceptedPerDollar];
  return [
    "Context's effect: requests sent with the repository block against those `context.holdout` sent without it",
    "",
    textTable(rows),
    "",
    verdict(what, judged, b.requests),
    "Intervals treat requests as independent (requests in one region of a file share the choice, so they are",
    "somewhat narrow) and each arm's cost per request as known.",
    "",
  ].join("\n");
}

/** What the interval of `what` says. */
function verdict(what: string, estimate: Estimate | null, heldOut: number): string {
  if (!estimate || !Number.isFinite(estimate.value)) return `No priced requests: ${what} cannot be compared.`;
  if (estimate.low > 0)
    return `Context pays for itself here: more ${what} with it (the interval is above 0).`;
  if (estimate.high < 0)
    return `Context costs more than it earns here: fewer ${what} with it (the interval is below 0).`;
  return `Not told apart yet: the interval of ${what} includes 0 (${formatCount(heldOut)} held-out requests; more narrow it).`;
}
