import { describe, expect, it } from "vitest";
import { fnv1a, HOLDOUT_REGION_LINES, heldOut } from "../../src/completion/holdout.js";

describe("fnv1a", () => {
  it.each([
    ["", 0x811c9dc5],
    ["a", 0xe40c292c],
    ["foobar", 0xbf9cf968],
  ])("%j → %i (the published test vectors)", (text, hash) => {
    expect(fnv1a(text)).toBe(hash);
  });
});

describe("heldOut", () => {
  const uris = Array.from({ length: 400 }, (_, i) => `file:///project/src/module${i}.ts`);

  it("holds nothing out at 0 and everything at 1", () => {
    expect(uris.some((uri) => heldOut(uri, 3, "2026-11-02", 0))).toBe(false);
    expect(uris.every((uri) => heldOut(uri, 3, "2026-11-02", 1))).toBe(true);
  });

  it("gives every line of a region the same answer, so the prompt cache keeps hitting there", () => {
    for (const uri of uris.slice(0, 50)) {
      const first = heldOut(uri, HOLDOUT_REGION_LINES, "2026-11-02", 0.3);
      for (let line = HOLDOUT_REGION_LINES; line < 2 * HOLDOUT_REGION_LINES; line++) {
        expect(heldOut(uri, line, "2026-11-02", 0.3)).toBe(first);
      }
    }
  });

  it("holds out about the share asked, over documents, regions and days", () => {
    let held = 0;
    for (const uri of uris) {
      for (const day of ["2026-11-02", "2026-11-03"]) {
        for (const line of [0, 30, 60]) {
          if (heldOut(uri, line, day, 0.1)) held++;
        }
      }
    }
    // 2400 draws of a fair 10 % coin: 240 expected, 4.3 standard deviations either side.
    expect(held).toBeGreaterThan(180);
    expect(held).toBeLessThan(300);
  });

  it("changes with the day, so no file is held out (or not) for a whole month", () => {
    const days = Array.from({ length: 30 }, (_, i) => `2026-11-${String(i + 1).padStart(2, "0")}`);
    const answers = new Set(days.map((day) => heldOut(uris[0]!, 0, day, 0.5)));
    expect(answers).toEqual(new Set([true, false]));
  });
});
