import { describe, expect, it } from "vitest";
import { wholeText } from "../../src/context/document-lines.js";
import { Documents } from "../../src/documents/documents.js";

describe("wholeText", () => {
  it.each([
    ["\\n", "a\nb\n", "a\nb\n"],
    ["\\r\\n", "a\r\nb\r\n", "a\nb\n"],
    ["mixed", "a\r\nb\rc\n", "a\nb\nc\n"],
  ])("joins the lines of a %s document with \\n", (_, text, joined) => {
    const documents = new Documents();
    documents.didOpen({ textDocument: { uri: "file:///a.c", languageId: "c", version: 1, text } });
    expect(wholeText(documents.get("file:///a.c")!)).toBe(joined);
  });

  it("joins once per revision of the buffer", () => {
    const documents = new Documents();
    documents.didOpen({
      textDocument: { uri: "file:///a.c", languageId: "c", version: 1, text: "int x;\n" },
    });
    const doc = documents.get("file:///a.c")!;
    const first = wholeText(doc);
    expect(wholeText(doc)).toBe(first);
    documents.didChange({
      textDocument: { uri: "file:///a.c", version: 2 },
      contentChanges: [
        { range: { start: { line: 0, character: 4 }, end: { line: 0, character: 5 } }, text: "y" },
      ],
    });
    expect(wholeText(doc)).toBe("int y;\n");
  });
});
