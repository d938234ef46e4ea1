// The index lookups of a reference no import answered: the deepest part of its chain first, nothing the current
// file declares itself, methods of the type around the cursor for a bare name where calls have an implicit receiver.
import { describe, expect, it } from "vitest";
import { indexSteps } from "../../src/context/symbols/index-queries.js";
import type { Family, ModuleOutline, Reference } from "../../src/context/types.js";
import { decl } from "./fixture-modules.js";

const current: ModuleOutline = {
  declarations: [decl("Pry", "class", [decl("run", "method")]), decl("Local", "class")],
  reexports: [],
};
const show = (steps: ReturnType<typeof indexSteps>) =>
  steps.map((s) =>
    s.kind === "member"
      ? `${s.owner}.${s.name}`
      : s.kind === "top"
        ? `${s.name}${s.member ? `(.${s.member})` : ""}`
        : `*.${s.name}`,
  );

describe("indexSteps", () => {
  it.each<{ name: string; ref: Reference; family: Family; enclosing?: string; want: string[] }>([
    {
      name: "a path: each name as a member of the one before it, then on its own, deepest first",
      ref: { name: "Pry", member: "Method", chain: ["Pry", "Method", "Patcher"], distance: 0 },
      family: "ruby",
      want: ["Method.Patcher", "Patcher", "Pry.Method", "Method(.Patcher)"],
    },
    {
      name: "a member of a class the file declares too (reopened): looked up elsewhere; the file's own name is not",
      ref: { name: "Pry", member: "binding_for", distance: 0 },
      family: "ruby",
      want: ["Pry.binding_for", "binding_for"],
    },
    {
      name: "nothing when the file's own class has the member",
      ref: { name: "Pry", member: "run", distance: 0 },
      family: "ruby",
      want: [],
    },
    {
      name: "nothing for a name the file declares",
      ref: { name: "Local", distance: 0 },
      family: "java",
      want: [],
    },
    {
      name: "a bare lower-case name in Ruby: a method of the enclosing class (or its bases), then of any",
      ref: { name: "bold", distance: 0 },
      family: "ruby",
      enclosing: "Edit",
      want: ["bold", "Edit.bold", "*.bold"],
    },
    {
      name: "a bare name elsewhere: the top level, then a member of the class around the cursor (C++'s `Foo::run`)",
      ref: { name: "helper", distance: 0 },
      family: "cpp",
      enclosing: "Scanner",
      want: ["helper", "Scanner.helper"],
    },
    {
      name: "outside any class: the top level only",
      ref: { name: "helper", distance: 0 },
      family: "cpp",
      want: ["helper"],
    },
  ])("$name", ({ ref, family, enclosing, want }) => {
    expect(show(indexSteps(ref, family, current, enclosing))).toEqual(want);
  });
});
