import { describe, expect, it } from "vitest";
import { emptyTotals, type UsageTotals } from "../src/usage-totals.js";
import { formatHorizon, usageYield } from "../src/usage-yield.js";

const totals = (figures: Partial<UsageTotals>): UsageTotals => ({ ...emptyTotals(), ...figures });

describe("usageYield", () => {
  it("divides what was taken by the cost and the generated tokens, and scales it by the share kept", () => {
    const y = usageYield(
      totals({
        cost: 0.002,
        completionTokens: 500,
        acceptedChars: 1000,
        retention: {
          "30": { checkedChars: 800, retainedChars: 720, retainedCharsSq: 0 },
          "600": { checkedChars: 400, retainedChars: 200, retainedCharsSq: 0 },
        },
      }),
      [30, 120],
    );
    expect(y.acceptedCharsPerDollar).toBe(500_000);
    expect(y.acceptedCharsPer1kOutputTokens).toBe(2000);
    expect(y.retained).toEqual([
      {
        seconds: 30,
        checkedChars: 800,
        retainedChars: 720,
        rate: 0.9,
        perDollar: 450_000,
        per1kOutputTokens: 1800,
      },
      {
        seconds: 120,
        checkedChars: 0,
        retainedChars: 0,
        rate: null,
        perDollar: null,
        per1kOutputTokens: null,
      },
      {
        seconds: 600,
        checkedChars: 400,
        retainedChars: 200,
        rate: 0.5,
        perDollar: 250_000,
        per1kOutputTokens: 1000,
      },
    ]);
  });

  it("has no figure per dollar without a cost (the simulator, unpriced models) nor per token without tokens", () => {
    const y = usageYield(totals({ acceptedChars: 10 }));
    expect([y.acceptedCharsPerDollar, y.acceptedCharsPer1kOutputTokens, y.retained]).toEqual([
      null,
      null,
      [],
    ]);
  });
});

describe("formatHorizon", () => {
  it.each([
    [30, "30 s"],
    [0.2, "0.2 s"],
    [90, "90 s"],
    [120, "2 min"],
    [600, "10 min"],
    [5400, "90 min"],
    [7200, "2 h"],
  ])("%d → %s", (seconds, text) => {
    expect(formatHorizon(seconds)).toBe(text);
  });
});
