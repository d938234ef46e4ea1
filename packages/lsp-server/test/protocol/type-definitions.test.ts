import { describe, expect, it } from "vitest";
import { Documents } from "../../src/documents/documents.js";
import {
  answersTypeDefinitions,
  TYPE_DEFINITIONS_REQUEST,
  typeDefinitionAsk,
  typeLocations,
} from "../../src/protocol/type-definitions.js";

const range = (line: number) => ({ start: { line, character: 2 }, end: { line, character: 9 } });

describe("typeLocations", () => {
  it.each<[string, unknown, unknown]>([
    ["a Location", { uri: "file:///a.ts", range: range(4) }, { uri: "file:///a.ts", line: 4 }],
    [
      "a LocationLink: its name's line",
      { targetUri: "file:///b.ts", targetRange: range(1), targetSelectionRange: range(3) },
      { uri: "file:///b.ts", line: 3 },
    ],
    [
      "a LocationLink without a selection range",
      { targetUri: "file:///b.ts", targetRange: range(1) },
      { uri: "file:///b.ts", line: 1 },
    ],
    [
      "the first of a list",
      [
        { uri: "file:///a.ts", range: range(7) },
        { uri: "file:///c.ts", range: range(1) },
      ],
      { uri: "file:///a.ts", line: 7 },
    ],
    ["null", null, null],
    ["an empty list", [], null],
    ["a negative line", { uri: "file:///a.ts", range: range(-1) }, null],
    ["no uri", { range: range(1) }, null],
    ["a string", "file:///a.ts", null],
  ])("reads %s", (_, answer, expected) => {
    expect(typeLocations([answer], 1)).toEqual([expected]);
  });

  it.each<[unknown, string]>([
    [null, "expected a list of 2 answers, got null"],
    [[null], "expected a list of 2 answers, got a list of 1"],
    [{}, "expected a list of 2 answers, got object"],
  ])("refuses %j", (result, message) => {
    expect(() => typeLocations(result, 2)).toThrow(message);
  });
});

describe("answersTypeDefinitions", () => {
  it.each<[unknown, boolean]>([
    [{ experimental: { infill: { typeDefinitions: true } } }, true],
    [{ experimental: { infill: { typeDefinitions: "yes" } } }, false],
    [{ experimental: { infill: { partialResults: true } } }, false],
    [{}, false],
    [undefined, false],
  ])("%j: %s", (capabilities, expected) => {
    expect(answersTypeDefinitions(capabilities)).toBe(expected);
  });
});

describe("typeDefinitionAsk", () => {
  it("sends the positions in the client's encoding and cancels on abort", async () => {
    const documents = new Documents();
    const uri = "file:///w/app.ts";
    documents.didOpen({
      textDocument: { uri, languageId: "typescript", version: 1, text: "const é = 1;\n🙂 ma.x\n" },
    });
    const sent: Array<{ method: string; params: unknown; cancelled: () => boolean }> = [];
    let answer: (value: unknown) => void = () => {};
    const ask = typeDefinitionAsk(
      (method, params, token) => {
        sent.push({ method, params, cancelled: () => token.isCancellationRequested });
        return new Promise((resolve) => {
          answer = resolve;
        });
      },
      () => "utf-8",
    );
    const abort = new AbortController();
    const asked = ask(documents.get(uri)!, [{ line: 1, character: 3 }], abort.signal);
    expect(sent[0]).toMatchObject({
      method: TYPE_DEFINITIONS_REQUEST,
      // 🙂 is 2 UTF-16 units and 4 UTF-8 bytes: `ma` starts at byte 5.
      params: { textDocument: { uri }, positions: [{ line: 1, character: 5 }] },
    });
    abort.abort();
    expect(sent[0]!.cancelled()).toBe(true);
    answer([null]);
    expect(await asked).toEqual([null]);
  });
});
