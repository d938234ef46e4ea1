import { beforeAll, describe, expect, it } from "vitest";
import { loadGrammar } from "../../src/context/syntax/runtime.js";
import { loadSyntaxLayer } from "../../src/context/syntax-layer.js";
import { Documents } from "../../src/documents/documents.js";
import { TextBuffer } from "../../src/documents/text-buffer.js";
import { carriedEdit } from "../../src/next-edit/carried-edit.js";
import { chooseRegion, type RegionShape, reachSites } from "../../src/next-edit/region.js";
import { excerptAt, excerptOf } from "../../src/next-edit/region-excerpt.js";
import { indentShape } from "../../src/next-edit/region-indent.js";
import { syntaxShape } from "../../src/next-edit/region-syntax.js";
import { fixture } from "../support/fixture.js";

function open(uri: string, languageId: string, source: string) {
  const f = fixture(source);
  const documents = new Documents();
  documents.didOpen({ textDocument: { uri, languageId, version: 1, text: f.text } });
  return { doc: documents.get(uri)!, at: f.position };
}

/** The region's lines as text, for readable expectations. */
function regionOf(
  source: string,
  maxLines: number,
  languageId = "typescript",
  uri = "file:///w/a.ts",
): string {
  const { doc, at } = open(uri, languageId, source);
  return excerptAt(doc, at, "a", maxLines).region;
}

const shape = (
  ancestors: Array<[number, number]>,
  children: Array<Array<[number, number]>>,
): RegionShape => ({
  ancestors: ancestors.map(([start, end]) => ({ start, end })),
  childrenOf: (i) => (children[i] ?? []).map(([start, end]) => ({ start, end })),
});

describe("chooseRegion", () => {
  const cases: Array<[string, number, number, RegionShape, number, [number, number]]> = [
    ["the whole document when it fits", 5, 30, shape([[4, 6]], []), 40, [0, 29]],
    [
      "the largest enclosing span that fits",
      12,
      200,
      shape(
        [
          [11, 13],
          [10, 20],
          [5, 80],
        ],
        [],
      ),
      40,
      [10, 20],
    ],
    [
      "grown by the parts of the span around it, below then above",
      12,
      200,
      shape(
        [
          [10, 20],
          [5, 80],
        ],
        [
          [],
          [
            [5, 5],
            [6, 9],
            [10, 20],
            [21, 30],
            [31, 60],
          ],
        ],
      ),
      25,
      [6, 30],
    ],
    ["lines around the cursor when nothing fits", 100, 500, shape([[50, 300]], []), 40, [87, 126]],
    ["never past the span that holds it", 52, 500, shape([[50, 300]], []), 40, [50, 89]],
  ];
  it.each(cases)("%s", (_name, cursor, lineCount, s, maxLines, [start, end]) => {
    expect(chooseRegion(cursor, lineCount, s, maxLines)).toEqual({ start, end });
  });
});

const LONG_TS = `import { x } from "./x";

${Array.from({ length: 30 }, (_, i) => `const c${i} = ${i};`).join("\n")}

function total(items: number[]): number {
  let total = 0;
  for (const item of items) {
    total += item;│
  }
  return total;
}

${Array.from({ length: 30 }, (_, i) => `const d${i} = ${i};`).join("\n")}
`;

describe("regions by indentation (no grammar)", () => {
  it("takes the enclosing blocks while they fit, with their opener and closer", () => {
    expect(regionOf(LONG_TS, 3)).toBe("  for (const item of items) {\n    total += item;\n  }\n");
    expect(regionOf(LONG_TS, 7)).toBe(
      "function total(items: number[]): number {\n  let total = 0;\n  for (const item of items) {\n    total += item;\n  }\n  return total;\n}\n",
    );
  });

  it("grows a block that fits by the statements around it", () => {
    const region = regionOf(LONG_TS, 11);
    expect(region.split("\n").length - 1).toBeLessThanOrEqual(11);
    expect(region).toContain("function total(items: number[]): number {\n");
    expect(region).toContain("const d0 = 0;\n");
  });

  it("keeps a cursor on a blank line at a block's end inside the region", () => {
    const source = "function f() {\n  a();\n  │\n}\n\nfunction g() {}\n";
    const { doc, at } = open("file:///w/b.ts", "typescript", source);
    const whole = excerptAt(doc, at, "b.ts", 4);
    expect(whole.region).toBe("function f() {\n  a();\n  \n}\n");
    expect(whole.region.slice(0, whole.cursorOffset)).toBe("function f() {\n  a();\n  ");
    // Too small for the function: lines around the cursor inside it.
    expect(excerptAt(doc, at, "b.ts", 3).region).toBe("  a();\n  \n}\n");
  });

  it("reads a Python block without closers", () => {
    const source = `x = 1\n\ndef f(a):\n    if a:\n        return 1│\n    return 2\n\n${"y = 2\n".repeat(50)}`;
    const lines = new TextBuffer(fixture(source).text);
    const s = indentShape(lines, 4);
    expect(s.ancestors.slice(0, 2)).toEqual([
      { start: 3, end: 4 },
      { start: 2, end: 5 },
    ]);
  });
});

describe("regions along the syntax tree", () => {
  beforeAll(async () => {
    await loadSyntaxLayer();
    await loadGrammar("c");
  });

  const C = `#include <stdio.h>

${Array.from({ length: 20 }, (_, i) => `int g${i} = ${i};`).join("\n")}

int sum(int *items, int n) {
  int total = 0;
  for (int i = 0; i < n; i++) {
    total += items[i];│
  }
  return total;
}

${Array.from({ length: 20 }, (_, i) => `int h${i} = ${i};`).join("\n")}
`;

  it("follows the nodes that hold the cursor", () => {
    const { doc, at } = open("file:///w/sum.c", "c", C);
    const s = syntaxShape(doc, at)!;
    expect(s.ancestors.slice(0, 4).map((span) => [span.start - at.line, span.end - at.line])).toEqual([
      [0, 0],
      [-1, 1],
      [-3, 3],
      [-at.line, 24],
    ]);
    expect(regionOf(C, 7, "c", "file:///w/sum2.c")).toBe(
      "int sum(int *items, int n) {\n  int total = 0;\n  for (int i = 0; i < n; i++) {\n    total += items[i];\n  }\n  return total;\n}\n",
    );
  });

  it("grows by the statements of a block that starts and ends on its statement's lines", () => {
    // The loop and its body span the same lines: the parts are the body's statements, below the cursor too.
    const loop = `int f(char *line, int n) {
  while (n > 0) {
${Array.from({ length: 30 }, (_, i) => `    n -= ${i};`).join("\n")}
    if (line[n - 2] == 'a') {│
      n--;
    }
    if (line[n - 1] == 'b') {
      n--;
    }
${Array.from({ length: 30 }, (_, i) => `    n += ${i};`).join("\n")}
  }
  return n;
}
`;
    const region = regionOf(loop, 12, "c", "file:///w/loop.c");
    expect(region).toContain("if (line[n - 2] == 'a') {");
    expect(region).toContain("if (line[n - 1] == 'b') {");
    expect(region.split("\n").length - 1).toBeLessThanOrEqual(12);
  });

  it("falls back to indentation for a language whose grammar is not loaded", () => {
    const { doc, at } = open("file:///w/a.swift", "swift", "func f() {\n  let x = 1│\n}\n");
    expect(syntaxShape(doc, at)).toBeUndefined();
    expect(excerptAt(doc, at, "a.swift", 40).region).toBe("func f() {\n  let x = 1\n}\n");
  });
});

describe("excerptOf", () => {
  it("splits the lines into context, region and context, and places the cursor in the region", () => {
    const buffer = new TextBuffer("a\nb\nc\nd\ne\nf");
    const excerpt = excerptOf(
      buffer,
      { line: 3, character: 1 },
      { start: 2, end: 4 },
      { path: "p", languageId: "x" },
      1,
    );
    expect(excerpt).toEqual({
      path: "p",
      languageId: "x",
      startsFile: false,
      beforeRegion: "b\n",
      region: "c\nd\ne\n",
      regionStartLine: 2,
      cursorOffset: 3,
      afterRegion: "f",
    });
    const top = excerptOf(
      buffer,
      { line: 0, character: 9 },
      { start: 0, end: 0 },
      { path: "p", languageId: "x" },
      1,
    );
    expect(top).toMatchObject({ startsFile: true, beforeRegion: "", region: "a\n", cursorOffset: 1 });
  });
});

describe("reachSites", () => {
  const cases: Array<[string, [number, number], number, number[], number, [number, number]]> = [
    ["no sites: the region as it was", [10, 20], 15, [], 40, [10, 20]],
    ["sites inside the region: the region as it was", [10, 20], 15, [11, 19], 40, [10, 20]],
    ["a site below: from the cursor to it, grown toward the region's ends", [10, 20], 15, [30], 40, [10, 30]],
    ["a site above: grown down to the region's end first", [10, 20], 15, [2], 40, [2, 20]],
    ["within maxLines: the nearest sites first, a far one left out", [10, 20], 15, [25, 60], 12, [14, 25]],
    ["grown below first, then above, a line at a time", [10, 20], 15, [24], 12, [13, 24]],
    ["a site further than maxLines from the cursor: the region as it was", [10, 20], 15, [90], 40, [10, 20]],
  ];
  it.each(cases)("%s", (_, [start, end], cursor, sites, maxLines, [wantStart, wantEnd]) => {
    expect(reachSites({ start, end }, cursor, sites, maxLines)).toEqual({ start: wantStart, end: wantEnd });
  });
});

describe("excerptAt with the last edit carried", () => {
  it("moves a region that misses the next use of a renamed name to hold it", () => {
    const lines = [
      "function f(a) {",
      ...Array.from({ length: 10 }, (_, i) => `  before${i}();`),
      "  const sum│ = a + 1;",
      ...Array.from({ length: 10 }, (_, i) => `  step${i}();`),
      "  return total;",
      ...Array.from({ length: 10 }, (_, i) => `  after${i}();`),
      "}",
    ];
    const { doc, at } = open("file:///w/a.ts", "typescript", lines.join("\n"));
    const carried = carriedEdit({
      path: "a.ts",
      oldStartLine: 11,
      newStartLine: 11,
      before: "  const total = a + 1;\n",
      after: "  const sum = a + 1;\n",
      rename: { from: "total", to: "sum" },
    });
    expect(excerptAt(doc, at, "a", 12).region).not.toContain("return total");
    const excerpt = excerptAt(doc, at, "a", 12, carried);
    expect(excerpt.region).toContain("  const sum = a + 1;\n");
    expect(excerpt.region).toContain("  return total;\n");
    expect(excerptAt(doc, at, "a", 4, carried).region).not.toContain("return total");
  });
});
