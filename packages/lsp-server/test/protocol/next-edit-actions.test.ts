import { describe, expect, it } from "vitest";
import type { NextEdit, RememberedAnswer } from "../../src/next-edit/answer-memory.js";
import { type ActionReach, actionTitle, offeredEdits } from "../../src/protocol/next-edit-actions.js";

const r = (sl: number, sc: number, el: number, ec: number) => ({
  start: { line: sl, character: sc },
  end: { line: el, character: ec },
});
const ne = (id: string, range: ReturnType<typeof r>, text: string): NextEdit => ({ id, range, text });

// `total` renamed to `sum` on line 1; the model's region is lines 0–4, its edits on lines 2 and 3.
const ANSWER: RememberedAnswer = {
  uri: "file:///a.ts",
  version: 4,
  edits: [ne("a", r(2, 30, 2, 35), "sum"), ne("b", r(3, 9, 3, 14), "sum")],
  region: { start: 0, end: 4 },
};

describe("offeredEdits", () => {
  const cases: Array<[string, number, number, number, ActionReach, Array<[string, boolean]>]> = [
    ["an edit's line, automatic", 2, 0, 2, "lines", [["a", false]]],
    ["an edit's line, asked", 3, 0, 3, "region", [["b", false]]],
    [
      "a selection over both",
      2,
      40,
      3,
      "region",
      [
        ["a", false],
        ["b", false],
      ],
    ],
    ["another line of the region, automatic: none", 1, 9, 1, "lines", []],
    ["another line of the region, asked: the nearest, elsewhere", 1, 9, 1, "region", [["a", true]]],
    ["the region's last line, asked: the nearest", 4, 0, 4, "region", [["b", true]]],
    ["a line past the region, asked: none", 5, 0, 5, "region", []],
    ["a selection from past the region into it, asked: the nearest", 4, 2, 6, "region", [["b", true]]],
  ];
  it.each(cases)("%s", (_name, line, character, to, reach, expected) => {
    expect(offeredEdits(ANSWER, { line, character }, to, reach).map((o) => [o.edit.id, o.elsewhere])).toEqual(
      expected,
    );
  });

  it("offers nothing without an answer", () => {
    expect(offeredEdits(undefined, { line: 2, character: 0 }, 2, "region")).toEqual([]);
  });
});

describe("actionTitle", () => {
  const titles: Array<[string, string, NextEdit, boolean, string]> = [
    [
      "a replacement",
      "total",
      ne("a", r(2, 30, 2, 35), "sum"),
      false,
      'Next edit: replace "total" with "sum"',
    ],
    [
      "one elsewhere, with its line (1-based)",
      "total",
      ne("a", r(2, 30, 2, 35), "sum"),
      true,
      'Next edit (line 3): replace "total" with "sum"',
    ],
    ["an insertion", "", ne("i", r(1, 0, 1, 0), "x, "), false, 'Next edit: insert "x,"'],
    ["a deletion", "x, ", ne("d", r(1, 0, 1, 3), ""), true, 'Next edit (line 2): delete "x,"'],
    ["several lines", "a\nb\nc", ne("m", r(1, 0, 3, 1), "z"), true, "Next edit: rewrite lines 2–4"],
    [
      "a long text, cut",
      "x",
      ne("l", r(0, 0, 0, 1), "y".repeat(60)),
      false,
      `Next edit: replace "x" with "${"y".repeat(39)}…"`,
    ],
  ];
  it.each(titles)("%s", (_name, removed, edit, elsewhere, title) => {
    expect(actionTitle(removed, edit, elsewhere)).toBe(title);
  });
});
