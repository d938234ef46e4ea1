import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Position } from "vscode-languageserver";
import {
  type AppliedChange,
  advance,
  fullTextChange,
  mapPosition,
  type Stickiness,
  trimChange,
} from "../../src/documents/position-map.js";
import { TextBuffer } from "../../src/documents/text-buffer.js";

const at = (line: number, character: number): Position => ({ line, character });
const change = (start: Position, end: Position, text: string, replaced: string): AppliedChange => ({
  range: { start, end },
  text,
  replaced,
});

describe("advance", () => {
  it.each<[string, Position, string, Position]>([
    ["no line break", at(2, 3), "abc", at(2, 6)],
    ["\\n", at(2, 3), "ab\ncd", at(3, 2)],
    ["\\r\\n is one break", at(0, 0), "a\r\nb\r\n", at(2, 0)],
    ["\\r alone is one", at(0, 5), "\rx", at(1, 1)],
    ["nothing", at(1, 1), "", at(1, 1)],
  ])("%s", (_name, start, text, end) => {
    expect(advance(start, text)).toEqual(end);
  });
});

describe("trimChange", () => {
  it.each<[string, AppliedChange, AppliedChange]>([
    [
      "a popup item re-inserting the word before the cursor: an insertion at the cursor",
      change(at(5, 13), at(5, 17), 'compute(41, "left");', "comp"),
      change(at(5, 17), at(5, 17), 'ute(41, "left");', ""),
    ],
    [
      "an auto-paired closer covered by the item: kept, the insertion before it",
      change(at(0, 4), at(0, 9), "foo(1, 2)", "foo()"),
      change(at(0, 8), at(0, 8), "1, 2", ""),
    ],
    [
      "a whole block replaced by itself with one line changed",
      change(at(0, 0), at(2, 1), "a\nB\nc", "a\nb\nc"),
      change(at(1, 0), at(1, 1), "B", "b"),
    ],
    [
      "a \\r\\n is never split",
      change(at(0, 0), at(1, 0), "a\rb", "a\r\n"),
      change(at(0, 1), at(1, 0), "\rb", "\r\n"),
    ],
    ["nor a surrogate pair", change(at(0, 0), at(0, 2), "𝒴", "𝒳"), change(at(0, 0), at(0, 2), "𝒴", "𝒳")],
    [
      "nothing in common: as it was",
      change(at(0, 0), at(0, 1), "y", "x"),
      change(at(0, 0), at(0, 1), "y", "x"),
    ],
  ])("%s", (_name, given, trimmed) => {
    expect(trimChange(given)).toEqual(trimmed);
  });
});

describe("fullTextChange", () => {
  it.each<[string, string, string, AppliedChange]>([
    [
      "typing one character",
      "const a = 1;\nconst b",
      "const a = 1;\nconst bx",
      change(at(1, 7), at(1, 7), "x", ""),
    ],
    ["a line deleted", "a\nb\nc", "a\nc", change(at(1, 0), at(2, 0), "", "b\n")],
    ["nothing changed", "abc", "abc", change(at(0, 3), at(0, 3), "", "")],
    ["a \r\n made a \r", "a\r\nb", "a\rb", change(at(0, 1), at(1, 0), "\r", "\r\n")],
  ])("%s", (_name, before, after, expected) => {
    expect(fullTextChange(before, after)).toEqual(expected);
  });
});

describe("mapPosition", () => {
  // "const beta = comp│" with `ute(41);` inserted at the cursor, then the line above deleted.
  const insertion = change(at(5, 17), at(5, 17), "ute(41);", "");
  const lineAbove = change(at(3, 0), at(4, 0), "", "const alpha = 1;\n");
  it.each<[string, Position, AppliedChange, Stickiness, Position]>([
    ["before the change: unmoved", at(5, 3), insertion, "after", at(5, 3)],
    ["at an insertion, sticking before it", at(5, 17), insertion, "before", at(5, 17)],
    ["at an insertion, sticking after it", at(5, 17), insertion, "after", at(5, 25)],
    ["after it on its line: shifted", at(5, 18), insertion, "before", at(5, 26)],
    ["on a later line: unmoved", at(6, 2), insertion, "before", at(6, 2)],
    ["lines below a deleted line move up", at(5, 17), lineAbove, "before", at(4, 17)],
    [
      "inside a replaced range, before",
      at(1, 2),
      change(at(1, 0), at(2, 4), "X", "ab\ncdef"),
      "before",
      at(1, 0),
    ],
    [
      "inside a replaced range, after",
      at(1, 2),
      change(at(1, 0), at(2, 4), "X", "ab\ncdef"),
      "after",
      at(1, 1),
    ],
    [
      "at the end of a deletion: what follows",
      at(2, 4),
      change(at(1, 0), at(2, 4), "", "ab\ncdef"),
      "before",
      at(1, 0),
    ],
    [
      "after a multi-line insertion on its line",
      at(0, 5),
      change(at(0, 2), at(0, 2), "a\nbc", ""),
      "before",
      at(1, 5),
    ],
  ])("%s", (_name, position, applied, stick, expected) => {
    expect(mapPosition(position, applied, stick)).toEqual(expected);
  });

  it("keeps every position outside a change before the same text (random edits, trimmed as the server does)", () => {
    // Offsets where a position can be: not between the `\r` and `\n` of a line break.
    const places = (t: string) =>
      Array.from({ length: t.length + 1 }, (_, i) => i).filter((i) => !(t[i - 1] === "\r" && t[i] === "\n"));
    const positionAt = (t: string, offset: number) => advance(at(0, 0), t.slice(0, offset));
    const text = fc.string({ unit: fc.constantFrom("a", "b", "\n", "\r\n", "\r", "é", "𝒳"), maxLength: 30 });
    fc.assert(
      fc.property(text, text, fc.nat(), fc.nat(), fc.nat(), (before, insert, i, j, k) => {
        const offsets = places(before);
        const [s, e] = [offsets[i % offsets.length]!, offsets[j % offsets.length]!].sort((x, y) => x - y) as [
          number,
          number,
        ];
        const after = before.slice(0, s) + insert + before.slice(e);
        // The buffer fuses a `\r` and a `\n` brought together into one line break: not a case of this property.
        if (/\r$/.test(before.slice(0, s) + insert) && /^\n/.test(before.slice(e))) return;
        if (/\r$/.test(before.slice(0, s)) && /^\n/.test(insert + before.slice(e))) return;
        const start = positionAt(before, s);
        const end = positionAt(before, e);
        // The server's buffer agrees with the text model here.
        const buffer = new TextBuffer(before);
        buffer.applyChange({ range: { start, end }, text: insert });
        expect(buffer.getText()).toBe(after);
        const applied = trimChange({ range: { start, end }, text: insert, replaced: before.slice(s, e) });
        // Where the trimmed change starts and ends in `before`: at its edges, a position goes the way it sticks (the
        // table above); strictly outside, it must keep its text.
        const offsetOf = (p: Position) =>
          offsets.find((x) => {
            const q = positionAt(before, x);
            return q.line === p.line && q.character === p.character;
          })!;
        const [ts, te] = [offsetOf(applied.range.start), offsetOf(applied.range.end)];
        expect(before.slice(ts, te)).toBe(applied.replaced);
        expect(before.slice(0, ts) + applied.text + before.slice(te)).toBe(after);
        const o = offsets[k % offsets.length]!;
        if (o >= ts && o <= te) return;
        const moved = mapPosition(positionAt(before, o), applied, "before");
        const landed = places(after).find((x) => {
          const p = positionAt(after, x);
          return p.line === moved.line && p.character === moved.character;
        });
        // What followed the position still follows it; one before the change keeps what is before it.
        if (o > te) expect(after.slice(landed)).toBe(before.slice(o));
        else expect(after.slice(0, landed)).toBe(before.slice(0, o));
      }),
      { numRuns: 1000 },
    );
  });
});
