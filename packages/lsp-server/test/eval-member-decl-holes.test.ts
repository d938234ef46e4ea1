// The member-access oracle (issue 24): a value's declared type read from its declaration, and the holes at `x.m`
// and `x->m` whose ground truth is m's declaration in that type's file.
import { describe, expect, it } from "vitest";
import type { Tag } from "../eval/ctags.js";
import { isSourceOf, type Language } from "../eval/languages.js";
import {
  findMemberDeclHoles,
  signatureTypes,
  simpleType,
  typeOfTyperef,
  typeOnLine,
} from "../eval/member-decl-holes.js";

describe("a declared type, as written", () => {
  it.each([
    { written: "Store", want: "Store" },
    { written: "org.jsoup.nodes.Element", want: "Element" },
    { written: "List<Map<K, V>>", want: "List" },
    { written: "Store?", want: "Store" },
    { written: "int[]", want: undefined },
    { written: "String...", want: undefined },
    { written: "var", want: undefined },
  ])("$written", ({ written, want }) => {
    expect(simpleType(written)).toBe(want);
  });

  it.each([
    { line: "  private final Store store;", x: "store", want: "Store" },
    { line: "    Element el = doc.body();", x: "el", want: "Element" },
    { line: "    for (Node child : children) {", x: "child", want: "Node" },
    { line: "    var parser = new Parser(reader);", x: "parser", want: "Parser" },
    { line: "    var parser = Parser.create();", x: "parser", want: undefined },
    { line: "    Map<String, List<Node>> index = new HashMap<>();", x: "index", want: "Map" },
    { line: "  public Store Current { get; set; }", x: "Current", want: "Store" },
    { line: "    Token[] tokens = new Token[3];", x: "tokens", want: undefined },
    { line: "    return store;", x: "store", want: undefined },
  ])("$line", ({ line, x, want }) => {
    expect(typeOnLine(line, x)).toBe(want);
  });

  it("a signature's parameters: annotations, modifiers and defaults aside", () => {
    expect([
      ...signatureTypes('(@Nullable final Store s, Map<K, V> m, int n, ref Item item, string name = "x")'),
    ]).toEqual([
      ["s", "Store"],
      ["m", "Map"],
      ["n", "int"],
      ["item", "Item"],
      ["name", "string"],
    ]);
  });

  it.each([
    { typeref: "typename:Store", want: { name: "Store", pointer: false } },
    { typeref: "typename:const Item *", want: { name: "Item", pointer: true } },
    { typeref: "typename:Store &", want: { name: "Store", pointer: false } },
    { typeref: "typename:std::unique_ptr<leveldb::Iterator>", want: { name: "Iterator", pointer: true } },
    { typeref: "typename:std::vector<Item>", want: undefined },
    { typeref: "typename:char **", want: undefined },
    { typeref: "typename:auto", want: undefined },
  ])("$typeref", ({ typeref, want }) => {
    expect(typeOfTyperef(typeref)).toEqual(want);
  });
});

/** Tags as ctags reports them: `name kind file:line[-end] [scopeKind:scope] [key=value …]`, one a line. */
function tags(lines: string): Tag[] {
  return lines
    .trim()
    .split("\n")
    .map((line) => {
      const [name, kind, at, ...rest] = line.trim().split(/\s+/) as [string, string, string, ...string[]];
      const [file, span] = at.split(":") as [string, string];
      const [start, end] = span.split("-");
      const tag: Record<string, unknown> = { name, kind, file, line: Number(start) };
      if (end) tag.end = Number(end);
      for (const field of rest) {
        const scope = /^(class|struct|interface|function|method):(.+)$/.exec(field);
        if (scope) {
          tag.scopeKind = scope[1];
          tag.scope = scope[2];
          continue;
        }
        const [key, value] = field.split("=") as [string, string];
        tag[key] = value.replace(/_/g, " ");
      }
      return tag as unknown as Tag;
    });
}

function holesOf(language: Language, files: Record<string, string>, tagLines: string) {
  const sources = Object.keys(files)
    .filter((f) => isSourceOf(language, f))
    .sort();
  return findMemberDeclHoles(language, sources, (file) => files[file], tags(tagLines)).map((h) => [
    h.id,
    h.name,
    h.pattern,
    h.stratum,
    h.declarations.map((d) => `${d.file}:${d.line + 1}`),
    // The receiver, and where a language server says its type is declared.
    `${h.receiverType!.line + 1}:${h.receiverType!.character + 1} ${h.receiverType!.declarations.map((d) => `${d.file}:${d.line + 1}`).join(",")}`,
  ]);
}

describe("findMemberDeclHoles", () => {
  it("Java: a local, a parameter, a field (and `this.` one) of a class of another file; not an imported name", () => {
    const files: Record<string, string> = {
      "a/App.java": [
        "package a;",
        "import b.Store;",
        "class App {",
        "  private Store cache;",
        "  void run(Store given, int n) {",
        "    Store local = given;",
        "    local.find(1);",
        "    given.size();",
        "    cache.find(2);",
        "    this.cache.find(3);",
        "    Store.open();",
        "    other.local.find(4);",
        "    local.hidden();",
        "  }",
        "}",
      ].join("\n"),
      "b/Store.java": [
        "package b;",
        "public class Store {",
        "  public Item find(int k) { return null; }",
        "  public int size() { return 0; }",
        "  public static Store open() { return null; }",
        "  private void hidden() {}",
        "}",
      ].join("\n"),
    };
    const holes = holesOf(
      "Java",
      files,
      `
        App class a/App.java:3-15
        cache field a/App.java:4 class:a.App
        run method a/App.java:5-14 class:a.App signature=(Store_given,_int_n)
        local local a/App.java:6
        Store class b/Store.java:2-7
        find method b/Store.java:3 class:b.Store access=public
        size method b/Store.java:4 class:b.Store access=public
        open method b/Store.java:5 class:b.Store access=public
        hidden method b/Store.java:6 class:b.Store access=private
      `,
    );
    expect(holes).toEqual([
      ["a/App.java:7:11", "find", "member", "import", ["b/Store.java:3"], "7:5 b/Store.java:2"],
      ["a/App.java:8:11", "size", "member", "import", ["b/Store.java:4"], "8:5 b/Store.java:2"],
      ["a/App.java:9:11", "find", "member", "import", ["b/Store.java:3"], "9:5 b/Store.java:2"],
      ["a/App.java:10:16", "find", "member", "import", ["b/Store.java:3"], "10:10 b/Store.java:2"],
      // `Store.open()`: a type's static member (the name holes' business); `other.local`: another value's member;
      // `local.hidden()`: private to Store.
    ]);
  });

  it("C++: `->` on a pointer, `.` on a value or reference, declarations in the header first", () => {
    const files: Record<string, string> = {
      "db/db.cc": [
        '#include "db/table.h"',
        "void Open(Table* t, const Options& opts) {",
        "  Table local;",
        "  t->Get(1);",
        "  local.Get(2);",
        "  local->Get(3);",
        "  opts.Check();",
        "}",
      ].join("\n"),
      "db/table.h": "class Table {\n public:\n  int Get(int k);\n};\n",
      "db/table.cc": '#include "db/table.h"\nint Table::Get(int k) { return k; }\n',
    };
    const holes = holesOf(
      "C++",
      files,
      `
        Open function db/db.cc:2-8
        t parameter db/db.cc:2 typeref=typename:Table_*
        opts parameter db/db.cc:2 typeref=typename:const_Options_&
        local local db/db.cc:3 typeref=typename:Table
        Table class db/table.h:1-4
        Get prototype db/table.h:3 class:Table
        Get function db/table.cc:2-2 class:Table
      `,
    );
    expect(holes).toEqual([
      ["db/db.cc:4:6", "Get", "arrow", "import", ["db/table.h:3", "db/table.cc:2"], "4:3 db/table.h:1"],
      ["db/db.cc:5:9", "Get", "member", "import", ["db/table.h:3", "db/table.cc:2"], "5:3 db/table.h:1"],
      // `local->`: a value, not a pointer; `opts.`: Options is no corpus class.
    ]);
  });
});
