import { describe, expect, it } from "vitest";
import { Documents } from "../../src/documents/documents.js";
import type { PositionEncoding } from "../../src/documents/position-encoding.js";
import { placementIn } from "../../src/protocol/placement.js";

function doc(text: string) {
  const documents = new Documents();
  documents.didOpen({ textDocument: { uri: "file:///a.ts", languageId: "typescript", version: 1, text } });
  return documents.get("file:///a.ts")!;
}

describe("placementIn", () => {
  it.each<[string, string, number, number, PositionEncoding, object]>([
    [
      "ASCII, UTF-16",
      "const ab",
      8,
      0,
      "utf-16",
      { position: { line: 0, character: 8 }, wordBefore: "ab", wordBeforeLength: 2 },
    ],
    // "é" is 1 UTF-16 unit and 2 UTF-8 bytes; the emoji 2 units, 4 bytes, 1 code point.
    [
      "UTF-8 after é",
      "café = x",
      8,
      0,
      "utf-8",
      { position: { line: 0, character: 9 }, wordBefore: "x", wordBeforeLength: 1 },
    ],
    [
      "UTF-8, a word with é",
      "let café",
      8,
      0,
      "utf-8",
      { position: { line: 0, character: 9 }, wordBefore: "café", wordBeforeLength: 5 },
    ],
    [
      "UTF-32 after an emoji",
      "s = '😀' + n",
      12,
      0,
      "utf-32",
      { position: { line: 0, character: 11 }, wordBefore: "n", wordBeforeLength: 1 },
    ],
    [
      "replacing a closer",
      "f(a)",
      3,
      1,
      "utf-16",
      { position: { line: 0, character: 3 }, end: { line: 0, character: 4 } },
    ],
    [
      "replaceEnd past the line's end is cut to it",
      "f(a",
      3,
      5,
      "utf-16",
      { end: { line: 0, character: 3 } },
    ],
  ])("%s", (_, line, character, replaceEnd, encoding, expected) => {
    const placed = placementIn(
      doc(`${line}\nnext`),
      { text: "ok", position: { line: 0, character }, replaceEnd },
      encoding,
    );
    expect(placed).toMatchObject({ text: "ok", ...expected });
  });

  it("places nothing on a line that is gone", () => {
    expect(
      placementIn(doc("one"), { text: "x", position: { line: 3, character: 0 }, replaceEnd: 0 }, "utf-16"),
    ).toBeUndefined();
  });
});
