import { describe, expect, it } from "vitest";
import { LINE_KEPT_FLOOR, lcsLength, retainedChars } from "../../src/stats/retention.js";

const BLOCK = [
  "const total = items.reduce((sum, item) => sum + item.price, 0);",
  "return total * (1 + TAX);",
].join("\n");

describe("retainedChars", () => {
  it.each<[string, string, string, number]>([
    ["still there as it was", 'ute(41, "left");', 'ute(41, "left");', 16],
    ["deleted", 'ute(41, "left");', "", 0],
    ["replaced by something else", 'ute(41, "left");', "foo()", 0],
    ["reindented", BLOCK, BLOCK.replace("return", "    return"), BLOCK.length],
    ["its lines swapped (moved lines)", BLOCK, BLOCK.split("\n").reverse().join("\n"), BLOCK.length],
    ["lines added between its lines", BLOCK, BLOCK.replace("\n", "\nconsole.log(total);\n"), BLOCK.length],
    // 63 of the 88 characters of content are left: 89 × 63 / 88.
    ["one line deleted: the other's share", BLOCK, BLOCK.split("\n")[0]!, 64],
    // TAX → VAT: 23 of the line's 25 characters are still there, in order.
    ["a small edit in a line: most of it", "return total * (1 + TAX);", "return total * (1 + VAT);", 23],
    ["a line rewritten beyond recognition: nothing", "return total * (1 + TAX);", "throw new Error();", 0],
    ["whitespace only, still there", "\n\n", "a\n\nb", 2],
    ["whitespace only, gone", "\n\n", "ab", 0],
  ])("%s", (_name, accepted, now, retained) => {
    expect(retainedChars(accepted, now)).toBe(retained);
  });

  it("never counts more than was taken, nor a line twice", () => {
    expect(retainedChars("x = 1;\nx = 1;", "x = 1;")).toBe(7);
    expect(retainedChars("ab", "ab ab ab\nab")).toBe(2);
  });

  it(`keeps a line when at least ${LINE_KEPT_FLOOR * 100} % of it is in the line it became`, () => {
    // 10 of 13 characters still in order: 77 %.
    expect(retainedChars("return a + b;", "return a;")).toBe(Math.round((9 / 13) * 13));
    // 5 of 13: below the floor.
    expect(retainedChars("return a + b;", "ret b")).toBe(0);
  });
});

describe("lcsLength", () => {
  it.each([
    ["", "abc", 0],
    ["abc", "abc", 3],
    ["abcbdab", "bdcaba", 4],
    ["return a + b;", "return a;", 9],
  ])("%s / %s → %d", (a, b, n) => {
    expect(lcsLength(a, b)).toBe(n);
  });
});
