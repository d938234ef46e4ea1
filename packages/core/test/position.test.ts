import { describe, expect, it } from "vitest";
import { offsetAt, splitAt } from "../src/position.js";

describe("offsetAt", () => {
  const text = "ab\ncd\r\nef\rgh";
  it.each([
    [0, 0, 0],
    [0, 2, 2],
    [1, 0, 3],
    [1, 2, 5],
    [2, 0, 7],
    [2, 2, 9],
    [3, 0, 10],
    [3, 2, 12],
  ])("line %i character %i → %i", (line, character, offset) => {
    expect(offsetAt(text, line, character)).toBe(offset);
  });

  it("counts UTF-16 code units", () => {
    expect(offsetAt("a😀b\nx", 0, 3)).toBe(3);
    expect(splitAt("a😀b", 0, 3)).toEqual({ prompt: "a😀", suffix: "b" });
  });

  it("allows the empty last line after a trailing newline", () => {
    expect(offsetAt("a\n", 1, 0)).toBe(2);
    expect(offsetAt("", 0, 0)).toBe(0);
  });

  it.each([
    [4, 0, "line 4 is past the end (the text has 4 lines, 0–3)"],
    [0, 3, "character 3 is past the end of line 0 (it has 2 characters)"],
    [1, 3, "character 3 is past the end of line 1"],
    [-1, 0, "line must be a non-negative integer"],
    [0, 1.5, "character must be a non-negative integer"],
  ])("line %i character %i is refused", (line, character, message) => {
    expect(() => offsetAt(text, line, character)).toThrow(message);
  });
});
