import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type RegionEdit, regionEdits } from "../../src/next-edit/answer/region-edits.js";

/** The edits applied to `text`, last offset first, as their offsets say. */
function applied(text: string, edits: readonly RegionEdit[]): string {
  return [...edits]
    .sort((a, b) => b.startOffset - a.startOffset)
    .reduce((out, edit) => out.slice(0, edit.startOffset) + edit.text + out.slice(edit.endOffset), text);
}

const edit = (startOffset: number, endOffset: number, text: string): RegionEdit => ({
  startOffset,
  endOffset,
  text,
});

describe("regionEdits", () => {
  it.each<[string, string, string, number, RegionEdit[]]>([
    ["equal regions: none", "a\nb\n", "a\nb\n", 0, []],
    ["a word inside a line", "let total = 0;\n", "let sum = 0;\n", 0, [edit(4, 9, "sum")]],
    [
      "a rename on two neighbouring lines: two edits, the one at the cursor first",
      "x = total;\ny = total;\n",
      "x = sum;\ny = sum;\n",
      14,
      [edit(15, 20, "sum"), edit(4, 9, "sum")],
    ],
    [
      "nearest first: the site just below the cursor, then above, then farther",
      "a1\nb\nc\na2\nd\na3\n",
      "A1\nb\nc\nA2\nd\nA3\n",
      11,
      [edit(12, 13, "A"), edit(7, 8, "A"), edit(0, 1, "A")],
    ],
    ["a line inserted", "a\nc\n", "a\nb\nc\n", 0, [edit(2, 2, "b\n")]],
    ["a line deleted", "a\nb\nc\n", "a\nc\n", 0, [edit(2, 4, "")]],
    [
      "a run replaced by more lines: one edit, trimmed at both ends",
      "f(a);\n",
      "f(a,\n  b);\n",
      0,
      [edit(3, 3, ",\n  b")],
    ],
    ["an argument appended", "add(1, 2);\n", "add(1, 2, 3);\n", 0, [edit(8, 8, ", 3")]],
    ["a last line without a newline", "a\nb", "a\nB", 0, [edit(2, 3, "B")]],
    ["a newline added at the end", "a", "a\n", 0, [edit(1, 1, "\n")]],
    ["everything deleted", "a\nb\n", "", 0, [edit(0, 4, "")]],
    ["a surrogate pair is never split", "x😀y\n", "x😃y\n", 0, [edit(1, 3, "😃")]],
  ])("%s", (_, current, rewritten, cursor, edits) => {
    expect(regionEdits(current, rewritten, cursor)).toEqual(edits);
    expect(applied(current, edits)).toBe(rewritten);
  });

  it("gives edits that turn the region into the rewritten one, never overlapping (property)", () => {
    const line = fc.stringMatching(/^[ a-c(),😀]{0,6}$/u);
    const lines = fc.array(line, { maxLength: 8 });
    const region = fc
      .tuple(lines, fc.boolean())
      .map(([ls, final]) => ls.join("\n") + (final && ls.length > 0 ? "\n" : ""));
    fc.assert(
      fc.property(region, region, fc.nat(60), (current, rewritten, cursor) => {
        const edits = regionEdits(current, rewritten, cursor);
        expect(applied(current, edits)).toBe(rewritten);
        const byStart = [...edits].sort((a, b) => a.startOffset - b.startOffset);
        for (let i = 1; i < byStart.length; i++) {
          expect(byStart[i]?.startOffset).toBeGreaterThanOrEqual(byStart[i - 1]?.endOffset ?? 0);
        }
        for (const e of edits) expect(current.slice(e.startOffset, e.endOffset)).not.toBe(e.text);
      }),
      { numRuns: 500 },
    );
  });
});
