import { afterEach, describe, expect, it, vi } from "vitest";
import { addDeadline, removeDeadline } from "../src/deadlines.js";

afterEach(() => {
  vi.useRealTimers();
});

describe("deadlines", () => {
  it("of one timeout share one timer, and each passes at its own time, in order", () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "performance"] });
    const expired: string[] = [];
    const owner = (name: string) => ({ expire: () => expired.push(name) });
    addDeadline(owner("a"), 1000);
    vi.advanceTimersByTime(300);
    const b = addDeadline(owner("b"), 1000);
    vi.advanceTimersByTime(300);
    addDeadline(owner("c"), 1000);
    addDeadline(owner("other timeout"), 5000);
    expect(vi.getTimerCount()).toBe(2);
    vi.advanceTimersByTime(399);
    expect(expired).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(expired).toEqual(["a"]);
    // b is removed before its time: c still passes at its own, not earlier.
    removeDeadline(b);
    removeDeadline(b);
    vi.advanceTimersByTime(599);
    expect(expired).toEqual(["a"]);
    vi.advanceTimersByTime(1);
    expect(expired).toEqual(["a", "c"]);
    vi.advanceTimersByTime(3999);
    expect(expired).toEqual(["a", "c"]);
    vi.advanceTimersByTime(1);
    expect(expired).toEqual(["a", "c", "other timeout"]);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("hold no timer once the last one is removed", () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "performance"] });
    const never = { expire: () => expect.unreachable() };
    const deadlines = [addDeadline(never, 60_000), addDeadline(never, 60_000)];
    expect(vi.getTimerCount()).toBe(1);
    for (const deadline of deadlines) removeDeadline(deadline);
    expect(vi.getTimerCount()).toBe(0);
    vi.advanceTimersByTime(120_000);
  });
});
