import { describe, expect, it } from "vitest";
import { parsePython, python } from "../../src/context/lang/python.js";
import { code, declaration, importRows, referenceRows, summary } from "./helpers.js";

describe("python imports", () => {
  it.each([
    { text: "import os", want: [["os", "os=*"]] },
    { text: "import a.b.c", want: [["a.b.c", "a.b.c=*"]] },
    {
      text: "import a.b as c, d",
      want: [
        ["a.b", "c=*"],
        ["d", "d=*"],
      ],
    },
    { text: "from . import x", want: [[".", "x=x"]] },
    { text: "from .models import User, Group as G", want: [[".models", "User=User", "G=Group"]] },
    { text: "from ..a.b import *", want: [["..a.b", "*=*"]] },
    {
      text: "from pkg.sub import (\n    one,\n    two as deux,  # why\n)",
      want: [["pkg.sub", "one=one", "deux=two"]],
    },
    { text: "if TYPE_CHECKING:\n    from .types import T", want: [[".types", "T=T"]] },
    { text: "def f():\n    import json\n    return json", want: [["json", "json=*"]] },
    { text: "x = 'import os'  # from a import b", want: [] },
    { text: 's = """\nimport os\n"""', want: [] },
  ])("$text", ({ text, want }) => {
    const { imports } = parsePython(text);
    expect(importRows(imports)).toEqual(want);
  });

  it("re-exports what a star import brings", () => {
    const { outline } = parsePython("from .a import *\nfrom .b import c\n");
    expect(outline.reexports).toEqual([{ specifier: ".a", names: "*" }]);
  });
});

const MODULE = code`
  """Module doc."""
  import os

  # The greeting.
  @decorator
  def greet(name: str,
            loud: bool = False) -> str:
      """Greets someone.

      Long story.
      """
      x = 1
      y = 2
      z = 3
      w = 4
      return f"hi {name}"

  class Config(Base):
      """Settings."""
      debug: bool = False
      def __init__(self, path):
          self.path = path
          self.x = 1
      def _private(self):
          pass
      async def load(self) -> None:
          """Loads."""
          await x()
          return None
      @property
      def a(self): return 1

  MAX = 10
  _hidden = 1
  a, b = 1, 2
  type Alias = list[int]
  if True:
      inner = 1
  else:
      other = 2
  async def fetch(): ...`;

describe("python outline", () => {
  it("finds functions, classes with members, module variables", () => {
    expect(summary(parsePython(MODULE).outline.declarations)).toEqual([
      "function greet 3-15@5 +",
      "class Config 17-30@17 +",
      "  field debug 19-19@19 +",
      "  method __init__ 20-22@20 +",
      "  method _private 23-24@23",
      "  method load 25-28@25 +",
      "  method a 29-30@30 +",
      "variable MAX 32-32@32 +",
      "variable _hidden 33-33@33",
      "variable a 34-34@34 +",
      "variable b 34-34@34 +",
      "type Alias 35-35@35 +",
      // Names a conditional block binds are the module's too.
      "variable inner 37-37@37 +",
      "variable other 39-39@39 +",
      "function fetch 40-40@40 +",
    ]);
  });

  it("declares what conditional blocks define, not what a __main__ block does", () => {
    const text = [
      "try:",
      "    from ujson import dumps",
      "except ImportError:",
      "    def dumps(value, indent=None):",
      '        """Fallback."""',
      "        return str(value)",
      "if sys.version_info >= (3, 11):",
      "    import tomllib as toml",
      "else:",
      "    TOML_OK = False",
      "with suppress(Exception):",
      "    class Cache:",
      "        size = 3",
      'if __name__ == "__main__":',
      "    def main():",
      "        pass",
      "    args = parse()",
      "",
    ].join("\n");
    expect(summary(parsePython(text).outline.declarations)).toEqual([
      "function dumps 3-5@3 +",
      "variable TOML_OK 9-9@9 +",
      "class Cache 11-12@11 +",
      "  field size 12-12@12 +",
    ]);
  });

  it("lets __all__ decide what is exported", () => {
    const { outline } = parsePython(
      '__all__ = ["b", "_c"]\n__all__ += ("d",)\na = 1\nb = 2\n_c = 3\nd = 4\n',
    );
    expect(outline.declarations.map((d) => `${d.name}${d.exported ? "+" : ""}`)).toEqual([
      "a",
      "b+",
      "_c+",
      "d+",
    ]);
  });

  it("keeps a docstring in the snippet of a long function", () => {
    expect(declaration(parsePython(MODULE).outline.declarations, "greet").snippet).toBe(code`
      # The greeting.
      @decorator
      def greet(name: str,
                loud: bool = False) -> str:
          """Greets someone.

          Long story.
          """
          …`);
  });

  it("lists a long class's public methods, bodies elided", () => {
    expect(declaration(parsePython(MODULE).outline.declarations, "Config").snippet).toBe(code`
      class Config(Base):
          """Settings."""
          debug: bool = False
          def __init__(self, path):
              …
          async def load(self) -> None:
              """Loads."""
              …
          @property
          def a(self): return 1`);
  });

  it("outlines a file with tabs, CRLF and a body indented deeper than usual", () => {
    const text = "class A:\r\n\tdef m(self):\r\n\t\t\treturn 1\r\n\r\nB = A\r\n";
    expect(summary(parsePython(text).outline.declarations)).toEqual([
      "class A 0-2@0 +",
      "  method m 1-2@1 +",
      "variable B 4-4@4 +",
    ]);
  });
});

describe("python references", () => {
  it.each([
    { lines: ["import pkg.mod", "pkg.mod.func("], want: ["pkg.mod.func@0", "pkg.mod@1"] },
    { lines: ["x = helpers.parse(", ""], want: ["helpers.parse@1", "x@1"] },
    { lines: ["self.value = Config.load()", "print(f'{name}')"], want: ["Config.load@1"] },
    {
      lines: ["for item in items:", "    total += item.price  # price(x)"],
      want: ["item.price@0", "total@0", "items@1", "item@1"],
    },
  ])("$lines", ({ lines, want }) => {
    expect(referenceRows(python.references(lines))).toEqual(want);
  });
});

describe("python candidates", () => {
  const env = { root: "/w" };
  const from = "/w/src/app/views/home.py";
  it.each([
    {
      specifier: ".models",
      want: [
        "/w/src/app/views/models.py",
        "/w/src/app/views/models/__init__.py",
        "/w/src/app/views/models.pyi",
        "/w/src/app/views/models/__init__.pyi",
      ],
    },
    { specifier: ".", want: ["/w/src/app/views/__init__.py", "/w/src/app/views/__init__.pyi"] },
    {
      specifier: "..core.db",
      want: expect.arrayContaining(["/w/src/app/core/db.py", "/w/src/app/core/db/__init__.py"]),
    },
    {
      specifier: "app.core",
      want: [
        "/w/app/core.py",
        "/w/app/core/__init__.py",
        "/w/app/core.pyi",
        "/w/app/core/__init__.pyi",
        "/w/src/app/core.py",
        "/w/src/app/core/__init__.py",
        "/w/src/app/core.pyi",
        "/w/src/app/core/__init__.pyi",
        "/w/src/app/views/app/core.py",
        "/w/src/app/views/app/core/__init__.py",
        "/w/src/app/views/app/core.pyi",
        "/w/src/app/views/app/core/__init__.pyi",
      ],
    },
    { specifier: "a/b", want: [] },
  ])("$specifier", ({ specifier, want }) => {
    expect(python.candidates(specifier, from, env)).toEqual(want);
  });

  it("names a submodule of a package", () => {
    expect(python.submodule?.(".", "x")).toBe(".x");
    expect(python.submodule?.("..a", "x")).toBe("..a.x");
    expect(python.submodule?.("pkg", "x")).toBe("pkg.x");
  });
});
