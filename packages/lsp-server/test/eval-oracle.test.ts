// The context eval's ctags oracle, its pure parts: blanking comments and literals, the import rules behind the
// strata, and the hole rules, on small corpora written here (no ctags binary: tags are written out as ctags
// reports them).
import { describe, expect, it } from "vitest";
import type { Tag } from "../eval/ctags.js";
import { parseTags } from "../eval/ctags.js";
import { isSourceOf, LANGUAGES, type Language } from "../eval/languages.js";
import { flattenUse, ReachIndex } from "../eval/reach.js";
import { blankNonCode } from "../eval/source-lexer.js";
import { findTagHoles } from "../eval/tag-holes.js";

/** The visible (not blanked) characters of a text, words separated by single spaces. */
const visible = (text: string) => text.replace(/\s+/g, " ").trim();

describe("blankNonCode", () => {
  it.each<[Language, string, string]>([
    ["C", "f(a); // g(b)\n/* h(c) */ s = \"i(d)\"; c = '(';", "f(a); s = ; c = ;"],
    ["C", 's = "unterminated\nnext(x);', "s = next(x);"],
    ["Python", 'x = """a(\nb(""" + f(1)  # g(2)\ny = \'h(\'', "x = + f(1) y ="],
    ["Ruby", "a(1) # b(2)\n=begin\nc(3)\n=end\nd(4)", "a(1) d(4)"],
    ["C#", 'p = @"C:\\dir\\""x("""; q(1);', "p = ; q(1);"],
    ["Go", "s := `raw\nf(x)` + g(y)", "s := + g(y)"],
    [
      "Rust",
      "fn f<'a>(x: &'a str) -> char { let c = '('; let s = r#\"g(\"#; h(c) }",
      "fn f<'a>(x: &'a str) -> char { let c = ; let s = ; h(c) }",
    ],
    ["PHP", "$a = 'x(' . f(1); # g(2)\n// h(3)", "$a = . f(1);"],
  ])("%s: %j", (language, text, expected) => {
    const blanked = blankNonCode(text, LANGUAGES[language].syntax);
    expect(blanked).toHaveLength(text.length);
    expect(blanked.split("\n")).toHaveLength(text.split("\n").length);
    expect(visible(blanked)).toBe(expected);
  });

  it("keeps literals when asked, and blanks comments only", () => {
    const text = '#include "a.h" // "b.h"\n';
    expect(visible(blankNonCode(text, LANGUAGES.C.syntax, false))).toBe('#include "a.h"');
  });
});

describe("flattenUse", () => {
  it.each([
    ["crate::a::B", [["crate", "a", "B"]]],
    [
      "crate::iter::{plumbing::*,IntoParallelIterator,self}",
      [
        ["crate", "iter", "plumbing", "*"],
        ["crate", "iter", "IntoParallelIterator"],
        ["crate", "iter", "self"],
      ],
    ],
    [
      "super::{a::{b,c},d}",
      [
        ["super", "a", "b"],
        ["super", "a", "c"],
        ["super", "d"],
      ],
    ],
  ])("%s", (tree, paths) => {
    expect(flattenUse(tree)).toEqual(paths);
  });
});

/** A corpus of `files` (path → text); project files are read but are not sources. */
function view(language: Language, files: Record<string, string>) {
  const sources = Object.keys(files)
    .filter((f) => isSourceOf(language, f))
    .sort();
  return new ReachIndex(language, {
    files: sources,
    text: (file) =>
      file in files ? blankNonCode(files[file]!, LANGUAGES[language].syntax, false) : undefined,
  });
}

describe("the import rules behind the strata", () => {
  it("C: an include beside the file, else by path suffix (include directories); the package is the folder", () => {
    const index = view("C", {
      "src/main.c": '#include "util.h"\n#include <lib/log.h>\n// #include "gone.h"\n',
      "src/util.h": "",
      "include/lib/log.h": "",
      "include/lib/log.c": "",
      "src/gone.h": "",
      "src/other.c": "",
    });
    expect(index.imports("src/main.c")).toEqual(["include/lib/log.h", "src/util.h"]);
    expect(index.reach("src/main.c", ["include/lib/log.c", "include/lib/log.h"])).toBe("import");
    expect(index.reach("src/main.c", ["src/other.c"])).toBe("package");
    expect(index.reach("src/main.c", ["include/lib/log.c"])).toBe("name");
  });

  it("Java: single-type, nested, static and on-demand imports; the package declaration", () => {
    const index = view("Java", {
      "src/main/java/a/App.java":
        "package a;\nimport b.Util;\nimport c.*;\nimport static d.Math.max;\nimport e.Outer.Inner;\n",
      "src/main/java/a/Near.java": "package a;\n",
      "src/test/java/a/AppTest.java": "package a;\n",
      "src/main/java/b/Util.java": "package b;\n",
      "src/main/java/b/Other.java": "package b;\n",
      "src/main/java/c/One.java": "package c;\n",
      "src/main/java/c/Two.java": "package c;\n",
      "src/main/java/d/Math.java": "package d;\n",
      "src/main/java/e/Outer.java": "package e;\n",
    });
    expect(index.imports("src/main/java/a/App.java")).toEqual([
      "src/main/java/b/Util.java",
      "src/main/java/c/One.java",
      "src/main/java/c/Two.java",
      "src/main/java/d/Math.java",
      "src/main/java/e/Outer.java",
    ]);
    expect(index.reach("src/test/java/a/AppTest.java", ["src/main/java/a/Near.java"])).toBe("package");
    expect(index.reach("src/main/java/a/App.java", ["src/main/java/b/Other.java"])).toBe("name");
  });

  it("C#: a using names a namespace's files; enclosing namespaces need none", () => {
    const index = view("C#", {
      "App/Program.cs": "using Lib.Text;\nusing static Lib.Math;\nnamespace App.Cli {\n}\n",
      "Lib/Text/Format.cs": "namespace Lib.Text\n{\n}\n",
      "Lib/Math.cs": "namespace Lib {\n}\n",
      "App/Shared.cs": "namespace App {\n}\n",
      "Other/X.cs": "namespace Other {\n}\n",
    });
    expect(index.imports("App/Program.cs")).toEqual(["Lib/Math.cs", "Lib/Text/Format.cs"]);
    expect(index.reach("App/Program.cs", ["App/Shared.cs"])).toBe("package");
    expect(index.reach("App/Shared.cs", ["Other/X.cs"])).toBe("name");
  });

  it("Ruby: require_relative beside the file, require through lib/", () => {
    const index = view("Ruby", {
      "lib/gem/a.rb": "require_relative 'b'\nrequire \"gem/c\"\nrequire 'json'\n",
      "lib/gem/b.rb": "",
      "lib/gem/c.rb": "",
      "lib/gem/d.rb": "",
      "lib/other/e.rb": "",
    });
    expect(index.imports("lib/gem/a.rb")).toEqual(["lib/gem/b.rb", "lib/gem/c.rb"]);
    expect(index.reach("lib/gem/a.rb", ["lib/gem/d.rb"])).toBe("package");
    expect(index.reach("lib/gem/a.rb", ["lib/other/e.rb"])).toBe("name");
  });

  it("PHP: use (with as, lists and groups) names a class's file by PSR-4; the package is the namespace", () => {
    const index = view("PHP", {
      "src/App.php":
        "<?php\nnamespace Acme;\nuse Acme\\Log\\Logger as L, Acme\\Util;\nuse Acme\\Node\\{Block, Inline};\n",
      "src/Log/Logger.php": "<?php\nnamespace Acme\\Log;\n",
      "src/Util.php": "<?php\nnamespace Acme;\n",
      "src/Node/Block.php": "<?php\nnamespace Acme\\Node;\n",
      "src/Node/Inline.php": "<?php\nnamespace Acme\\Node;\n",
      "src/Node/Text.php": "<?php\nnamespace Acme\\Node;\n",
      "tests/AppTest.php": "<?php\nnamespace Acme;\n",
    });
    expect(index.imports("src/App.php")).toEqual([
      "src/Log/Logger.php",
      "src/Node/Block.php",
      "src/Node/Inline.php",
      "src/Util.php",
    ]);
    expect(index.reach("tests/AppTest.php", ["src/Util.php"])).toBe("package");
    expect(index.reach("src/App.php", ["src/Node/Text.php"])).toBe("name");
  });

  it("Python: absolute imports under any source root, relative ones from the file's package", () => {
    const index = view("Python", {
      "pkg/app.py":
        "import pkg.util\nfrom .models import (\n    User,\n    Group,\n)\nfrom ..top import x\nfrom pkg import sub\n",
      "pkg/util.py": "",
      "pkg/models/__init__.py": "",
      "pkg/models/User.py": "",
      "pkg/sub/__init__.py": "",
      "top.py": "",
      "pkg/near.py": "",
    });
    expect(index.imports("pkg/app.py")).toEqual([
      "pkg/models/User.py",
      "pkg/models/__init__.py",
      "pkg/sub/__init__.py",
      "pkg/util.py",
      "top.py",
    ]);
    expect(index.reach("pkg/app.py", ["pkg/near.py"])).toBe("package");
  });

  it("Go: an import path less the module path names a folder's files", () => {
    const index = view("Go", {
      "go.mod": "module example.com/m\n\ngo 1.19\n",
      "cmd/main.go": 'package main\n\nimport (\n\t"fmt"\n\tu "example.com/m/internal/util"\n)\n',
      "internal/util/a.go": "package util\n",
      "internal/util/b.go": "package util\n",
      "cmd/flags.go": "package main\n",
      "other/c.go": "package other\n",
    });
    expect(index.imports("cmd/main.go")).toEqual(["internal/util/a.go", "internal/util/b.go"]);
    expect(index.reach("cmd/main.go", ["cmd/flags.go"])).toBe("package");
    expect(index.reach("cmd/main.go", ["other/c.go"])).toBe("name");
  });

  it("Rust: use trees through crate, self, super and the crate's name; mod declarations", () => {
    const index = view("Rust", {
      "Cargo.toml": '[package]\nname = "my-crate"\n',
      "src/lib.rs": "mod iter;\npub mod slice;\n",
      "src/iter/mod.rs": "use crate::slice::{Chunks, self};\nuse super::nothing;\nmod plumbing;\n",
      "src/iter/plumbing.rs": "use super::super::slice::Chunks as C;\n",
      "src/slice.rs": "",
      "tests/t.rs": "use my_crate::iter::plumbing::bridge;\n// use my_crate::slice;\n",
    });
    expect(index.imports("src/lib.rs")).toEqual(["src/iter/mod.rs", "src/slice.rs"]);
    expect(index.imports("src/iter/mod.rs")).toEqual(["src/iter/plumbing.rs", "src/lib.rs", "src/slice.rs"]);
    expect(index.imports("src/iter/plumbing.rs")).toEqual(["src/slice.rs"]);
    expect(index.imports("tests/t.rs")).toEqual(["src/iter/plumbing.rs"]);
  });
});

/** Tags as ctags reports them: `name kind file:line`, one a line. */
function tags(lines: string): Tag[] {
  return lines
    .trim()
    .split("\n")
    .map((line) => {
      const [name, kind, at] = line.trim().split(/\s+/) as [string, string, string];
      const [file, n] = at.split(":") as [string, string];
      return { name, kind, file, line: Number(n) };
    });
}

/** The holes of a corpus of `files` (path → text; its sources are the language's), with tags as `tags` reads them. */
function holesOf(language: Language, files: Record<string, string>, tagLines: string, more: Tag[] = []) {
  const sources = Object.keys(files)
    .filter((f) => isSourceOf(language, f))
    .sort();
  return findTagHoles(language, sources, (file) => files[file], [...tags(tagLines), ...more]);
}

describe("findTagHoles", () => {
  it("Java: a type before `.` or after `new`, a method before `(`; not a value's member nor a library type's", () => {
    const files: Record<string, string> = {
      "a/App.java": [
        "package a;",
        "import b.Util;",
        "class App {",
        "  void run(Widget widget) {",
        "    Util.render(widget);",
        "    Util.quote(Debug.render(x));",
        "    Object o = new Widget(1);",
        "    widget.render(2); // Util.render(3)",
        '    String s = "Util.render(4)";',
        "    toString();",
        "  }",
        "}",
      ].join("\n"),
      "b/Util.java":
        "package b;\npublic class Util {\n  public static String render(Object o) {\n  public static String quote(String s) {\n}\n",
      "a/Widget.java": "package a;\nclass Widget {\n  Widget(int n) {}\n}\n",
    };
    const holes = holesOf(
      "Java",
      files,
      `
        App class a/App.java:3
        run method a/App.java:4
        widget local a/App.java:4
        Util class b/Util.java:2
        render method b/Util.java:3
        quote method b/Util.java:4
        toString method b/Util.java:4
        Widget class a/Widget.java:2
        Widget method a/Widget.java:3
      `,
    );
    expect(holes.map((h) => [h.id, h.name, h.pattern, h.stratum, h.declarations.map((d) => d.text)])).toEqual(
      [
        ["a/App.java:5:10", "Util", "member", "import", ["public class Util {"]],
        ["a/App.java:5:17", "render", "call", "import", ["public static String render(Object o) {"]],
        ["a/App.java:6:10", "Util", "member", "import", ["public class Util {"]],
        ["a/App.java:6:16", "quote", "call", "import", ["public static String quote(String s) {"]],
        // `Debug.render(`: Debug is no corpus type. `widget.`: a local; `widget.render(`: a member of a value.
        // `toString(`: too common.
        ["a/App.java:7:27", "Widget", "new", "package", ["class Widget {", "Widget(int n) {}"]],
      ],
    );
    expect(holes[0]!.imports).toEqual(["b/Util.java"]);
  });

  it("PHP: `new \\Ns\\X(`, `X::`, a function; not a method without `$this->`, nor one after it", () => {
    const files: Record<string, string> = {
      "src/App.php": [
        "<?php",
        "namespace Acme;",
        "use Acme\\Log\\Logger;",
        "$block = new \\Acme\\Node\\Block(1);",
        "$level = Logger::DEBUG;",
        "$text = render_text($block);",
        "$this->handle(2);",
        "handle(3);",
      ].join("\n"),
      "src/Log/Logger.php": "<?php\nnamespace Acme\\Log;\nclass Logger\n{\n    public function handle($r)\n",
      "src/Node/Block.php": "<?php\nnamespace Acme\\Node;\nclass Block\n{\n}\nfunction render_text($b)\n",
    };
    const holes = holesOf(
      "PHP",
      files,
      `
          Logger class src/Log/Logger.php:3
          Block class src/Node/Block.php:3
          render_text function src/Node/Block.php:6
        `,
      [{ name: "handle", kind: "function", file: "src/Log/Logger.php", line: 5, scopeKind: "class" }],
    );
    expect(holes.map((h) => [h.id, h.name, h.pattern, h.stratum])).toEqual([
      ["src/App.php:4:31", "Block", "new", "name"],
      ["src/App.php:5:18", "Logger", "scope", "import"],
      ["src/App.php:6:21", "render_text", "call", "name"],
    ]);
  });

  it("Go: a bare name of the same package, `pkg.X` of the imported package; not a library's `http.Get(`", () => {
    const files: Record<string, string> = {
      "go.mod": "module example.com/m\n",
      "cmd/main.go": [
        "package main",
        'import (\n\t"net/http"\n\t"example.com/m/util"\n)',
        "func main() {",
        "\tutil.Render(Helper(1))",
        "\thttp.Get(Render(2))",
        "\treq.Header.Get()",
        "}",
      ].join("\n"),
      "cmd/helper.go": "package main\nfunc Helper(n int) int {\n",
      "util/util.go": "package util\nfunc Render(n int) string {\nfunc Get() {\n",
    };
    const holes = holesOf(
      "Go",
      files,
      `
        main func cmd/main.go:3
        Helper func cmd/helper.go:2
        Render func util/util.go:2
        Get func util/util.go:3
        Header var util/util.go:3
      `,
    );
    // `Render(2)` bare is another package's; `http.Get(`, `req.Header.`: the library's, a value's.
    expect(holes.map((h) => [h.id, h.name, h.stratum])).toEqual([
      ["cmd/main.go:7:14", "Render", "import"],
      ["cmd/main.go:7:21", "Helper", "package"],
    ]);
  });

  it("Rust: a `::` path from the crate or a corpus type, not from `std::`", () => {
    const files: Record<string, string> = {
      "Cargo.toml": '[package]\nname = "par"\n',
      "src/lib.rs":
        "mod iter;\nfn f() {\n    let a = crate::iter::repeat(1);\n    let b = std::iter::repeat(2);\n    let c = Repeat::new(3).take(4);\n}\n",
      "src/iter.rs": "pub fn repeat(x: i32) -> Repeat {\npub struct Repeat {\n",
    };
    const holes = holesOf(
      "Rust",
      files,
      `
        f function src/lib.rs:2
        iter module src/lib.rs:1
        repeat function src/iter.rs:1
        Repeat struct src/iter.rs:2
      `,
    );
    expect(holes.map((h) => [h.id, h.name, h.pattern, h.stratum])).toEqual([
      ["src/lib.rs:3:33", "repeat", "call", "import"],
      ["src/lib.rs:5:21", "Repeat", "scope", "import"],
    ]);
  });

  it("Ruby: a parameter, block parameter, local or instance variable shadows a method; `Q::X` fits X's scope", () => {
    const files: Record<string, string> = {
      "lib/app.rb": [
        "class App < Base",
        "  def run(lines, opts = {})",
        "    lines.each { |opt, (key, _)| opt.on(key) }",
        "    @table.fetch(1)",
        "    text = format(1)",
        "    text.strip",
        "    Shop::Commands.list(2)",
        "    Slop::Commands.list(3)",
        "    table.render(4)",
        "    helper(5)",
        "  end",
        "end",
      ].join("\n"),
      "lib/other.rb": [
        "class Base",
        "  def lines; end",
        "  def opt; end",
        "  def key; end",
        "  def table; end",
        "  def text; end",
        "  def helper(n); end",
        "end",
      ].join("\n"),
      "lib/slop.rb": "module Slop\n  class Commands\n    def list(n); end\n  end\nend\n",
    };
    const holes = holesOf(
      "Ruby",
      files,
      `
        App class lib/app.rb:1
        run method lib/app.rb:2
        Base class lib/other.rb:1
        lines method lib/other.rb:2
        opt method lib/other.rb:3
        key method lib/other.rb:4
        table method lib/other.rb:5
        text method lib/other.rb:6
        helper method lib/other.rb:7
        Slop module lib/slop.rb:1
        list method lib/slop.rb:3
      `,
      [{ name: "Commands", kind: "class", file: "lib/slop.rb", line: 2, scope: "Slop", scopeKind: "module" }],
    );
    // `lines.`, `opt.`, `key`: parameters; `@table.`: an instance variable; `text.`: a local. `Shop::Commands`
    // is not Slop's `Commands`.
    expect(holes.map((h) => [h.id, h.name, h.pattern])).toEqual([
      ["lib/app.rb:7:25", "list", "call"],
      ["lib/app.rb:8:11", "Slop", "scope"],
      ["lib/app.rb:8:20", "Commands", "member"],
      ["lib/app.rb:8:25", "list", "call"],
      ["lib/app.rb:9:11", "table", "member"],
      ["lib/app.rb:10:12", "helper", "call"],
    ]);
  });

  it("Java: a private method of another file's class is never what a bare name names (JUnit's static import is)", () => {
    const files: Record<string, string> = {
      "a/ATest.java":
        "package a;\nclass ATest {\n  void t() {\n    assertArrayEquals(x, y);\n    helper(1);\n  }\n}\n",
      "a/BTest.java":
        "package a;\nclass BTest {\n  private static void assertArrayEquals(Object a, Object b) {}\n  static void helper(int n) {}\n}\n",
    };
    const holes = holesOf("Java", files, "ATest class a/ATest.java:2\nBTest class a/BTest.java:2", [
      { name: "assertArrayEquals", kind: "method", file: "a/BTest.java", line: 3, access: "private" },
      { name: "helper", kind: "method", file: "a/BTest.java", line: 4, access: "default" },
    ]);
    expect(holes.map((h) => [h.id, h.name])).toEqual([["a/ATest.java:5:12", "helper"]]);
  });

  it("drops a name defined in several files, and one whose declaration line the current file holds", () => {
    const files: Record<string, string> = {
      "main.py": "from util import helper, twice\nhelper(1)\ntwice(2)\n# def twice(x):\n",
      "util.py": "def helper(x):\n    pass\ndef twice(x):\n    pass\n",
      "other.py": "def helper(x):\n    pass\n",
    };
    const holes = holesOf(
      "Python",
      files,
      `
        helper function util.py:1
        twice function util.py:3
        helper function other.py:1
      `,
    );
    expect(holes).toEqual([]);
  });

  it("reads ctags' JSON output, skipping pseudo-tags and unparsable lines", () => {
    const output = [
      '{"_type": "ptag", "name": "JSON_OUTPUT_VERSION", "path": "0.0", "pattern": "in development"}',
      '{"_type": "tag", "name": "f", "path": "./src/a.c", "language": "C", "line": 2, "kind": "function", "end": 4}',
      "ctags: Warning: something",
      '{"_type": "tag", "name": "x", "path": "src/a.c", "line": 3, "kind": "local"}',
    ].join("\n");
    expect(parseTags(output)).toEqual([
      { name: "f", file: "src/a.c", line: 2, kind: "function", end: 4, language: "C" },
      { name: "x", file: "src/a.c", line: 3, kind: "local" },
    ]);
  });
});
