import { describe, expect, it } from "vitest";
import {
  canServeFromPartial,
  codePoints,
  matchTypeThrough,
  type Suggestion,
  type TypeThroughState,
  typedThrough,
} from "../../src/completion/type-through.js";
import { fixture } from "../support/fixture.js";

/** A suggestion anchored at the cursor of a marker source. */
function suggestionAt(source: string, text: string, replaceEnd: number): Suggestion {
  const f = fixture(source);
  return {
    uri: "file:///a.ts",
    ...f.position,
    linePrefix: f.lineBefore,
    lineRest: f.lineAfter,
    text,
    replaceEnd,
  };
}

/** The state after the user turned the anchor source into `now` (cursor marked), the anchor line unchanged. */
function stateAfter(s: Suggestion, now: string, overrides: Partial<TypeThroughState> = {}): TypeThroughState {
  const f = fixture(now);
  const anchorOffset =
    f.text.split("\n").slice(0, s.line).join("\n").length + (s.line > 0 ? 1 : 0) + s.character;
  return {
    line: f.position.line,
    character: f.position.character,
    typed: f.prefix.slice(anchorOffset),
    linePrefixAtAnchor: f.text.split(/\r?\n/)[s.line]!.slice(0, s.character),
    lineRestAfterCursor: f.lineAfter,
    ...overrides,
  };
}

const args = suggestionAt("  foo(abc,│)", " b, c", 0);
const body = suggestionAt("function f() {│}", "\n  return 1;\n}", 1);
const covering = suggestionAt("foo(│)", "x);", 1);

describe("matchTypeThrough", () => {
  it.each([
    {
      name: "cursor still at the anchor",
      s: args,
      now: "  foo(abc,│)",
      want: { text: " b, c", replaceEnd: 0 },
    },
    { name: "typed a prefix", s: args, now: "  foo(abc, b│)", want: { text: ", c", replaceEnd: 0 } },
    { name: "typed all of it", s: args, now: "  foo(abc, b, c│)", want: null },
    { name: "typed beyond it", s: args, now: "  foo(abc, b, c, d│)", want: null },
    { name: "typed something else", s: args, now: "  foo(abc, x│)", want: null },
    { name: "rest of the line changed", s: args, now: "  foo(abc, b│", want: null },
    {
      name: "auto-indent matches exactly",
      s: body,
      now: "function f() {\n  │}",
      want: { text: "return 1;\n}", replaceEnd: 1 },
    },
    {
      name: "auto-indent with a tab",
      s: body,
      now: "function f() {\n\t│}",
      want: { text: "return 1;\n}", replaceEnd: 1 },
    },
    {
      name: "no auto-indent",
      s: body,
      now: "function f() {\n│}",
      want: { text: "  return 1;\n}", replaceEnd: 1 },
    },
    {
      name: "deeper auto-indent",
      s: body,
      now: "function f() {\n      │}",
      want: { text: "return 1;\n}", replaceEnd: 1 },
    },
    {
      name: "typed into the next line",
      s: body,
      now: "function f() {\n  ret│}",
      want: { text: "urn 1;\n}", replaceEnd: 1 },
    },
    {
      name: "typed with other indentation",
      s: body,
      now: "function f() {\n\tret│}",
      want: { text: "urn 1;\n}", replaceEnd: 1 },
    },
    { name: "typed a different line", s: body, now: "function f() {\n  log│}", want: null },
    { name: "typed the whole block", s: body, now: "function f() {\n  return 1;\n}│}", want: null },
    {
      name: "typed over an auto-paired closer",
      s: covering,
      now: "foo(x)│",
      want: { text: ";", replaceEnd: 0 },
    },
    {
      name: "typed a closer beside the paired one",
      s: covering,
      now: "foo(x)│)",
      want: { text: ";", replaceEnd: 1 },
    },
    { name: "covered closer deleted, nothing typed", s: covering, now: "foo(│", want: null },
  ])("$name", ({ s, now, want }) => {
    expect(matchTypeThrough(s, stateAfter(s, now))).toEqual(want);
  });

  it.each([
    { name: "other document", overrides: { uri: "file:///b.ts" }, want: null },
    { name: "same document", overrides: { uri: "file:///a.ts" }, want: { text: ", c", replaceEnd: 0 } },
    {
      name: "anchor line edited before the anchor",
      overrides: { linePrefixAtAnchor: "  bar(abc," },
      want: null,
    },
    { name: "cursor not where the typed text ends", overrides: { character: 13 }, want: null },
    { name: "cursor on another line", overrides: { line: 1 }, want: null },
  ])("$name", ({ overrides, want }) => {
    expect(matchTypeThrough(args, stateAfter(args, "  foo(abc, b│)", overrides))).toEqual(want);
  });

  it("accepts CRLF line breaks in the typed text", () => {
    const state = {
      line: 1,
      character: 5,
      typed: "\r\n  ret",
      linePrefixAtAnchor: "function f() {",
      lineRestAfterCursor: "}",
    };
    expect(matchTypeThrough(body, state)).toEqual({ text: "urn 1;\n}", replaceEnd: 1 });
  });

  it("rejects more consumed of the line than the suggestion covers", () => {
    const s = suggestionAt("foo(│);", "x)", 1);
    expect(matchTypeThrough(s, stateAfter(s, "foo(x);│"))).toBeNull();
    expect(matchTypeThrough(s, stateAfter(s, "foo(│);"))).toEqual({ text: "x)", replaceEnd: 1 });
  });
});

describe("canServeFromPartial", () => {
  it.each([
    { partial: "hello wor", typed: "", want: true },
    { partial: "hello wor", typed: "hel", want: true },
    { partial: "hel", typed: "hello", want: true },
    { partial: "", typed: "abc", want: true },
    { partial: "help", typed: "hello", want: false },
    { partial: "\n  ret", typed: "\n\tre", want: true },
    { partial: "\n", typed: "\n    x", want: true },
    { partial: "\n  ", typed: "\n    x", want: true },
    { partial: "\n  x", typed: "\n  y", want: false },
    { partial: "\n  return", typed: "\r\n\treturn", want: true },
    { partial: "a\nb", typed: "a b", want: false },
  ])("$typed against $partial → $want", ({ partial, typed, want }) => {
    expect(canServeFromPartial(partial, typed)).toBe(want);
  });
});

describe("typedThrough", () => {
  it.each([
    { name: "nothing typed yet", s: args, now: "  foo(abc,│)", want: 0 },
    { name: "the start typed", s: args, now: "  foo(abc, b│)", want: 2 },
    {
      name: "typed to its end (nothing left to show, counted whole)",
      s: args,
      now: "  foo(abc, b, c│)",
      want: 5,
    },
    { name: "typed to its end and on", s: args, now: "  foo(abc, b, c, d│)", want: 5 },
    { name: "typed past its end, differently", s: args, now: "  foo(abc, b, x, d│)", want: null },
    { name: "diverged", s: args, now: "  foo(abc, x│)", want: null },
    {
      name: "a block typed to its end over the covered closer",
      s: body,
      now: "function f() {\n  return 1;\n}│",
      want: 14,
    },
    {
      name: "a line break and the editor's own indentation",
      s: body,
      now: "function f() {\n    re│}",
      want: 5,
    },
  ])("$name", ({ s, now, want }) => {
    expect(typedThrough(s, stateAfter(s, now))).toBe(want);
  });

  it("counts characters as code points", () => {
    expect(codePoints("a😀é")).toBe(3);
    const emoji = suggestionAt("s = │", '"😀😀"', 0);
    expect(typedThrough(emoji, stateAfter(emoji, 's = "😀│'))).toBe(2);
  });
});
