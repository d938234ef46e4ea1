import { getEventListeners } from "node:events";
import { describe, expect, it } from "vitest";
import { CallScope } from "../src/call-scope.js";

describe("calls under one caller's signal", () => {
  it("share one listener on it, gone with the last call; an abort reaches every call", () => {
    const controller = new AbortController();
    const scopes = Array.from({ length: 3 }, () => new CallScope(60_000, controller.signal));
    expect(getEventListeners(controller.signal, "abort")).toHaveLength(1);
    scopes[0]?.dispose();
    scopes[1]?.dispose();
    expect(getEventListeners(controller.signal, "abort")).toHaveLength(1);
    scopes[2]?.dispose();
    expect(getEventListeners(controller.signal, "abort")).toHaveLength(0);

    const live = Array.from({ length: 3 }, () => new CallScope(60_000, controller.signal));
    live[1]?.dispose();
    controller.abort(new Error("stop"));
    expect(live.map((scope) => scope.aborted)).toEqual([true, false, true]);
    expect(getEventListeners(controller.signal, "abort")).toHaveLength(0);
    expect(live[0]?.toError(new Error("x"), undefined).name).toBe("AbortError");
    // A call made after the abort is aborted from the start.
    expect(new CallScope(60_000, controller.signal).aborted).toBe(true);
  });
});
