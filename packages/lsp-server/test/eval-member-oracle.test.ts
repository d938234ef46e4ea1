// The eval's member-access oracles (issue 24) on small corpora written here: the TypeScript checker's, and the
// ctags one for Python, Go and Rust (tags written out as ctags reports them).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { Tag } from "../eval/ctags.js";
import { isSourceOf, type Language } from "../eval/languages.js";
import { findMemberHoles } from "../eval/member-holes.js";
import { findMemberTagHoles } from "../eval/member-tag-holes.js";

/** A hole as a line: id, member, stratum, m's declarations; then the receiver and what a language server says of its type there. */
const rows = (holes: ReturnType<typeof findMemberHoles>) =>
  holes.map((h) => {
    const r = h.receiverType;
    const type = r?.declarations.map((d) => `${d.file}:${d.line + 1}`).join(",") || "none";
    return `${h.id} ${h.name} ${h.stratum} ${h.declarations.map((d) => `${d.file}:${d.line + 1}`).join(",")} receiver ${r ? `${r.line + 1}:${r.character + 1}-${r.end + 1}` : "?"} type ${type}`;
  });

describe("the TypeScript member oracle", () => {
  const root = mkdtempSync(path.join(tmpdir(), "infill-member-oracle-"));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const files: Record<string, string> = {
    "src/client.ts": "export class MailClient {\n  deliver(to: string): void {}\n  close(): void {}\n}\n",
    "src/factory.ts":
      'import { MailClient } from "./client.js";\nexport function connect(): MailClient {\n  return new MailClient();\n}\n',
    "src/app.ts": [
      'import { connect } from "./factory.js";',
      'import { MailClient } from "./client.js";',
      "export class App {",
      "  client = connect();",
      "  run(other: MailClient) {",
      "    const mail = connect();",
      "    mail.deliver('a');",
      "    other.close();",
      "    this.client.close();",
      "    MailClient.name;",
      "  }",
      "}",
      "",
    ].join("\n"),
  };
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), text);
  }

  it("finds x.m for locals, parameters and fields whose type another file declares; not an imported class's", () => {
    expect(rows(findMemberHoles(root, Object.keys(files).sort()))).toEqual([
      "src/app.ts:7:10 deliver name src/client.ts:2 receiver 7:5-9 type src/client.ts:1",
      "src/app.ts:8:11 close name src/client.ts:3 receiver 8:5-10 type src/client.ts:1",
      "src/app.ts:9:17 close field src/client.ts:3 receiver 9:10-16 type src/client.ts:1",
    ]);
  });
});

/** A tag as ctags reports it, with its scope. */
function tag(name: string, kind: string, at: string, scope?: string, scopeKind?: string): Tag {
  const [file, line] = at.split(":") as [string, string];
  return {
    name,
    kind,
    file,
    line: Number(line),
    ...(scope ? { scope } : {}),
    ...(scopeKind ? { scopeKind } : {}),
  };
}

function holesOf(language: Language, files: Record<string, string>, tags: Tag[]) {
  const sources = Object.keys(files)
    .filter((f) => isSourceOf(language, f))
    .sort();
  return rows(findMemberTagHoles(language, sources, (file) => files[file], tags));
}

describe("the ctags member oracle", () => {
  it("Go: a member one struct declares, on a value; not on a package, nor a standard library's name", () => {
    const files = {
      "reg/registry.go":
        'package reg\n\ntype Registry struct {\n\tcount int\n}\n\nfunc (r *Registry) Register(c int) {}\nfunc (r *Registry) String() string { return "" }\n',
      "main.go":
        'package main\n\nimport "example.com/m/reg"\n\nfunc main() {\n\tr := reg.New()\n\tr.Register(1)\n\tr.String()\n\treg.Register(2)\n}\n',
    };
    expect(
      holesOf("Go", files, [
        tag("Registry", "struct", "reg/registry.go:3", "reg", "package"),
        tag("count", "member", "reg/registry.go:4", "reg.Registry", "struct"),
        tag("Register", "func", "reg/registry.go:7", "reg.Registry", "struct"),
        tag("String", "func", "reg/registry.go:8", "reg.Registry", "struct"),
      ]),
    ).toEqual(["main.go:7:4 Register name reg/registry.go:7 receiver 7:2-3 type reg/registry.go:3"]);
  });

  it("Python: self.m of a base in another module, x.m of a value; not a member two classes declare", () => {
    const files = {
      "pkg/base.py":
        "class Base:\n    def log(self, m):\n        pass\n    def render(self):\n        pass\n",
      "pkg/other.py": "class Other:\n    def render(self):\n        pass\n",
      "pkg/app.py":
        "from .base import Base\n\nclass App(Base):\n    def run(self, x):\n        self.log('a')\n        x.render()\n        self.helper.log('b')\n",
    };
    expect(
      holesOf("Python", files, [
        tag("Base", "class", "pkg/base.py:1"),
        tag("log", "member", "pkg/base.py:2", "Base", "class"),
        tag("render", "member", "pkg/base.py:4", "Base", "class"),
        tag("Other", "class", "pkg/other.py:1"),
        tag("render", "member", "pkg/other.py:2", "Other", "class"),
        tag("App", "class", "pkg/app.py:3"),
        tag("run", "member", "pkg/app.py:4", "App", "class"),
      ]),
    ).toEqual([
      // At `self` a language server answers the enclosing class, in the current file: the oracle says none.
      "pkg/app.py:5:14 log self pkg/base.py:2 receiver 5:9-13 type none",
      "pkg/app.py:7:21 log field pkg/base.py:2 receiver 7:14-20 type pkg/base.py:1",
    ]);
  });

  it("Rust: a method of one type's impl blocks; not a name the standard types have", () => {
    const files = {
      "src/pool.rs":
        "pub struct Pool {}\nimpl Pool {\n    pub fn install(&self) {}\n    pub fn len(&self) -> usize { 0 }\n}\n",
      "src/main.rs": "fn main() {\n    let p = make();\n    p.install();\n    p.len();\n}\n",
    };
    expect(
      holesOf("Rust", files, [
        tag("Pool", "struct", "src/pool.rs:1"),
        tag("install", "method", "src/pool.rs:3", "Pool", "implementation"),
        tag("len", "method", "src/pool.rs:4", "Pool", "implementation"),
      ]),
    ).toEqual(["src/main.rs:3:7 install name src/pool.rs:3 receiver 3:5-6 type src/pool.rs:1"]);
  });
});
