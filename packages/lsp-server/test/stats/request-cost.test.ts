import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { afterEach, describe, expect, it } from "vitest";
import { RequestCosts } from "../../src/stats/request-cost.js";

// A full collection on demand, so that the windows below hold one, or none, for sure.
setFlagsFromString("--expose-gc");
const collect = runInNewContext("gc") as () => void;

describe("RequestCosts", () => {
  const costs = new RequestCosts();
  afterEach(() => costs.stop());

  it("counts a collection that ran while the request did, and then knows no heap growth", async () => {
    const end = costs.begin();
    collect();
    const cost = await end();
    expect(cost.gcMs).toBeGreaterThan(0);
    expect(cost.heapBytes).toBeNull();
  });

  it("counts no collection that ran before the request, and the heap it grew by", async () => {
    collect();
    const end = costs.begin();
    // 800 KB of doubles, in the large-object space: no scavenge, and no full collection just after one.
    const big = new Array<number>(100_000).fill(0.5);
    const cost = await end();
    expect(big).toHaveLength(100_000);
    expect(cost).toEqual({ gcMs: 0, heapBytes: expect.any(Number) });
    expect(cost.heapBytes).toBeGreaterThanOrEqual(800_000);
    expect(cost.heapBytes).toBeLessThan(2_000_000);
  });

  it("measures overlapping requests each over its own time, and again after it stopped", async () => {
    const first = costs.begin();
    collect();
    const second = costs.begin();
    const [a, b] = await Promise.all([first(), second()]);
    expect(a.gcMs).toBeGreaterThan(0);
    expect(b).toEqual({ gcMs: 0, heapBytes: expect.any(Number) });
    costs.stop();
    const again = costs.begin();
    collect();
    expect((await again()).gcMs).toBeGreaterThan(0);
  });
});
