import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { buildPromptWindow, estimateTokens, type PromptSource } from "../../src/completion/prompt-window.js";
import { TextBuffer } from "../../src/documents/text-buffer.js";
import { fixture, lines } from "../support/fixture.js";

/** `count` lines of `width` characters (+ "\n" = width + 1 budget characters each), named by number. */
function numbered(count: number, width = 9): string {
  return Array.from({ length: count }, (_, i) => String(i).padStart(width, ".")).join("\n");
}

// With one char per token the budget is in characters: 1000 in all, 750 for the prefix, 250 for the suffix.
const exact = { budgetTokens: 1000, charsPerToken: 1 };

describe("estimateTokens", () => {
  it.each([
    { text: "", charsPerToken: undefined, want: 0 },
    { text: "abc", charsPerToken: undefined, want: 1 },
    { text: "abcd", charsPerToken: undefined, want: 2 },
    { text: "x".repeat(35), charsPerToken: undefined, want: 10 },
    { text: "x".repeat(10), charsPerToken: 4, want: 3 },
  ])("$text.length chars at $charsPerToken chars/token → $want", ({ text, charsPerToken, want }) => {
    expect(estimateTokens(text, charsPerToken)).toBe(want);
  });
});

describe("buildPromptWindow", () => {
  it("takes a small document whole, with its exact line endings", () => {
    const f = fixture("import os\r\n\r\ndef main():\r\n    print(│)\r\n\rmain()\n");
    const window = buildPromptWindow(new TextBuffer(f.text), f.position);
    expect(window).toEqual({ prompt: f.prefix, suffix: f.suffix, startLine: 0, endLine: 6 });
  });

  it.each([
    // Cursor at the start of line 500 of 1000: 75 lines of prefix fit; the start is rounded up to a grid line.
    { name: "middle", line: 500, startLine: 432, endLine: 524 },
    // Near the end the suffix needs only 100 characters: the prefix gets the other 900 (90 lines).
    { name: "near the end", line: 990, startLine: 912, endLine: 999 },
    // Near the start the prefix needs 100: the suffix gets the other 900.
    { name: "near the start", line: 10, startLine: 0, endLine: 99 },
  ])("splits the budget ($name)", ({ line, startLine, endLine }) => {
    const buffer = new TextBuffer(numbered(1000));
    const window = buildPromptWindow(buffer, { line, character: 0 }, exact);
    expect(window.startLine).toBe(startLine);
    expect(window.endLine).toBe(endLine);
    expect(window.prompt).toBe(buffer.slice({ line: startLine, character: 0 }, { line, character: 0 }));
    expect(window.prompt.length + window.suffix.length).toBeLessThanOrEqual(1000);
    expect(window.suffix.startsWith(buffer.lineAt(line))).toBe(true);
  });

  it("keeps the prefix start fixed while the user types, unlike the earliest-fitting line", () => {
    const starts = (options: object) => {
      const buffer = new TextBuffer(numbered(1000));
      const seen = new Set<number>();
      const prompts: string[] = [];
      for (let typed = 0; typed < 300; typed++) {
        buffer.applyChange({
          range: { start: { line: 500, character: typed }, end: { line: 500, character: typed } },
          text: "x",
        });
        const window = buildPromptWindow(
          buffer,
          { line: 500, character: typed + 1 },
          { ...exact, ...options },
        );
        expect(window.prompt.length).toBeLessThanOrEqual(750);
        seen.add(window.startLine);
        prompts.push(window.prompt);
      }
      return { seen, prompts };
    };
    const earliest = starts({ stepLines: 1 });
    const sticky = starts({});
    expect(earliest.seen.size).toBeGreaterThan(25);
    expect(sticky.seen.size).toBeLessThanOrEqual(3);
    // Consecutive prompts while typing share everything but the tail, apart from the rare jumps.
    const shared = sticky.prompts.slice(1).filter((p, i) => p.startsWith(sticky.prompts[i]!)).length;
    expect(shared).toBeGreaterThanOrEqual(sticky.prompts.length - 3);
  });

  it.each([
    { width: 9, stepLines: 64, startLine: 432 },
    { width: 99, stepLines: 64, startLine: 494 }, // 7 lines fit; a 64 grid would empty the prefix, 2 keeps 6 lines
    { width: 9, stepLines: 10, startLine: 430 },
    { width: 9, stepLines: 1, startLine: 425 },
  ])(
    "rounds the start up to the coarsest grid that keeps the prefix 75 % full (width $width, step $stepLines)",
    ({ width, stepLines, startLine }) => {
      const buffer = new TextBuffer(numbered(1000, width));
      const window = buildPromptWindow(buffer, { line: 500, character: 0 }, { ...exact, stepLines });
      expect(window.startLine).toBe(startLine);
      expect(window.prompt.length).toBeGreaterThanOrEqual(0.75 * 750);
      expect(window.prompt.length).toBeLessThanOrEqual(750);
    },
  );

  it("cuts a cursor line longer than the budget mid-line, on a coarse column grid", () => {
    const long = "a".repeat(5000);
    const buffer = new TextBuffer(lines("first", `${long}${long}`, "last"));
    const window = buildPromptWindow(buffer, { line: 1, character: 5000 }, exact);
    expect(window.startLine).toBe(1);
    expect(window.endLine).toBe(1);
    expect(window.prompt.length).toBeLessThanOrEqual(750);
    expect((5000 - window.prompt.length) % 256).toBe(0);
    expect(window.suffix).toBe("a".repeat(250));
  });

  it("never splits a surrogate pair at a mid-line cut", () => {
    const emoji = "😀".repeat(3000);
    const buffer = new TextBuffer(emoji);
    for (const character of [2000, 2002, 4000]) {
      const window = buildPromptWindow(buffer, { line: 0, character }, { ...exact, stepChars: 1 });
      expect(window.prompt).toMatch(/^(?:😀)*$/u);
      expect(window.suffix).toMatch(/^(?:😀)*$/u);
    }
  });

  it("clamps a cursor past the line or document end", () => {
    const buffer = new TextBuffer("ab\ncd");
    expect(buildPromptWindow(buffer, { line: 0, character: 9 })).toMatchObject({
      prompt: "ab",
      suffix: "\ncd",
    });
    expect(buildPromptWindow(buffer, { line: 7, character: 0 })).toMatchObject({
      prompt: "ab\ncd",
      suffix: "",
    });
  });

  it("reads only the window's lines of a huge document", () => {
    const read = new Set<number>();
    const source: PromptSource = {
      lineCount: 1_000_000,
      lineAt(line) {
        read.add(line);
        return `line ${line}`;
      },
      slice(start, end) {
        expect(end.line - start.line).toBeLessThan(5000);
        const parts: string[] = [];
        for (let l = start.line; l <= end.line; l++) {
          const text = `line ${l}\n`;
          parts.push(
            text.slice(l === start.line ? start.character : 0, l === end.line ? end.character : undefined),
          );
        }
        return parts.join("");
      },
    };
    const window = buildPromptWindow(source, { line: 500_000, character: 4 });
    expect(read.size).toBeLessThan(3000);
    expect(window.prompt.endsWith("line")).toBe(true);
    expect(window.suffix.startsWith(" 500000\nline 500001\n")).toBe(true);
    expect(estimateTokens(window.prompt + window.suffix)).toBeLessThanOrEqual(4096);
  });

  it("never exceeds the budget, wherever the cursor and however long the lines (\\n endings)", () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.string({ maxLength: 40 }).map((line) => line.replace(/[\r\n]/g, "")),
          { minLength: 1, maxLength: 60 },
        ),
        fc.nat(),
        fc.nat(),
        fc.integer({ min: 1, max: 120 }),
        (docLines, lineSeed, charSeed, budgetTokens) => {
          const buffer = new TextBuffer(docLines.join("\n"));
          const line = lineSeed % docLines.length;
          const character = charSeed % (docLines[line]!.length + 1);
          const window = buildPromptWindow(
            buffer,
            { line, character },
            { budgetTokens, charsPerToken: 1, stepLines: 4 },
          );
          expect(window.prompt.length + window.suffix.length).toBeLessThanOrEqual(budgetTokens);
        },
      ),
    );
  });

  it("counts the cursor line's own line break in the suffix", () => {
    // 10 characters of budget, 8 for the prefix: "ab" before the cursor, "cd\n" and "ef\n" would make 12.
    const buffer = new TextBuffer("abcd\nef\ngh");
    const window = buildPromptWindow(
      buffer,
      { line: 0, character: 2 },
      { budgetTokens: 5, charsPerToken: 1 },
    );
    expect(window.prompt.length + window.suffix.length).toBeLessThanOrEqual(5);
  });
});
