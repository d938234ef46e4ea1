import { describe, expect, it } from "vitest";
import { type Release, UpstreamGate } from "../../src/completion/upstream-gate.js";

/** Enter the gate as `name`, recording when it gets in. */
function enter(gate: UpstreamGate, name: string, order: string[], giveUp?: Promise<unknown>) {
  return gate.enter(giveUp).then((release) => {
    if (release) order.push(name);
    return release;
  });
}

describe("UpstreamGate", () => {
  it("lets `capacity` in at once, then the newest waiter first as slots free up", async () => {
    const gate = new UpstreamGate(() => 2);
    const order: string[] = [];
    const a = await enter(gate, "a", order);
    const b = await enter(gate, "b", order);
    const waiting = ["c", "d", "e"].map((name) => enter(gate, name, order));
    expect(gate.inUse).toBe(2);
    expect(gate.waiting).toBe(3);
    a!();
    await waiting[2];
    expect(order).toEqual(["a", "b", "e"]);
    b!();
    await waiting[1];
    expect(order).toEqual(["a", "b", "e", "d"]);
    expect(gate.waiting).toBe(1);
  });

  it("drops a waiter that gives up, which never gets a slot", async () => {
    const gate = new UpstreamGate(() => 1);
    const order: string[] = [];
    const first = (await enter(gate, "first", order))!;
    let supersede!: () => void;
    const superseded = new Promise<void>((resolve) => {
      supersede = resolve;
    });
    const dropped = enter(gate, "dropped", order, superseded);
    const kept = enter(gate, "kept", order);
    const later = enter(gate, "later", order, new Promise(() => {}));
    supersede();
    expect(await dropped).toBeUndefined();
    expect(gate.waiting).toBe(2);
    first();
    const next = (await later)!;
    next();
    (await kept)!();
    expect(order).toEqual(["first", "later", "kept"]);
    expect(gate.inUse).toBe(0);
  });

  it("gives a slot that is free even to a request that gave up (it checks itself), and frees it once", async () => {
    const gate = new UpstreamGate(() => 1);
    const release = (await gate.enter(Promise.resolve())) as Release;
    expect(gate.inUse).toBe(1);
    release();
    release();
    expect(gate.inUse).toBe(0);
  });

  it("reads the capacity as it changes", async () => {
    let capacity = 1;
    const gate = new UpstreamGate(() => capacity);
    const order: string[] = [];
    const a = (await enter(gate, "a", order))!;
    const b = enter(gate, "b", order);
    const c = enter(gate, "c", order);
    capacity = 3;
    a();
    await Promise.all([b, c]);
    expect(order).toEqual(["a", "c", "b"]);
    expect(gate.inUse).toBe(2);
  });
});
