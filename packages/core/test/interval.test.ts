import { describe, expect, it } from "vitest";
import { meanDifference, meanOf, proportionDifference, wilson } from "../src/interval.js";

describe("wilson", () => {
  // Reference values: Newcombe (1998), table I (95 %), and the closed form for 0 and n of n.
  it.each<[number, number, number, number]>([
    [81, 263, 0.2553, 0.3662],
    [15, 148, 0.0624, 0.1605],
    [0, 20, 0, 0.1611],
    [1, 29, 0.0061, 0.1718],
    [29, 29, 0.883, 1],
  ])("%d of %d: %f to %f", (successes, n, low, high) => {
    const interval = wilson(successes, n)!;
    expect(interval.value).toBeCloseTo(successes / n, 12);
    expect(interval.low).toBeCloseTo(low, 3);
    expect(interval.high).toBeCloseTo(high, 3);
  });

  it("has no interval without a sample", () => {
    expect(wilson(0, 0)).toBeNull();
  });
});

describe("proportionDifference", () => {
  // Newcombe (1998), table II, method 10: 56/70 − 48/80 = 0.2000 (0.0524 to 0.3339); 9/10 − 3/10 = 0.6 (0.1705 to
  // 0.8090).
  it.each<[number, number, number, number, number, number]>([
    [56, 70, 48, 80, 0.0524, 0.3339],
    [9, 10, 3, 10, 0.1705, 0.809],
  ])("%d/%d − %d/%d", (s1, n1, s2, n2, low, high) => {
    const d = proportionDifference({ successes: s1, n: n1 }, { successes: s2, n: n2 })!;
    expect(d.value).toBeCloseTo(s1 / n1 - s2 / n2, 12);
    expect(d.low).toBeCloseTo(low, 3);
    expect(d.high).toBeCloseTo(high, 3);
  });

  it("has none when a side has no sample", () => {
    expect(proportionDifference({ successes: 1, n: 2 }, { successes: 0, n: 0 })).toBeNull();
  });
});

describe("meanOf and meanDifference", () => {
  it("takes the mean and its standard error from the sums (values not in the sums are zeros)", () => {
    // Values 2, 4, 0, 0 (two requests with nothing taken): mean 1.5, sample variance 11/3.
    const m = meanOf(6, 20, 4)!;
    expect(m.mean).toBe(1.5);
    expect(m.standardError).toBeCloseTo(Math.sqrt(11 / 3 / 4), 12);
    expect(meanOf(5, 25, 1)).toEqual({ n: 1, mean: 5, standardError: 0 });
    expect(meanOf(0, 0, 0)).toBeNull();
    // Identical values: no variance, even when rounding says a hair below 0.
    expect(meanOf(0.3, 0.09 / 3 + 0.09 / 3 + 0.09 / 3, 3)!.standardError).toBeGreaterThanOrEqual(0);
  });

  it("differs two means with a normal interval, scaled (per dollar) when asked", () => {
    const a = { n: 100, mean: 12, standardError: 1 };
    const b = { n: 25, mean: 8, standardError: 2 };
    const d = meanDifference(a, b)!;
    expect(d.value).toBe(4);
    expect(d.high - d.value).toBeCloseTo(1.959964 * Math.sqrt(5), 5);
    const perDollar = meanDifference(a, b, { a: 10, b: 20 })!;
    expect(perDollar.value).toBe(120 - 160);
    expect(perDollar.value - perDollar.low).toBeCloseTo(1.959964 * Math.hypot(10, 40), 4);
    expect(meanDifference(a, null)).toBeNull();
    expect(meanDifference(a, b, { a: Number.NaN, b: 1 })).toBeNull();
  });
});
