import { describe, expect, it } from "vitest";
import { bestWindows, identifierSet, indexWindows, jaccard } from "../../src/context/similar/similar.js";

describe("identifierSet", () => {
  it.each([
    [
      "const total = items.reduce((sum, item) => sum + item.price, 0);",
      ["total", "items", "reduce", "sum", "item", "price"],
    ],
    ["if (x) { return $el._y; }", ["$el", "_y"]],
    ["def load(self, path): pass", ["load", "path"]],
    ["", []],
  ])("%s", (text, ids) => {
    expect([...identifierSet(text)]).toEqual(ids);
  });
});

describe("jaccard", () => {
  const s = (...words: string[]) => new Set(words);
  it.each([
    [s("a1", "b1"), s("a1", "b1"), 1],
    [s("a1", "b1"), s("c1"), 0],
    [s("a1", "b1", "c1"), s("b1", "c1", "d1"), 0.5],
    [s(), s(), 0],
  ])("%j ~ %j = %s", (a, b, expected) => {
    expect(jaccard(a, b)).toBe(expected);
    expect(jaccard(b, a)).toBe(expected);
  });
});

describe("indexWindows and bestWindows", () => {
  const lines = Array.from({ length: 45 }, (_, i) =>
    i >= 20 && i < 25 ? `const price${i} = cart.total(tax);` : `log${i}();`,
  );

  it("cuts overlapping windows that end at the last line", () => {
    const { windows } = indexWindows(lines, 20, 10);
    expect(windows.map((w) => [w.start, w.end])).toEqual([
      [0, 19],
      [10, 29],
      [20, 39],
      [30, 44],
    ]);
  });

  it("finds the windows sharing the query's identifiers, best first, never overlapping", () => {
    const index = indexWindows(lines, 20, 10);
    const best = bestWindows(index, identifierSet("cart.total(tax)"), 3);
    expect(best.map((b) => [b.window.start, b.window.end])).toEqual([[10, 29]]);
    expect(best[0]!.score).toBeCloseTo(3 / (3 + index.windows[1]!.size - 3));
  });

  it("returns nothing for an empty query, max 0 or a score under the minimum", () => {
    const index = indexWindows(lines);
    expect(bestWindows(index, new Set(), 3)).toEqual([]);
    expect(bestWindows(index, identifierSet("cart"), 0)).toEqual([]);
    expect(bestWindows(index, identifierSet("cart"), 3, 0.9)).toEqual([]);
  });

  it("leaves out windows without identifiers", () => {
    expect(indexWindows(["", "  }", "{"]).windows).toEqual([]);
  });
});
