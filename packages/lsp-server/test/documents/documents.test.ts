import { describe, expect, it } from "vitest";
import { Documents } from "../../src/documents/documents.js";

describe("the start of a whole-document change", () => {
  it.each([
    ["abc", "abc", { line: 0, character: 3 }],
    ["abc", "abXc", { line: 0, character: 2 }],
    ["one\ntwo", "one\ntwX", { line: 1, character: 2 }],
    ["one\r\ntwo", "one\r\nto", { line: 1, character: 1 }],
    ["one\rtwo", "one\rtwo!", { line: 1, character: 3 }],
    ["a\r\nb", "a\rb", { line: 0, character: 1 }],
    ["", "x", { line: 0, character: 0 }],
  ])("%j → %j", (before, after, position) => {
    const documents = new Documents();
    documents.didOpen({ textDocument: { uri: "u", languageId: "ts", version: 1, text: before } });
    const changed = documents.didChange({
      textDocument: { uri: "u", version: 2 },
      contentChanges: [{ text: after }],
    });
    expect(changed?.from).toEqual(position);
  });
});

describe("Documents", () => {
  it("converts utf-8 positions of a change to UTF-16 on the line they point into", () => {
    const documents = new Documents();
    documents.encoding = "utf-8";
    documents.didOpen({ textDocument: { uri: "u", languageId: "ts", version: 1, text: "é𝒳 = 1;\n" } });
    // "é" is 2 bytes, "𝒳" 4: byte 6 is after both, UTF-16 unit 3.
    const from = documents.didChange({
      textDocument: { uri: "u", version: 2 },
      contentChanges: [
        { range: { start: { line: 0, character: 6 }, end: { line: 0, character: 6 } }, text: "y" },
      ],
    });
    expect(from?.from).toEqual({ line: 0, character: 3 });
    expect(documents.get("u")?.buffer.getText()).toBe("é𝒳y = 1;\n");
  });

  it("reports a change it cannot apply, and ignores changes to documents that are not open", () => {
    const warnings: string[] = [];
    const documents = new Documents((message) => warnings.push(message));
    documents.didOpen({ textDocument: { uri: "u", languageId: "ts", version: 1, text: "x" } });
    documents.didChange({
      textDocument: { uri: "u", version: 2 },
      contentChanges: [
        { range: { start: { line: -1, character: 0 }, end: { line: 0, character: 0 } }, text: "y" },
      ],
    });
    expect(warnings).toHaveLength(1);
    expect(
      documents.didChange({ textDocument: { uri: "nope", version: 1 }, contentChanges: [] }),
    ).toBeUndefined();
  });
});
