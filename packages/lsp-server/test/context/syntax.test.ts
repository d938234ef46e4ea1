import { beforeAll, describe, expect, it } from "vitest";
import type { Range } from "vscode-languageserver";
import { c, cpp, SYNTAX_SUPPORTS } from "../../src/context/lang/index.js";
import { changeEdit, OpenTrees, parseVariant, replacementEdit } from "../../src/context/syntax/open-trees.js";
import { GRAMMAR_NAMES, loadGrammar } from "../../src/context/syntax/runtime.js";
import { documentChanged, variantTree } from "../../src/context/syntax/support.js";
import { ChangeErrors, countErrors, enclosingBlock } from "../../src/context/syntax/tree-checks.js";
import { type DocumentChange, Documents } from "../../src/documents/documents.js";
import { TextBuffer } from "../../src/documents/text-buffer.js";
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

/** A document as the server keeps it, and a function that changes it as a client would (whole lines joined by \n). */
function openDocument(uri: string, text: string) {
  const documents = new Documents();
  documents.didOpen({ textDocument: { uri, languageId: "c", version: 1, text } });
  let version = 1;
  return {
    buffer: documents.get(uri)!.buffer,
    /** Replace `range` (line/character pairs) with `text`; the changes as the document applied them. */
    change(contentChanges: Array<{ range?: Range; text: string }>): DocumentChange[] {
      return documents.didChange({ textDocument: { uri, version: ++version }, contentChanges })!.changes;
    },
  };
}

const at = (line: number, character: number) => ({ line, character });
const point = (p: { row: number; column: number }) => `${p.row}:${p.column}`;

describe("incremental re-parse of open documents", () => {
  it.each([
    { text: "abc", range: [at(0, 2), at(0, 2)], insert: "X", edit: [2, 2, 3, "0:2", "0:2", "0:3"] },
    { text: "a\nbc\nd", range: [at(1, 0), at(2, 0)], insert: "", edit: [2, 5, 2, "1:0", "2:0", "1:0"] },
    { text: "x😀y", range: [at(0, 3), at(0, 3)], insert: "z", edit: [3, 3, 4, "0:3", "0:3", "0:4"] },
    { text: "ab\ncd", range: [at(1, 1), at(1, 1)], insert: "1\n2", edit: [4, 4, 7, "1:1", "1:1", "2:1"] },
    // A CRLF document's offsets count each line break once (the trees read lines joined with \n).
    { text: "a\r\nbc\r\nd", range: [at(2, 0), at(2, 1)], insert: "D", edit: [5, 6, 6, "2:0", "2:1", "2:1"] },
  ])("$text: $insert at $range.0.line:$range.0.character", ({ text, range, insert, edit }) => {
    const doc = openDocument("file:///e.c", text);
    const [change] = doc.change([{ range: { start: range[0]!, end: range[1]! }, text: insert }]);
    const made = changeEdit(change!)!;
    expect([
      made.startIndex,
      made.oldEndIndex,
      made.newEndIndex,
      point(made.startPosition),
      point(made.oldEndPosition),
      point(made.newEndPosition),
    ]).toEqual(edit);
  });

  it("drops the tree for a change with a carriage return (its line breaks may fuse), and parses afresh", async () => {
    const grammar = (await loadGrammar("c"))!;
    const doc = openDocument("file:///r.c", "int x;\nint y;");
    const trees = new OpenTrees();
    trees.parse("r", doc.buffer, grammar.parser);
    const changes = doc.change([{ range: { start: at(0, 6), end: at(0, 6) }, text: "\r\nint z;" }]);
    expect(changeEdit(changes[0]!)).toBeUndefined();
    trees.edited("r", changes);
    expect(trees.size).toBe(0);
    const tree = trees.parse("r", doc.buffer, grammar.parser)!;
    expect(tree.rootNode.text).toBe("int x;\nint z;\nint y;");
    trees.forget("r");
  });

  it("follows each change and parses to the tree a fresh parse gives, however many changes between two parses", async () => {
    const grammar = (await loadGrammar("c"))!;
    const trees = new OpenTrees();
    const lines = Array.from({ length: 120 }, (_, i) => `int f${i}(int x) { return x * ${i}; }`);
    const doc = openDocument("file:///a.c", lines.join("\n"));
    trees.parse("a", doc.buffer, grammar.parser);
    let seed = 7;
    const next = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    const pieces = ["", "\n", "{", "}", " y", "/* c */", "int g(void);", "\u00e9😀", "\n\n  x;\n"];
    for (let round = 0; round < 40; round++) {
      // One to four changes anywhere between two parses (the cursor jumps), some in one notification.
      for (let k = 1 + next(4); k > 0; k--) {
        const contentChanges = Array.from({ length: 1 + next(2) }, () => {
          const line = next(doc.buffer.lineCount);
          const column = next(doc.buffer.lineAt(line).length + 1);
          const end =
            next(4) === 0 ? at(Math.min(line + 1, doc.buffer.lineCount - 1), 2) : at(line, column + next(3));
          return { range: { start: at(line, column), end }, text: pieces[next(pieces.length)]! };
        });
        trees.edited("a", doc.change(contentChanges));
      }
      const incremental = trees.parse("a", doc.buffer, grammar.parser)!;
      const text = Array.from({ length: doc.buffer.lineCount }, (_, i) => doc.buffer.lineAt(i)).join("\n");
      const fresh = grammar.parser.parse(text)!;
      expect(incremental.rootNode.toString()).toBe(fresh.rootNode.toString());
      expect(incremental.rootNode.endIndex).toBe(text.length);
      fresh.delete();
    }
    trees.forget("a");
  });

  it("gives the outline a fresh parse gives, change after change", () => {
    const uri = "file:///o.c";
    const doc = openDocument(uri, "/** A. */\nint a(void);\nstruct S { int x; };\n");
    const edits: Array<(t: string) => string> = [
      (t) => t.replace("int a(void);", "int a(void);\nint b(int y);"),
      (t) => t.replace("int x;", "int x;\n  char *name;"),
      (t) => t.replace("/** A. */\n", ""),
      (t) => `#include "x.h"\n${t}`,
      (t) => t.replace("struct S", "static struct S"),
    ];
    c.parseOpen!(uri, doc.buffer.getText(), doc.buffer);
    for (const edit of edits) {
      // A client that sends whole texts: the document finds the one change each is.
      documentChanged(uri, doc.change([{ text: edit(doc.buffer.getText()) }]));
      const text = doc.buffer.getText();
      const open = c.parseOpen!(uri, text, doc.buffer);
      expect(summary(open.outline.declarations)).toEqual(summary(c.parse(text).outline.declarations));
      expect(open.imports).toEqual(c.parse(text).imports);
    }
    c.close!(uri);
  });

  it("keeps one tree per document, and forgets it when closed", async () => {
    const grammar = (await loadGrammar("c"))!;
    const trees = new OpenTrees();
    const x = new TextBuffer("int x;");
    const first = trees.parse("a", x, grammar.parser)!;
    expect(trees.parse("a", x, grammar.parser)).toBe(first);
    trees.parse("b", new TextBuffer("int y;"), grammar.parser);
    expect(trees.size).toBe(2);
    trees.forget("a");
    expect(trees.size).toBe(1);
    trees.forget("b");
  });
});

describe("what completion can ask of a tree", () => {
  const cursorIn = (buffer: TextBuffer, line: number, character: number) => ({
    offset: buffer.offsetAt(at(line, character)),
    point: { row: line, column: character },
  });

  it("counts the errors of a buffer with a suggestion, re-parsing the buffer's tree, which stays", async () => {
    const grammar = (await loadGrammar("c"))!;
    const trees = new OpenTrees();
    const buffer = new TextBuffer("int f(int x) {\n  \n}\n");
    const kept = trees.parse("a", buffer, grammar.parser)!;
    const place = cursorIn(buffer, 1, 2);
    const good = parseVariant(grammar.parser, kept, buffer, {
      ...place,
      removed: "",
      inserted: "return x + 1;",
    })!;
    const bad = parseVariant(grammar.parser, kept, buffer, {
      ...place,
      removed: "",
      inserted: "return (x + 1;",
    })!;
    expect(good.rootNode.text).toBe("int f(int x) {\n  return x + 1;\n}\n");
    expect(countErrors(good.rootNode)).toBe(0);
    expect(countErrors(bad.rootNode)).toBeGreaterThan(0);
    expect(trees.parse("a", buffer, grammar.parser)).toBe(kept);
    expect(kept.rootNode.text).toBe("int f(int x) {\n  \n}\n");
    expect(enclosingBlock(good.rootNode, place.offset).type).toBe("compound_statement");
    good.delete();
    bad.delete();
    trees.forget("a");
  });

  it("asks through the family: a variant of the document's tree, re-parsed with the suggestion", async () => {
    const grammar = (await loadGrammar("c"))!;
    const buffer = new TextBuffer("int f(int x) {\n  \n}\n");
    const base = grammar.parser.parse("int f(int x) {\n  \n}\n")!;
    const change = { ...cursorIn(buffer, 1, 2), removed: "", inserted: "return x * 2;" };
    const tree = variantTree("c", base, buffer, change)!;
    expect(countErrors(tree.rootNode)).toBe(0);
    tree.delete();
    expect(variantTree("typescript", base, buffer, change)).toBeUndefined();
    base.delete();
  });
});

describe("the errors a change adds, counted around it", () => {
  const SOURCES = {
    c: Array.from({ length: 60 }, (_, i) => `int f${i}(int x) {\n  int y = x * ${i};\n  return y;\n}\n`).join(
      "",
    ),
    java: `class A {\n${Array.from({ length: 60 }, (_, i) => `  int f${i}(int x) {\n    int y = x * ${i};\n    return y;\n  }\n`).join("")}}\n`,
  } as const;
  const PIECES = [
    "}",
    "{",
    " x;",
    "return (",
    "\n  y = 1;\n",
    "",
    "}\n}\nint z;",
    "int q = 2;",
    "(",
    ")",
    ";",
  ];

  it.each(Object.keys(SOURCES) as Array<keyof typeof SOURCES>)(
    "%s: the same as the whole trees' counts, for changes anywhere, the document clean or broken in one place",
    async (name) => {
      const grammar = (await loadGrammar(name))!;
      let seed = 3;
      const next = (n: number) => {
        seed = (seed * 1103515245 + 12345) % 2147483648;
        return seed % n;
      };
      for (let round = 0; round < 80; round++) {
        // Half the rounds on a document with an error of its own near the change (the region may hold it).
        let text: string = SOURCES[name];
        const cursor = 20 + next(text.length - 40);
        if (round % 2 === 1) {
          const at = Math.max(0, cursor - 1 - next(30));
          text = `${text.slice(0, at)}§${text.slice(at)}`;
        }
        const at = round % 2 === 1 ? cursor + 1 : cursor;
        const doc = grammar.parser.parse(text)!;
        const errors = new ChangeErrors(doc.rootNode);
        const removed = next(3);
        const inserted = PIECES[next(PIECES.length)]!;
        const changedText = text.slice(0, at) + inserted + text.slice(at + removed);
        const copy = doc.copy();
        copy.edit(replacementEdit(at, pointAt(text, at), text.slice(at, at + removed), inserted));
        const changed = grammar.parser.parse(changedText, copy)!;
        expect(errors.added(changed, at, removed, inserted.length), `${round}: ${inserted} at ${at}`).toBe(
          countErrors(changed.rootNode) - countErrors(doc.rootNode),
        );
        copy.delete();
        changed.delete();
        doc.delete();
      }
    },
  );

  it.each(Object.keys(SOURCES) as Array<keyof typeof SOURCES>)(
    "%s: a statement typed inside a function of a clean document is judged by the function alone",
    async (name) => {
      const grammar = (await loadGrammar(name))!;
      const text: string = SOURCES[name];
      const at = text.indexOf("return y;", text.length / 2);
      const doc = grammar.parser.parse(text)!;
      const errors = new ChangeErrors(doc.rootNode);
      for (const inserted of ["int z = y + 1;\n    ", "return (\n    ", "z = 2;\n    "]) {
        const copy = doc.copy();
        copy.edit(replacementEdit(at, pointAt(text, at), "", inserted));
        const changed = grammar.parser.parse(text.slice(0, at) + inserted + text.slice(at), copy)!;
        expect(errors.added(changed, at, 0, inserted.length)).toBe(
          countErrors(changed.rootNode) - countErrors(doc.rootNode),
        );
        copy.delete();
        changed.delete();
      }
      expect(errors.regional).toBe(3);
      doc.delete();
    },
  );
});

/** The row and column of an offset in a text. */
function pointAt(text: string, offset: number): { row: number; column: number } {
  const before = text.slice(0, offset);
  const row = before.split("\n").length - 1;
  return { row, column: offset - (before.lastIndexOf("\n") + 1) };
}
