import { describe, expect, it } from "vitest";
import { parseTypeScript, typescript } from "../../src/context/lang/typescript.js";
import { code, declaration, importRows, referenceRows, summary } from "./helpers.js";

describe("typescript imports", () => {
  it.each([
    { text: 'import X from "./x";', want: [["./x", "X=default"]] },
    {
      text: 'import { a as b, type C, "d-e" as f } from "./m.js";',
      want: [["./m.js", "b=a", "C=C", "f=d-e"]],
    },
    { text: 'import * as ns from "../ns";', want: [["../ns", "ns=*"]] },
    { text: 'import X, { a } from "x";', want: [["x", "X=default", "a=a"]] },
    { text: 'import X, * as all from "x";', want: [["x", "X=default", "all=*"]] },
    { text: 'import type { T } from "./t";', want: [["./t", "T=T"]] },
    { text: 'import type Def from "./t";', want: [["./t", "Def=default"]] },
    { text: 'import "./side-effect.css";', want: [["./side-effect.css"]] },
    { text: 'import { default as D } from "./d";', want: [["./d", "D=default"]] },
    { text: 'import x = require("./cjs");', want: [["./cjs", "x=*"]] },
    { text: "import A = B.C;", want: [] },
    { text: 'const fs = require("node:fs");', want: [["node:fs", "fs=*"]] },
    { text: 'const { a, b: c, ...rest } = require("./r");', want: [["./r", "a=a", "c=b", "rest=rest"]] },
    { text: 'const f = require("./r").field;', want: [["./r", "f=field"]] },
    { text: 'let m = await import("./lazy.js");', want: [["./lazy.js", "m=*"]] },
    { text: 'const { x } = await import("./lazy.js");', want: [["./lazy.js", "x=x"]] },
    { text: 'import("./then.js").then((m) => m.go());', want: [["./then.js"]] },
    { text: 'function f() { return require("./inner"); }', want: [["./inner"]] },
    {
      text: 'import json from "./data.json" with { type: "json" };',
      want: [["./data.json", "json=default"]],
    },
    { text: 'const m = import.meta; obj.require("no");', want: [] },
    // Imports in strings and comments are not imports.
    { text: '// import a from "./no";\nconst s = "require(\'./no\')";', want: [] },
    {
      text: code`
        import {
          one,
          two as deux, // a comment
          type three,
        } from "./multi";`,
      want: [["./multi", "one=one", "deux=two", "three=three"]],
    },
  ])("$text", ({ text, want }) => {
    const { imports } = parseTypeScript(text);
    expect(importRows(imports)).toEqual(want);
  });

  it("reads a file with a byte order mark, a shebang and CRLF line ends", () => {
    const { imports, outline } = parseTypeScript(
      '\ufeff#!/usr/bin/env node\r\nimport { a } from "./a";\r\nexport function main() {}\r\n',
    );
    expect(importRows(imports)).toEqual([["./a", "a=a"]]);
    expect(summary(outline.declarations)).toEqual(["function main 2-2@2 +"]);
    expect(outline.declarations[0]!.snippet).toBe("export function main() {}");
  });

  it("gives each import its starting line", () => {
    const { imports } = parseTypeScript(code`
      import a from "./a";

      import {
        b,
      } from "./b";
      const c = require("./c");`);
    expect(imports.map((i) => i.line)).toEqual([0, 2, 5]);
  });
});

const EXPORTS = code`
  const a = 1;
  function b() {}
  export { a as alpha, b };
  export default b;
  export * from "./all";
  export * as ns from "./ns";
  export { x as y, default as z } from "./w";
  export type { T } from "./t";`;

describe("typescript outline", () => {
  it.each([
    {
      name: "functions, classes and interfaces",
      text: code`
        /** Adds. */
        export function add(a: number, b: number): number {
          return a + b;
        }
        export async function* gen() {}
        class Local {}
        export interface Shape {
          area(): number;
          readonly name?: string;
        }`,
      want: [
        "function add 0-3@1 +",
        "function gen 4-4@4 +",
        "class Local 5-5@5",
        "interface Shape 6-9@6 +",
        "  method area 7-7@7 +",
        "  field name 8-8@8 +",
      ],
    },
    {
      name: "types, enums, variables",
      text: code`
        export type Id = string | number;
        export const enum Color { Red, Green = "g" }
        export const f = (x: number): string => String(x);
        export const g = async <T,>(x: T) => x;
        export let count = 0;
        var { a, b: c } = obj;
        export declare const d: number;`,
      want: [
        "type Id 0-0@0 +",
        "enum Color 1-1@1 +",
        "  field Red 1-1@1 +",
        "  field Green 1-1@1 +",
        "function f 2-2@2 +",
        "function g 3-3@3 +",
        "variable count 4-4@4 +",
        "variable a 5-5@5",
        "variable c 5-5@5",
        "variable d 6-6@6 +",
      ],
    },
    {
      name: "class members, statics, private ones, accessors, decorators",
      text: code`
        @Component({ selector: "x" })
        export class Box<T> extends Base<{ a: 1 }> implements Shape {
          static create(): Box<unknown> { return new Box(); }
          #secret = 1;
          private hidden = 2;
          @Input() label = "";
          get size(): number { return 1; }
          constructor(readonly value: T) { super(); }
          [key: string]: unknown;
        }`,
      want: [
        "class Box 0-9@1 +",
        "  method create 2-2@2 +",
        "  field secret 3-3@3",
        "  field hidden 4-4@4",
        "  field label 5-5@5 +",
        "  method size 6-6@6 +",
        "  method constructor 7-7@7 +",
      ],
    },
    {
      name: "overloads as one function",
      text: code`
        export function parse(x: string): number;
        export function parse(x: number): number;
        export function parse(x: unknown): number {
          return 0;
        }`,
      want: ["function parse 0-4@0 +"],
    },
    {
      name: "export lists, defaults and re-exports",
      text: EXPORTS,
      want: ["variable a 0-0@0 +", "function b 1-1@1 +"],
    },
    {
      name: "namespaces",
      text: code`
        export namespace Geo {
          export function area() {}
          const hidden = 1;
        }
        declare module "pkg" {
          export const x: number;
        }
        declare global {
          interface Window { x: 1 }
        }`,
      want: ["module Geo 0-3@0 +", "  function area 1-1@1 +", "  variable hidden 2-2@2"],
    },
    {
      name: "anonymous defaults",
      text: "export default function () {}\n",
      want: ["function default 0-0@0 +"],
    },
    {
      name: "CommonJS exports",
      text: code`
        function helper() {}
        exports.run = function () {};
        module.exports.stop = () => {};
        module.exports = { helper, go: helper };`,
      want: ["function helper 0-0@0 +", "function run 1-1@1", "function stop 2-2@2"],
    },
    {
      name: "statements without semicolons",
      text: code`
        export const a = 1
        export const b = a
          .toString()
        export type U =
          | "x"
          | "y"
        export function f() {
        }
        f()`,
      want: ["variable a 0-0@0 +", "variable b 1-2@1 +", "type U 3-5@3 +", "function f 6-7@6 +"],
    },
    {
      name: "components whose JSX holds apostrophes, closing tags and URLs",
      text: code`
        export function List({ items }: Props) {
          return (
            <ul>
              {items.map((i) => <li key={i}>Don't {i}</li>)}
              <p>{a}</p>{b && <i/>}
              <a href="https://example.com">it's "here"</a>
            </ul>
          );
        }
        export const Item = () => <li className='x'>{"}"}</li>;
        export default List;`,
      want: ["function List 0-8@0 +", "function Item 9-9@9 +"],
    },
  ])("$name", ({ text, want }) => {
    expect(summary(parseTypeScript(text).outline.declarations)).toEqual(want);
  });

  it("records defaults, local export names and re-exports", () => {
    const { outline } = parseTypeScript(EXPORTS);
    expect(outline.defaultExport).toBe("b");
    expect(outline.localExports).toEqual([
      { exported: "alpha", local: "a" },
      { exported: "b", local: "b" },
    ]);
    expect(outline.reexports).toEqual([
      { specifier: "./all", names: "*" },
      { specifier: "./ns", names: [{ exported: "ns", imported: "*" }] },
      {
        specifier: "./w",
        names: [
          { exported: "y", imported: "x" },
          { exported: "z", imported: "default" },
        ],
      },
      { specifier: "./t", names: [{ exported: "T", imported: "T" }] },
    ]);
  });

  it.each([
    { text: "export default class Foo {}", want: "Foo" },
    { text: "class Foo {}\nexport { Foo as default };", want: "Foo" },
    { text: "export = Foo;", want: "Foo" },
    { text: "module.exports = Foo;", want: "Foo" },
  ])("default export of $text", ({ text, want }) => {
    expect(parseTypeScript(text).outline.defaultExport).toBe(want);
  });

  describe("snippets", () => {
    const { outline } = parseTypeScript(code`
      import x from "./x";

      /**
       * Sums a list.
       * @param values what to sum
       */
      export function sum(values: number[]): number {
        let total = 0;
        for (const v of values) {
          total += v;
        }
        if (total > 100) console.log("big");
        if (total < 0) console.log("negative");
        return total;
      }

      // Short enough to go in whole.
      export function twice(n: number) {
        return n * 2;
      }

      /** A point. */
      export class Point {
        /** Horizontal. */
        x = 0;
        y = 0;
        static origin(): Point {
          return new Point();
        }
        private secret(): void {}
        distance(other: Point): number {
          const dx = this.x - other.x;
          const dy = this.y - other.y;
          return Math.sqrt(dx * dx + dy * dy);
        }
      }

      export const handler = async (req: Request): Promise<Response> => {
        const a = 1;
        const b = 2;
        const c = 3;
        const d = 4;
        const e = 5;
        const f = 6;
        return new Response(String(a + b + c + d + e + f));
      };`);

    it("keeps the doc comment and signature of a long function and elides its body", () => {
      expect(declaration(outline.declarations, "sum").snippet).toBe(code`
        /**
         * Sums a list.
         * @param values what to sum
         */
        export function sum(values: number[]): number {
          …
        }`);
    });

    it("keeps a short function whole, with the comment above it", () => {
      expect(declaration(outline.declarations, "twice").snippet).toBe(code`
        // Short enough to go in whole.
        export function twice(n: number) {
          return n * 2;
        }`);
    });

    it("lists a class's public members with long bodies elided", () => {
      expect(declaration(outline.declarations, "Point").snippet).toBe(code`
        /** A point. */
        export class Point {
          /** Horizontal. */
          x = 0;
          y = 0;
          static origin(): Point {
            return new Point();
          }
          distance(other: Point): number {
            …
          }
        }`);
      expect(declaration(outline.declarations, "distance").snippet).toBe(
        code`
        distance(other: Point): number {
          const dx = this.x - other.x;
          const dy = this.y - other.y;
          return Math.sqrt(dx * dx + dy * dy);
        }`.replace(/^/gm, "  "),
      );
    });

    it("elides an arrow function's body like a function's", () => {
      expect(declaration(outline.declarations, "handler").snippet).toBe(code`
        export const handler = async (req: Request): Promise<Response> => {
          …
        };`);
    });

    it("bounds a snippet to 40 lines and a doc comment to 12", () => {
      const doc = Array.from({ length: 20 }, (_, i) => ` * line ${i}`).join("\n");
      const fields = Array.from({ length: 60 }, (_, i) => `  f${i}: number;`).join("\n");
      const text = `/**\n${doc}\n */\nexport interface Big {\n${fields}\n}\n`;
      const snippet = parseTypeScript(text).outline.declarations[0]!.snippet.split("\n");
      expect(snippet).toHaveLength(40);
      expect(snippet.slice(0, 13)).toEqual([
        "/**",
        ...doc.split("\n").slice(0, 10),
        " */",
        "export interface Big {",
      ]);
      expect(snippet.slice(-2)).toEqual(["  …", "}"]);
    });
  });
});

describe("typescript references", () => {
  it.each([
    { lines: ["const a = foo("], want: ["foo@0", "a@0"] },
    { lines: ["ns.Thing."], want: ["ns.Thing@0"] },
    { lines: ["const x: Box<", ""], want: ["Box@1", "x@1"] },
    { lines: ["return new Point("], want: ["Point@0"] },
    { lines: ["a.b.c(d?.e, ...rest)"], want: ["rest@0", "d.e@0", "a.b@0"] },
    {
      // biome-ignore lint/suspicious/noTemplateCurlyInString: JavaScript source under test
      lines: ["this.x = helper", "// call(", 'const s = "str(" + `${y}`;', "go("],
      want: ["go@0", "y@1", "s@1", "helper@3"],
    },
    // Inside a template literal's `${…}`, unterminated at the cursor, nested, with a string inside.
    { lines: ["return `got ${util.stringify("], want: ["util.stringify@0"] },
    {
      // biome-ignore lint/suspicious/noTemplateCurlyInString: JavaScript source under test
      lines: ['`a ${x.y} b ${`c ${inner.z("q(")}`} text(`'],
      want: ["inner.z@0", "x.y@0"],
    },
    { lines: ["x(1)", "x(2)", "y."], want: ["y@0", "x@1"] },
    { lines: ["if (typeof value === 'string') return"], want: ["value@0"] },
  ])("$lines", ({ lines, want }) => {
    const refs = typescript.references(lines);
    expect(referenceRows(refs)).toEqual(want);
  });
});

describe("typescript references after a window that starts inside a comment", () => {
  // The window's first lines continue a JSDoc block with a `code span`: without the text before the window, its
  // backtick would open a template literal that hides the code below.
  const lines = [" * EMPTY.subscribe(log);", " * ```", " */", "export const EMPTY = new Observable<"];
  it.each([
    { preceding: "/**\n * The empty observable, for example:\n * ```ts", want: ["Observable@0", "EMPTY@0"] },
    // Read alone, the closing fence's backticks open a template literal that swallows the code below.
    { preceding: "", want: ["log@3", "EMPTY.subscribe@3"] },
  ])("preceded by $preceding", ({ preceding, want }) => {
    expect(referenceRows(typescript.references(lines, preceding))).toEqual(want);
  });
});

describe("typescript candidates", () => {
  const env = { root: "/w" };
  it.each([
    {
      specifier: "./util.js",
      want: ["/w/src/util.ts", "/w/src/util.tsx", "/w/src/util.d.ts", "/w/src/util.js", "/w/src/util.jsx"],
    },
    { specifier: "../lib/x.mjs", want: ["/w/lib/x.mts", "/w/lib/x.d.mts", "/w/lib/x.mjs"] },
    { specifier: "./a.cjs", want: ["/w/src/a.cts", "/w/src/a.d.cts", "/w/src/a.cjs"] },
    { specifier: "./c.tsx", want: ["/w/src/c.tsx"] },
    { specifier: "node:fs", want: [] },
    { specifier: "react", want: [] },
    { specifier: ".hidden", want: [] },
  ])("$specifier from /w/src/app.ts", ({ specifier, want }) => {
    expect(typescript.candidates(specifier, "/w/src/app.ts", env)).toEqual(want);
  });

  it("tries extensions, then index files, for a path without one", () => {
    const got = typescript.candidates("./ui", "/w/src/app.ts", env);
    expect(got.slice(0, 3)).toEqual(["/w/src/ui.ts", "/w/src/ui.tsx", "/w/src/ui.d.ts"]);
    expect(got).toContain("/w/src/ui.mjs");
    expect(got.indexOf("/w/src/ui/index.ts")).toBeGreaterThan(got.indexOf("/w/src/ui.cjs"));
    expect(got.at(-1)).toBe("/w/src/ui/index.cjs");
  });

  it("follows tsconfig paths (longest prefix first) and baseUrl", () => {
    const tsconfig = {
      dir: "/w",
      baseUrl: "/w/src",
      paths: { "@/*": ["./*", "../gen/*"], "@/ui/*": ["components/ui/*"], exact: ["lib/exact.ts"] },
    };
    const from = "/w/src/app.ts";
    expect(typescript.candidates("@/ui/button", from, { root: "/w", tsconfig })[0]).toBe(
      "/w/src/components/ui/button.ts",
    );
    const lib = typescript.candidates("@/lib/api.js", from, { root: "/w", tsconfig });
    expect(lib.slice(0, 2)).toEqual(["/w/src/lib/api.ts", "/w/src/lib/api.tsx"]);
    expect(lib).toContain("/w/gen/lib/api.ts");
    expect(typescript.candidates("exact", from, { root: "/w", tsconfig })[0]).toBe("/w/src/lib/exact.ts");
    expect(typescript.candidates("models/user", from, { root: "/w", tsconfig })[0]).toBe(
      "/w/src/models/user.ts",
    );
    // Without baseUrl, paths are relative to the tsconfig's directory.
    const noBase = { dir: "/w", paths: { "~/*": ["src/*"] } };
    expect(typescript.candidates("~/x", from, { root: "/w", tsconfig: noBase })[0]).toBe("/w/src/x.ts");
    expect(typescript.candidates("react", from, { root: "/w", tsconfig: noBase })).toEqual([]);
  });
});
