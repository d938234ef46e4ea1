import { describe, expect, it } from "vitest";
import { contextEffect, formatContextEffect } from "../src/context-effect.js";
import { emptyTotals, type UsageTotals } from "../src/usage-totals.js";

const totals = (figures: Partial<UsageTotals>): UsageTotals => ({ ...emptyTotals(), ...figures });

// With context: 100 requests, $0.01, 40 of 80 shown taken, 1000 characters taken (sum of squares 30,000), 900 kept
// at 30 s (27,000). Held out: 20 requests, $0.0012, 4 of 16, 100 characters (3,000), 60 kept (1,800).
const on = totals({
  requests: 100,
  cost: 0.01,
  shown: 80,
  accepted: 30,
  acceptedPartly: 10,
  acceptedChars: 1000,
  acceptedCharsSq: 30_000,
  retention: { "30": { checkedChars: 1000, retainedChars: 900, retainedCharsSq: 27_000 } },
});
const holdout = totals({
  requests: 20,
  cost: 0.0012,
  shown: 16,
  accepted: 4,
  acceptedChars: 100,
  acceptedCharsSq: 3000,
  retention: { "30": { checkedChars: 100, retainedChars: 60, retainedCharsSq: 1800 } },
});

describe("contextEffect", () => {
  it("compares the characters taken and kept per request and per dollar, with the sample sizes", () => {
    const effect = contextEffect(on, holdout, [30]);
    expect(effect.with).toMatchObject({ requests: 100, acceptedPerRequest: { n: 100, mean: 10 } });
    expect(effect.with.costPerRequest).toBeCloseTo(0.0001, 12);
    expect(effect.heldOut).toMatchObject({ requests: 20, acceptedPerRequest: { n: 20, mean: 5 } });
    expect(effect.with.acceptanceRate?.value).toBe(0.5);
    expect(effect.heldOut.acceptanceRate?.value).toBe(0.25);

    const d = effect.difference;
    expect(d.acceptanceRate?.value).toBe(0.25);
    expect(d.acceptedPerRequest?.value).toBe(5);
    // Sample variances: (30,000 − 100·10²)/99 and (3,000 − 20·5²)/19.
    const se = Math.hypot(Math.sqrt(20_000 / 99 / 100), Math.sqrt(2500 / 19 / 20));
    expect(d.acceptedPerRequest!.high - 5).toBeCloseTo(1.959964 * se, 5);
    // Per dollar: 1000 / $0.01 − 100 / $0.0012.
    expect(d.acceptedPerDollar?.value).toBeCloseTo(100_000 - 100 / 0.0012, 6);
    expect(d.keptPerRequest).toEqual([{ seconds: 30, estimate: expect.objectContaining({ value: 9 - 3 }) }]);
    expect(d.keptPerDollar[0]!.estimate?.value).toBeCloseTo(90_000 - 60 / 0.0012, 6);
  });

  it("says what the interval of the longest horizon's kept characters per dollar allows", () => {
    const text = formatContextEffect(contextEffect(on, holdout, [30]));
    expect(text).toContain(
      "Not told apart yet: the interval of characters kept at 30 s per dollar includes 0",
    );
    expect(text).toMatch(/^requests\s+100\s+20$/m);
    expect(text).toMatch(/^acceptance rate\s+50 % \(\d+–\d+ %\)\s+25 % \(\d+–\d+ %\)\s+\+25 pts/m);
    // 5 ± 1.96 × 2.93 (the standard error above).
    expect(text).toMatch(/^accepted chars per request\s+10\.0\s+5\.0\s+\+5\.0 \(−0\.7 to \+10\.7\)$/m);

    // Ten times the samples, the same means: the interval leaves 0.
    const times = (t: UsageTotals, k: number): UsageTotals => ({
      ...t,
      requests: t.requests * k,
      cost: t.cost * k,
      acceptedChars: t.acceptedChars * k,
      acceptedCharsSq: t.acceptedCharsSq * k,
      retention: {
        "30": {
          checkedChars: t.retention["30"]!.checkedChars * k,
          retainedChars: t.retention["30"]!.retainedChars * k,
          retainedCharsSq: t.retention["30"]!.retainedCharsSq * k,
        },
      },
    });
    expect(formatContextEffect(contextEffect(times(on, 10), times(holdout, 10), [30]))).toContain(
      "Context pays for itself here: more characters kept at 30 s per dollar with it",
    );
    // Held out keeps more per dollar.
    expect(formatContextEffect(contextEffect(times(holdout, 10), times(on, 10), [30]))).toContain(
      "Context costs more than it earns here",
    );
  });

  it("says how to measure when nothing was held out", () => {
    expect(formatContextEffect(contextEffect(on, emptyTotals(), [30]))).toMatch(
      /^No request was held out .*set `context.holdout`/,
    );
  });
});
