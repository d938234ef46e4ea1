import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { comparePositions, TextBuffer } from "../../src/documents/text-buffer.js";

/** The reference: one string, lines found by LSP's rule on every query. */
class NaiveDocument {
  constructor(public text: string) {}

  lines(): { content: string; start: number }[] {
    const out: { content: string; start: number }[] = [];
    const breaks = /\r\n|\r|\n/g;
    let start = 0;
    for (let m = breaks.exec(this.text); m !== null; m = breaks.exec(this.text)) {
      out.push({ content: this.text.slice(start, m.index), start });
      start = m.index + m[0].length;
    }
    out.push({ content: this.text.slice(start), start });
    return out;
  }

  offsetAt(pos: { line: number; character: number }): number {
    const lines = this.lines();
    const line = lines[pos.line];
    if (line === undefined) return this.text.length;
    return line.start + Math.min(pos.character, line.content.length);
  }

  replace(
    a: { line: number; character: number },
    b: { line: number; character: number },
    text: string,
  ): void {
    const [from, to] = [this.offsetAt(a), this.offsetAt(b)].sort((x, y) => x - y) as [number, number];
    this.text = this.text.slice(0, from) + text + this.text.slice(to);
  }
}

const at = (line: number, character: number) => ({ line, character });
const range = (sl: number, sc: number, el: number, ec: number) => ({ start: at(sl, sc), end: at(el, ec) });

describe("TextBuffer lines", () => {
  it.each([
    { text: "", lines: [""], endings: [""] },
    { text: "abc", lines: ["abc"], endings: [""] },
    { text: "a\n", lines: ["a", ""], endings: ["\n", ""] },
    { text: "a\r\nb\rc\nd", lines: ["a", "b", "c", "d"], endings: ["\r\n", "\r", "\n", ""] },
    { text: "\r\r\n\n", lines: ["", "", "", ""], endings: ["\r", "\r\n", "\n", ""] },
    { text: "\n\r", lines: ["", "", ""], endings: ["\n", "\r", ""] },
    { text: "x😀\r\n", lines: ["x😀", ""], endings: ["\r\n", ""] },
  ])("splits $text as LSP does", ({ text, lines, endings }) => {
    const buffer = new TextBuffer(text);
    expect(buffer.lineCount).toBe(lines.length);
    expect(lines.map((_, i) => buffer.lineAt(i))).toEqual(lines);
    expect(lines.map((_, i) => buffer.lineEndingAt(i))).toEqual(endings);
    expect(buffer.getText()).toBe(text);
  });

  it.each([-1, 1, 0.5, Number.NaN])("lineAt(%s) on a one-line buffer throws", (line) => {
    expect(() => new TextBuffer("a").lineAt(line)).toThrow(RangeError);
  });
});

describe("TextBuffer.applyChange", () => {
  it.each([
    {
      name: "insert one character",
      text: "hello",
      change: { range: range(0, 5, 0, 5), text: "!" },
      want: "hello!",
    },
    {
      name: "replace mid-line",
      text: "a\nbcd\ne",
      change: { range: range(1, 1, 1, 2), text: "X" },
      want: "a\nbXd\ne",
    },
    {
      name: "split a line",
      text: "ab\ncd",
      change: { range: range(0, 1, 0, 1), text: "\n" },
      want: "a\nb\ncd",
    },
    {
      name: "join two lines",
      text: "ab\r\ncd",
      change: { range: range(0, 2, 1, 0), text: "" },
      want: "abcd",
    },
    {
      name: "multi-line insert",
      text: "f() {}\n",
      change: { range: range(0, 5, 0, 5), text: "\n  a;\r\n  b;\n" },
      want: "f() {\n  a;\r\n  b;\n}\n",
    },
    {
      name: "multi-line delete",
      text: "1\n2\n3\n4\n5",
      change: { range: range(1, 0, 3, 1), text: "x" },
      want: "1\nx\n5",
    },
    {
      name: "edit at document end",
      text: "a\n",
      change: { range: range(1, 0, 1, 0), text: "b\n" },
      want: "a\nb\n",
    },
    { name: "past the end appends", text: "a", change: { range: range(9, 9, 9, 9), text: "z" }, want: "az" },
    {
      name: "character past line end",
      text: "ab\ncd",
      change: { range: range(0, 99, 0, 99), text: "!" },
      want: "ab!\ncd",
    },
    { name: "reversed range", text: "abcdef", change: { range: range(0, 4, 0, 1), text: "-" }, want: "a-ef" },
    {
      name: "\\r before an existing \\n fuses",
      text: "a\nb",
      change: { range: range(0, 1, 0, 1), text: "\r" },
      want: "a\r\nb",
    },
    {
      name: "\\n after an existing \\r fuses",
      text: "a\rb",
      change: { range: range(1, 0, 1, 0), text: "\n" },
      want: "a\r\nb",
    },
    {
      name: "deletion exposes \\r\\n",
      text: "a\rX\nb",
      change: { range: range(1, 0, 1, 1), text: "" },
      want: "a\r\nb",
    },
    {
      name: "deleting the \\n of \\r\\n-less pair",
      text: "a\r\nb",
      change: { range: range(0, 1, 1, 0), text: "\n" },
      want: "a\nb",
    },
    { name: "full replacement", text: "old", change: { text: "new\r\ntext" }, want: "new\r\ntext" },
  ])("$name", ({ text, change, want }) => {
    const buffer = new TextBuffer(text);
    buffer.applyChange(change);
    expect(buffer.getText()).toBe(want);
    expect(buffer.length).toBe(want.length);
    expect(buffer.lineCount).toBe(new NaiveDocument(want).lines().length);
  });

  it.each([at(-1, 0), at(0, -1), at(0.5, 0), at(0, Number.NaN)])("rejects invalid position %o", (pos) => {
    const buffer = new TextBuffer("abc");
    expect(() => buffer.applyChange({ range: { start: pos, end: at(0, 1) }, text: "" })).toThrow(RangeError);
    expect(buffer.getText()).toBe("abc");
  });

  it.each([512, 3])("takes a paste of 200k lines (chunks of %i lines)", (chunkLines) => {
    const buffer = new TextBuffer("start\nend", { chunkLines });
    const paste = `${"line\n".repeat(200_000)}`;
    buffer.applyChange({ range: range(0, 5, 0, 5), text: paste });
    expect(buffer.lineCount).toBe(200_002);
    expect(buffer.lineAt(200_001)).toBe("end");
    expect(buffer.getText()).toBe(`start${paste}\nend`);
    expect(buffer.length).toBe(`start${paste}\nend`.length);
  });
});

describe("TextBuffer.snapshot", () => {
  it("keeps the text as it was, lines joined with \\n, whatever is edited later; each change is a new revision", () => {
    const buffer = new TextBuffer("a\r\nb\nc", { chunkLines: 2 });
    const revision = buffer.revision;
    const snapshot = buffer.snapshot();
    buffer.applyChange({
      range: { start: { line: 1, character: 0 }, end: { line: 2, character: 0 } },
      text: "B\n\n",
    });
    expect(buffer.revision).toBe(revision + 1);
    buffer.setText("z");
    expect(buffer.revision).toBe(revision + 2);
    expect(snapshot.revision).toBe(revision);
    expect(snapshot.text()).toBe("a\nb\nc");
  });
});

describe("TextBuffer.clampPosition", () => {
  const buffer = new TextBuffer("ab\r\ncde\n");
  it.each([
    { pos: at(0, 1), want: at(0, 1) },
    { pos: at(0, 2), want: at(0, 2) },
    { pos: at(0, 3), want: at(0, 2) },
    { pos: at(1, 99), want: at(1, 3) },
    { pos: at(2, 0), want: at(2, 0) },
    { pos: at(2, 5), want: at(2, 0) },
    { pos: at(7, 1), want: at(2, 0) },
    { pos: at(-1, 0), want: null },
    { pos: at(0, -1), want: null },
    { pos: at(1.5, 0), want: null },
    { pos: at(0, 0.1), want: null },
    { pos: at(0, Number.POSITIVE_INFINITY), want: null },
  ])("$pos → $want", ({ pos, want }) => {
    expect(buffer.clampPosition(pos)).toEqual(want);
  });
});

describe("TextBuffer.slice", () => {
  const buffer = new TextBuffer("one\r\ntwo\nthree\rfour");
  it.each([
    { start: at(0, 1), end: at(0, 3), want: "ne" },
    { start: at(0, 3), end: at(1, 0), want: "\r\n" },
    { start: at(0, 2), end: at(2, 2), want: "e\r\ntwo\nth" },
    { start: at(1, 0), end: at(9, 0), want: "two\nthree\rfour" },
    { start: at(2, 1), end: at(2, 1), want: "" },
    { start: at(2, 3), end: at(1, 1), want: "" },
  ])("$start..$end", ({ start, end, want }) => {
    expect(buffer.slice(start, end)).toBe(want);
  });
});

describe("comparePositions", () => {
  it.each([
    { a: at(0, 5), b: at(1, 0), sign: -1 },
    { a: at(2, 1), b: at(2, 1), sign: 0 },
    { a: at(2, 3), b: at(2, 1), sign: 1 },
  ])("$a vs $b", ({ a, b, sign }) => {
    expect(Math.sign(comparePositions(a, b))).toBe(sign);
  });
});

describe("TextBuffer against a naive string model", () => {
  const piece = fc.constantFrom("a", "b", "é", "😀", "\n", "\r", "\r\n", " ", "{", "}");
  const text = fc.array(piece, { maxLength: 40 }).map((parts) => parts.join(""));
  const position = fc.record({ line: fc.nat({ max: 14 }), character: fc.nat({ max: 8 }) });
  const edit = fc.oneof(
    { weight: 9, arbitrary: fc.record({ start: position, end: position, text }) },
    { weight: 1, arbitrary: fc.record({ full: text }) },
  );

  // Chunks of 1–3 lines put chunk boundaries inside almost every edit.
  it("agrees on text, lines, endings and slices after random edit sequences", () => {
    const chunkLines = fc.constantFrom(1, 2, 3, 512);
    fc.assert(
      fc.property(
        text,
        fc.array(edit, { maxLength: 30 }),
        position,
        position,
        chunkLines,
        (initial, edits, s, e, size) => {
          const buffer = new TextBuffer(initial, { chunkLines: size });
          const model = new NaiveDocument(initial);
          // Offsets in the text as parsers read it (lines joined with \n), asked between edits so that the kept
          // chunk lengths are recounted after each.
          const joinedOffset = (pos: typeof s) => {
            const lines = model.lines();
            const clamped = buffer.clampPosition(pos)!;
            const before = lines.slice(0, clamped.line).map((line) => `${line.content}\n`);
            return before.join("").length + clamped.character;
          };
          for (const step of edits) {
            expect(buffer.offsetAt(s)).toBe(joinedOffset(s));
            if ("full" in step) {
              buffer.setText(step.full);
              model.text = step.full;
            } else {
              buffer.applyChange({ range: { start: step.start, end: step.end }, text: step.text });
              model.replace(step.start, step.end, step.text);
            }
            expect(buffer.getText()).toBe(model.text);
            expect(buffer.length).toBe(model.text.length);
          }
          const lines = model.lines();
          expect(buffer.lineCount).toBe(lines.length);
          lines.forEach((line, i) => {
            expect(buffer.lineAt(i)).toBe(line.content);
            const next = lines[i + 1];
            expect(buffer.lineEndingAt(i)).toBe(
              next === undefined ? "" : model.text.slice(line.start + line.content.length, next.start),
            );
          });
          const [from, to] = [model.offsetAt(s), model.offsetAt(e)];
          expect(buffer.slice(s, e)).toBe(from <= to ? model.text.slice(from, to) : "");
          expect(buffer.offsetAt(e)).toBe(joinedOffset(e));
          const snapshot = buffer.snapshot();
          expect(snapshot.lineCount).toBe(lines.length);
          for (const [i, line] of lines.entries()) expect(snapshot.lineAt(i)).toBe(line.content);
          expect(snapshot.text()).toBe(lines.map((line) => line.content).join("\n"));
        },
      ),
      { numRuns: 2000 },
    );
  });
});
