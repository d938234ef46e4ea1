import { describe, expect, it } from "vitest";
import {
  fromClientCharacter,
  negotiateEncoding,
  toClientCharacter,
} from "../../src/documents/position-encoding.js";

describe("negotiateEncoding", () => {
  it.each([
    { client: undefined, want: "utf-16" },
    { client: [], want: "utf-16" },
    { client: ["utf-8"], want: "utf-8" },
    { client: ["utf-32", "utf-16"], want: "utf-32" },
    { client: ["utf-16", "utf-8"], want: "utf-16" },
    { client: ["latin-1", "utf-8"], want: "utf-8" },
    { client: ["UTF-8"], want: "utf-16" },
    { client: ["ebcdic"], want: "utf-16" },
  ])("$client → $want", ({ client, want }) => {
    expect(negotiateEncoding(client)).toBe(want);
  });
});

// "aé€😀b": a = 1 byte, é = 2 bytes, € = 3 bytes, 😀 = 4 bytes and 2 UTF-16 units, b = 1 byte.
// UTF-16 offsets:  a0 é1 €2 😀3,4 b5 end6
// UTF-8 offsets:   a0 é1 €3 😀6    b10 end11
// UTF-32 offsets:  a0 é1 €2 😀3    b4 end5
const LINE = "aé€😀b";

describe("fromClientCharacter (client → UTF-16)", () => {
  it.each([
    { encoding: "utf-8", character: 0, want: 0 },
    { encoding: "utf-8", character: 1, want: 1 },
    { encoding: "utf-8", character: 2, want: 1 }, // inside é: rounds down
    { encoding: "utf-8", character: 3, want: 2 },
    { encoding: "utf-8", character: 5, want: 2 }, // inside €
    { encoding: "utf-8", character: 6, want: 3 },
    { encoding: "utf-8", character: 9, want: 3 }, // inside 😀
    { encoding: "utf-8", character: 10, want: 5 },
    { encoding: "utf-8", character: 11, want: 6 },
    { encoding: "utf-8", character: 99, want: 6 }, // past the end: line end
    { encoding: "utf-32", character: 3, want: 3 },
    { encoding: "utf-32", character: 4, want: 5 },
    { encoding: "utf-32", character: 5, want: 6 },
    { encoding: "utf-32", character: 50, want: 6 },
    { encoding: "utf-16", character: 4, want: 4 }, // UTF-16 is the identity, even between surrogates
    { encoding: "utf-16", character: 60, want: 6 },
    { encoding: "utf-8", character: -3, want: 0 },
    { encoding: "utf-8", character: 3.7, want: 2 },
  ] as const)("$encoding $character → $want", ({ encoding, character, want }) => {
    expect(fromClientCharacter(LINE, character, encoding)).toBe(want);
  });
});

describe("toClientCharacter (UTF-16 → client)", () => {
  it.each([
    { encoding: "utf-8", utf16: 1, want: 1 },
    { encoding: "utf-8", utf16: 2, want: 3 },
    { encoding: "utf-8", utf16: 3, want: 6 },
    { encoding: "utf-8", utf16: 4, want: 6 }, // between the surrogates of 😀: rounds down
    { encoding: "utf-8", utf16: 5, want: 10 },
    { encoding: "utf-8", utf16: 6, want: 11 },
    { encoding: "utf-8", utf16: 42, want: 11 },
    { encoding: "utf-32", utf16: 4, want: 3 },
    { encoding: "utf-32", utf16: 5, want: 4 },
    { encoding: "utf-32", utf16: 6, want: 5 },
    { encoding: "utf-16", utf16: 4, want: 4 },
    { encoding: "utf-16", utf16: 9, want: 6 },
    { encoding: "utf-32", utf16: -1, want: 0 },
  ] as const)("$encoding $utf16 → $want", ({ encoding, utf16, want }) => {
    expect(toClientCharacter(LINE, utf16, encoding)).toBe(want);
  });

  it.each([
    { name: "lone high surrogate", line: "a\ud83db", utf16: 2, utf8: 4, utf32: 2 },
    { name: "lone low surrogate", line: "a\ude00b", utf16: 3, utf8: 5, utf32: 3 },
  ])("$name counts as one code point, 3 UTF-8 bytes", ({ line, utf16, utf8, utf32 }) => {
    expect(toClientCharacter(line, utf16, "utf-8")).toBe(utf8);
    expect(toClientCharacter(line, utf16, "utf-32")).toBe(utf32);
    expect(fromClientCharacter(line, utf8, "utf-8")).toBe(utf16);
    expect(fromClientCharacter(line, utf32, "utf-32")).toBe(utf16);
  });

  it.each(["utf-8", "utf-32"] as const)("round-trips every code point boundary in %s", (encoding) => {
    const line = 'x = "ü😀𝄞" // ok ✓ 中文';
    for (let utf16 = 0; utf16 <= line.length; utf16++) {
      const onBoundary = !(line.charCodeAt(utf16) >= 0xdc00 && line.charCodeAt(utf16) <= 0xdfff);
      const client = toClientCharacter(line, utf16, encoding);
      expect(fromClientCharacter(line, client, encoding)).toBe(onBoundary ? utf16 : utf16 - 1);
    }
    expect(toClientCharacter(line, line.length, "utf-8")).toBe(Buffer.byteLength(line, "utf8"));
  });
});
