import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  completionMode,
  fitToLineSuffix,
  indentWidth,
  isCloserLine,
  isSettled,
  type LinePolicy,
  nextNonBlankLines,
  type PostProcessContext,
  postProcess,
  settledLines,
} from "../../src/completion/postprocess.js";
import { fixture, lines } from "../support/fixture.js";

/** The context the server builds for a cursor-marker source. */
function contextOf(source: string, policy: LinePolicy = "auto"): PostProcessContext {
  const f = fixture(source);
  return {
    lineBefore: f.lineBefore,
    lineAfter: f.lineAfter,
    suffix: f.suffix,
    mode: completionMode(f.lineBefore, f.lineAfter, policy),
  };
}

describe("completionMode", () => {
  it.each([
    { before: "foo(", after: ")", policy: "auto", want: "multi-line" },
    { before: "const x = ", after: "", policy: "auto", want: "multi-line" },
    { before: "const x = ", after: ";", policy: "auto", want: "multi-line" },
    { before: "    ", after: "", policy: "auto", want: "multi-line" },
    { before: "", after: "", policy: "auto", want: "multi-line" },
    { before: "  ", after: "}", policy: "auto", want: "multi-line" },
    { before: "return x;", after: "", policy: "auto", want: "single-line" },
    { before: "const total = items.", after: "length;", policy: "auto", want: "single-line" },
    { before: "const x = ", after: " + 1;", policy: "auto", want: "single-line" },
    { before: 'print("', after: '")', policy: "auto", want: "single-line" },
    { before: "func main() {", after: "}", policy: "auto", want: "multi-line" },
    { before: "def area(r):", after: "", policy: "auto", want: "multi-line" },
    { before: "match x {", after: "", policy: "auto", want: "multi-line" },
    { before: "  Some(v) =>", after: "", policy: "auto", want: "multi-line" },
    { before: "if ok then", after: "", policy: "auto", want: "multi-line" },
    { before: "for i = 1, 10 do  ", after: "", policy: "auto", want: "multi-line" },
    { before: "local function greet(name)", after: "", policy: "auto", want: "multi-line" },
    { before: "else", after: "", policy: "auto", want: "multi-line" },
    { before: "x := ", after: "", policy: "auto", want: "multi-line" },
    { before: "use std::", after: "", policy: "auto", want: "single-line" },
    { before: "if (a ==", after: "", policy: "auto", want: "single-line" },
    { before: "if (a >=", after: "", policy: "auto", want: "single-line" },
    { before: "undo", after: "", policy: "auto", want: "single-line" },
    { before: "  foo(a,", after: "", policy: "auto", want: "single-line" },
    { before: "", after: "", policy: "single-line", want: "single-line" },
    { before: "x", after: "y", policy: "multi-line", want: "multi-line" },
  ] as const)("$before│$after ($policy) → $want", ({ before, after, policy, want }) => {
    expect(completionMode(before, after, policy)).toBe(want);
  });
});

describe("fitToLineSuffix", () => {
  it.each([
    { text: "a, b)", after: ")", want: { text: "a, b", replaceEnd: 0 } },
    { text: "a, b);", after: ");", want: { text: "a, b", replaceEnd: 0 } },
    { text: "x)", after: ");", want: { text: "x", replaceEnd: 0 } },
    { text: "1, 2]);", after: "]);", want: { text: "1, 2", replaceEnd: 0 } },
    { text: "x);", after: ")", want: { text: "x);", replaceEnd: 1 } },
    { text: "a, b) {", after: ")", want: { text: "a, b) {", replaceEnd: 1 } },
    { text: "fn(x) + 1", after: ")", want: { text: "fn(x) + 1", replaceEnd: 0 } },
    { text: "f(x)", after: ")", want: { text: "f(x)", replaceEnd: 0 } },
    { text: 'hello")', after: '")', want: { text: "hello", replaceEnd: 0 } },
    { text: 'hello", name)', after: '")', want: { text: 'hello", name)', replaceEnd: 2 } },
    { text: '"a")', after: ")", want: { text: '"a"', replaceEnd: 0 } },
    { text: '")")', after: ")", want: { text: '")"', replaceEnd: 0 } },
    { text: "it's)", after: ")", want: { text: "it's)", replaceEnd: 1 } },
    { text: "x }", after: " }", want: { text: "x", replaceEnd: 0 } },
    { text: "x); // done", after: "); ", want: { text: "x); // done", replaceEnd: 2 } },
    { text: "a + 1;", after: " + 1;", want: { text: "a", replaceEnd: 0 } },
    { text: "a + 1; // note", after: " + 1;", want: { text: "a + 1; // note", replaceEnd: 5 } },
    { text: "(a + 1;", after: " + 1;", want: { text: "(a + 1;", replaceEnd: 0 } },
    { text: "b", after: "bar()", want: { text: "b", replaceEnd: 0 } },
    { text: "x) {", after: ");", want: { text: "x) {", replaceEnd: 0 } },
    { text: "x", after: ")", want: { text: "x", replaceEnd: 0 } },
    { text: ")", after: ")", want: { text: "", replaceEnd: 0 } },
    { text: "x", after: "", want: { text: "x", replaceEnd: 0 } },
    { text: "x", after: "   ", want: { text: "x", replaceEnd: 0 } },
  ])("$text before $after", ({ text, after, want }) => {
    expect(fitToLineSuffix(text, after)).toEqual(want);
  });
});

describe("helpers", () => {
  it.each([
    { line: "", tabSize: 4, want: 0 },
    { line: "    x", tabSize: 4, want: 4 },
    { line: "\tx", tabSize: 4, want: 4 },
    { line: "  \tx", tabSize: 4, want: 4 },
    { line: "\t  x", tabSize: 2, want: 4 },
    { line: "\t\t}", tabSize: 8, want: 16 },
  ])("indentWidth($line, $tabSize) = $want", ({ line, tabSize, want }) => {
    expect(indentWidth(line, tabSize)).toBe(want);
  });

  it.each([
    { line: "}", want: true },
    { line: "    });", want: true },
    { line: "],", want: true },
    { line: "end", want: true },
    { line: "  end)", want: true },
    { line: "done", want: true },
    { line: ";", want: false },
    { line: "} else {", want: false },
    { line: "endpoint()", want: false },
    { line: "", want: false },
  ])("isCloserLine($line) = $want", ({ line, want }) => {
    expect(isCloserLine(line)).toBe(want);
  });

  it.each([
    { suffix: "", count: 2, want: [] },
    { suffix: "rest", count: 2, want: [] },
    { suffix: "rest\n\n  a\r\n\r\nb\nc", count: 2, want: ["  a", "b"] },
    { suffix: ")\n}", count: 5, want: ["}"] },
    { suffix: `x${"\n".repeat(80)}far`, count: 1, want: [] },
  ])("nextNonBlankLines($suffix)", ({ suffix, count, want }) => {
    expect(nextNonBlankLines(suffix, count)).toEqual(want);
  });
});

interface Case {
  readonly name: string;
  readonly src: string;
  readonly raw: string;
  readonly policy?: LinePolicy;
  readonly want: { text: string; replaceEnd: number } | null;
}

const cases: Case[] = [
  // TypeScript
  {
    name: "ts: fills a body between auto-paired braces, covering the closer",
    src: lines("function add(a: number, b: number) {│}", "", "export { add };"),
    raw: "\n  return a + b;\n}\n\nexport { add };",
    want: { text: "\n  return a + b;\n}", replaceEnd: 1 },
  },
  {
    name: "ts: no closer typed and none below: the completion's closer is kept",
    src: lines("function add(a, b) {│", "", "export { add };"),
    raw: "\n  return a + b;\n}\n\nexport { add };",
    want: { text: "\n  return a + b;\n}", replaceEnd: 0 },
  },
  {
    name: "ts: the closer is already below: cut before it",
    src: lines("function add(a, b) {│", "}"),
    raw: "\n  return a + b;\n}\n",
    want: { text: "\n  return a + b;", replaceEnd: 0 },
  },
  {
    name: "ts: a nested block's closer is kept when only the outer one is below",
    src: lines("function f(x) {", "  if (x) {│", "}"),
    raw: "\n    log(x);\n  }\n}",
    want: { text: "\n    log(x);\n  }", replaceEnd: 0 },
  },
  {
    name: "ts: on an empty line in a body, stops at the parent's closer",
    src: lines("function f() {", "  const a = 1;", "  │", "}"),
    raw: "return a;\n}\n\nfunction g() {}",
    want: { text: "return a;", replaceEnd: 0 },
  },
  {
    name: "ts: sibling statements on an empty line are kept",
    src: lines("function f() {", "  │", "}"),
    raw: "const a = 1;\n  if (a) {\n    log(a);\n  }\n  return a;\n}",
    want: { text: "const a = 1;\n  if (a) {\n    log(a);\n  }\n  return a;", replaceEnd: 0 },
  },
  {
    name: "ts: cuts where the code below resumes (two lines confirm)",
    src: lines("const a = 1;", "│", "const c = 3;", "console.log(a, c);"),
    raw: "const b = 2;\nconst c = 3;\nconsole.log(a, c);\n",
    want: { text: "const b = 2;", replaceEnd: 0 },
  },
  {
    name: "ts: a completion ending on the code below is cut there",
    src: lines("function f() {", "  │", "  return x;", "}"),
    raw: "x += 1;\n  return x;",
    want: { text: "x += 1;", replaceEnd: 0 },
  },
  {
    name: "ts: one matching line followed by a different one is not the code below",
    src: lines("const a = 1;", "│", "const c = 3;", "console.log(a, c);"),
    raw: "const b = 2;\nconst c = 3;\nconsole.log(b);",
    want: { text: "const b = 2;\nconst c = 3;\nconsole.log(b);", replaceEnd: 0 },
  },
  {
    name: "ts: completion is the next line → nothing",
    src: lines("const a = 1;", "│", "const c = 3;"),
    raw: "const c = 3;\n",
    want: null,
  },
  {
    name: "ts: mid-line is single-line and drops the duplicated rest",
    src: "const x = │ + 1;",
    raw: "a + 1;\nconst y = 2;",
    want: { text: "a", replaceEnd: 0 },
  },
  {
    name: "ts: end of a statement line is single-line",
    src: lines("function f() {", "  return total│", "}"),
    raw: " + tax;   \n}",
    want: { text: " + tax;", replaceEnd: 0 },
  },
  {
    name: "ts: arguments before an auto-paired paren",
    src: "foo(│)",
    raw: "a, b)",
    want: { text: "a, b", replaceEnd: 0 },
  },
  { name: "ts: a completion that is the rest of the line → nothing", src: "foo(│)", raw: ")", want: null },
  {
    name: "ts: a completion past the paren covers it",
    src: "foo(│)",
    raw: "x);",
    want: { text: "x);", replaceEnd: 1 },
  },
  {
    name: "ts: multi-line arguments end with the line's closer, covered",
    src: "foo(│)",
    raw: "\n  a,\n  b,\n)\nbar();",
    want: { text: "\n  a,\n  b,\n)", replaceEnd: 1 },
  },
  {
    name: "ts: an auto-paired closer is moved below a multi-line body",
    src: "if (ok) {│}",
    raw: "\n  run();",
    want: { text: "\n  run();\n}", replaceEnd: 1 },
  },
  {
    name: "ts: an indented auto-paired closer keeps the cursor line's indentation",
    src: lines("class A {", "  run() {│}", "}"),
    raw: "\n    go();",
    want: { text: "\n    go();\n  }", replaceEnd: 1 },
  },
  {
    name: "ts: a closer after the indentation keeps its column below a multi-line completion",
    src: lines("function f() {", "  │}"),
    raw: "a();\n  b();",
    want: { text: "a();\n  b();\n  }", replaceEnd: 1 },
  },
  {
    name: "ts: a closer after the indentation written by the model is covered",
    src: lines("function f() {", "  │}"),
    raw: "a();\n}\nfunction g() {}",
    want: { text: "a();\n}", replaceEnd: 1 },
  },
  {
    name: "ts: an object after `=` keeps its own closer and covers the `;`",
    src: "const o = │;",
    raw: "{\n  a: 1,\n};\nconst p = 2;",
    want: { text: "{\n  a: 1,\n};", replaceEnd: 1 },
  },
  {
    name: "ts: a closer of the completion's own bracket does not cover the line's",
    src: "foo(│)",
    raw: "bar(\n  1,\n)",
    want: { text: "bar(\n  1,\n)\n)", replaceEnd: 1 },
  },
  {
    name: "ts: an object literal argument closing `})`",
    src: "foo({│})",
    raw: "\n  a: 1,\n}",
    want: { text: "\n  a: 1,\n}", replaceEnd: 1 },
  },
  {
    name: "ts: CRLF from the model",
    src: "if (ok) {│}",
    raw: "\r\n  run();\r\n}\r\n",
    want: { text: "\n  run();\n}", replaceEnd: 1 },
  },
  // Python
  {
    name: "py: a function body after a colon, up to the code below",
    src: lines("def area(r):│", "", "print(area(2))"),
    raw: "\n    return 3.14 * r * r\n\nprint(area(2))",
    want: { text: "\n    return 3.14 * r * r", replaceEnd: 0 },
  },
  {
    name: "py: the block ends at the dedented else",
    src: lines("def f(x):", "    if x > 0:│", "    return 0"),
    raw: "\n        return x\n    else:\n        return -x",
    want: { text: "\n        return x", replaceEnd: 0 },
  },
  {
    name: "py: on an empty line in a function, stops at the next def",
    src: lines("def f(items):", "    total = 0", "    │", "", "def g():", "    pass"),
    raw: "for x in items:\n        total += x\n    return total\n\n\ndef h():\n    pass",
    want: { text: "for x in items:\n        total += x\n    return total", replaceEnd: 0 },
  },
  {
    name: "py: attribute access is single-line",
    src: lines("def f(user):", "    name = user.│"),
    raw: "get_name()\n    age = 3",
    want: { text: "get_name()", replaceEnd: 0 },
  },
  // Go
  {
    name: "go: tab-indented body, closer below",
    src: lines("func main() {│", "}"),
    raw: '\n\tfmt.Println("hi")\n}\n',
    want: { text: '\n\tfmt.Println("hi")', replaceEnd: 0 },
  },
  {
    name: "go: an if block's closer is kept when the code below continues at its level",
    src: lines("func f() error {", "\terr := g()", "\tif err != nil {│", "\treturn nil", "}"),
    raw: "\n\t\treturn err\n\t}\n\treturn nil\n}",
    want: { text: "\n\t\treturn err\n\t}", replaceEnd: 0 },
  },
  {
    name: "go: a selector is single-line",
    src: lines("func f(s string) string {", "\treturn strings.│", "}"),
    raw: "ToUpper(s)\n}",
    want: { text: "ToUpper(s)", replaceEnd: 0 },
  },
  // Rust
  {
    name: "rs: match arms stop where the two closers below resume",
    src: lines("fn sign(x: i32) -> i32 {", "    match x {│", "    }", "}"),
    raw: "\n        n if n > 0 => 1,\n        0 => 0,\n        _ => -1,\n    }\n}",
    want: { text: "\n        n if n > 0 => 1,\n        0 => 0,\n        _ => -1,", replaceEnd: 0 },
  },
  {
    name: "rs: a method chain is single-line",
    src: "let v: Vec<i32> = xs.iter().map(|x| x * 2).│",
    raw: "collect();\nlet w = 1;",
    want: { text: "collect();", replaceEnd: 0 },
  },
  // Lua
  {
    name: "lua: a function body with its end when none is below",
    src: lines("local function greet(name)│", "", "return M"),
    raw: '\n  print("hi " .. name)\nend\n\nreturn M',
    want: { text: '\n  print("hi " .. name)\nend', replaceEnd: 0 },
  },
  {
    name: "lua: a for body before the end that is already there",
    src: lines("for i = 1, 10 do│", "end"),
    raw: "\n  sum = sum + i\nend",
    want: { text: "\n  sum = sum + i", replaceEnd: 0 },
  },
  {
    name: "lua: a one-line then-block, the next statement cut",
    src: "if ok then│",
    raw: " return 1 end\nprint(2)",
    want: { text: " return 1 end", replaceEnd: 0 },
  },
  // C
  {
    name: "c: main's body up to the closer below",
    src: lines("int main(void) {│", "}"),
    raw: '\n    printf("hello\\n");\n    return 0;\n}',
    want: { text: '\n    printf("hello\\n");\n    return 0;', replaceEnd: 0 },
  },
  {
    name: "c: a loop body between auto-paired braces",
    src: "for (int i = 0; i < n; i++) {│}",
    raw: "\n    sum += a[i];\n}",
    want: { text: "\n    sum += a[i];\n}", replaceEnd: 1 },
  },
  {
    name: "c: an argument before `);`",
    src: '    printf("%d\\n", │);',
    raw: "count);",
    want: { text: "count", replaceEnd: 0 },
  },
  // Degenerate
  { name: "empty completion", src: "x = │", raw: "", want: null },
  { name: "whitespace-only completion", src: "x = │", raw: "   \n  \n", want: null },
  {
    name: "forced single-line on an empty line that repeats the next line",
    src: lines("a();", "│", "b();"),
    raw: "b();\nc();",
    policy: "single-line",
    want: null,
  },
  {
    name: "forced single-line keeps the first line",
    src: "if (ok) {│}",
    raw: " run(); }\nnext();",
    policy: "single-line",
    want: { text: " run(); ", replaceEnd: 0 },
  },
];

/** Raw completions built from lines that exercise the block rules (dedents, closers, code below, brackets). */
const vocabulary = fc.constantFrom(
  "",
  "  ",
  "}",
  "  }",
  "    }",
  ")",
  "};",
  "end",
  "  end",
  "const c = 3;",
  "console.log(a, c);",
  "  return x;",
  "    return r",
  "print(area(2))",
  "\tfmt.Println(1)",
  "foo(",
  "  bar(1),",
  '"str)',
  "x);",
  "a, b)",
  "  if (x) {",
  "    log(x);",
  "def h():",
);
const rawCompletion = fc
  .tuple(fc.array(vocabulary, { maxLength: 8 }), fc.boolean(), fc.string({ maxLength: 4 }))
  .map(([parts, crlf, tail]) => parts.join(crlf ? "\r\n" : "\n") + tail);

describe("postProcess", () => {
  it.each(cases)("$name", ({ src, raw, policy, want }) => {
    expect(postProcess(raw, contextOf(src, policy))).toEqual(want);
  });
});

describe("isSettled", () => {
  it.each([
    { src: "return total│", partial: " + tax;", want: false },
    { src: "return total│", partial: " + tax;\n", want: true },
    { src: "if (ok) {│}", partial: "\n  run();", want: false },
    { src: "if (ok) {│}", partial: "\n  run();\n", want: false },
    { src: "if (ok) {│}", partial: "\n  run();\n}", want: false },
    { src: "if (ok) {│}", partial: "\n  run();\n}\n", want: true },
    // The code below has two lines: one matching line is not enough until the next one arrives.
    {
      src: lines("const a = 1;", "│", "const c = 3;", "log(a);"),
      partial: "const b = 2;\nconst c = 3;\n",
      want: false,
    },
    {
      src: lines("const a = 1;", "│", "const c = 3;", "log(a);"),
      partial: "const b = 2;\nconst c = 3;\nlog(a);\n",
      want: true,
    },
    {
      src: lines("const a = 1;", "│", "const c = 3;", "log(a);"),
      partial: "const b = 2;\nconst c = 3;\nlog(b);\n",
      want: false,
    },
    { src: lines("def area(r):│", "", "print(area(2))"), partial: "\n    return r\n\nprint", want: false },
    { src: lines("def area(r):│", "", "print(area(2))"), partial: "\n    return r\n\nother()\n", want: true },
    { src: lines("for i = 1, 10 do│", "end"), partial: "\n  s = s + i\nend\n", want: true },
  ])("$partial after $src → $want", ({ src, partial, want }) => {
    expect(isSettled(partial, contextOf(src))).toBe(want);
  });

  it("is consistent: once settled, more text never changes postProcess", () => {
    const contexts = [...cases.map((c) => contextOf(c.src, c.policy)), contextOf("x = │", "multi-line")];
    let settledChecks = 0;
    fc.assert(
      fc.property(
        fc.constantFrom(...contexts),
        rawCompletion,
        fc.string({ maxLength: 12, unit: fc.constantFrom("\n", " ", "}", "x", "end", "\t") }),
        (ctx, raw, more) => {
          const answer = postProcess(raw, ctx);
          for (let cut = 0; cut <= raw.length; cut++) {
            const partial = raw.slice(0, cut);
            if (!isSettled(partial, ctx)) continue;
            settledChecks += 1;
            const settled = postProcess(partial, ctx);
            expect(answer).toEqual(settled);
            expect(postProcess(partial + more, ctx)).toEqual(settled);
          }
        },
      ),
      { numRuns: 3000 },
    );
    expect(settledChecks).toBeGreaterThan(1000);
  });
});

describe("settledLines", () => {
  const endOfFile = "function f() {│";
  const below = lines("const a = 1;", "│", "const c = 3;", "log(a);");
  it.each([
    { name: "waits for a line's break", src: endOfFile, partial: "\n  a();", want: null },
    { name: "a blank first line alone is nothing to show", src: endOfFile, partial: "\n", want: null },
    { name: "a whole line is shown", src: endOfFile, partial: "\n  a();\n  b(", want: "\n  a();" },
    { name: "trailing whitespace trimmed", src: endOfFile, partial: "\n  a();  \t\n", want: "\n  a();" },
    { name: "CRLF lines", src: endOfFile, partial: "\r\n  a();\r\n  b", want: "\n  a();" },
    { name: "a trailing blank line waits", src: endOfFile, partial: "\n  a();\n\n", want: "\n  a();" },
    {
      name: "a blank line inside the block once a line follows it",
      src: endOfFile,
      partial: "\n  a();\n\n  b();\n",
      want: "\n  a();\n\n  b();",
    },
    {
      name: "the block's end: the closer kept, what follows it never shown",
      src: endOfFile,
      partial: "\n  a();\n}\n\nfunction g() {\n",
      want: "\n  a();\n}",
    },
    {
      name: "a line equal to the code below waits for the line confirming it",
      src: below,
      partial: "const b = 2;\nconst c = 3;\n",
      want: "const b = 2;",
    },
    {
      name: "…and is shown once the next line shows it was not the code below",
      src: below,
      partial: "const b = 2;\nconst c = 3;\nlog(b);\n",
      want: "const b = 2;\nconst c = 3;\nlog(b);",
    },
    {
      name: "…and never when the code below resumes there",
      src: below,
      partial: "const b = 2;\nconst c = 3;\nlog(a);\n",
      want: "const b = 2;",
    },
    {
      name: "the first line waits when it may be the code below (whitespace-only cursor line)",
      src: below,
      partial: "const c = 3;\n",
      want: null,
    },
    {
      name: "a lone line waits when text follows the cursor (it may be fitted to it)",
      src: "foo(│)",
      partial: "a,\n",
      want: null,
    },
    { name: "…but not once a second line follows", src: "foo(│)", partial: "a,\n  b\n", want: "a,\n  b" },
    { name: "after `{│}`", src: "if (ok) {│}", partial: "\n  run();\n", want: "\n  run();" },
    {
      name: "Python: the block up to the dedent",
      src: lines("def area(r):│", "", "print(area(2))"),
      partial: "\n    return r\n\nprint",
      want: "\n    return r",
    },
    { name: "single-line mode has none", src: "return total│", partial: " + tax;\nmore\n", want: null },
  ])("$name", ({ src, partial, want }) => {
    expect(settledLines(partial, contextOf(src))).toBe(want);
  });

  it("every partial is a prefix, in whole lines, of the final answer, whatever follows, and only grows", () => {
    const contexts = [
      ...cases.map((c) => contextOf(c.src, c.policy)),
      contextOf(endOfFile),
      contextOf(below),
      contextOf(lines("function f() {│", "}", "", "function g() {}")),
      contextOf(lines("if (x) {", "  │", "  }", "}")),
      contextOf(lines("def area(r):│", "", "print(area(2))")),
      contextOf("foo(│);"),
      contextOf("x = │", "multi-line"),
    ];
    /** Is `partial` (lines) the start of `text` (lines)? */
    const startsWithLines = (text: string, partial: string) => {
      const want = partial.split("\n");
      return text.split("\n").slice(0, want.length).join("\n") === partial;
    };
    let shown = 0;
    fc.assert(
      fc.property(
        fc.constantFrom(...contexts),
        rawCompletion,
        fc.string({
          maxLength: 12,
          unit: fc.constantFrom("\n", " ", "}", "x", "end", "\t", "  return x;\n"),
        }),
        (ctx, raw, more) => {
          const final = postProcess(raw, ctx);
          let previous: string | null = null;
          for (let cut = 0; cut <= raw.length; cut++) {
            const partial = settledLines(raw.slice(0, cut), ctx);
            if (partial === null) {
              expect(previous).toBeNull();
              continue;
            }
            if (partial.includes("\n")) shown += 1;
            expect(final, "a partial promises an answer").not.toBeNull();
            expect(startsWithLines(final!.text, partial)).toBe(true);
            const other = postProcess(raw.slice(0, cut) + more, ctx);
            expect(other).not.toBeNull();
            expect(startsWithLines(other!.text, partial)).toBe(true);
            if (previous !== null) expect(startsWithLines(partial, previous)).toBe(true);
            previous = partial;
          }
        },
      ),
      { numRuns: 3000 },
    );
    expect(shown, "partials of several lines checked").toBeGreaterThan(1000);
  });
});
