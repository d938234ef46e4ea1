import { beforeAll, describe, expect, it } from "vitest";
import { c, cpp, SYNTAX_SUPPORTS } from "../../src/context/lang/index.js";
import { editsBetween, OpenTrees } from "../../src/context/syntax/open-trees.js";
import { GRAMMAR_NAMES, loadGrammar } from "../../src/context/syntax/runtime.js";
import { variantTree } from "../../src/context/syntax/support.js";
import { countErrors, enclosingBlock } from "../../src/context/syntax/tree-checks.js";
import { summary } from "./helpers.js";

const SYNTAX = SYNTAX_SUPPORTS;

beforeAll(async () => {
  await Promise.all(Object.values(SYNTAX).map((support) => support.ready?.()));
});

describe("grammars", () => {
  it.each(GRAMMAR_NAMES)("%s loads in this web-tree-sitter and parses a sample", async (name) => {
    const grammar = await loadGrammar(name);
    expect(grammar).toBeDefined();
    const tree = grammar!.parser.parse("x\n")!;
    expect(tree.rootNode.endIndex).toBe(2);
    tree.delete();
  });

  it("loads a grammar once, whoever asks", async () => {
    expect(await loadGrammar("c")).toBe(await loadGrammar("c"));
  });

  it.each(Object.entries(SYNTAX))("%s: ready once loaded, and its query compiles", (_, support) => {
    expect(support.ready?.()).toBeUndefined();
    // A query that did not compile would give an empty outline for any text.
    expect(
      support.parse(SAMPLES[support.family as keyof typeof SAMPLES]).outline.declarations.length,
    ).toBeGreaterThan(0);
  });
});

const SAMPLES = {
  c: "int f(void) { return 0; }\n",
  cpp: "class A { int x; };\n",
  java: "class A {}\n",
  csharp: "class A {}\n",
  ruby: "def f; end\n",
  php: "<?php function f() {}\n",
  bash: "f() { echo; }\n",
  kotlin: "fun f() {}\n",
  zig: "fn f() void {}\n",
  swift: "func f() {}\n",
  scala: "def f() = 1\n",
  elixir: "defmodule A do\nend\n",
};

describe("never throws", () => {
  it("binary and huge input: nothing, and no throw", () => {
    const binary = String.fromCharCode(...Array.from({ length: 4096 }, (_, i) => (i * 7919) % 65536));
    expect(() => c.parse(binary)).not.toThrow();
    const huge = "int f(void);\n".repeat(200_000);
    expect(cpp.parse(huge).outline.declarations).toEqual([]);
  });
});

describe("incremental re-parse of open documents", () => {
  it.each([
    { before: "abc", after: "abXc", edits: [[2, 2, 3, "0:2", "0:2", "0:3"]] },
    { before: "a\nbc\nd", after: "a\nd", edits: [[2, 5, 2, "1:0", "2:0", "1:0"]] },
    { before: "same", after: "same", edits: [] },
    { before: "x😀y", after: "x😀zy", edits: [[3, 3, 4, "0:3", "0:3", "0:4"]] },
    // Two edits far apart: the last first, each in the text the one before it left.
    {
      before: `a\n${"same line\n".repeat(50)}b\n`,
      after: `aX\n${"same line\n".repeat(50)}\nb\n`,
      edits: [
        [501, 501, 502, "50:9", "50:9", "51:0"],
        [1, 1, 2, "0:1", "0:1", "0:2"],
      ],
    },
  ])("$before → $after", ({ before, after, edits }) => {
    const point = (p: { row: number; column: number }) => `${p.row}:${p.column}`;
    expect(
      editsBetween(before, after).map((e) => [
        e.startIndex,
        e.oldEndIndex,
        e.newEndIndex,
        point(e.startPosition),
        point(e.oldEndPosition),
        point(e.newEndPosition),
      ]),
    ).toEqual(edits);
  });

  it("parses to the tree a fresh parse gives, however many edits lie between two texts", async () => {
    const grammar = (await loadGrammar("c"))!;
    const trees = new OpenTrees();
    const lines = Array.from({ length: 300 }, (_, i) => `int f${i}(int x) { return x * ${i}; }`);
    let seed = 7;
    const next = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    const pieces = ["", "\n", "{", "}", " y", "/* c */", "int g(void);", "\u00e9😀"];
    for (let round = 0; round < 40; round++) {
      // One to four edits anywhere between two parses (the cursor jumps, several places change).
      for (let k = 1 + next(4); k > 0; k--) {
        const at = next(lines.length);
        const line = lines[at]!;
        const column = next(line.length + 1);
        lines[at] = line.slice(0, column) + pieces[next(pieces.length)]! + line.slice(column + next(3));
      }
      const text = lines.join("\n");
      const incremental = trees.parse("a", text, grammar.parser)!;
      const fresh = grammar.parser.parse(text)!;
      expect(incremental.rootNode.toString()).toBe(fresh.rootNode.toString());
      fresh.delete();
    }
    trees.forget("a");
  });

  it("gives the outline a fresh parse gives, edit after edit", () => {
    let text = "/** A. */\nint a(void);\nstruct S { int x; };\n";
    const edits: Array<(t: string) => string> = [
      (t) => t.replace("int a(void);", "int a(void);\nint b(int y);"),
      (t) => t.replace("int x;", "int x;\n  char *name;"),
      (t) => t.replace("/** A. */\n", ""),
      (t) => `#include "x.h"\n${t}`,
      (t) => t.replace("struct S", "static struct S"),
    ];
    for (const edit of edits) {
      text = edit(text);
      const open = c.parseOpen!("file:///a.c", text);
      expect(summary(open.outline.declarations)).toEqual(summary(c.parse(text).outline.declarations));
      expect(open.imports).toEqual(c.parse(text).imports);
    }
    c.close!("file:///a.c");
  });

  it("keeps one tree per document, and forgets it when closed", async () => {
    const grammar = (await loadGrammar("c"))!;
    const trees = new OpenTrees();
    const first = trees.parse("a", "int x;", grammar.parser)!;
    expect(trees.parse("a", "int x;", grammar.parser)).toBe(first);
    trees.parse("b", "int y;", grammar.parser);
    expect(trees.size).toBe(2);
    trees.forget("a");
    expect(trees.size).toBe(1);
    trees.forget("b");
  });
});

describe("what completion can ask of a tree", () => {
  it("counts the errors of a buffer with a suggestion, re-parsing the buffer's tree, which stays", async () => {
    const grammar = (await loadGrammar("c"))!;
    const trees = new OpenTrees();
    const buffer = "int f(int x) {\n  \n}\n";
    const kept = trees.parse("a", buffer, grammar.parser)!;
    const good = trees.parseVariant("a", buffer.replace("  \n", "  return x + 1;\n"), grammar.parser)!;
    const bad = trees.parseVariant("a", buffer.replace("  \n", "  return (x + 1;\n"), grammar.parser)!;
    expect(countErrors(good.rootNode)).toBe(0);
    expect(countErrors(bad.rootNode)).toBeGreaterThan(0);
    expect(trees.parse("a", buffer, grammar.parser)).toBe(kept);
    expect(enclosingBlock(good.rootNode, buffer.indexOf("  \n") + 2).type).toBe("compound_statement");
    good.delete();
    bad.delete();
    trees.forget("a");
  });

  it("asks through the family: the open document's tree, re-parsed with the suggestion", () => {
    const buffer = "int f(int x) {\n  \n}\n";
    c.parseOpen!("file:///v.c", buffer);
    const tree = variantTree("c", "file:///v.c", buffer.replace("  \n", "  return x * 2;\n"))!;
    expect(countErrors(tree.rootNode)).toBe(0);
    tree.delete();
    expect(variantTree("typescript", "file:///v.ts", "x")).toBeUndefined();
    c.close!("file:///v.c");
  });
});
