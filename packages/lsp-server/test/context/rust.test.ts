import { describe, expect, it } from "vitest";
import { findDeclarations } from "../../src/context/declarations/find-declarations.js";
import { parseRust, rust } from "../../src/context/lang/rust.js";
import { code, declaration, importRows, referenceRows, summary, VirtualHost } from "./helpers.js";

describe("rust imports", () => {
  it.each([
    { text: "mod models;", want: [["self::models", "models=*"]] },
    { text: "pub mod util;", want: [["self::util", "util=*"]] },
    { text: "use crate::a::b::C;", want: [["crate::a::b", "C=C"]] },
    {
      text: "use crate::a::b::{C, d as e, f::{g}, self};",
      want: [
        ["crate::a::b", "C=C", "e=d", "b=*"],
        ["crate::a::b::f", "g=g"],
      ],
    },
    { text: "use super::Thing;", want: [["super", "Thing=Thing"]] },
    { text: "use self::inner::*;", want: [["self::inner", "*=*"]] },
    { text: "use ::std::io::{self as sio, Read};", want: [["std::io", "sio=*", "Read=Read"]] },
    { text: "use serde;\nuse a::b as _;", want: [] },
    { text: "mod inline { fn f() {} }", want: [] },
    { text: '// use crate::no;\nconst S: &str = "use crate::no;";', want: [] },
    // An inner attribute ends no statement: the `use` after it is read.
    {
      text: '#![cfg_attr(not(feature = "help"), allow(unused))]\n\n// Internal\nuse crate::builder::Command;',
      want: [["crate::builder", "Command=Command"]],
    },
  ])("$text", ({ text, want }) => {
    const { imports } = parseRust(text);
    expect(importRows(imports)).toEqual(want);
  });

  it("re-exports what `pub use` names", () => {
    const { outline } = parseRust(
      "pub use self::models::*;\npub use crate::x::{A as B, C};\nuse crate::y::D;",
    );
    expect(outline.reexports).toEqual([
      { specifier: "self::models", names: "*" },
      { specifier: "crate::x", names: [{ exported: "B", imported: "A" }] },
      { specifier: "crate::x", names: [{ exported: "C", imported: "C" }] },
    ]);
  });
});

const FILE = code`
  //! Crate doc.
  #![allow(dead_code)]
  use std::fmt;

  /// A user.
  #[derive(Debug, Clone)]
  pub struct User {
      pub name: String,
      age: u32,
  }

  impl User {
      /// Makes one.
      pub fn new(name: &str) -> Self {
          Self { name: name.to_string(), age: 0 }
      }
      fn secret(&self) -> &'static str { "}" }
  }

  impl fmt::Display for User {
      fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result { write!(f, "{}", self.name) }
  }

  pub enum Kind { A, B(u8), C { x: i32 } }

  pub trait Greet {
      fn greet(&self) -> String;
  }

  pub const MAX: usize = 10;
  static mut COUNT: u32 = 0;
  pub(crate) async fn run<'a>(x: &'a str) -> Result<(), Error> where T: Clone {
      let c = '{';
      let s = r#"raw "string" {"#;
      let a = 1;
      let b = 2;
      let d = 3;
      let e = 4;
      Ok(())
  }
  pub mod nested {
      pub fn inner() {}
  }
  macro_rules! hello { () => {}; }`;

describe("rust outline", () => {
  it("finds items, fields, variants, trait and impl methods", () => {
    expect(summary(parseRust(FILE).outline.declarations)).toEqual([
      "struct User 4-9@6 +",
      "  field name 7-7@7 +",
      "  field age 8-8@8",
      "  method new 12-15@13 +",
      "  method secret 16-16@16",
      "  method fmt 20-20@20",
      "enum Kind 23-23@23 +",
      "  field A 23-23@23 +",
      "  field B 23-23@23 +",
      "  field C 23-23@23 +",
      "trait Greet 25-27@25 +",
      "  method greet 26-26@26 +",
      "variable MAX 29-29@29 +",
      "variable COUNT 30-30@30",
      "function run 31-39@31 +",
      "module nested 40-42@40 +",
      "  function inner 41-41@41 +",
      "function hello 43-43@43",
    ]);
  });

  it("keeps doc comments and attributes, and elides a long body", () => {
    const { declarations } = parseRust(FILE).outline;
    expect(declaration(declarations, "User").snippet).toBe(code`
      /// A user.
      #[derive(Debug, Clone)]
      pub struct User {
          pub name: String,
          age: u32,
      }`);
    expect(declaration(declarations, "run").snippet).toBe(code`
      pub(crate) async fn run<'a>(x: &'a str) -> Result<(), Error> where T: Clone {
          …
      }`);
  });
});

describe("rust references", () => {
  it.each([
    { lines: ["let u = models::User::new("], want: ["models.User.new@0", "u@0"] },
    {
      name: "paths from the crate, the parent module and a macro's crate (a chain of up to six)",
      lines: [
        "crate::output::textwrap::wrap::LineWrapper::new(",
        "super::Value::bool(",
        "$crate::Action::Set",
      ],
      want: ["$crate.Action.Set@0", "super.Value.bool@1", "crate.output.textwrap.wrap.LineWrapper.new@2"],
    },
    { lines: ["User::new(", ""], want: ["User.new@1"] },
    { lines: ["self.name.len() + helper(x)"], want: ["x@0", "helper@0"] },
    { lines: ["for i in 0..n { v.push(i) }"], want: ["i@0", "v.push@0", "n@0"] },
  ])("$lines", ({ lines, want }) => {
    expect(referenceRows(rust.references(lines))).toEqual(want);
  });
});

describe("rust candidates", () => {
  const env = { root: "/w", crateDir: "/w" };
  it.each([
    {
      specifier: "crate::models",
      from: "/w/src/main.rs",
      want: ["/w/src/models.rs", "/w/src/models/mod.rs"],
    },
    { specifier: "crate", from: "/w/src/a/b.rs", want: ["/w/src/lib.rs", "/w/src/main.rs"] },
    { specifier: "self::x", from: "/w/src/lib.rs", want: ["/w/src/x.rs", "/w/src/x/mod.rs"] },
    { specifier: "self::x", from: "/w/src/a.rs", want: ["/w/src/a/x.rs", "/w/src/a/x/mod.rs"] },
    { specifier: "self::x", from: "/w/src/a/mod.rs", want: ["/w/src/a/x.rs", "/w/src/a/x/mod.rs"] },
    { specifier: "super", from: "/w/src/a/b.rs", want: ["/w/src/a.rs", "/w/src/a/mod.rs"] },
    { specifier: "super", from: "/w/src/a.rs", want: ["/w/src/lib.rs", "/w/src/main.rs"] },
    { specifier: "super::c::D", from: "/w/src/a/b.rs", want: ["/w/src/a/c/D.rs", "/w/src/a/c/D/mod.rs"] },
    { specifier: "inner", from: "/w/src/lib.rs", want: ["/w/src/inner.rs", "/w/src/inner/mod.rs"] },
    { specifier: "crate::x", from: "/w/src/lib.rs", env: { root: "/w" }, want: [] },
  ])("$specifier from $from", ({ specifier, from, want, ...rest }) => {
    expect(rust.candidates(specifier, from, "env" in rest ? rest.env : env)).toEqual(want);
  });
});

describe("rust items after type arguments and `!`, type aliases, paths from the crate (issue 17)", () => {
  it("ends an item at the brace after `>` or `!` (the next item is its own), and gives an alias its type's members", () => {
    const { outline } = parseRust(code`
      pub struct Error<F: Fmt = Plain> {
          inner: Box<Inner>,
      }
      struct Inner {
          kind: u8,
      }
      pub fn exit(code: i32) -> ! {
          std::process::exit(code)
      }
      pub fn eq_ignore_case(a: &str, b: &str) -> bool {
          a == b
      }
      pub type Result<T> = crate::error::Error<T>;`);
    expect(summary(outline.declarations)).toEqual([
      "struct Error 0-2@0 +",
      "  field inner 1-1@1",
      "struct Inner 3-5@3",
      "  field kind 4-4@4",
      "function exit 6-8@6 +",
      "function eq_ignore_case 9-11@9 +",
      "type Result 12-12@12 +",
    ]);
    expect(outline.declarations.at(-1)?.bases).toEqual(["crate::error::Error"]);
  });

  it("resolves `crate::`, `super::` and a macro's `$crate::` paths, a member through a type alias", async () => {
    const files = {
      "/w/src/lib.rs":
        "mod error;\nmod builder;\npub use builder::Action;\npub type Error = crate::error::Error<u8>;\n",
      "/w/src/error.rs":
        "pub struct Error<F> {\n    f: F,\n}\nimpl<F> Error<F> {\n    pub fn invalid_utf8() -> Self { todo!() }\n}\n",
      "/w/src/builder/mod.rs":
        "mod action;\nmod parser;\npub use self::action::Action;\npub use self::parser::Parser;\n",
      "/w/src/builder/action.rs": "pub enum Action {\n    Set,\n}\n",
      "/w/src/builder/parser.rs":
        "pub struct Parser;\nimpl Parser {\n    pub fn bool() -> Self { Parser }\n}\n",
      "/w/src/macros.rs": "",
    };
    const host = new VirtualHost(files);
    const env = { root: "/w", crateDir: "/w" };
    const found = async (from: string, chain: string[]) =>
      (
        await findDeclarations(
          rust,
          host.parse(from),
          [{ name: chain[0]!, member: chain[1]!, chain, distance: 0 }],
          host,
          env,
        )
      ).map((f) => `${f.path}:${f.declaration.name}`);
    expect(await found("/w/src/builder/action.rs", ["super", "Parser", "bool"])).toEqual([
      "/w/src/builder/parser.rs:bool",
      "/w/src/builder/parser.rs:Parser",
    ]);
    expect(await found("/w/src/macros.rs", ["$crate", "Action", "Set"])).toContain(
      "/w/src/builder/action.rs:Action",
    );
    expect(await found("/w/src/builder/parser.rs", ["crate", "Error", "invalid_utf8"])).toEqual([
      "/w/src/lib.rs:Error",
      "/w/src/error.rs:invalid_utf8",
    ]);
  });
});
