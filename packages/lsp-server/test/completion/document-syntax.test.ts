import { beforeAll, describe, expect, it } from "vitest";
import {
  documentSyntax,
  loadSyntaxLayer,
  syntaxDocumentChanged,
  syntaxDocumentGone,
} from "../../src/completion/document-syntax.js";
import { loadGrammar } from "../../src/context/syntax/runtime.js";
import { countErrors } from "../../src/context/syntax/tree-checks.js";
import { Documents } from "../../src/documents/documents.js";
import { fixture } from "../support/fixture.js";

/** An open document of a cursor-marker source, and the cursor. */
function open(uri: string, languageId: string, source: string) {
  const f = fixture(source);
  const documents = new Documents();
  documents.didOpen({ textDocument: { uri, languageId, version: 1, text: f.text } });
  return { doc: documents.get(uri)!, here: f.position, f };
}

beforeAll(() => loadSyntaxLayer());

describe("documentSyntax", () => {
  it("has nothing for a language without a grammar", () => {
    const { doc, here } = open("file:///a.ts", "typescript", "function f() {\n  │\n}\n");
    expect(documentSyntax(doc, here)).toBeUndefined();
  });

  it("gives nothing while the grammar is not loaded, starting its load without waiting for it", async () => {
    const { doc, here, f } = open("file:///a.zig", "zig", "fn one() i32 {\n    │\n}\n");
    const syntax = documentSyntax(doc, here)!;
    expect(syntax()).toBeUndefined();
    // The load it started (the same one): once done, the document's syntax is had.
    await loadGrammar("zig");
    const made = syntax()!;
    expect(made.cursor).toBe(f.prefix.length);
    expect(made.after(f.suffix.length + 10)).toBe(f.suffix);
    const tree = made.parse({ removed: "", inserted: "return 1;" })!;
    expect(tree.rootNode.text).toBe(`${f.prefix}return 1;${f.suffix}`);
    expect(countErrors(tree.rootNode)).toBe(0);
    expect(made.addedErrors(tree, { removed: "", inserted: "return 1;" })).toBe(0);
    tree.delete();
  });

  it("splits the text the request was made for at the cursor, whatever is typed later, and counts its errors", async () => {
    await loadGrammar("c");
    const { doc, here, f } = open("file:///b.c", "c", "int f(int x) {\n  return (x│\n}\n");
    const syntax = documentSyntax(doc, here)!;
    doc.buffer.setText("int f(int x) { return x; }\n");
    const made = syntax()!;
    expect(made.cursor).toBe(f.prefix.length);
    expect(made.after(100)).toBe(f.suffix);
    const tree = made.parse({ removed: "", inserted: "" })!;
    expect(tree.rootNode.text).toBe(f.text);
    // The document has an error there; the change that closes the parenthesis takes it away.
    expect(countErrors(tree.rootNode)).toBeGreaterThan(0);
    const fixed = made.parse({ removed: "", inserted: ");" })!;
    expect(made.addedErrors(fixed, { removed: "", inserted: ");" })).toBe(-countErrors(tree.rootNode));
    fixed.delete();
    tree.delete();
  });

  it.each([
    ["in a line", "int f(int x) {\n  return │;\n}\n", "x + 1", ""],
    [
      "with lines, replacing what follows on the line",
      "int f(int x) {\n  │)\n}\n",
      "if (x) {\n    return 1;\n  }",
      ")",
    ],
    ["at the end of the text", "int f(int x) { return x; }\n│", "int g(void);\nint h(void);", ""],
    ["after a non-ASCII line", "/* é😀 */\nint f(int x) {\n  │\n}\n", "return x; /* ü */", ""],
  ])(
    "parses a suggestion %s with the edit it is, to the tree a fresh parse gives",
    async (_, source, inserted, removed) => {
      const grammar = (await loadGrammar("c"))!;
      const { doc, here } = open(`file:///${source.length}.c`, "c", source);
      const f = fixture(source);
      const made = documentSyntax(doc, here)!()!;
      expect(made.after(removed.length)).toBe(removed);
      const text = f.prefix + inserted + f.suffix.slice(removed.length);
      const tree = made.parse({ removed, inserted })!;
      const fresh = grammar.parser.parse(text)!;
      expect(tree.rootNode.toString()).toBe(fresh.rootNode.toString());
      expect(tree.rootNode.endIndex).toBe(fresh.rootNode.endIndex);
      tree.delete();
      fresh.delete();
    },
  );
});

describe("documentSyntax after changes", () => {
  it("follows the document's changes (told of each) and gives the tree a fresh parse of its text gives", async () => {
    const grammar = (await loadGrammar("c"))!;
    const uri = "file:///changes.c";
    const documents = new Documents();
    const lines = Array.from({ length: 60 }, (_, i) => `int f${i}(int x) {\n  return x * ${i};\n}`);
    documents.didOpen({ textDocument: { uri, languageId: "c", version: 1, text: lines.join("\n") } });
    const doc = documents.get(uri)!;
    let seed = 11;
    const next = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    for (let round = 0; round < 60; round++) {
      // A jump: a line typed somewhere, then another change elsewhere, told to the kept tree as the server does.
      for (let k = 0; k < 2; k++) {
        const line = next(doc.buffer.lineCount);
        const character = next(doc.buffer.lineAt(line).length + 1);
        const text = ["§", "\n  y = 2;", "}", "", "{ x"][next(5)]!;
        const applied = documents.didChange({
          textDocument: { uri, version: round * 2 + k + 2 },
          contentChanges: [
            { range: { start: { line, character }, end: { line, character: character + next(2) } }, text },
          ],
        })!;
        syntaxDocumentChanged(uri, applied.changes);
      }
      const line = next(doc.buffer.lineCount);
      const here = { line, character: next(doc.buffer.lineAt(line).length + 1) };
      const made = documentSyntax(doc, here)!()!;
      const tree = made.parse({ removed: "", inserted: "" })!;
      const text = Array.from({ length: doc.buffer.lineCount }, (_, i) => doc.buffer.lineAt(i)).join("\n");
      const fresh = grammar.parser.parse(text)!;
      expect(tree.rootNode.toString()).toBe(fresh.rootNode.toString());
      // A suggestion's added errors, counted around it, are what the whole trees' counts say (the trees the server
      // parses incrementally; error recovery may place a broken document's errors otherwise in a fresh parse).
      const removed = made.after(next(3));
      const inserted = ["}", "{", " x;", "return (", "\n  y = 1;\n}", "", "}\n}\nint z;"][next(7)]!;
      const variant = made.parse({ removed, inserted })!;
      const cursor = made.cursor;
      const whole = grammar.parser.parse(
        text.slice(0, cursor) + inserted + text.slice(cursor + removed.length),
      )!;
      expect(made.addedErrors(variant, { removed, inserted })).toBe(
        countErrors(whole.rootNode) - countErrors(fresh.rootNode),
      );
      variant.delete();
      whole.delete();
      tree.delete();
      fresh.delete();
    }
    syntaxDocumentGone(uri);
  });
});
