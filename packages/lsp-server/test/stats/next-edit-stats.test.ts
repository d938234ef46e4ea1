import type { UsageTotals } from "@infill/core/usage";
import { describe, expect, it } from "vitest";
import { Documents } from "../../src/documents/documents.js";
import { type NextEditEvent, type NextEditFate, nextFate } from "../../src/stats/next-edit-outcomes.js";
import { NextEditStats } from "../../src/stats/next-edit-stats.js";
import { statusLine } from "../../src/stats/status-line.js";
import type { Status } from "../../src/stats/status-schema.js";
import { FakeTimers } from "../support/fake-timers.js";

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
    const stats = new NextEditStats(() => ({ model: "deepseek-v4-flash", prices: {}, horizons: [30] }));
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

describe("NextEditStats retention", () => {
  const uri = "file:///w/a.ts";
  const r = (sl: number, sc: number, el: number, ec: number) => ({
    start: { line: sl, character: sc },
    end: { line: el, character: ec },
  });

  function setup(text: string) {
    const documents = new Documents();
    documents.didOpen({ textDocument: { uri, languageId: "typescript", version: 1, text } });
    const timers = new FakeTimers();
    const logged: UsageTotals[] = [];
    const stats = new NextEditStats(
      () => ({ model: "deepseek-v4-flash", prices: {}, horizons: [30, 120] }),
      (delta) => logged.push(delta),
      (u) => documents.get(u)?.buffer,
      timers,
    );
    let version = 1;
    /** A change the user makes, followed as the server follows it. */
    const edit = (range: ReturnType<typeof r>, newText: string) => {
      const applied = documents.didChange({
        textDocument: { uri, version: ++version },
        contentChanges: [{ range, text: newText }],
      })!;
      stats.changed(uri, applied.changes);
    };
    return { documents, timers, logged, stats, edit };
  }

  // Each case: the applied edit "sum" at line 1, 4–7 of "use(sum);", then what the user does before the checks.
  const cases: Array<[string, Array<[ReturnType<typeof r>, string]>, number]> = [
    ["left alone", [], 3],
    ["text typed before it on its line (the place moves)", [[r(1, 0, 1, 0), "  "]], 3],
    ["lines added above it", [[r(0, 0, 0, 0), "// a\n// b\n"]], 3],
    ["renamed again (a third of it kept is under the floor)", [[r(1, 4, 1, 7), "xyz"]], 0],
    ["its line deleted", [[r(1, 0, 2, 0), ""]], 0],
  ];
  it.each(cases)("%s", (_name, edits, retained) => {
    const { timers, stats, edit, logged } = setup("let sum = 0;\nuse(total);\n");
    edit(r(1, 4, 1, 9), "sum");
    stats.applied(uri, [{ range: r(1, 4, 1, 7), text: "sum" }]);
    for (const [range, text] of edits) edit(range, text);
    timers.advance(30_000);
    expect(stats.figures().retained).toEqual([
      { seconds: 30, checkedChars: 3, retainedChars: retained, rate: retained / 3 },
      { seconds: 120, checkedChars: 0, retainedChars: 0, rate: null },
    ]);
    timers.advance(90_000);
    expect(stats.figures().retained[1]).toMatchObject({ checkedChars: 3, retainedChars: retained });
    expect(stats.figures().acceptedChars).toBe(3);
    // Each count also goes to the usage log: the characters applied, then one check per horizon.
    expect(logged.map((d) => [d.acceptedChars, Object.keys(d.retention)])).toEqual([
      [3, []],
      [0, ["30"]],
      [0, ["120"]],
    ]);
    expect(timers.pending).toBe(0);
  });

  it("checks a closed document's edits on its last text, and a deletion not at all", () => {
    const { timers, stats, edit, documents } = setup("let sum = 0;\nuse(total);\nlog(x);\n");
    edit(r(1, 4, 1, 9), "sum");
    stats.applied(uri, [
      { range: r(1, 4, 1, 7), text: "sum" },
      { range: r(2, 4, 2, 4), text: "" },
    ]);
    stats.closed(uri);
    documents.didClose(uri);
    timers.advance(120_000);
    expect(stats.figures().retained.map((h) => [h.checkedChars, h.retainedChars])).toEqual([
      [3, 3],
      [3, 3],
    ]);
  });

  it("makes the pending checks at dispose", () => {
    const { timers, stats, edit } = setup("let sum = 0;\nuse(total);\n");
    edit(r(1, 4, 1, 9), "sum");
    stats.applied(uri, [{ range: r(1, 4, 1, 7), text: "sum" }]);
    stats.dispose();
    expect(stats.figures().retained.map((h) => h.checkedChars)).toEqual([3, 3]);
    expect(timers.pending).toBe(0);
  });
});
