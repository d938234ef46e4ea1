import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { parseGo } from "../../src/context/lang/go.js";
import { go, lua, python, rust, SYNTAX_SUPPORTS, typescript } from "../../src/context/lang/index.js";
import { parseLua } from "../../src/context/lang/lua.js";
import { parsePython } from "../../src/context/lang/python.js";
import { parseRust } from "../../src/context/lang/rust.js";
import { parseTypeScript } from "../../src/context/lang/typescript.js";

/** Text made of the characters and words that drive the parsers, so that odd combinations come up often. */
const source = fc
  .array(
    fc.oneof(
      fc.constantFrom(
        ..."(){}[]<>;:,.=*@#!?'\"`/\\-+|&$ \n\t\r",
        "import ",
        "export ",
        "from ",
        "require(",
        "function ",
        "class ",
        "def ",
        "fn ",
        "impl ",
        "mod ",
        "use ",
        "func ",
        "type ",
        "local ",
        "end",
        "return ",
        "pub ",
        "const ",
        "${",
        "/*",
        "*/",
        '"""',
        "--[[",
        'r#"',
        "'a",
        "x",
        "Foo",
        "    ",
        "#include ",
        "#define ",
        "struct ",
        "template <",
        "using ",
        "namespace ",
        "module ",
        "<?php ",
        "private:",
        "typedef ",
        "\u0000",
        "😀",
      ),
      fc.string({ maxLength: 4 }),
    ),
    { maxLength: 80 },
  )
  .map((parts) => parts.join(""));

/** The languages parsed with tree-sitter, by their supports (which find nothing until their grammar loads). */
const SYNTAX = SYNTAX_SUPPORTS;
const PARSERS = {
  parseTypeScript,
  parsePython,
  parseGo,
  parseRust,
  parseLua,
  ...Object.fromEntries(Object.entries(SYNTAX).map(([name, support]) => [name, support.parse])),
};
const SUPPORTS = { typescript, python, go, rust, lua, ...SYNTAX };

beforeAll(async () => {
  await Promise.all(Object.values(SYNTAX).map((support) => support.ready?.()));
});

describe("never throws", () => {
  it.each(Object.entries(PARSERS))("%s, on any text, with every snippet readable", (_, parse) => {
    fc.assert(
      fc.property(source, (text) => {
        const { outline } = parse(text);
        const lines = text.split("\n").length;
        for (const d of outline.declarations) {
          expect(typeof d.snippet).toBe("string");
          expect(d.startLine).toBeLessThanOrEqual(d.nameLine);
          expect(d.endLine).toBeLessThan(lines);
          for (const m of d.members ?? []) expect(typeof m.snippet).toBe("string");
        }
      }),
      { numRuns: 400 },
    );
  });

  it.each(Object.entries(SUPPORTS))("%s references, on any lines, nearest first", (_, support) => {
    fc.assert(
      fc.property(fc.array(source, { maxLength: 6 }), (lines) => {
        const refs = support.references(lines);
        for (let i = 1; i < refs.length; i++)
          expect(refs[i]!.distance).toBeGreaterThanOrEqual(refs[i - 1]!.distance);
      }),
      { numRuns: 300 },
    );
  });
});
