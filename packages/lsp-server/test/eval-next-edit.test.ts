// The next-edit eval's pure parts: the case finders on small files written here, Zed's delta-chrF, and whether an
// edit shown makes remaining sites.
import { describe, expect, it } from "vitest";
import type { Language } from "../eval/languages.js";
import { deltaChrF } from "../eval/next-edit/delta-chrf.js";
import { applyEdits, type EditCase, finished, restAfterFirst } from "../eval/next-edit/edit-case.js";
import { loneCases } from "../eval/next-edit/lone-cases.js";
import { parameterCases } from "../eval/next-edit/parameter-cases.js";
import { renameCases } from "../eval/next-edit/rename-cases.js";
import { makesSites, positionOf } from "../eval/next-edit/replay.js";
import { SourceText } from "../eval/next-edit/source-text.js";
import { twinCases } from "../eval/next-edit/twin-cases.js";

const source = (text: string, language: Language = "TypeScript") => new SourceText("a.ts", text, language);
/** The cases' `what`, and the file with each change finished. */
const outcomes = (text: string, cases: EditCase[]) => cases.map((c) => [c.what, finished(text, c)] as const);

describe("case finders", () => {
  it("a rename: every occurrence of a local, the declaration first; none when a use is a member of something", () => {
    const text = "function f(a) {\n  let total = a;\n  total += 1;\n  return total;\n}\n";
    expect(outcomes(text, renameCases(source(text)))).toEqual([
      ["total → newTotal (2 more)", text.replaceAll("total", "newTotal")],
    ]);
    const member = "function f(a) {\n  let total = a;\n  total += 1;\n  return x.total + total;\n}\n";
    expect(renameCases(source(member)).map((c) => c.what)).toEqual([]);
  });

  it("a parameter: the header's list and every call get one more; none when a call has another count", () => {
    const text = "function add(a, b) {\n  return a + b;\n}\nconst x = add(1, 2);\n";
    expect(outcomes(text, parameterCases(source(text)))).toEqual([
      [
        "add(…, scale) (1 call)",
        "function add(a, b, scale: number) {\n  return a + b;\n}\nconst x = add(1, 2, scale);\n",
      ],
    ]);
    const odd = "function add(a, b) {\n  return a + b;\n}\nconst x = add(1);\n";
    expect(parameterCases(source(odd))).toEqual([]);
  });

  it("twins and the lone control: a number changed on twin lines, or on a line with no twin", () => {
    const twins = "const a = {\n  top: pad(0),\n  left: pad(0),\n};\n";
    expect(outcomes(twins, twinCases(source(twins)))).toEqual([
      ["0 → 1, line 2 and its twin 1 below", "const a = {\n  top: pad(1),\n  left: pad(1),\n};\n"],
    ]);
    expect(loneCases(source(twins))).toEqual([]);
    const lone = "const limit = size * 4;\nlog(limit);\n";
    const [only, ...more] = loneCases(source(lone));
    expect(more).toEqual([]);
    expect(only?.rest).toEqual([]);
    expect(only && finished(lone, only)).toBe("const limit = size * 5;\nlog(limit);\n");
  });
});

describe("deltaChrF", () => {
  const original = "let total = 0;\nlog(total);\nsend(total);\n";
  const expected = "let sum = 0;\nlog(sum);\nsend(sum);\n";
  it.each<[string, string, (n: number) => boolean]>([
    ["the expected change: 100", expected, (n) => n === 100],
    ["no change at all: 0", original, (n) => n === 0],
    ["part of it: between", "let sum = 0;\nlog(sum);\nsend(total);\n", (n) => n > 30 && n < 100],
    ["an unrelated change: near 0", "let total = 1;\nlog(total);\nsend(total);\n", (n) => n < 10],
    ["whitespace apart, the same change: 100", "let sum  =  0;\nlog(sum);\nsend(sum);\n", (n) => n > 99.9],
  ])("%s", (_, actual, holds) => {
    expect(holds(deltaChrF(original, expected, actual))).toBe(true);
  });
});

describe("makesSites", () => {
  const text = "let total = 0;\nf(total, total);\ng(total);\n";
  const sites = [17, 24, 34].map((start) => ({ start, end: start + 5, text: "sum" }));
  const edit = (from: number, to: number, newText: string) => ({
    range: { start: positionOf(text, from), end: positionOf(text, to) },
    text: newText,
    textDocument: { uri: "file:///a.ts", version: 2 },
  });
  it.each<[string, ReturnType<typeof edit>, boolean]>([
    ["a site, exactly", edit(34, 39, "sum"), true],
    ["two sites of a line in one edit", edit(17, 29, "sum, sum"), true],
    ["a site, the wrong text", edit(34, 39, "summ"), false],
    ["a site and more", edit(32, 39, "g2(sum"), false],
    ["no site", edit(0, 3, "const"), false],
  ])("%s", (_, shown, expected) => {
    expect(makesSites(text, shown, sites)).toBe(expected);
  });

  it("the sites of a case, after its first edit, are where the finished change differs", () => {
    const file = "function f() {\n  let total = 0;\n  log(total);\n  send(total);\n}\n";
    const [rename] = renameCases(source(file));
    const asked = applyEdits(file, rename ? [rename.first] : []);
    expect(rename && applyEdits(asked, restAfterFirst(rename))).toBe(file.replaceAll("total", "newTotal"));
  });
});
