import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { endStreak, type StreakSuggestion } from "../../src/completion/hot-streak.js";
import {
  completionMode,
  fitKept,
  keptRaw,
  type PostProcessContext,
  postProcess,
} from "../../src/completion/postprocess.js";
import {
  acceptedDocument,
  blockEndLine,
  endPlain,
  endSuggestion,
  type SyntaxDocument,
  syntaxEnding,
} from "../../src/completion/syntax-ending.js";
import { type GrammarName, loadGrammar } from "../../src/context/syntax/runtime.js";
import { fixture, lines } from "../support/fixture.js";
import { textSyntax } from "../support/text-syntax.js";

/** The document of a cursor-marker source, parsed from scratch with a real grammar (the server re-parses incrementally). */
async function documentOf(grammar: GrammarName, source: string): Promise<SyntaxDocument> {
  const { parser } = (await loadGrammar(grammar))!;
  const f = fixture(source);
  return textSyntax(parser, f.prefix, f.suffix);
}

function contextOf(source: string): PostProcessContext {
  const f = fixture(source);
  return {
    lineBefore: f.lineBefore,
    lineAfter: f.lineAfter,
    suffix: f.suffix,
    mode: completionMode(f.lineBefore, f.lineAfter, "auto"),
  };
}

interface Case {
  /** What the case shows. */
  name: string;
  grammar: GrammarName;
  /** The document, `│` at the cursor. */
  source: string;
  /** What the model wrote. */
  raw: string;
  /** The answer by indentation and suffix alone (post-processing without syntax). Default: `raw`, whole. */
  today?: string;
  /** The answer with syntax-aware endings. */
  want: string;
}

// Each language: a suggestion that closes the block the cursor is in and goes on into the next function (the cursor
// on a line without indentation, where no dedent tells); one that leaves a stray closer; one already balanced.
const CASES: Case[] = [
  {
    name: "closes the function and starts another (new function at the end of the file)",
    grammar: "c",
    source: lines("#include <stdio.h>", "", "int twice(int x) {", "│"),
    raw: lines("  return x * 2;", "}", "", "int thrice(int x) {", "  return x * 3;", "}"),
    want: lines("  return x * 2;", "}"),
  },
  {
    name: "closes the function the document already closes, and starts another: the closer goes too",
    grammar: "c",
    source: lines(
      "int sum(const int *xs, int n) {",
      "  int total = 0;",
      "│",
      "}",
      "",
      "int main(void) { return 0; }",
      "",
    ),
    raw: lines(
      "  for (int i = 0; i < n; i++) total += xs[i];",
      "  return total;",
      "}",
      "",
      "int product(int a, int b) {",
      "  return a * b;",
      "}",
    ),
    // The closer the document has ends it by the suffix rule.
    today: lines(
      "  for (int i = 0; i < n; i++) total += xs[i];",
      "  return total;",
      "}",
      "",
      "int product(int a, int b) {",
      "  return a * b;",
    ),
    want: lines("  for (int i = 0; i < n; i++) total += xs[i];", "  return total;"),
  },
  {
    name: "unbalanced brace: a stray closer after a whole function",
    grammar: "c",
    source: lines("int twice(int x) {", "  return x * 2;", "}", "│"),
    raw: lines("", "int thrice(int x) {", "  return x * 3;", "}", "}"),
    want: lines("", "int thrice(int x) {", "  return x * 3;", "}"),
  },
  {
    name: "already balanced: unchanged",
    grammar: "c",
    source: lines("int twice(int x) {", "│", "}", ""),
    raw: "  return x * 2;",
    want: "  return x * 2;",
  },
  {
    name: "a block left open (the model stopped): no prefix parses, today's answer stays",
    grammar: "c",
    source: lines("int twice(int x) {", "  return x * 2;", "}", "│"),
    raw: lines("", "int thrice(int x) {", "  if (x > 0) {", "    return x * 3;"),
    want: lines("", "int thrice(int x) {", "  if (x > 0) {", "    return x * 3;"),
  },
  {
    name: "closes the method and starts another",
    grammar: "cpp",
    source: lines("class Counter {", "public:", "  int next() {", "│"),
    raw: lines("    return ++count_;", "  }", "", "  void reset() {", "    count_ = 0;", "  }"),
    want: lines("    return ++count_;", "  }"),
  },
  {
    name: "unbalanced brace",
    grammar: "cpp",
    source: lines("int one() { return 1; }", "│"),
    raw: lines("", "int two() {", "  return 2;", "}", "}"),
    want: lines("", "int two() {", "  return 2;", "}"),
  },
  {
    name: "an if's block closes, its else goes on: kept to the end of the function's block",
    grammar: "cpp",
    source: lines("int sign(int x) {", "│"),
    raw: lines(
      "if (x < 0) {",
      "  return -1;",
      "} else {",
      "  return 1;",
      "}",
      "}",
      "",
      "int zero() { return 0; }",
    ),
    want: lines("if (x < 0) {", "  return -1;", "} else {", "  return 1;", "}", "}"),
  },
  {
    name: "closes the method and starts another",
    grammar: "java",
    source: lines("public class Greeter {", "    public String greet(String name) {", "│"),
    raw: lines(
      '        return "Hello, " + name;',
      "    }",
      "",
      "    public String bye() {",
      '        return "Bye";',
      "    }",
      "}",
    ),
    want: lines('        return "Hello, " + name;', "    }"),
  },
  {
    name: "closes the method the document already closes, and starts another",
    grammar: "java",
    source: lines("class Greeter {", "    String greet(String name) {", "│", "    }", "}", ""),
    raw: lines(
      '        return "Hello, " + name;',
      "    }",
      "",
      "    String bye(String name) {",
      '        return "Bye";',
      "    }",
    ),
    today: lines(
      '        return "Hello, " + name;',
      "    }",
      "",
      "    String bye(String name) {",
      '        return "Bye";',
    ),
    want: '        return "Hello, " + name;',
  },
  {
    name: "unbalanced brace",
    grammar: "java",
    source: lines("class A {", "    int one() { return 1; }", "}", "│"),
    raw: lines("", "class B {", "    int two() { return 2; }", "}", "}"),
    want: lines("", "class B {", "    int two() { return 2; }", "}"),
  },
  {
    name: "already balanced: unchanged",
    grammar: "java",
    source: lines(
      "class A {",
      "    int sum(int[] xs) {",
      "        int total = 0;",
      "        │",
      "        return total;",
      "    }",
      "}",
      "",
    ),
    raw: lines("for (int x : xs) {", "            total += x;", "        }"),
    want: lines("for (int x : xs) {", "            total += x;", "        }"),
  },
  {
    name: "closes the method the document already closes, and starts another",
    grammar: "c_sharp",
    source: lines(
      "public class Greeter",
      "{",
      "    public string Greet(string name)",
      "    {",
      "│",
      "    }",
      "}",
      "",
    ),
    raw: lines(
      '        return $"Hello, {name}";',
      "    }",
      "",
      "    public string Bye()",
      "    {",
      '        return "Bye";',
      "    }",
    ),
    today: lines(
      '        return $"Hello, {name}";',
      "    }",
      "",
      "    public string Bye()",
      "    {",
      '        return "Bye";',
    ),
    want: '        return $"Hello, {name}";',
  },
  {
    name: "unbalanced brace",
    grammar: "c_sharp",
    source: lines("class A { int One() => 1; }", "│"),
    raw: lines("", "class B", "{", "    int Two() => 2;", "}", "}"),
    want: lines("", "class B", "{", "    int Two() => 2;", "}"),
  },
  {
    name: "closes the method (def … end) and starts another",
    grammar: "ruby",
    source: lines("def greet(name)", "│"),
    raw: lines('  "Hello, #{name}"', "end", "", "def bye(name)", '  "Bye"', "end"),
    want: lines('  "Hello, #{name}"', "end"),
  },
  {
    name: "unbalanced end: the class closes, a stray end follows",
    grammar: "ruby",
    source: lines("class Greeter", "  def greet(name)", '    "Hello, #{name}"', "  end", "│"),
    raw: lines("", "  def bye", '    "Bye"', "  end", "end", "end"),
    want: lines("", "  def bye", '    "Bye"', "  end", "end"),
  },
  {
    name: "already balanced (do … end): unchanged",
    grammar: "ruby",
    source: lines("def total(items)", "  sum = 0", "  │", "  sum", "end", ""),
    raw: lines("items.each do |item|", "    sum += item.price", "  end"),
    want: lines("items.each do |item|", "    sum += item.price", "  end"),
  },
  {
    name: "one line with a stray bracket: cut at the token before it",
    grammar: "ruby",
    source: lines("puts [1, 2, │]", ""),
    raw: "3]]",
    today: "3]",
    want: "3",
  },
  {
    name: "closes the function and starts another",
    grammar: "php",
    source: lines("<?php", "function greet($name) {", "│"),
    raw: lines('    return "Hello, " . $name;', "}", "", "function bye() {", '    return "Bye";', "}"),
    want: lines('    return "Hello, " . $name;', "}"),
  },
  {
    name: "unbalanced brace",
    grammar: "php",
    source: lines("<?php", "function one() { return 1; }", "│"),
    raw: lines("", "function two() {", "    return 2;", "}", "}"),
    want: lines("", "function two() {", "    return 2;", "}"),
  },
  {
    name: "closes the function and starts another",
    grammar: "bash",
    source: lines("greet() {", "│"),
    raw: lines('  echo "Hello, $1"', "}", "", "bye() {", '  echo "Bye"', "}"),
    want: lines('  echo "Hello, $1"', "}"),
  },
  {
    name: "closes the loop (do … done) and goes on",
    grammar: "bash",
    source: lines("for f in *.txt; do", "│"),
    raw: lines('  echo "$f"', "done", "echo finished"),
    want: lines('  echo "$f"', "done"),
  },
  {
    name: "closes the function and starts another",
    grammar: "kotlin",
    source: lines("fun greet(name: String): String {", "│"),
    raw: lines('    return "Hello, $name"', "}", "", "fun bye(): String {", '    return "Bye"', "}"),
    want: lines('    return "Hello, $name"', "}"),
  },
  {
    name: "unbalanced brace",
    grammar: "kotlin",
    source: lines("fun one() = 1", "│"),
    raw: lines("", "fun two(): Int {", "    return 2", "}", "}"),
    want: lines("", "fun two(): Int {", "    return 2", "}"),
  },
  {
    name: "closes the function and starts another",
    grammar: "zig",
    source: lines("fn twice(x: i32) i32 {", "│"),
    raw: lines("    return x * 2;", "}", "", "fn thrice(x: i32) i32 {", "    return x * 3;", "}"),
    want: lines("    return x * 2;", "}"),
  },
  {
    name: "unbalanced brace",
    grammar: "zig",
    source: lines("fn one() i32 {", "    return 1;", "}", "│"),
    raw: lines("", "fn two() i32 {", "    return 2;", "}", "}"),
    want: lines("", "fn two() i32 {", "    return 2;", "}"),
  },
  {
    name: "closes the function and starts another",
    grammar: "swift",
    source: lines("func greet(_ name: String) -> String {", "│"),
    raw: lines('    return "Hello, \\(name)"', "}", "", "func bye() -> String {", '    return "Bye"', "}"),
    want: lines('    return "Hello, \\(name)"', "}"),
  },
  {
    name: "unbalanced brace",
    grammar: "swift",
    source: lines("func one() -> Int { 1 }", "│"),
    raw: lines("", "func two() -> Int {", "    return 2", "}", "}"),
    want: lines("", "func two() -> Int {", "    return 2", "}"),
  },
  {
    name: "closes the method and starts another",
    grammar: "scala",
    source: lines("object Greeter {", "  def greet(name: String): String = {", "│"),
    raw: lines('    s"Hello, $name"', "  }", "", "  def bye(): String = {", '    "Bye"', "  }"),
    want: lines('    s"Hello, $name"', "  }"),
  },
  {
    name: "unbalanced brace",
    grammar: "scala",
    source: lines("object A {", "  def one = 1", "}", "│"),
    raw: lines("", "object B {", "  def two = 2", "}", "}"),
    want: lines("", "object B {", "  def two = 2", "}"),
  },
  {
    name: "closes the function (do … end) and starts another",
    grammar: "elixir",
    source: lines("defmodule Greeter do", "  def greet(name) do", "│"),
    raw: lines('    "Hello, #{name}"', "  end", "", "  def bye do", '    "Bye"', "  end"),
    want: lines('    "Hello, #{name}"', "  end"),
  },
  {
    name: "unbalanced bracket",
    grammar: "elixir",
    source: lines("defmodule A do", "  def one, do: 1", "end", "│"),
    raw: lines("", "defmodule B do", "  def two, do: 2", "end", ")"),
    want: lines("", "defmodule B do", "  def two, do: 2", "end"),
  },
];

describe("endSuggestion: syntax-aware endings on real code", () => {
  it.each(CASES)("$grammar: $name", async ({ grammar, source, raw, today = raw, want }) => {
    const ctx = contextOf(source);
    expect(postProcess(raw, ctx)?.text).toBe(today);
    expect(endSuggestion(raw, ctx, await documentOf(grammar, source))?.text).toBe(want);
  });

  it("covers every language with a grammar", () => {
    const covered = new Set(CASES.map((c) => c.grammar));
    for (const grammar of [
      "c",
      "cpp",
      "java",
      "c_sharp",
      "ruby",
      "php",
      "bash",
      "kotlin",
      "zig",
      "swift",
      "scala",
      "elixir",
    ])
      expect(covered, grammar).toContain(grammar);
  });

  it("keeps post-processing's answer without a syntax, when parsing fails, and when parsing throws", async () => {
    const [c] = CASES;
    const ctx = contextOf(c!.source);
    const doc = await documentOf(c!.grammar, c!.source);
    const today = postProcess(c!.raw, ctx);
    expect(endSuggestion(c!.raw, ctx, undefined)).toEqual(today);
    expect(endSuggestion(c!.raw, ctx, { ...doc, parse: () => undefined })).toEqual(today);
    const throwing = {
      ...doc,
      parse: () => {
        throw new Error("boom");
      },
    };
    expect(endSuggestion(c!.raw, ctx, throwing)).toEqual(today);
    expect(endPlain("\n  x();\n}", throwing)).toBe("\n  x();\n}");
  });

  it("stops parsing at its budget, keeping the best cut found so far", async () => {
    const c = CASES.find((k) => k.name.startsWith("unbalanced brace") && k.grammar === "java")!;
    const doc = await documentOf(c.grammar, c.source);
    const ctx = contextOf(c.source);
    const fit = (raw: string) => fitKept(raw, ctx);
    const kept = keptRaw(c.raw, ctx);
    // One parse judges the whole suggestion; the second finds the prefix without the stray closer.
    expect(fit(syntaxEnding(kept, doc, fit, { maxParses: 1 }))?.text).toBe(c.raw);
    expect(fit(syntaxEnding(kept, doc, fit, { maxParses: 2 }))?.text).toBe(c.want);
  });

  it("keeps whatever lines were shown as partial results (the floor), and cuts only past them", async () => {
    const c = CASES.find(
      (k) => k.name.startsWith("closes the function and starts another") && k.grammar === "c",
    )!;
    const ctx = contextOf(c.source);
    const doc = await documentOf(c.grammar, c.source);
    const today = postProcess(c.raw, ctx)!.text.split("\n");
    // Partial results are whole lines, never ending with a blank one.
    const floors = [0, ...today.flatMap((line, i) => (line.trim() === "" ? [] : [i + 1]))];
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...floors), async (floor) => {
        const text = endSuggestion(c.raw, ctx, doc, floor)!.text.split("\n");
        expect(text.slice(0, floor)).toEqual(today.slice(0, floor));
        expect(text.length).toBe(Math.max(floor, 2));
      }),
    );
  });

  it("never answers more than post-processing, and keeps its prefix, on any case's text cut anywhere", async () => {
    const docs = await Promise.all(CASES.map((c) => documentOf(c.grammar, c.source)));
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: CASES.length - 1 }), fc.nat(), async (index, at) => {
        const c = CASES[index]!;
        const raw = c.raw.slice(0, at % (c.raw.length + 1));
        const ctx = contextOf(c.source);
        const today = postProcess(raw, ctx);
        const ours = endSuggestion(raw, ctx, docs[index]);
        if (today === null) {
          expect(ours).toBeNull();
          return;
        }
        expect(ours).not.toBeNull();
        expect(today.text.startsWith(ours!.text)).toBe(true);
      }),
    );
  });
});

describe("the hot streak through the cut", () => {
  const streakOf = (texts: string[]): StreakSuggestion[] =>
    texts.map((text) => ({
      uri: "file:///a.c",
      line: 0,
      character: 0,
      linePrefix: "",
      lineRest: "",
      text,
      replaceEnd: 0,
      lead: { line: 0, character: 0, text: "" },
    }));

  it("judges the streak in the document with the shown suggestion accepted: a stray closer goes", async () => {
    const source = lines("int twice(int x) {", "│");
    const doc = await documentOf("c", source);
    const accepted = acceptedDocument(doc, { text: "  return x * 2;\n}", replaceEnd: 0 })!;
    const streak = streakOf([
      "\n\nint thrice(int x) {\n  return x * 3;\n}\n}",
      "\n\nint four(void) { return 4; }",
    ]);
    expect(endStreak(streak, accepted).map((s) => s.text)).toEqual([
      "\n\nint thrice(int x) {\n  return x * 3;\n}",
    ]);
    expect(endStreak(streak, undefined)).toEqual(streak);
    const good = streakOf([
      "\n\nint thrice(int x) {\n  return x * 3;\n}",
      "\n\nint four(void) { return 4; }",
    ]);
    expect(endStreak(good, accepted)).toEqual(good);
  });

  it("cuts a first paragraph at the end of the block the cursor is in", async () => {
    const doc = await documentOf("c", lines("int twice(int x) {", "│"));
    expect(endPlain("  return x * 2;\n}\nint thrice(int x) { return x * 3; }", doc)).toBe(
      "  return x * 2;\n}",
    );
  });
});

describe("blockEndLine: while a block streams, has it closed the cursor's block yet?", () => {
  it.each([
    { settled: "  return x * 2;", want: undefined },
    { settled: "  return x * 2;\n}", want: 1 },
    { settled: "  if (x > 0) {\n    return 1;\n  }", want: undefined },
    { settled: "  if (x > 0) {\n    return 1;\n  }\n  return 0;\n}", want: 4 },
    // The closer line goes on: the if statement it ends is not done, nor is the function.
    { settled: "  if (x > 0) {\n    return 1;\n  } else {", want: undefined },
  ])("$settled → $want", async ({ settled, want }) => {
    const doc = await documentOf("c", lines("int twice(int x) {", "│"));
    expect(blockEndLine(settled, doc)).toBe(want);
  });
});
