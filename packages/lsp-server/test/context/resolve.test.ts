import { describe, expect, it } from "vitest";
import { findDeclarations } from "../../src/context/declarations/find-declarations.js";
import { go, lua, python, rust, typescript } from "../../src/context/lang/index.js";
import type { LanguageSupport, ModuleHost, Reference, ResolveEnv } from "../../src/context/types.js";
import { code, VirtualHost } from "./helpers.js";

/** What findDeclarations finds for a file's references: `path:name` per declaration. */
async function found(
  support: LanguageSupport,
  files: Record<string, string>,
  from: string,
  references: Reference[],
  env: ResolveEnv = { root: "/w" },
  host = new VirtualHost(files),
): Promise<string[]> {
  const results = await findDeclarations(support, host.parse(from), references, host, env);
  return results.map((r) => `${r.path}:${r.declaration.name}`);
}

const ref = (name: string, member?: string, distance = 0): Reference =>
  member === undefined ? { name, distance } : { name, member, distance };

describe("findDeclarations: TypeScript", () => {
  const files = {
    "/w/src/app.ts": code`
      import { Button, Input as Field } from "./ui/index.js";
      import * as ui from "./ui/index.js";
      import Config, { load } from "./config";
      import { api } from "@/lib/api";
      import { Shape } from "./shapes.js";
      import { local } from "./app.js";`,
    "/w/src/ui/index.ts": 'export * from "./button.js";\nexport * from "./widgets/index.js";\n',
    "/w/src/ui/button.ts": code`
      /** A button. */
      export class Button {
        static create(label: string): Button {
          return new Button(label);
        }
        constructor(readonly label: string) {}
      }`,
    "/w/src/ui/widgets/index.ts": 'export { TextInput as Input } from "./input.js";\n',
    "/w/src/ui/widgets/input.ts": "export function TextInput(props: { value: string }) {}\n",
    "/w/src/config.ts": code`
      export interface Options { debug: boolean }
      export default class Config {}
      export function load(): Config { return new Config(); }`,
    "/w/src/lib/api.ts": "export const api = { get(url: string) {} };\n",
    "/w/src/shapes.ts": code`
      export enum Shape {
        Circle,
        Square,
      }`,
  };
  const env = { root: "/w", tsconfig: { dir: "/w", paths: { "@/*": ["src/*"] } } };

  it.each([
    {
      name: "a named import through a barrel of `export *` (.js specifiers naming .ts)",
      refs: [ref("Button")],
      want: ["/w/src/ui/button.ts:Button"],
    },
    {
      name: "a renamed re-export two barrels down",
      refs: [ref("Field")],
      want: ["/w/src/ui/widgets/input.ts:TextInput"],
    },
    {
      name: "a namespace import's member",
      refs: [ref("ui", "Button")],
      want: ["/w/src/ui/button.ts:Button"],
    },
    { name: "a default import", refs: [ref("Config")], want: ["/w/src/config.ts:Config"] },
    { name: "a named import next to a default one", refs: [ref("load")], want: ["/w/src/config.ts:load"] },
    { name: "a tsconfig paths alias", refs: [ref("api", "get")], want: ["/w/src/lib/api.ts:api"] },
    {
      name: "an enum with its member (shown in the enum)",
      refs: [ref("Shape", "Circle")],
      want: ["/w/src/shapes.ts:Shape"],
    },
    { name: "a name that is not imported", refs: [ref("Other"), ref("console", "log")], want: [] },
    { name: "the file itself", refs: [ref("local")], want: [] },
    {
      name: "several references, in order, each declaration once",
      refs: [ref("load"), ref("Button"), ref("ui", "Button"), ref("Config")],
      want: ["/w/src/config.ts:load", "/w/src/ui/button.ts:Button", "/w/src/config.ts:Config"],
    },
  ])("$name", async ({ refs, want }) => {
    expect(await found(typescript, files, "/w/src/app.ts", refs, env)).toEqual(want);
  });

  it("gives a member on its own when the container's snippet does not show it, before the container", async () => {
    const big = Array.from({ length: 50 }, (_, i) => `  m${i}(): void {\n    a();\n    b();\n  }`).join("\n");
    const tree = {
      "/w/a.ts": 'import { Big } from "./big";\n',
      "/w/big.ts": `export class Big {\n${big}\n}\n`,
    };
    expect(await found(typescript, tree, "/w/a.ts", [ref("Big", "m49")])).toEqual([
      "/w/big.ts:m49",
      "/w/big.ts:Big",
    ]);
    expect(await found(typescript, tree, "/w/a.ts", [ref("Big", "m1")])).toEqual(["/w/big.ts:Big"]);
  });

  it("follows a default export of an imported name, and `export { x as default }`", async () => {
    const tree = {
      "/w/a.ts": 'import A from "./b";\nimport B from "./c";\n',
      "/w/b.ts": 'import Impl from "./impl";\nexport default Impl;\n',
      "/w/c.ts": "function real() {}\nexport { real as default };\n",
      "/w/impl.ts": "export default function impl() {}\n",
    };
    expect(await found(typescript, tree, "/w/a.ts", [ref("A"), ref("B")])).toEqual([
      "/w/impl.ts:impl",
      "/w/c.ts:real",
    ]);
  });

  it("follows `export * as ns`, `export { default } from` and CommonJS exports", async () => {
    const tree = {
      "/w/a.js": code`
        import { shapes, Main } from "./index.js";
        const util = require("./util.cjs");`,
      "/w/index.js": 'export * as shapes from "./shapes.js";\nexport { default as Main } from "./main.js";\n',
      "/w/shapes.js": "export function circle(r) {}\n",
      "/w/main.js": "export default class App {}\n",
      "/w/util.cjs":
        "function helper() {}\nexports.format = function (x) {};\nmodule.exports.helper = helper;\n",
    };
    expect(
      await found(typescript, tree, "/w/a.js", [ref("shapes", "circle"), ref("Main"), ref("util", "format")]),
    ).toEqual(["/w/shapes.js:circle", "/w/main.js:App", "/w/util.cjs:format"]);
  });

  it("survives re-export cycles and bounds hops and files", async () => {
    const cycle = {
      "/w/a.ts": 'import { X, Y } from "./b";\n',
      "/w/b.ts": 'export * from "./c";\n',
      "/w/c.ts": 'export * from "./b";\nexport * from "./d";\n',
      "/w/d.ts": "export const X = 1;\n",
    };
    expect(await found(typescript, cycle, "/w/a.ts", [ref("X"), ref("Y")])).toEqual(["/w/d.ts:X"]);
    const chain: Record<string, string> = { "/w/a.ts": 'import { X } from "./m0";\n' };
    for (let i = 0; i < 10; i++) chain[`/w/m${i}.ts`] = `export * from "./m${i + 1}";\n`;
    chain["/w/m10.ts"] = "export const X = 1;\n";
    const host = new VirtualHost(chain);
    const deep = await findDeclarations(typescript, host.parse("/w/a.ts"), [ref("X")], host, { root: "/w" });
    expect(deep).toEqual([]);
    const reads = new Set(host.reads.filter((r) => r in chain));
    expect(reads.size).toBeLessThanOrEqual(5);
    const limited = new VirtualHost(chain);
    const far = await findDeclarations(
      typescript,
      limited.parse("/w/a.ts"),
      [ref("X")],
      limited,
      { root: "/w" },
      {
        maxHops: 20,
        maxFiles: 3,
      },
    );
    expect(far).toEqual([]);
    expect(new Set(limited.reads.filter((r) => r in chain)).size).toBe(3);
    const open = new VirtualHost(chain);
    const all = await findDeclarations(
      typescript,
      open.parse("/w/a.ts"),
      [ref("X")],
      open,
      { root: "/w" },
      {
        maxHops: 20,
      },
    );
    expect(all.map((r) => r.path)).toEqual(["/w/m10.ts"]);
  });

  it("skips a host that throws, rejects or has nothing, and never rejects itself", async () => {
    const tree = {
      "/w/a.ts": 'import { A } from "./bad";\nimport { B } from "./missing";\nimport { C } from "./good";\n',
      "/w/good.ts": "export const C = 1;\n",
    };
    const inner = new VirtualHost(tree);
    let calls = 0;
    const host: ModuleHost = {
      module(file) {
        calls++;
        if (file.startsWith("/w/bad"))
          return calls % 2 === 0 ? Promise.reject(new Error("boom")) : Promise.resolve(undefined);
        if (file === "/w/bad.ts") throw new Error("sync boom");
        return inner.module(file);
      },
      list: () => {
        throw new Error("no listing");
      },
    };
    const results = await findDeclarations(
      typescript,
      inner.parse("/w/a.ts"),
      [ref("A"), ref("B"), ref("C")],
      host,
      {
        root: "/w",
      },
    );
    expect(results.map((r) => `${r.path}:${r.declaration.name}`)).toEqual(["/w/good.ts:C"]);
    expect(results[0]!.reference).toEqual(ref("C"));
  });

  it("asks the host for each file once per call and stops at maxResults", async () => {
    const host = new VirtualHost(files);
    const refs = [ref("Button"), ref("ui", "Button"), ref("Field"), ref("load"), ref("Config")];
    const results = await findDeclarations(typescript, host.parse("/w/src/app.ts"), refs, host, env, {
      maxResults: 2,
    });
    expect(results).toHaveLength(2);
    expect(host.reads.length).toBe(new Set(host.reads).size);
  });
});

describe("findDeclarations: Python", () => {
  const files = {
    "/w/app/main.py": code`
      from .models import User
      from . import helpers
      from app.services import Service
      import app.util
      from app.shapes import *`,
    "/w/app/__init__.py": "",
    "/w/app/models.py": code`
      class User:
          """A user."""
          def __init__(self, name):
              self.name = name`,
    "/w/app/helpers.py": "def slugify(text):\n    return text\n",
    "/w/app/services/__init__.py": 'from .core import Service\n__all__ = ["Service"]\n',
    "/w/app/services/core.py": "class Service:\n    pass\n",
    "/w/app/util.py": "def clamp(x, lo, hi):\n    return max(lo, min(x, hi))\n",
    "/w/app/shapes/__init__.py": "from .circle import *\n",
    "/w/app/shapes/circle.py": "def area(r):\n    return 3.14 * r * r\n",
  };
  it.each([
    { name: "a relative import", refs: [ref("User")], want: ["/w/app/models.py:User"] },
    {
      name: "a submodule imported from its package",
      refs: [ref("helpers", "slugify")],
      want: ["/w/app/helpers.py:slugify"],
    },
    {
      name: "a package's __init__ re-export",
      refs: [ref("Service")],
      want: ["/w/app/services/core.py:Service"],
    },
    {
      name: "a dotted module import",
      refs: [{ name: "app", member: "util", chain: ["app", "util", "clamp"], distance: 0 }],
      want: ["/w/app/util.py:clamp"],
    },
    {
      name: "a star import through a package's star re-export",
      refs: [ref("area")],
      want: ["/w/app/shapes/circle.py:area"],
    },
  ])("$name", async ({ refs, want }) => {
    expect(await found(python, files, "/w/app/main.py", refs)).toEqual(want);
  });
});

describe("findDeclarations: Go", () => {
  const files = {
    "/w/srv/server.go": 'package srv\n\nimport "example.com/m/models"\n\nfunc Run() {}\n',
    "/w/srv/handler.go": "package srv\n\n// helper helps.\nfunc helper() int { return 1 }\n",
    "/w/srv/handler_test.go": "package srv\n\nfunc testOnly() {}\n",
    "/w/models/user.go": "package models\n\n// User is a user.\ntype User struct {\n\tName string\n}\n",
    "/w/models/new.go": "package models\n\nfunc NewUser(name string) *User { return &User{Name: name} }\n",
  };
  const env = { root: "/w", goModule: { path: "example.com/m", dir: "/w" } };
  it.each([
    { name: "a name of the same package", refs: [ref("helper")], want: ["/w/srv/handler.go:helper"] },
    { name: "not from a test file", refs: [ref("testOnly")], want: [] },
    {
      name: "a package of the module",
      refs: [ref("models", "NewUser"), ref("models", "User")],
      want: ["/w/models/new.go:NewUser", "/w/models/user.go:User"],
    },
    { name: "a standard package", refs: [ref("fmt", "Println")], want: [] },
  ])("$name", async ({ refs, want }) => {
    expect(await found(go, files, "/w/srv/server.go", refs, env)).toEqual(want);
  });

  it("sees the package's test files from a test file", async () => {
    const tree = { ...files, "/w/srv/server_test.go": "package srv\n\nfunc TestRun() {}\n" };
    expect(await found(go, tree, "/w/srv/server_test.go", [ref("testOnly")], env)).toEqual([
      "/w/srv/handler_test.go:testOnly",
    ]);
  });
});

describe("findDeclarations: Rust", () => {
  const files = {
    "/w/src/main.rs": "mod models;\nmod util;\nuse crate::util::parse;\nuse models::User;\n",
    "/w/src/models.rs": code`
      pub struct User {
          pub name: String,
      }
      impl User {
          pub fn new(name: &str) -> Self {
              Self { name: name.to_string() }
          }
      }`,
    "/w/src/util/mod.rs": "pub fn parse(s: &str) -> u32 { 0 }\n",
  };
  const env = { root: "/w", crateDir: "/w" };
  it.each([
    {
      name: "`mod x;` and a path through it",
      refs: [ref("models", "User")],
      want: ["/w/src/models.rs:User"],
    },
    { name: "`use crate::…` into a mod.rs", refs: [ref("parse")], want: ["/w/src/util/mod.rs:parse"] },
    {
      name: "an impl method (not in the struct's snippet)",
      refs: [ref("User", "new")],
      want: ["/w/src/models.rs:new", "/w/src/models.rs:User"],
    },
  ])("$name", async ({ refs, want }) => {
    expect(await found(rust, files, "/w/src/main.rs", refs, env)).toEqual(want);
  });

  it("follows `pub use` and a `use` of a module", async () => {
    const tree = {
      "/w/src/lib.rs": "pub mod api;\nuse crate::api::handlers;\nuse crate::api::Client;\n",
      "/w/src/api/mod.rs": "mod client;\npub mod handlers;\npub use client::Client;\n",
      "/w/src/api/client.rs": "pub struct Client;\n",
      "/w/src/api/handlers.rs": "pub fn index() {}\n",
    };
    expect(await found(rust, tree, "/w/src/lib.rs", [ref("Client"), ref("handlers", "index")], env)).toEqual([
      "/w/src/api/client.rs:Client",
      "/w/src/api/handlers.rs:index",
    ]);
  });
});

describe("findDeclarations: glob imports", () => {
  it("looks a name up in what Go's dot import and Rust's `use x::*` bring", async () => {
    const goFiles = {
      "/w/main.go": 'package main\n\nimport . "example.com/m/util"\n',
      "/w/util/u.go": "package util\n\nfunc Clamp(x int) int { return x }\n",
    };
    const goEnv = { root: "/w", goModule: { path: "example.com/m", dir: "/w" } };
    expect(await found(go, goFiles, "/w/main.go", [ref("Clamp")], goEnv)).toEqual(["/w/util/u.go:Clamp"]);
    const rustFiles = {
      "/w/src/lib.rs": "mod prelude;\nuse crate::prelude::*;\n",
      "/w/src/prelude.rs": "pub fn tidy() {}\n",
    };
    expect(
      await found(rust, rustFiles, "/w/src/lib.rs", [ref("tidy")], { root: "/w", crateDir: "/w" }),
    ).toEqual(["/w/src/prelude.rs:tidy"]);
  });
});

describe("findDeclarations: Lua", () => {
  it("finds a field of a required module table", async () => {
    const files = {
      "/w/init.lua": 'local util = require("app.util")\nlocal trim = require("app.util").trim\n',
      "/w/lua/app/util.lua": code`
        local M = {}
        ---Trims.
        function M.trim(s)
          return s
        end
        local function pad(s) return s end
        M.pad = pad
        return M`,
    };
    expect(
      await found(lua, files, "/w/init.lua", [ref("util", "trim"), ref("trim"), ref("util", "pad")]),
    ).toEqual(["/w/lua/app/util.lua:trim", "/w/lua/app/util.lua:pad"]);
  });
});
