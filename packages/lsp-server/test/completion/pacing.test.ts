import { describe, expect, it } from "vitest";
import { Pacing, type PacingSettings } from "../../src/completion/pacing.js";

function pacing(overrides: Partial<PacingSettings> = {}) {
  const settings: PacingSettings = {
    debounceMs: 100,
    adaptiveDebounce: true,
    maxConcurrent: 2,
    ...overrides,
  };
  return new Pacing(() => settings);
}

/** Requests for `uri` every `gap` ms, `count` of them; the debounce of the last. */
function typeAt(p: Pacing, uri: string, gap: number, count: number, from = 0): number {
  let wait = 0;
  for (let i = 0; i < count; i++) wait = p.arrived(uri, "inline", from + i * gap, false);
  return wait;
}

describe("Pacing", () => {
  it("waits the upper bound until the cadence is known, then just past the typist's gap", () => {
    const p = pacing();
    expect(typeAt(p, "file:///a", 40, 3)).toBe(100);
    expect(typeAt(p, "file:///a", 40, 8, 1_000)).toBe(41);
  });

  it("a request the user invoked waits for nothing", () => {
    const p = pacing();
    expect(p.arrived("file:///a", "inline", 0, true)).toBe(0);
  });

  it("waits the fixed debounce with adaptiveDebounce off", () => {
    const p = pacing({ adaptiveDebounce: false, debounceMs: 70 });
    expect(typeAt(p, "file:///a", 40, 10)).toBe(70);
  });

  it("a new document starts from the cadence learned last; a forgotten one starts again", () => {
    const p = pacing();
    typeAt(p, "file:///a", 40, 10);
    expect(p.arrived("file:///b", "inline", 5_000, false)).toBe(41);
    p.forget("file:///b");
    expect(p.arrived("file:///b", "completion", 6_000, false)).toBe(41);
  });

  it("caps the requests in flight; the newest waiting goes first", async () => {
    const p = pacing({ maxConcurrent: 1 });
    const never = new Promise<never>(() => {});
    const first = await p.enter(never);
    const order: string[] = [];
    const older = p.enter(never).then((release) => {
      order.push("older");
      release?.();
    });
    const newer = p.enter(never).then((release) => {
      order.push("newer");
      release?.();
    });
    expect(p.load).toEqual({ inFlight: 1, waiting: 2 });
    first?.();
    await Promise.all([older, newer]);
    expect(order).toEqual(["newer", "older"]);
  });
});
