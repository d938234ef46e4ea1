import { describe, expect, it, vi } from "vitest";
import { typescript } from "../../src/context/lang/index.js";
import { CurrentImports } from "../../src/context/modules/current-imports.js";
import type { LanguageSupport } from "../../src/context/types.js";
import { Documents } from "../../src/documents/documents.js";

const URI = "file:///w/src/app.ts";

/** A 400-line module: imports at the top, then code; `extra` goes at line 300. */
function open(extra: string) {
  const lines = [
    'import { a } from "./a.js";',
    "",
    ...Array.from({ length: 398 }, (_, i) => `const v${i} = a(${i});`),
  ];
  lines[300] = extra;
  const documents = new Documents();
  documents.didOpen({
    textDocument: { uri: URI, languageId: "typescript", version: 1, text: lines.join("\n") },
  });
  return documents.get(URI)!;
}

describe("CurrentImports", () => {
  it.each([
    [
      "parses the lines near the cursor when they may hold an import, and finds it",
      'const b = require("./b");',
      ["./a.js", "./b"],
      2,
    ],
    ["leaves them unparsed when no line near the cursor may", "const b = a(1);", ["./a.js"], 1],
  ])("%s", (_, extra, specifiers, parses) => {
    const doc = open(extra);
    const support: LanguageSupport = { ...typescript, parse: vi.fn(typescript.parse) };
    const imports = new CurrentImports(() => undefined);
    const parsed = imports.parse(doc, { line: 301, character: 0 }, support, "/w/src/app.ts");
    expect(parsed.imports.map((s) => s.specifier)).toEqual(specifiers);
    // The head (cut after its first 120 lines), and the lines near the cursor when they may hold an import.
    expect(support.parse).toHaveBeenCalledTimes(parses);
  });
});
