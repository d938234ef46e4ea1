import { describe, expect, it } from "vitest";
import { type TakenAtPlace, takenAtPlace } from "../../src/stats/accept-inference.js";

const BLOCK = "if (x) {\n    return a + b;\n}";

describe("takenAtPlace", () => {
  it.each<[string, string, string, string, number, TakenAtPlace]>([
    ["nothing inserted", 'ute(41, "left");', "", "", 0, { chars: 0, insertedUnits: 0, placeUnits: 0 }],
    [
      "the whole suggestion",
      'ute(41, "left");',
      'ute(41, "left");',
      "",
      0,
      { chars: 16, insertedUnits: 16, placeUnits: 16 },
    ],
    ["a word of it", "return a + b;", "return", "", 0, { chars: 6, insertedUnits: 6, placeUnits: 6 }],
    [
      "typed on after it: the suggestion whole",
      "a + b;",
      "a + b; // sum",
      "",
      0,
      { chars: 6, insertedUnits: 6, placeUnits: 6 },
    ],
    [
      "typed something else after its start",
      "return a + b;",
      "retx",
      "",
      0,
      { chars: 3, insertedUnits: 3, placeUnits: 3 },
    ],
    [
      "something else from the start",
      "return a + b;",
      "x",
      "",
      0,
      { chars: 0, insertedUnits: 0, placeUnits: 0 },
    ],
    [
      "a block, the editor's indentation",
      BLOCK,
      "if (x) {\n  return a + b;\n}",
      "",
      0,
      { chars: 28, insertedUnits: 26, placeUnits: 26 },
    ],
    [
      "a block with \\r\\n breaks",
      BLOCK,
      "if (x) {\r\n    return a + b;\r\n}",
      "",
      0,
      { chars: 28, insertedUnits: 30, placeUnits: 30 },
    ],
    [
      "its first line and the line break",
      BLOCK,
      "if (x) {\n",
      "",
      0,
      { chars: 9, insertedUnits: 9, placeUnits: 9 },
    ],
    [
      "its first line and part of the indentation",
      BLOCK,
      "if (x) {\n  ",
      "",
      0,
      { chars: 11, insertedUnits: 11, placeUnits: 11 },
    ],
    [
      "only trailing whitespace left: whole",
      "a + b;\n",
      "a + b;",
      "",
      0,
      { chars: 7, insertedUnits: 6, placeUnits: 6 },
    ],
    [
      "the covered closer left in place by the editor",
      "1, 2)",
      "1, 2",
      ")",
      1,
      { chars: 5, insertedUnits: 4, placeUnits: 5 },
    ],
    [
      "but not beyond what it covered",
      "1, 2);",
      "1, 2",
      ");",
      1,
      { chars: 5, insertedUnits: 4, placeUnits: 5 },
    ],
    ["a character of two UTF-16 units", "x𝒳y", "x𝒳y", "", 0, { chars: 3, insertedUnits: 4, placeUnits: 4 }],
    [
      "a different character with the same first unit",
      "𝒳",
      "𝒴",
      "",
      0,
      { chars: 0, insertedUnits: 0, placeUnits: 0 },
    ],
  ])("%s", (_name, text, inserted, following, replaceEnd, expected) => {
    expect(takenAtPlace(text, inserted, following, replaceEnd)).toEqual(expected);
  });
});
