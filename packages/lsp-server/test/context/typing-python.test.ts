// Python's typing rule table, row by row, then the member outline of a receiver's type across modules (issue 24).
import { describe, expect, it } from "vitest";
import { parseType, printType } from "../../src/context/typing/type-expr.js";
import { code } from "./helpers.js";
import { bindingRow, HERE, outlinesAt, rules, scope } from "./typing-helpers.js";

const py = rules("python");

describe("Python: how a name is bound above the cursor", () => {
  it.each([
    { text: "console = Console(width=80)\nconsole.│", name: "console", want: "value Console(width=80)" },
    { text: "table: Table = make()\n│", name: "table", want: "type Table" },
    {
      text: "def render(self, console: 'Console', width: int = 3) -> None:\n    console.│",
      name: "console",
      want: "type 'Console'",
    },
    {
      text: "def f(*, options: Optional[Options] = None):\n    options.│",
      name: "options",
      want: "type Optional[Options]",
    },
    { text: "with open_live(x) as live:\n    live.│", name: "live", want: "value open_live(x)" },
    { text: "for row in table.rows:\n    row.│", name: "row", want: "value table.rows inner" },
    // A keyword argument of a call written over several lines is no binding.
    { text: "x = Console()\nrender(\n    x=other,\n)\nx.│", name: "x", want: "value Console()" },
    { text: "if x == y:\n    x.│", name: "x", want: undefined },
  ])("$name in $text", ({ text, name, want }) => {
    expect(bindingRow(py.binding(scope(py, text), name))).toBe(want);
  });
});

describe("Python: the rest of the table", () => {
  it("reads self as the class around the method", () => {
    const text =
      "class Live(Renderable):\n    def __init__(self):\n        pass\n\n    def refresh(self):\n        if x:\n            self.│";
    expect(py.selfType(scope(py, text))).toBe("Live");
    expect(py.selfType(scope(py, "def f(self):\n    self.│"))).toBeUndefined();
  });

  it.each([
    { lines: "    width: int = 80", name: "width", want: "type int" },
    { lines: "    style = Style(bold=True)", name: "style", want: "value Style(bold=True)" },
    {
      lines: "    @property\n    def size(self) -> ConsoleDimensions:\n        return x",
      name: "size",
      want: "type ConsoleDimensions",
    },
  ])("declared: $lines", ({ lines, name, want }) => {
    expect(bindingRow(py.declared(scope(py, lines), name))).toBe(want);
  });

  it.each([
    { lines: 'def get_console() -> "Console":', name: "get_console", want: '"Console"' },
    {
      lines: "    async def fetch(\n        self, url: str\n    ) -> Optional[Response]:",
      name: "fetch",
      want: "Optional[Response]",
    },
    { lines: "def plain(x):", name: "plain", want: undefined },
  ])("returns: $lines", ({ lines, name, want }) => {
    expect(py.returns(scope(py, lines), name)).toBe(want);
  });

  it.each([
    {
      body: "class A:\n    def __init__(self, console: Console):\n        self.console = console\n",
      name: "console",
      want: "value console",
    },
    {
      body: "class A:\n    def __init__(self):\n        self._live: Live | None = None\n",
      name: "_live",
      want: "type Live | None",
    },
    {
      body: "class A:\n    def f(self):\n        if self.x == 1:\n            pass\n",
      name: "x",
      want: undefined,
    },
  ])("assigned: $name", ({ body, name, want }) => {
    expect(bindingRow(py.assigned!(scope(py, body), name))).toBe(want);
  });

  it.each([
    {
      lines: "class Panel(JupyterMixin, Generic[T], metaclass=ABCMeta):",
      name: "Panel",
      want: ["JupyterMixin"],
    },
    { lines: "class Plain:", name: "Plain", want: [] },
    { lines: "class Error(errors.Base, object):", name: "Error", want: ["errors.Base"] },
  ])("bases: $lines", ({ lines, name, want }) => {
    expect(py.bases(scope(py, lines), name)).toEqual(want);
  });

  it.each([
    { type: "Optional[Console]", accessed: "Console" },
    { type: "Console | None", accessed: "Console" },
    { type: "Union[None, Console]", accessed: "Console" },
    { type: "'Console'", accessed: "Console" },
    { type: "Type[Console]", accessed: "Console" },
    { type: "int | str", accessed: "none" },
  ])("member access on $type", ({ type, accessed }) => {
    const t = py.accessed(parseType(type, py.types));
    expect(t ? printType(t) : "none").toBe(accessed);
  });

  it("awaits a coroutine and reads elements", () => {
    const show = (t: ReturnType<typeof py.awaited>) => (t ? printType(t) : "none");
    expect(show(py.awaited(parseType("Coroutine[Any, Any, Page]", py.types)))).toBe("Page");
    expect(show(py.element(parseType("List[Row]", py.types)))).toBe("Row");
    expect(show(py.element(parseType("Row", py.types)))).toBe("none");
  });
});

const CONSOLE = code`
  from typing import Optional
  from .style import Style


  class Console(Base):
      """A terminal."""

      width: int = 80

      def __init__(self, width: int = 80) -> None:
          self.width = width
          self._style = Style()

      def print(self, *objects: object, sep: str = " ") -> None:
          """Print objects."""
          pass

      @property
      def size(self) -> "ConsoleDimensions":
          return ConsoleDimensions(1, 2)

      def __repr__(self) -> str:
          return "Console"


  def get_console() -> Console:
      return Console()
`;

const BASE = code`
  class Base:
      def log(self, message: str) -> None:
          pass
`;

describe("Python: the member outline of a receiver's type", () => {
  const files = (app: string) => ({
    "/w/rich/console.py": CONSOLE,
    "/w/rich/base.py": "",
    "/w/rich/__init__.py": "",
    "/w/rich/app.py": app,
  });

  it("types a local from a function's return annotation, keeps @property, leaves dunders out", async () => {
    const out = await outlinesAt(
      "python",
      files(`from .console import get_console\n\nconsole = get_console()\nconsole.${HERE}`),
      "/w/rich/app.py",
    );
    expect(out).toEqual([
      "/w/rich/console.py:\n" +
        "class Console(Base):\n" +
        "    width: int = 80\n" +
        '    def print(self, *objects: object, sep: str = " ") -> None: ...\n' +
        "    @property\n" +
        '    def size(self) -> "ConsoleDimensions": ...',
    ]);
  });

  it.each([
    { name: "a class called", app: `from .console import Console\nc = Console()\nc.${HERE}` },
    {
      name: "an annotated parameter",
      app: `from .console import Console\ndef f(c: Optional[Console]):\n    c.${HERE}`,
    },
    { name: "a module's class", app: `from . import console\nc = console.Console()\nc.${HERE}` },
    {
      name: "self.f from __init__",
      app: `from .console import Console\nclass App:\n    def __init__(self, console: Console):\n        self.console = console\n\n    def run(self):\n        self.console.${HERE}`,
    },
  ])("types $name", async ({ app }) => {
    const [own] = await outlinesAt("python", files(app), "/w/rich/app.py");
    expect(own).toContain("def print(self, *objects: object");
  });

  it("outlines a base class declared in another module for self", async () => {
    const out = await outlinesAt(
      "python",
      {
        "/w/pkg/base.py": BASE,
        "/w/pkg/__init__.py": "",
        "/w/pkg/app.py": `from .base import Base\n\nclass App(Base):\n    def run(self):\n        self.${HERE}`,
      },
      "/w/pkg/app.py",
    );
    expect(out).toEqual(["/w/pkg/base.py:\nclass Base:\n    def log(self, message: str) -> None: ..."]);
  });
});
