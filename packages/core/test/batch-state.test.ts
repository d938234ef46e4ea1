import { describe, expect, it } from "vitest";
import { BatchTally } from "../src/batch/batch-tally.js";
import { batchTarget } from "../src/batch/batch-target.js";
import { type Pending, RequestIntake } from "../src/batch/request-intake.js";
import { ResultChannel } from "../src/batch/result-channel.js";
import { ResultQueue } from "../src/batch/result-queue.js";
import { RetryQueue } from "../src/batch/retry-queue.js";
import { FimClient } from "../src/client.js";
import type { ModelPrice } from "../src/prices.js";

const FLASH = { cacheHit: 0.0028, cacheMiss: 0.14, output: 0.28 };

describe("RetryQueue", () => {
  it("gives the request longest past its time, the first queued among equals, and none before its time", () => {
    const queue = new RetryQueue<{ id: string; notBefore: number }>();
    expect(queue.soonest()).toBe(Infinity);
    for (const [id, notBefore] of [
      ["a", 5],
      ["b", 3],
      ["c", 3],
      ["d", 10],
    ] as const)
      queue.push({ id, notBefore });
    expect(queue.soonest()).toBe(3);
    expect(queue.takeDue(2)).toBeUndefined();
    expect([4, 4, 4, 9, 9].map((now) => queue.takeDue(now)?.id)).toEqual([
      "b",
      "c",
      undefined,
      "a",
      undefined,
    ]);
    expect(queue.size).toBe(1);
    expect(queue.soonest()).toBe(10);
    expect(queue.clear()).toBe(1);
    expect(queue.size).toBe(0);
    expect(queue.takeDue(Infinity)).toBeUndefined();
  });
});

describe("ResultQueue", () => {
  it("is first in, first out across its compactions", () => {
    const queue = new ResultQueue<number>();
    expect(queue.shift()).toBeUndefined();
    const out: number[] = [];
    let next = 0;
    // Uneven pushes and reads, past the 1024 read results after which it compacts, several times over.
    for (let round = 0; round < 40; round++) {
      for (let i = 0; i < 100 + (round % 7); i++) queue.push(next++);
      for (let i = 0; i < 90 + (round % 11); i++) {
        const item = queue.shift();
        if (item !== undefined) out.push(item);
      }
      expect(queue.size).toBe(next - out.length);
    }
    for (let item = queue.shift(); item !== undefined; item = queue.shift()) out.push(item);
    expect(out).toEqual(Array.from({ length: next }, (_, i) => i));
    expect(queue.size).toBe(0);
  });
});

describe("BatchTally", () => {
  it("counts answers, their tokens and their cost at list prices, and the typical completion", () => {
    const tally = new BatchTally();
    expect(tally.typicalCompletion()).toBe(16);
    tally.answered(
      { prompt_tokens: 1000, prompt_cache_hit_tokens: 400, completion_tokens: 10, total_tokens: 1010 },
      FLASH,
    );
    tally.answered({ prompt_tokens: 100, completion_tokens: 5, total_tokens: 105 }, undefined);
    tally.answered(undefined, FLASH);
    const { answered, promptTokens, cacheHitTokens, completionTokens, cost } = tally.progress;
    expect({ answered, promptTokens, cacheHitTokens, completionTokens }).toEqual({
      answered: 3,
      promptTokens: 1100,
      cacheHitTokens: 400,
      completionTokens: 15,
    });
    // Only the first has a price: 400 hits, 600 misses, 10 generated.
    expect(cost).toBeCloseTo((400 * 0.0028 + 600 * 0.14 + 10 * 0.28) / 1e6, 15);
    // (10 + 5) / 2 answers with usage, rounded up.
    expect(tally.typicalCompletion()).toBe(8);
  });
});

describe("RequestIntake", () => {
  const prompt = "x".repeat(35);
  // Nothing is sent: the intake only prepares each request's body.
  const target = batchTarget(new FimClient({ apiKey: "sk-intake", baseURL: "http://127.0.0.1:9" }));
  const intake = (
    model: string | undefined,
    prices: Record<string, ModelPrice>,
    pricesNeeded: boolean,
  ): RequestIntake => new RequestIntake(target, { model, prices, pricesNeeded });

  it.each<[string, unknown, RegExp]>([
    ["not an object", [1, 2], /line 1: a record must be a JSON object/],
    ["no id", { prompt }, /line 1: the record has no id/],
    ["an empty id", { id: "", prompt }, /neither a non-empty string nor an integer/],
  ])("refuses a record with %s, naming its line", (_, record, message) => {
    const failure = intake("deepseek-v4-flash", {}, false).admit(record, 1, 16);
    expect(failure).toMatchObject({ id: null, line: 1, error: { message: expect.stringMatching(message) } });
  });

  it("refuses an id seen before, naming the line it was first on", () => {
    const ids = intake("deepseek-v4-flash", {}, false);
    expect(ids.admit({ id: 7, prompt }, 1, 16)).not.toHaveProperty("error");
    expect(ids.admit({ id: "7", prompt }, 2, 16)).not.toHaveProperty("error");
    expect(ids.admit({ id: 7, prompt }, 3, 16)).toMatchObject({
      id: 7,
      error: { message: "line 3: duplicate id 7 (first on line 1)" },
    });
  });

  it("refuses a model with no price when a cost cap needs one, and takes a price given", () => {
    const capped = intake(undefined, { "my-model": FLASH }, true);
    expect(capped.admit({ id: 1, prompt }, 1, 16)).toMatchObject({
      error: { message: "line 1: no price is known for the server's model, so maxCost cannot bound it" },
    });
    expect(capped.admit({ id: 2, prompt, model: "other" }, 2, 16)).toMatchObject({
      error: { message: expect.stringContaining("no price is known for other") },
    });
    expect(capped.admit({ id: 3, prompt, model: "my-model" }, 3, 16)).toMatchObject({ price: FLASH });
    // Without a cap an unpriced model goes, costing nothing known.
    const free = intake(undefined, {}, false).admit({ id: 4, prompt, model: "other" }, 4, 16);
    expect(free).toMatchObject({ price: undefined, worstCost: 0 });
  });

  it.each<[string, Record<string, unknown>, Partial<Pending>]>([
    // 35 characters: 10 prompt tokens; no max_tokens: the typical completion (20) counted ahead, 4096 at worst.
    [
      "no max_tokens",
      { prompt },
      { promptTokens: 10, taken: 30, worstCost: (10 * 0.14 + 4096 * 0.28) / 1e6, maxTokens: undefined },
    ],
    [
      "max_tokens 64 and a suffix",
      { prompt, suffix: "y".repeat(7), max_tokens: 64 },
      { promptTokens: 12, taken: 76, worstCost: (12 * 0.14 + 64 * 0.28) / 1e6, maxTokens: 64 },
    ],
  ])("estimates a request with %s", (_, fields, expected) => {
    const item = intake("deepseek-v4-flash", {}, true).admit({ id: "a", ...fields }, 5, 20);
    expect(item).toMatchObject({
      id: "a",
      line: 5,
      model: "deepseek-v4-flash",
      rateLimits: 0,
      notBefore: 0,
      ticket: undefined,
      ...expected,
    });
    if (item === undefined || "error" in item) throw new Error("not admitted");
    // The body sent: the record without its id, the model filled in.
    expect(JSON.parse(item.prepared as string)).toEqual({ model: "deepseek-v4-flash", ...fields });
    expect(item.worstCost).toBeCloseTo(expected.worstCost as number, 15);
  });
});

describe("ResultChannel", () => {
  it("hands results over in order, says when the reader caught up after it was full, then ends with the error", async () => {
    let drained = 0;
    const channel = new ResultChannel<number>(2, () => {
      drained += 1;
    });
    const waiting = channel.next();
    channel.push(1);
    expect(await waiting).toEqual({ value: 1, done: false });
    channel.push(2);
    expect(channel.full()).toBe(false);
    channel.push(3);
    expect(channel.full()).toBe(true);
    expect(await channel.next()).toEqual({ value: 2, done: false });
    expect(drained).toBe(0);
    expect(await channel.next()).toEqual({ value: 3, done: false });
    expect(drained).toBe(1);
    let closed = false;
    void channel.closed().then(() => {
      closed = true;
    });
    channel.push(4);
    channel.close({ error: new Error("input failed") });
    await channel.closed();
    expect(closed).toBe(true);
    expect(await channel.next()).toEqual({ value: 4, done: false });
    await expect(channel.next()).rejects.toThrow("input failed");
    expect(await channel.next()).toEqual({ value: undefined, done: true });
  });
});
