import { describe, expect, it } from "vitest";
import { adaptiveWait, Cadence } from "../../src/documents/adaptive-debounce.js";

describe("adaptiveWait", () => {
  it.each([
    ["no cadence known yet", [], 100, 100],
    ["four gaps are not enough", [35, 35, 36, 35], 100, 100],
    ["a steady fast typist: just past the gap", [35, 35, 36, 35, 36], 100, 37],
    ["jitter widens the wait", [35, 40, 30, 45, 35, 38, 33], 100, 45],
    ["pauses between bursts are not cadence", [35, 36, 35, 900, 35, 36, 2_000, 35], 100, 37],
    ["an odd long gap in a burst barely moves it", [35, 35, 35, 35, 35, 35, 35, 90], 100, 36],
    ["never above the bound", [90, 95, 99, 92, 97], 100, 100],
    ["a slow typist waits the bound", [150, 200, 180, 170, 160], 100, 100],
    ["gaps under 20 ms are not typing", [8, 9, 8, 8, 9, 8], 100, 100],
    ["requests read together after a busy moment do not count", [12, 1, 0, 38, 34, 36, 35, 37], 100, 40],
    ["at least 20 ms", [20, 20, 21, 20, 20], 100, 22],
    ["a bound of 0: no debounce at all", [35, 35, 35, 35, 35], 0, 0],
    ["a bound below the floor is the wait", [25, 25, 25, 25, 25], 10, 10],
  ])("%s: %j within %d ms → %d ms", (_, gaps, maxMs, wait) => {
    expect(adaptiveWait(gaps, maxMs)).toBe(wait);
  });
});

describe("Cadence", () => {
  it("learns the gaps between requests, keeps the latest, and seeds a new document", () => {
    const cadence = new Cadence();
    let now = 1_000;
    for (let i = 0; i < 6; i++) {
      now += 35;
      cadence.record(now);
    }
    expect(cadence.waitMs(100)).toBe(36);
    // A slower stretch: the latest 24 gaps count, so the wait follows.
    for (let i = 0; i < 30; i++) {
      now += 60;
      cadence.record(now);
    }
    expect(cadence.waitMs(100)).toBe(61);
    const seeded = new Cadence(cadence);
    expect(seeded.waitMs(100)).toBe(61);
    // Its first request is not a gap after the other document's last.
    seeded.record(now + 5);
    expect(seeded.waitMs(100)).toBe(61);
  });
});
