import { getEventListeners } from "node:events";
import { afterEach, describe, expect, it, vi } from "vitest";
import { CallScope } from "../src/call-scope.js";

afterEach(() => {
  vi.useRealTimers();
});

describe("CallScope", () => {
  it("clamps a finite timeout past setTimeout's range instead of setting no deadline", () => {
    vi.useFakeTimers();
    const scope = new CallScope(2 ** 40, undefined);
    vi.advanceTimersByTime(2 ** 31 - 1);
    expect(scope.aborted).toBe(true);
    expect(scope.toError(new Error("aborted"), undefined).message).toBe(
      "request timed out after 2147483647 ms",
    );
  });

  it("sets no timer for Infinity", () => {
    vi.useFakeTimers();
    const scope = new CallScope(Number.POSITIVE_INFINITY, undefined);
    expect(vi.getTimerCount()).toBe(0);
    expect(scope.remainingMs()).toBe(Number.POSITIVE_INFINITY);
  });

  it("lets go of the caller's signal and its timer as soon as it aborts, without waiting for dispose()", () => {
    vi.useFakeTimers();
    const controller = new AbortController();
    const scope = new CallScope(60_000, controller.signal);
    expect(getEventListeners(controller.signal, "abort")).toHaveLength(1);
    expect(vi.getTimerCount()).toBe(1);
    scope.stop();
    expect(getEventListeners(controller.signal, "abort")).toHaveLength(0);
    expect(vi.getTimerCount()).toBe(0);
    scope.dispose();
    scope.dispose();
    expect(scope.aborted).toBe(true);
  });
});
