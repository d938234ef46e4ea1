import { describe, expect, it } from "vitest";
import { anchorAt } from "../../src/completion/anchor.js";
import { SuggestionMemory } from "../../src/completion/suggestion-memory.js";
import type { Suggestion } from "../../src/completion/type-through.js";
import { Documents } from "../../src/documents/documents.js";

const URI = "file:///a.ts";

function setup() {
  const documents = new Documents();
  documents.didOpen({
    textDocument: { uri: URI, languageId: "typescript", version: 1, text: "const x = \n" },
  });
  const typed: number[] = [];
  const memory = new SuggestionMemory((_, chars) => typed.push(chars));
  const suggestion: Suggestion = {
    uri: URI,
    line: 0,
    character: 10,
    linePrefix: "const x = ",
    lineRest: "",
    text: "add(1, 2);",
    replaceEnd: 0,
  };
  memory.remember(suggestion);
  const type = (text: string, at: number) =>
    documents.didChange({
      textDocument: { uri: URI, version: 2 + at },
      contentChanges: [
        { range: { start: { line: 0, character: at }, end: { line: 0, character: at } }, text },
      ],
    });
  const serveAt = (character: number) => {
    const doc = documents.get(URI)!;
    return memory.serve(doc, anchorAt(doc, { line: 0, character }));
  };
  return { memory, suggestion, type, serveAt, typed };
}

describe("SuggestionMemory", () => {
  it("serves the rest of the suggestion while the user types it, and reports how far they got", () => {
    const { type, serveAt, typed, suggestion } = setup();
    expect(serveAt(10)?.result.text).toBe("add(1, 2);");
    type("ad", 10);
    expect(serveAt(12)).toEqual({
      result: { text: "d(1, 2);", replaceEnd: 0 },
      suggestion,
      alternatives: [],
    });
    expect(typed).toEqual([2]);
  });

  it("serves nothing once the typing leaves the suggestion", () => {
    const { type, serveAt } = setup();
    type("sub", 10);
    expect(serveAt(13)).toBeUndefined();
  });

  it("keeps a suggestion through a change at or after its anchor, and drops it for one before", () => {
    const { memory } = setup();
    memory.changed(URI, { line: 0, character: 10 });
    expect(memory.get(URI)).toBeDefined();
    memory.changed(URI, { line: 0, character: 3 });
    expect(memory.get(URI)).toBeUndefined();
  });

  it("forgets a document", () => {
    const { memory } = setup();
    memory.forget(URI);
    expect(memory.get(URI)).toBeUndefined();
  });
});
