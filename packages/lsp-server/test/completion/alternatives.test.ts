import type { FimRequest } from "@infill/core";
import { describe, expect, it } from "vitest";
import {
  ALTERNATIVE_TEMPERATURES,
  askAlternatives,
  type Candidate,
  meanLogprob,
  rankCandidates,
} from "../../src/completion/alternatives.js";
import type { PostProcessContext } from "../../src/completion/postprocess.js";
import type { Upstream } from "../../src/upstream/upstream.js";

const c = (text: string, order: number, meanLogprob?: number): Candidate => ({
  result: { text, replaceEnd: 0 },
  meanLogprob,
  order,
});

describe("rankCandidates", () => {
  it.each<[string, Candidate[], string[]]>([
    [
      "by mean log probability when every one has it",
      [c("a", 0, -0.9), c("b", 1, -0.2), c("c", 2, -0.5)],
      ["b", "c", "a"],
    ],
    ["in the order asked when one has none", [c("a", 0, -0.9), c("b", 1), c("c", 2, -0.1)], ["a", "b", "c"]],
    ["ties in the order asked", [c("a", 0, -0.5), c("b", 1, -0.5)], ["a", "b"]],
    [
      "duplicates dropped (trailing whitespace aside), the better kept",
      [c("x;", 0, -0.9), c("x;  ", 1, -0.1)],
      ["x;  "],
    ],
    ["blank ones dropped", [c("  \n", 0, -0.1), c("y", 1, -0.9)], ["y"]],
    ["none", [], []],
  ])("%s", (_, candidates, texts) => {
    expect(rankCandidates(candidates).map((x) => x.result.text)).toEqual(texts);
  });
});

describe("meanLogprob", () => {
  it.each<[number[] | undefined, number | undefined]>([
    [[-1, -0.5, 0], -0.5],
    [[], undefined],
    [undefined, undefined],
  ])("%j → %j", (values, mean) => {
    expect(meanLogprob(values)).toBe(mean);
  });
});

describe("askAlternatives", () => {
  const ctx: PostProcessContext = { lineBefore: "x = ", lineAfter: "", suffix: "\n", mode: "single-line" };
  const request: FimRequest = { prompt: "x = ", suffix: "\n", max_tokens: 8, temperature: 0 };

  it("asks each at its own temperature, whole, with log probabilities; counts each; leaves out what failed", async () => {
    const asked: FimRequest[] = [];
    const upstream: Upstream = {
      stream() {
        throw new Error("whole, not streamed");
      },
      async complete(r) {
        asked.push(r);
        if (r.temperature === ALTERNATIVE_TEMPERATURES[1]) throw new Error("503");
        return {
          text: `v${r.temperature}`,
          finish_reason: "stop",
          usage: undefined,
          model: undefined,
          logprobs: [-0.25],
          raw: {},
        };
      },
    };
    const ends: string[] = [];
    let slots = 0;
    const candidates = await askAlternatives({
      upstream,
      request,
      ctx,
      count: 3,
      giveUp: new Promise(() => {}),
      enter: async () => {
        slots++;
        return () => {};
      },
      onUpstream: () => (end) => ends.push(end.outcome),
    });
    expect(asked.map((r) => [r.temperature, r.logprobs])).toEqual(
      ALTERNATIVE_TEMPERATURES.slice(0, 3).map((t) => [t, 1]),
    );
    expect(candidates.map((x) => [x.result.text, x.order, x.meanLogprob])).toEqual([
      ["v0.5", 1, -0.25],
      ["v1", 3, -0.25],
    ]);
    expect(slots).toBe(3);
    expect(ends.sort()).toEqual(["completed", "completed", "failed"]);
  });

  it("sends none once nobody wants them (no slot given)", async () => {
    let asked = 0;
    const upstream: Upstream = {
      stream() {
        throw new Error("no");
      },
      async complete() {
        asked++;
        throw new Error("no");
      },
    };
    const candidates = await askAlternatives({
      upstream,
      request,
      ctx,
      count: 2,
      giveUp: Promise.resolve(),
      enter: async () => undefined,
    });
    expect(candidates).toEqual([]);
    expect(asked).toBe(0);
  });
});
