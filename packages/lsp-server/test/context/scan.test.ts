import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type Dialect, maskCode } from "../../src/context/scan/scan.js";

describe("maskCode", () => {
  it.each<{ dialect: Dialect; text: string; want: string }>([
    // C family: comments blank, strings keep their quotes.
    { dialect: "c", text: 'a = "x{y}"; // c', want: 'a = "    ";     ' },
    { dialect: "c", text: "a /* b\n c */ d", want: "a     \n      d" },
    { dialect: "c", text: 'f(\'}\', "\\"")', want: "f(' ', \"  \")" },
    // A quote that does not close on its line is no string: it goes, the code after it stays.
    { dialect: "c", text: '"a{\nx', want: " a{\nx" },
    { dialect: "js", text: "<p>Don't {x}</p>)}", want: "<p>Don t {x}</p>)}" },
    { dialect: "js", text: "<p>{a}</p>{b && <i/>}", want: "<p>{a}</p>{b && <i/>}" },
    // JavaScript: template literals whole, with their expressions and nested templates.
    // biome-ignore lint/suspicious/noTemplateCurlyInString: JavaScript source under test
    { dialect: "js", text: "t = `a${b + `c${d}`}e` + f", want: "t = `                ` + f" },
    // biome-ignore lint/suspicious/noTemplateCurlyInString: JavaScript source under test
    { dialect: "js", text: "`${ {a: '}'} }` }", want: "`             ` }" },
    // Regex literals lose their body; division is left alone.
    { dialect: "js", text: 'x = /[/]"{/g.test(s)', want: "x = /     /g.test(s)" },
    { dialect: "js", text: "a = b / c / d", want: "a = b / c / d" },
    { dialect: "js", text: "return /a'b/", want: "return /   /" },
    { dialect: "js", text: "f(x) / 2 // '", want: "f(x) / 2     " },
    // A slash that does not close on its line is a division.
    { dialect: "js", text: "a = (1 / \n2) + 'q'", want: "a = (1 / \n2) + ' '" },
    // Python: #, prefixes, triple quotes over lines.
    { dialect: "python", text: "x = rb'a' # c", want: "x =   ' '    " },
    { dialect: "python", text: 'd = """a\n"b"\n""" + f"{x}"', want: 'd = "   \n   \n  " +  "   "' },
    { dialect: "python", text: "print('it''s')", want: "print('  '' ')" },
    // Go: raw strings over lines, runes.
    { dialect: "go", text: "s := `a\n\"b` + '\"'", want: "s := \" \n  \" + ' '" },
    // Rust: nested comments, raw strings, chars, lifetimes.
    { dialect: "rust", text: "a /* b /* c */ d */ e", want: "a                   e" },
    { dialect: "rust", text: 'let s = r#"a "b" {"#;', want: 'let s =   "       " ;' },
    {
      dialect: "rust",
      text: "fn f<'a>(x: &'a str) -> char { '{' }",
      want: "fn f<  >(x: &   str) -> char { ' ' }",
    },
    { dialect: "rust", text: "b'x' + b\"y\"", want: " ' ' +  \" \"" },
    // Lua: --, --[[ ]], long strings.
    {
      dialect: "lua",
      text: "a = 1 -- c\nb = [==[x]]y]==] --[[\nz]] c",
      want: 'a = 1     \nb = "          "     \n    c',
    },
    { dialect: "lua", text: "require 'a.b'", want: "require '   '" },
  ])("$dialect: $text", ({ dialect, text, want }) => {
    expect(maskCode(text, dialect)).toBe(want);
  });

  it.each([
    // biome-ignore lint/suspicious/noTemplateCurlyInString: JavaScript source under test
    { text: "`a ${b} c`", want: "     b    " },
    // biome-ignore lint/suspicious/noTemplateCurlyInString: JavaScript source under test
    { text: '`x ${f("s") /* c */} ${`n ${m}`}', want: '     f(" ")                 m   ' },
    { text: "s = `open ${util.go(", want: "s =         util.go(" },
  ])("js with template expressions kept: $text", ({ text, want }) => {
    expect(maskCode(text, "js", { templateExpressions: true })).toBe(want);
  });

  it("keeps a length and every line break for any input, in every dialect", () => {
    const dialects: Dialect[] = ["c", "js", "python", "go", "rust", "lua"];
    const source = fc.oneof(
      fc.string({ unit: fc.constantFrom(..."ab_ 1\n\r\t\"'`/*#-[]={}()$\\:;.?!<>r"), maxLength: 200 }),
      // Any UTF-16 unit, lone surrogates and byte order marks included.
      fc.string({
        unit: fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)),
        maxLength: 100,
      }),
    );
    fc.assert(
      fc.property(source, fc.constantFrom(...dialects), (text, dialect) => {
        const masked = maskCode(text, dialect);
        expect(masked.length).toBe(text.length);
        for (let i = 0; i < text.length; i++) {
          const breakHere = text[i] === "\n" || text[i] === "\r";
          expect(masked[i] === "\n" || masked[i] === "\r").toBe(breakHere);
          if (breakHere) expect(masked[i]).toBe(text[i]);
        }
      }),
      { numRuns: 2000 },
    );
  });

  it("stays linear on input built to make a scanner backtrack", () => {
    const lines = "= /[/[/[/[/[/[/[/[/[".repeat(5000);
    const started = performance.now();
    maskCode(lines, "js");
    maskCode("'".repeat(100_000), "python");
    maskCode("/*".repeat(50_000), "rust");
    maskCode("--[==[".repeat(20_000), "lua");
    // Linear: milliseconds. A scanner that backtracks would take minutes on these inputs.
    expect(performance.now() - started).toBeLessThan(10_000);
  });
});
