import { describe, expect, it } from "vitest";
import { hotStreak, paragraphs } from "../../src/completion/hot-streak.js";
import type { PostProcessContext } from "../../src/completion/postprocess.js";
import type { Suggestion } from "../../src/completion/type-through.js";

describe("paragraphs", () => {
  it.each<[string, string[]]>([
    ["\n  const b = 2;\n  return a + b;", ["\n  const b = 2;\n  return a + b;"]],
    [
      "\n\nfunction mul(a, b) {\n  return a * b;\n}\n\nfunction div(a, b) {\n  return a / b;\n}",
      ["\n\nfunction mul(a, b) {\n  return a * b;\n}", "\n\nfunction div(a, b) {\n  return a / b;\n}"],
    ],
    // A blank line inside a deeper block does not cut it.
    [
      "\nfunction f() {\n  a();\n\n  b();\n}\n\n\nconst x = 1;",
      ["\nfunction f() {\n  a();\n\n  b();\n}", "\n\n\nconst x = 1;"],
    ],
    ["", [""]],
  ])("%j", (text, expected) => {
    expect(paragraphs(text)).toEqual(expected);
    expect(paragraphs(text).join("")).toBe(text);
  });
});

describe("hotStreak", () => {
  const shown: Suggestion = {
    uri: "file:///a.ts",
    line: 3,
    character: 0,
    linePrefix: "",
    lineRest: "",
    text: "function add(a, b) {\n  return a + b;\n}",
    replaceEnd: 0,
  };
  const atEnd: PostProcessContext = { lineBefore: "", lineAfter: "", suffix: "\n", mode: "multi-line" };
  const raw = `${shown.text}\n\nfunction sub(a, b) {\n  return a - b;\n}\n\nfunction mul(a, b) {\n  return a * b;\n}\n`;

  it("cuts what follows the shown block into the next suggestions, each anchored where the one before ends", () => {
    const streak = hotStreak(raw, shown, atEnd);
    expect(streak.map((s) => s.text)).toEqual([
      "\n\nfunction sub(a, b) {\n  return a - b;\n}",
      "\n\nfunction mul(a, b) {\n  return a * b;\n}",
    ]);
    expect(streak[0]).toMatchObject({
      line: 5,
      character: 1,
      linePrefix: "}",
      lead: { line: 3, character: 0, text: shown.text },
    });
    expect(streak[1]).toMatchObject({
      line: 9,
      character: 1,
      linePrefix: "}",
      lead: { text: shown.text + streak[0]!.text },
    });
  });

  it("stops where the code below resumes", () => {
    const inside: PostProcessContext = {
      lineBefore: "  ",
      lineAfter: "",
      suffix: "\n}\n",
      mode: "multi-line",
    };
    const first: Suggestion = { ...shown, line: 1, character: 2, linePrefix: "  ", text: "const a = 1;" };
    const streak = hotStreak("const a = 1;\n\n  const b = 2;\n  return a + b;\n}\n", first, inside);
    expect(streak.map((s) => s.text)).toEqual(["\n\n  const b = 2;\n  return a + b;"]);
    expect(streak[0]).toMatchObject({ line: 1, character: 14, linePrefix: "  const a = 1;" });
  });

  it.each<[string, string, PostProcessContext]>([
    ["nothing follows", shown.text, atEnd],
    ["only blank lines follow", `${shown.text}\n\n  \n`, atEnd],
    ["post-processing changed the text", `function add(a, b) { return a + b; }`, atEnd],
    ["one line", `${shown.text}\nmore`, { ...atEnd, mode: "single-line" }],
  ])("nothing when %s", (_, text, ctx) => {
    expect(hotStreak(text, shown, ctx)).toEqual([]);
  });
});
