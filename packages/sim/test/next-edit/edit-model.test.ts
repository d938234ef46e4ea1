import { describe, expect, it } from "vitest";
import { editedRegion } from "../../src/next-edit/edit-model.js";
import type { ShownEdit } from "../../src/next-edit/edit-task.js";

const lines = (text: string) => text.split("\n");
const edit = (before: string, after: string): ShownEdit => ({ before: lines(before), after: lines(after) });

describe("editedRegion", () => {
  it.each<[string, ShownEdit[], string, string]>([
    [
      "a rename carried to the other whole-word uses",
      [edit("function f(a, b) {\n  const total = a + b;", "function f(a, b) {\n  const sum = a + b;")],
      "  const sum = a + b;\n  log(total, subtotal);\n  return total;",
      "  const sum = a + b;\n  log(sum, subtotal);\n  return sum;",
    ],
    [
      "a rename typed as a longer name (the old name is a prefix of the new)",
      [edit("let count = 0;", "let countAll = 0;")],
      "let countAll = 0;\ncount += 1;",
      "let countAll = 0;\ncountAll += 1;",
    ],
    [
      "a rename on two lines at once, the same both times",
      [edit("x = total;\ny = total;", "x = sum;\ny = sum;")],
      "x = sum;\ny = sum;\nz = total;",
      "x = sum;\ny = sum;\nz = sum;",
    ],
    [
      "a parameter appended, carried to the calls with the old count only",
      [edit("function add(a, b) {", "function add(a, b, c) {")],
      "function add(a, b, c) {\n  return add(1, 2) + add(1, 2, 3) + adder(4, 5);\n}\nconst n = add(x, f(y, z));",
      "function add(a, b, c) {\n  return add(1, 2, c) + add(1, 2, 3) + adder(4, 5);\n}\nconst n = add(x, f(y, z), c);",
    ],
    [
      "a typed parameter inserted first, its name the argument",
      [edit("def scale(x, y):", "def scale(factor: float, x, y):")],
      "def scale(factor: float, x, y):\n    return scale(y, x)",
      "def scale(factor: float, x, y):\n    return scale(factor, y, x)",
    ],
    [
      "a parameter added to a function that had none, nested calls too",
      [edit("fn tick() {", "fn tick(now: u64) {")],
      "fn tick(now: u64) {\n    run(tick(), tick());",
      "fn tick(now: u64) {\n    run(tick(now), tick(now));",
    ],
    [
      "a line's change repeated on the line equal to it, its own indentation kept",
      [edit("if (a > 0) total += a;", "if (a >= 0) total += a;")],
      "if (a >= 0) total += a;\n    if (a > 0) total += a;",
      "if (a >= 0) total += a;\n    if (a >= 0) total += a;",
    ],
    [
      "a line's change repeated on its twin with other names",
      [edit("  if (left > max) max = left;", "  if (left > max && left < limit) max = left;")],
      "  if (left > max && left < limit) max = left;\n  if (right > max) max = right;",
      "  if (left > max && left < limit) max = left;\n  if (right > max && right < limit) max = right;",
    ],
    [
      "no twin where the changed part differs",
      [edit("  total = a + b;", "  total = a + b + c;")],
      "  other = a - b;",
      "  other = a - b;",
    ],
    [
      "a rename is not repeated as a twin on a line of the same shape",
      [edit("let total = a + b;", "let sum = a + b;")],
      "let sum = a + b;\nlet prod = a + b;",
      "let sum = a + b;\nlet prod = a + b;",
    ],
    ["only the last edit counts", [edit("a = 1;", "b = 1;"), edit("x", "y")], "a = 1;", "a = 1;"],
    ["no edits: the region unchanged", [], "a = 1;", "a = 1;"],
    ["lines added, nothing to carry: the region unchanged", [edit("a", "a\nb")], "a\nb\nc", "a\nb\nc"],
  ])("%s", (_, edits, region, expected) => {
    expect(editedRegion({ edits, region: lines(region) })).toEqual(lines(expected));
  });
});
