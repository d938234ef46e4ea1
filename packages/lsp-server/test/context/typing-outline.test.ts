// The member outline of a type: header, signatures without bodies, ranked and cut to a budget; and its entry point
// for a type declared at a file's line (what an editor's language server answers).
import { describe, expect, it } from "vitest";
import { supportFor } from "../../src/context/lang/index.js";
import { sourceOf } from "../../src/context/scan/snippet.js";
import type { Family } from "../../src/context/types.js";
import { memberOutlines, type OutlineOptions } from "../../src/context/typing/outline.js";
import { outlineAt } from "../../src/context/typing/type-outlines.js";
import { code, VirtualHost } from "./helpers.js";
import { rules } from "./typing-helpers.js";

const CLIENT = code`
  /** A client. */
  export class Client {
    /** The host. */
    readonly host: string;
    private pending = 0;
    /** Opens it. */
    open(
      url: string,
      options: Options = {},
    ): Promise<void> {
      return Promise.resolve();
    }
    close(): void { this.pending = 0; }
    get state(): State {
      return "open";
    }
  }
`;

/** The outline of the first declaration of `text` (a file of `family`), its private members shown unless `shut`. */
function outline(
  family: Family,
  text: string,
  options: Partial<OutlineOptions> = {},
  shut = false,
): string[] {
  const support = supportFor(family)!;
  const [declaration] = support.parse(text).outline.declarations;
  const lines = sourceOf(declaration!)!;
  return memberOutlines([{ path: "f", declaration: declaration!, lines, private: !shut }], {
    syntax: rules(family).outline,
    maxChars: 10_000,
    ...options,
  }).map((o) => o.text);
}

describe("a type's member outline", () => {
  it("shows the header, each member's signature with its body elided, a one-line member whole", () => {
    expect(outline("typescript", CLIENT)).toEqual([
      "export class Client {\n" +
        "  readonly host: string;\n" +
        "  private pending = 0;\n" +
        "  open(\n" +
        "    url: string,\n" +
        "    options: Options = {},\n" +
        "  ): Promise<void> { … }\n" +
        "  close(): void { this.pending = 0; }\n" +
        "  get state(): State { … }\n" +
        "}",
    ]);
  });

  it("keeps the typed prefix's members first, then those used near the cursor, then visible ones, in file order", () => {
    const head = "export class Client {\n".length + 2;
    const costs = {
      close: "  close(): void { this.pending = 0; }".length + 1,
      state: "  get state(): State { … }".length + 1,
    };
    expect(outline("typescript", CLIENT, { prefix: "st", maxChars: head + costs.state })).toEqual([
      "export class Client {\n  get state(): State { … }\n}",
    ]);
    expect(outline("typescript", CLIENT, { near: new Set(["close"]), maxChars: head + costs.close })).toEqual(
      ["export class Client {\n  close(): void { this.pending = 0; }\n}"],
    );
    // `pending` is private: it goes after every visible member, and is left out where it is not visible.
    expect(outline("typescript", CLIENT, { maxChars: 120 })[0]).not.toContain("private pending");
    expect(outline("typescript", CLIENT, {}, true)[0]).not.toContain("private pending");
    expect(outline("typescript", CLIENT, {})[0]).toContain("private pending");
  });

  it("gives nothing when not even one member fits", () => {
    expect(outline("typescript", CLIENT, { maxChars: 10 })).toEqual([]);
  });

  it("ends a Python signature at its colon, keeping @property", () => {
    const text = code`
      class Table(JupyterMixin):
          """A table."""

          def add_row(
              self, *renderables: RenderableType, style: Optional[StyleType] = None
          ) -> None:
              """Add a row."""
              pass

          @property
          def row_count(self) -> int:
              return len(self.rows)
    `;
    expect(outline("python", text)).toEqual([
      "class Table(JupyterMixin):\n" +
        "    def add_row(\n" +
        "        self, *renderables: RenderableType, style: Optional[StyleType] = None\n" +
        "    ) -> None: ...\n" +
        "    @property\n" +
        "    def row_count(self) -> int: ...",
    ]);
  });

  it("puts Go's methods after the struct, each alone", () => {
    const text = code`
      type Counter struct {
      	val uint64
      }

      func (c *Counter) Inc() {
      	c.val++
      	c.done()
      }

      func (c *Counter) Add(v float64) { c.val += uint64(v) }
    `;
    expect(outline("go", text)).toEqual([
      "type Counter struct {\n\tval uint64\n}\nfunc (c *Counter) Inc() { … }\nfunc (c *Counter) Add(v float64) { c.val += uint64(v) }",
    ]);
  });
});

describe("the outline of the type declared at a file's line", () => {
  const files = {
    "/w/src/base.ts": "export class Base {\n  log(line: string): void {}\n}\n",
    "/w/src/client.ts": `import { Base } from "./base.js";\n${CLIENT.replace("class Client {", "class Client extends Base {")}`,
  };
  const sources = {
    support: supportFor("typescript")!,
    rules: rules("typescript"),
    host: new VirtualHost(files),
    env: async () => ({ root: "/w" }),
  };

  it.each([
    { line: 2, what: "its name's line" },
    { line: 9, what: "a line inside it" },
  ])("finds the type at $what, with its bases'", async ({ line }) => {
    const out = await outlineAt(sources, "/w/src/client.ts", line, { maxChars: 2000 });
    expect(out.map((o) => [o.path, o.members.join(",")])).toEqual([
      ["/w/src/client.ts", "host,open,close,state"],
      ["/w/src/base.ts", "log"],
    ]);
  });

  it("gives nothing where no type is declared, or for a file it may not read", async () => {
    expect(await outlineAt(sources, "/w/src/client.ts", 0, { maxChars: 2000 })).toEqual([]);
    expect(await outlineAt(sources, "/w/src/missing.ts", 3, { maxChars: 2000 })).toEqual([]);
  });
});
