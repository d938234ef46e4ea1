import { describe, expect, it } from "vitest";
import { FAILURE_POLICIES, holdMs, policyFor } from "../../src/upstream/failure-policy.js";

describe("the policy table", () => {
  it.each([
    ["balance", [30_000, 60_000, 120_000, 240_000, 300_000, 300_000]],
    ["unavailable", [1_000, 2_000, 4_000, 8_000, 16_000, 32_000, 60_000]],
    ["bad-request", [1_000, 2_000, 4_000]],
    ["rate-limit", [1_000, 2_000]],
    ["auth", [Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY]],
    ["model-not-found", [Number.POSITIVE_INFINITY]],
    ["fim-unsupported", [Number.POSITIVE_INFINITY]],
    ["no-endpoint", [Number.POSITIVE_INFINITY]],
    ["invalid-request", [Number.POSITIVE_INFINITY]],
    ["no-key", [Number.POSITIVE_INFINITY]],
  ] as const)("%s holds requests back for %j ms after 1, 2, … failures in a row", (kind, holds) => {
    expect(holds.map((_, i) => holdMs(FAILURE_POLICIES[kind].hold, i + 1))).toEqual(holds);
  });

  it("honours Retry-After for rate limits only, as a lower bound", () => {
    expect(holdMs(FAILURE_POLICIES["rate-limit"].hold, 1, 30_000)).toBe(30_000);
    expect(holdMs(FAILURE_POLICIES["rate-limit"].hold, 7, 5_000)).toBe(60_000);
    expect(holdMs(FAILURE_POLICIES.unavailable.hold, 1, 30_000)).toBe(1_000);
  });

  it("lets invoked requests through everything but what only the settings or environment fix", () => {
    const through = Object.entries(FAILURE_POLICIES)
      .filter(([, policy]) => policy.invokedTries)
      .map(([kind]) => kind)
      .sort();
    expect(through).toEqual(["bad-request", "balance", "rate-limit", "unavailable"]);
  });
});

describe("policyFor", () => {
  it("lets Ollama's missing model back off (the user pulls it) where the other providers block", () => {
    expect(policyFor("model-not-found", "ollama").hold.until).toBe("backoff");
    expect(policyFor("model-not-found", "ollama").invokedTries).toBe(true);
    expect(policyFor("model-not-found", "deepseek").hold.until).toBe("settings");
    expect(policyFor("unavailable", "ollama")).toBe(FAILURE_POLICIES.unavailable);
  });
});

describe("when the user is told", () => {
  it("at once for what only the user can fix, once it persists for what passes by itself", () => {
    const atOnce = Object.entries(FAILURE_POLICIES)
      .filter(([, policy]) => policy.tell === "at-once")
      .map(([kind]) => kind)
      .sort();
    expect(atOnce).toEqual([
      "auth",
      "balance",
      "fim-unsupported",
      "invalid-request",
      "model-not-found",
      "no-endpoint",
      "no-key",
    ]);
    // Ollama's missing model backs off like an outage, but the user must pull it: told at once.
    expect(policyFor("model-not-found", "ollama").tell).toBe("at-once");
  });
});
