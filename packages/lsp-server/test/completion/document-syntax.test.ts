import { beforeAll, describe, expect, it } from "vitest";
import { documentSyntax, loadSyntaxLayer } from "../../src/completion/document-syntax.js";
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
    expect(made.before).toBe(f.prefix);
    expect(made.after).toBe(f.suffix);
    expect(made.errors).toBe(0);
    const tree = made.parse(`${made.before}return 1;${made.after}`)!;
    expect(countErrors(tree.rootNode)).toBe(0);
    tree.delete();
  });

  it("splits the text the request was made for at the cursor, whatever is typed later, and counts its errors", async () => {
    await loadGrammar("c");
    const { doc, here, f } = open("file:///b.c", "c", "int f(int x) {\n  return (x│\n}\n");
    const syntax = documentSyntax(doc, here)!;
    doc.buffer.setText("int f(int x) { return x; }\n");
    const made = syntax()!;
    expect(made.before + made.after).toBe(f.text);
    expect(made.before).toBe(f.prefix);
    expect(made.errors).toBeGreaterThan(0);
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
      const made = documentSyntax(doc, here)!()!;
      const text = made.before + inserted + made.after.slice(removed.length);
      const tree = made.parse(text, { start: made.before.length, removed, inserted })!;
      const fresh = grammar.parser.parse(text)!;
      expect(tree.rootNode.toString()).toBe(fresh.rootNode.toString());
      expect(tree.rootNode.endIndex).toBe(fresh.rootNode.endIndex);
      tree.delete();
      fresh.delete();
    },
  );
});
