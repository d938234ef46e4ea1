import { describe, expect, it } from "vitest";
import {
  completionList,
  firstContentLine,
  inlineItems,
  wordBefore,
} from "../../src/protocol/completion-items.js";

describe("wordBefore", () => {
  it.each([
    ["const total = comp", "comp"],
    ["foo.bar", "bar"],
    ["x = $el", "$el"],
    ["snake_case_1", "snake_case_1"],
    ["café", "café"],
    ["größe", "größe"],
    ["变量名", "变量名"],
    ["a 𝒳y", "𝒳y"],
    ["call(", ""],
    ["", ""],
    ["§§§", ""],
  ])("%j → %j", (prefix, word) => {
    expect(wordBefore(prefix)).toBe(word);
  });
});

describe("firstContentLine", () => {
  it.each([
    ["one line", "one line"],
    ["first\nsecond", "first"],
    ["\n  body;\n}", "\n  body;"],
    ["\r\n  body;\r\n}", "\r\n  body;"],
    ["   ", "   "],
  ])("%j → %j", (text, first) => {
    expect(firstContentLine(text)).toBe(first);
  });
});

describe("completionList", () => {
  const at = { line: 3, character: 10 };
  it("offers one item for a one-line suggestion, starting at the word", () => {
    const list = completionList({
      text: "ute(1);",
      position: at,
      end: at,
      wordBefore: "comp",
      wordBeforeLength: 4,
    });
    expect(list.isIncomplete).toBe(true);
    expect(list.items).toHaveLength(1);
    expect(list.items[0]).toMatchObject({
      label: "compute(1);",
      filterText: "compute(1);",
      textEdit: { range: { start: { line: 3, character: 6 }, end: at }, newText: "compute(1);" },
      insertTextFormat: 1,
    });
  });

  it("covers the replaced span and shows a block in a fenced code block", () => {
    const end = { line: 3, character: 11 };
    const list = completionList({
      text: "a) {\n  go();\n}",
      position: at,
      end,
      wordBefore: "",
      wordBeforeLength: 0,
    });
    expect(list.items.map((i) => i.textEdit && "range" in i.textEdit && i.textEdit.newText)).toEqual([
      "a) {",
      "a) {\n  go();\n}",
    ]);
    expect(list.items[1]!.documentation).toEqual({ kind: "markdown", value: "```\na) {\n  go();\n}\n```" });
    for (const item of list.items) expect(item.textEdit).toMatchObject({ range: { start: at, end } });
  });
});

describe("the infill.accepted command of each item", () => {
  const at = { line: 0, character: 4 };
  // The answer shows the rest of a suggestion of which 3 characters were typed already.
  const placement = {
    text: "\n  return 1;\n}",
    position: at,
    end: at,
    wordBefore: "",
    wordBeforeLength: 0,
    accept: { id: "s7", before: 3 },
  };
  const command = (chars: number) => ({
    title: "infill: accepted",
    command: "infill.accepted",
    arguments: [{ id: "s7", chars }],
  });

  it("says how far into the suggestion each item reaches: the whole, or its first line", () => {
    expect(inlineItems(placement)[0]!.command).toEqual(command(3 + 14));
    const [line, block] = completionList(placement).items;
    expect(line!.command).toEqual(command(3 + "\n  return 1;".length));
    expect(block!.command).toEqual(command(3 + 14));
  });

  it("counts characters as code points", () => {
    const emoji = { ...placement, text: "😀😀", accept: { id: "s7", before: 0 } };
    expect(inlineItems(emoji)[0]!.command).toEqual(command(2));
  });

  it("is left out when there is nothing to report to", () => {
    const { accept: _, ...bare } = placement;
    expect(inlineItems(bare)[0]).not.toHaveProperty("command");
    expect(completionList(bare).items[0]).not.toHaveProperty("command");
  });
});
