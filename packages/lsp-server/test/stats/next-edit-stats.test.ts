import { describe, expect, it } from "vitest";
import { type NextEditEvent, type NextEditFate, nextFate } from "../../src/stats/next-edit-outcomes.js";
import { NextEditStats } from "../../src/stats/next-edit-stats.js";
import { statusLine } from "../../src/stats/status-line.js";
import type { Status } from "../../src/stats/status-schema.js";

describe("nextFate", () => {
  const cases: Array<
    [NextEditFate | undefined, NextEditEvent, NextEditFate | undefined, [number, number, number]]
  > = [
    [undefined, "shown", "shown", [1, 0, 0]],
    ["shown", "shown", "shown", [0, 0, 0]],
    [undefined, "accepted", "accepted", [1, 1, 0]],
    ["shown", "accepted", "accepted", [0, 1, 0]],
    ["accepted", "accepted", "accepted", [0, 0, 0]],
    ["shown", "dropped", "dismissed", [0, 0, 1]],
    [undefined, "dropped", undefined, [0, 0, 0]],
    ["accepted", "dropped", "accepted", [0, 0, 0]],
    ["dismissed", "dropped", "dismissed", [0, 0, 0]],
    ["dismissed", "accepted", "accepted", [0, 1, -1]],
    ["dismissed", "shown", "dismissed", [0, 0, 0]],
  ];
  it.each(cases)("%s + %s → %s %j", (fate, event, next, [shown, accepted, dismissed]) => {
    expect(nextFate(fate, event)).toEqual({ fate: next, delta: { shown, accepted, dismissed } });
  });
});

describe("NextEditStats", () => {
  it("counts requests, tokens and cost at the next-edit model's price, edits' fates, malformed answers", () => {
    const stats = new NextEditStats(() => ({ model: "deepseek-v4-flash", prices: {} }));
    stats.upstream()({
      outcome: "completed",
      ms: 5,
      usage: {
        prompt_tokens: 1000,
        completion_tokens: 100,
        total_tokens: 1100,
        prompt_cache_hit_tokens: 800,
      },
    });
    stats.upstream()({ outcome: "superseded", ms: 1 });
    stats.malformed("no-region");
    for (const [id, event] of [
      ["a", "shown"],
      ["a", "accepted"],
      ["b", "shown"],
      ["b", "dropped"],
      ["c", "dropped"],
    ] as const)
      stats.event(id, event);
    const figures = stats.figures();
    expect(figures).toMatchObject({
      requests: 2,
      superseded: 1,
      cacheHitTokens: 800,
      cacheMissTokens: 200,
      completionTokens: 100,
      shown: 2,
      accepted: 1,
      dismissed: 1,
      acceptanceRate: 0.5,
      malformed: { "no-region": 1 },
    });
    expect(figures.cost).toBeGreaterThan(0);
    const line = statusLine({
      total: {
        requests: 0,
        cacheHitTokens: 0,
        cacheMissTokens: 0,
        cacheHitRatio: null,
        cost: 0,
        unpricedTokens: 0,
        accepted: 0,
        acceptedPartly: 0,
        shown: 0,
        acceptanceRate: null,
        retained: [],
        latency: { endToEnd: { p50: null } },
      },
      nextEdits: figures,
    } as unknown as Status);
    expect(line).toContain("next edits: 2 requests, est. $");
    expect(line).toContain("taken 1 of 2 (50 %)");
  });
});
