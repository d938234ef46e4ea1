import { describe, expect, it } from "vitest";
import { paramsProblem } from "../../src/protocol/lsp-params.js";

const doc = { uri: "file:///a.ts" };
const at = { line: 1, character: 2 };

describe("paramsProblem", () => {
  it.each([
    ["position", { textDocument: doc, position: at, context: { triggerKind: 2 } }],
    ["position", { textDocument: doc, position: { line: -1, character: 0.5 } }],
    ["textDocument/didOpen", { textDocument: { ...doc, languageId: "ts", version: 1, text: "" } }],
    ["textDocument/didChange", { textDocument: { ...doc, version: 2 }, contentChanges: [] }],
    [
      "textDocument/didChange",
      {
        textDocument: { ...doc, version: 2 },
        contentChanges: [{ text: "x" }, { range: { start: at, end: at }, text: "" }],
      },
    ],
    ["document", { textDocument: doc }],
  ] as const)("%s accepts %j", (shape, params) => {
    expect(paramsProblem(shape, params)).toBeUndefined();
  });

  it.each([
    ["position", undefined, "params: expected an object"],
    ["position", 4, "params: expected an object"],
    ["position", { textDocument: "file:///a.ts", position: at }, "textDocument: expected an object"],
    ["position", { textDocument: { uri: 7 }, position: at }, "textDocument.uri: expected a string"],
    ["position", { textDocument: doc }, "position: expected an object"],
    [
      "position",
      { textDocument: doc, position: { line: "1", character: 0 } },
      "position.line: expected a number",
    ],
    [
      "position",
      { textDocument: doc, position: { line: Number.POSITIVE_INFINITY, character: 0 } },
      "position.line: expected a number",
    ],
    [
      "textDocument/didOpen",
      { textDocument: { ...doc, languageId: "ts", version: 1 } },
      "textDocument.text: expected a string",
    ],
    [
      "textDocument/didChange",
      { textDocument: { ...doc, version: 2 }, contentChanges: {} },
      "contentChanges: expected an array",
    ],
    [
      "textDocument/didChange",
      { textDocument: { ...doc, version: 2 }, contentChanges: [{ text: "x" }, { text: null }] },
      "contentChanges[1].text: expected a string",
    ],
    [
      "textDocument/didChange",
      { textDocument: { ...doc, version: 2 }, contentChanges: [{ range: { start: at }, text: "" }] },
      "contentChanges[0].range.end: expected an object",
    ],
    ["document", { textDocument: null }, "textDocument: expected an object"],
  ] as const)("%s refuses %j: %s", (shape, params, problem) => {
    expect(paramsProblem(shape, params)).toBe(problem);
  });
});
