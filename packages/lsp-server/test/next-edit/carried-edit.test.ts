import { describe, expect, it } from "vitest";
import { carriedEdit, mayNeedEdit, shapeOf } from "../../src/next-edit/carried-edit.js";
import type { EditEvent } from "../../src/next-edit/prompt/excerpt.js";
import { eventAt } from "../support/next-edit-input.js";

const renamed: EditEvent = {
  ...eventAt("a.ts", 1, "  const total = a + b;\n", "  const sum = a + b;\n"),
  rename: { from: "total", to: "sum" },
};

describe("carriedEdit", () => {
  it.each<[string, EditEvent, { names: string[]; shapes: string[] }]>([
    ["a rename: its old name alone", renamed, { names: ["total"], shapes: [] }],
    [
      "a parameter added: the function whose list changed, and the header's shape",
      eventAt("a.ts", 0, "function scale(x, y) {\n", "function scale(x, y, z) {\n"),
      { names: ["scale"], shapes: [shapeOf("function scale(x, y) {")] },
    ],
    [
      "an argument added to a call: the callee",
      eventAt("a.ts", 4, "  draw(ctx, shape);\n", "  draw(ctx, shape, 2);\n"),
      { names: ["draw"], shapes: [shapeOf("  draw(ctx, shape);")] },
    ],
    [
      "a number changed outside any list: no name, the line's shape",
      eventAt("a.ts", 2, "  margin.top = 0;\n", "  margin.top = 1;\n"),
      { names: [], shapes: [shapeOf("  margin.top = 0;")] },
    ],
    [
      "only a name changed: the line keeps its shape, which says nothing of twins",
      eventAt("a.ts", 2, "  margin.top = 0;\n", "  margin.left = 0;\n"),
      { names: [], shapes: [] },
    ],
    [
      "a line too plain to look for twins of",
      eventAt("a.ts", 2, "  i++;\n", "  i--;\n"),
      { names: [], shapes: [] },
    ],
    [
      "the innermost list: the call inside the argument, not the outer one",
      eventAt("a.ts", 0, "log(format(x));\n", "log(format(x, 2));\n"),
      { names: ["format"], shapes: [shapeOf("log(format(x));")] },
    ],
  ])("%s", (_, event, expected) => {
    expect(carriedEdit(event)).toEqual(expected);
  });
});

describe("mayNeedEdit", () => {
  const call = carriedEdit(eventAt("a.ts", 0, "function scale(x, y) {\n", "function scale(x, y, z) {\n"));
  const twin = carriedEdit(eventAt("a.ts", 2, "  margin.top = 0;\n", "  margin.top = 1;\n"));
  it.each<[string, string, ReturnType<typeof carriedEdit>, boolean]>([
    ["a use of the renamed name", "  log(total);", carriedEdit(renamed), true],
    ["the name inside a longer word is no use", "  log(subtotal, totals);", carriedEdit(renamed), false],
    ["a call of the function", "  const s = scale(1, 2);", call, true],
    ["a method of that name counts too (the lexical rule cannot tell)", "  v.scale(1, 2);", call, true],
    ["a line of the changed line's shape (a twin)", "  margin.left = 0;", twin, true],
    ["twins are compared without indentation", "margin.bottom = 0;", twin, true],
    ["another shape", "  margin.left = 0 + 1;", twin, false],
    ["an unrelated line", "  return x;", call, false],
  ])("%s", (_, line, carried, expected) => {
    expect(mayNeedEdit(line, carried)).toBe(expected);
  });
});
