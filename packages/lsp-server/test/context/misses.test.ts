// Python and Rust cases that got a wrong block or none (issue 17): each is code shaped like what was seen.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { findDeclarations } from "../../src/context/declarations/find-declarations.js";
import { python, rust } from "../../src/context/lang/index.js";
import { RepositoryContext } from "../../src/context/repository-context.js";
import { Documents } from "../../src/documents/documents.js";
import { defaultSettings } from "../../src/settings/settings.js";
import { code, VirtualHost } from "./helpers.js";

let root: string;
const write = (rel: string, text: string) => {
  const path = join(root, rel);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
  return path;
};
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "infill-misses-"));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

/** Repository context with default settings over the test's workspace folder, and its documents. */
function repository(): { documents: Documents; repo: RepositoryContext } {
  const documents = new Documents();
  const settings = defaultSettings({}).context;
  const log = { error() {}, warn() {}, info() {}, debug() {} };
  const repo = new RepositoryContext({ documents, settings: () => settings, log });
  repo.workspace.set([{ uri: pathToFileURL(root).href, name: "w" }]);
  return { documents, repo };
}

/**
 * The context block's text for a cursor at the end of `cursorLine` (0-based) of a document opened as an editor
 * opens it (its background parse done), the only open document.
 */
async function blockText(rel: string, languageId: string, text: string, cursorLine: number): Promise<string> {
  const path = write(rel, text);
  const { documents, repo } = repository();
  const uri = pathToFileURL(path).href;
  documents.didOpen({ textDocument: { uri, languageId, version: 1, text } });
  repo.didOpen(uri);
  // The document's background parse runs before the next message is read (one `setImmediate`).
  await new Promise((resolve) => setImmediate(resolve));
  const line = text.split("\n")[cursorLine]!;
  const { block } = await repo.block(documents.get(uri)!, { line: cursorLine, character: line.length }, 1024);
  repo.dispose();
  return block.snippets.map((s) => s.text).join("\n");
}

describe("Python", () => {
  it("a builtin name the file imports is a reference (`from rich import print`)", () => {
    const refs = (bound?: Set<string>) =>
      python.references(["    print(Panel("], "", bound).map((r) => r.name);
    expect(refs()).toEqual(["Panel"]);
    expect(refs(new Set(["print"]))).toEqual(["Panel", "print"]);
  });

  it("puts the declaration of a name first used on the cursor line, imported at the top and not used between", async () => {
    write(
      "app/context.py",
      "class RenderContext:\n    def __init__(self, width: int) -> None:\n        self.width = width\n",
    );
    const filler = Array.from({ length: 60 }, (_, i) => `    value_${i} = compute(${i})`).join("\n");
    const text = `from app.context import RenderContext\n\n\ndef render(items):\n${filler}\n    ctx = RenderContext(`;
    expect(await blockText("app/render.py", "python", text, text.split("\n").length - 1)).toContain(
      "class RenderContext:",
    );
  });

  it("chooses again when a whole imported name is typed on the cursor line before its `(` (the block was chosen before)", async () => {
    const names = Array.from({ length: 10 }, (_, i) => `Helper${i}`);
    for (const name of names) write(`app/${name.toLowerCase()}.py`, `class ${name}:\n    pass\n`);
    write("app/context.py", "class RenderContext:\n    pass\n");
    const imports = [
      ...names.map((n) => `from app.${n.toLowerCase()} import ${n}`),
      "from app.context import RenderContext",
    ];
    const filler = Array.from({ length: 45 }, (_, i) => `    step_${i} = ${i}`).join("\n");
    const text = `${imports.join("\n")}\n\n\ndef render(items):\n${filler}\n    `;
    const path = write("app/render.py", text);
    const { documents, repo } = repository();
    const uri = pathToFileURL(path).href;
    documents.didOpen({ textDocument: { uri, languageId: "python", version: 1, text } });
    const line = text.split("\n").length - 1;
    const first = await repo.block(documents.get(uri)!, { line, character: 4 }, 1024);
    expect(first.block.snippets.map((s) => s.text).join("\n")).not.toContain("class RenderContext:");
    const typed = "ctx = RenderContext";
    documents.didChange({
      textDocument: { uri, version: 2 },
      contentChanges: [
        { range: { start: { line, character: 4 }, end: { line, character: 4 } }, text: typed },
      ],
    });
    repo.didChange(uri, { line, character: 0 });
    const second = await repo.block(documents.get(uri)!, { line, character: 4 + typed.length }, 1024);
    repo.dispose();
    expect(second.recomputed).toBe(true);
    expect(second.block.snippets.map((s) => s.text).join("\n")).toContain("class RenderContext:");
  });

  it("finds an import inside an `if __name__` block far above the cursor, past a string that looks like code", async () => {
    write("pkg/syntax.py", "class Syntax:\n    pass\n");
    write("pkg/align.py", "class Align:\n    pass\n");
    const body = Array.from({ length: 80 }, (_, i) => `    line_${i} = ${i}`).join("\n");
    const functions = Array.from({ length: 50 }, (_, i) => `def f${i}(x):\n    return x + ${i}\n`).join("\n");
    const text = code`
      import os

      ${functions}
      def helper():
          """A docstring
      that spans lines."""
          return 1


      if __name__ == "__main__":
          from pkg.align import Align
          from pkg.syntax import Syntax

          snippet = """from elsewhere import Thing
      thing = Thing()"""
      ${body}
          print(Align(Syntax(`;
    const cursor = text.split("\n").length - 1;
    const block = await blockText("pkg/main.py", "python", text, cursor);
    expect(block).toContain("class Align:");
    expect(block).toContain("class Syntax:");
  });
});

describe("Python docstrings", () => {
  it("reads the lines before the cursor from a definition's start, not from inside a long docstring", async () => {
    write("app/loop.py", "def loop_last(values):\n    yield from values\n");
    // More imported names than are looked up ahead of their use: `loop_last` must be found as used.
    const others = Array.from({ length: 10 }, (_, i) => `h${i}`);
    write("app/other.py", others.map((n) => `def ${n}():\n    pass\n`).join(""));
    const doc = Array.from({ length: 200 }, (_, i) => `    Line ${i} of the doc, "quoted".`).join("\n");
    const body = Array.from({ length: 150 }, (_, i) => `    x_${i} = ${i}`).join("\n");
    const text = `from app.other import ${others.join(", ")}\nfrom app.loop import loop_last\n\ndef install():\n    """Install it.\n${doc}\n    """\n${body}\n    for a in loop_last(`;
    const block = await blockText("app/pretty.py", "python", text, text.split("\n").length - 1);
    expect(block).toContain("def loop_last(values):");
  });
});

describe("Rust", () => {
  it("outlines the items of `cfg_if!` and cfg macros: a name defined once per platform is reached through either", async () => {
    const files = {
      "/w/src/lib.rs": "mod sys;\nuse crate::sys::Selector;\n",
      "/w/src/sys/mod.rs": code`
        cfg_if::cfg_if! {
            if #[cfg(unix)] {
                mod unix;
                pub use self::unix::*;
            } else {
                mod windows;
                pub use self::windows::*;
            }
        }
        #[cfg(feature = "os-poll")]
        cfg_os_poll! {
            mod shell;
            pub(crate) use self::shell::Waker;
        }`,
      "/w/src/sys/windows.rs": "pub struct Selector {}\n",
      "/w/src/sys/shell.rs": "pub struct Waker;\n",
    };
    const host = new VirtualHost(files);
    const found = async (name: string) =>
      (
        await findDeclarations(rust, host.parse("/w/src/lib.rs"), [{ name, distance: 0 }], host, {
          root: "/w",
          crateDir: "/w",
        })
      ).map((f) => `${f.path}:${f.declaration.name}`);
    expect(await found("Selector")).toEqual(["/w/src/sys/windows.rs:Selector"]);
    const sys = rust.parse(files["/w/src/sys/mod.rs"]);
    expect(sys.outline.reexports.map((r) => r.specifier)).toEqual([
      "self::unix",
      "self::windows",
      "self::shell",
    ]);
  });

  it("resolves `mod util;` of an integration test, an example or a `src/bin/` binary beside it (each a crate root)", async () => {
    const files = {
      "/w/tests/waker.rs": "mod util;\nuse util::assert_send;\n",
      "/w/tests/util/mod.rs": "pub fn assert_send<T: Send>() {}\n",
      "/w/src/bin/tool.rs": "mod args;\n",
      "/w/src/bin/args.rs": "pub struct Args;\n",
    };
    const host = new VirtualHost(files);
    const env = { root: "/w", crateDir: "/w" };
    const found = async (from: string, name: string) =>
      (await findDeclarations(rust, host.parse(from), [{ name, distance: 0 }], host, env)).map((f) => f.path);
    expect(await found("/w/tests/waker.rs", "assert_send")).toEqual(["/w/tests/util/mod.rs"]);
    expect(await found("/w/src/bin/tool.rs", "args")).toEqual([]);
    const bin = await findDeclarations(
      rust,
      host.parse("/w/src/bin/tool.rs"),
      [{ name: "args", member: "Args", distance: 0 }],
      host,
      env,
    );
    expect(bin.map((f) => `${f.path}:${f.declaration.name}`)).toEqual(["/w/src/bin/args.rs:Args"]);
  });

  it("keeps the name line of an item whose doc comment is interleaved with long attributes", () => {
    const doc = Array.from({ length: 60 }, (_, i) => `/// line ${i}`).join("\n");
    const text = `${doc}\n#[cfg_attr(feature = "x", doc = "a")]\n${doc}\n#[derive(Copy, Clone)]\npub struct Token(pub usize);\n`;
    const token = rust.parse(text).outline.declarations.find((d) => d.name === "Token")!;
    expect(token.snippet).toContain("pub struct Token(pub usize);");
    expect(token.snippet.split("\n").length).toBeLessThanOrEqual(40);
  });

  it("gives a block to a test of the crate (`use mio::…`) and to a crate using another of the workspace by name", async () => {
    write("Cargo.toml", `[workspace]\nmembers = ["crates/*"]\n`);
    write("crates/matcher/Cargo.toml", `[package]\nname = "grep-matcher"\n`);
    write("crates/matcher/src/lib.rs", "/// A match.\npub struct Match { start: usize }\n");
    write(
      "crates/cli/Cargo.toml",
      `[package]\nname = "cli"\n[dependencies]\ngrep-matcher = { path = "../matcher" }\n`,
    );
    write("crates/cli/src/lib.rs", "pub fn run() {}\n");
    const user = "use grep_matcher::Match;\n\nfn first() -> Match";
    expect(await blockText("crates/cli/src/find.rs", "rust", user, 2)).toContain("pub struct Match");
    const test = "use cli::run;\n\nfn main() {\n    run";
    expect(await blockText("crates/cli/tests/it.rs", "rust", test, 3)).toContain("pub fn run()");
  });

  it("resolves `crate::` from a binary whose root is not src/ (`[[bin]] path`)", async () => {
    write("Cargo.toml", `[package]\nname = "rg"\n[[bin]]\nname = "rg"\npath = "crates/core/main.rs"\n`);
    write("crates/core/main.rs", "mod flags;\n");
    write("crates/core/flags/mod.rs", "pub struct HiArgs { pub quiet: bool }\n");
    const text = "use crate::flags::HiArgs;\n\nfn run(args: &HiArgs";
    expect(await blockText("crates/core/search.rs", "rust", text, 2)).toContain("pub struct HiArgs");
  });

  it("finds a `use` inside `mod tests` near the cursor when the lines before the cursor start inside the module", async () => {
    write("Cargo.toml", `[package]\nname = "p"\n`);
    write("src/builder.rs", "pub struct SearcherBuilder {}\n");
    // The lines searched (40 before the cursor) start right at `mod tests {`, which their parse sees unclosed.
    const body = Array.from({ length: 35 }, (_, i) => `        let v${i} = ${i};`).join("\n");
    const functions = Array.from({ length: 60 }, (_, i) => `pub fn f${i}() -> u32 {\n    ${i}\n}\n`).join(
      "\n",
    );
    const before = `use std::fmt;\n\n${functions}\n#[cfg(test)]\nmod tests {\n    use crate::builder::SearcherBuilder;\n\n    #[test]\n    fn t() {\n${body}\n        SearcherBuilder`;
    const text = `${before}\n    }\n}\n`;
    expect(await blockText("src/lib.rs", "rust", text, before.split("\n").length - 1)).toContain(
      "pub struct SearcherBuilder",
    );
  });
});

describe("the workspace symbol index and open documents", () => {
  it("indexes a closed document's file from disk again: an edit closed unsaved does not linger", async () => {
    write("pkg/shapes.py", "class Circle:\n    pass\n");
    // `Square` three lines up: only the index finds it (names on the cursor's last lines are also looked up in
    // the open documents).
    const current = "def area(r):\n    s = Square(r)\n    t = 2\n    u = 3\n    return Circle(";
    const main = write("pkg/main.py", current);
    const { documents, repo } = repository();
    const mainUri = pathToFileURL(main).href;
    // A fresh choice each time: the document opened anew (a block is otherwise reused for its region).
    const blockHas = async (text: string) => {
      documents.didOpen({ textDocument: { uri: mainUri, languageId: "python", version: 1, text: current } });
      repo.didOpen(mainUri);
      const { block } = await repo.block(documents.get(mainUri)!, { line: 4, character: 18 }, 1024);
      const doc = documents.get(mainUri);
      documents.didClose(mainUri);
      repo.didClose(mainUri, doc);
      return block.text.includes(text);
    };
    // Each wait ends on what the block holds, with a deadline of turns of the event loop (no clock).
    const until = async (check: () => Promise<boolean>) => {
      for (let turn = 0; turn < 20_000; turn++) {
        if (await check()) return;
        await new Promise((resolve) => setImmediate(resolve));
      }
      throw new Error("never happened");
    };
    // `Circle` has no import: the index finds it, once built.
    await until(() => blockHas("class Circle:"));
    const shapes = pathToFileURL(join(root, "pkg/shapes.py")).href;
    const edited = "class Square:\n    pass\n";
    documents.didOpen({ textDocument: { uri: shapes, languageId: "python", version: 1, text: edited } });
    repo.didOpen(shapes);
    // The index has taken the buffer's outline when it finds `Square` there.
    await until(async () => (await blockHas("class Square:")) && !(await blockHas("class Circle:")));
    const doc = documents.get(shapes);
    documents.didClose(shapes);
    repo.didClose(shapes, doc);
    await until(() => blockHas("class Circle:"));
    repo.dispose();
  });
});

describe("Java", () => {
  it("gives the member of a type found in an open document, when the type's snippet does not show it", async () => {
    const methods = Array.from(
      { length: 60 },
      (_, i) => `    public static int m${i}(int x) {\n        return x + ${i};\n    }`,
    ).join("\n");
    // In a package the file does not import (a name resolution cannot reach): the open document has it.
    const util = `package lib;\n\npublic class Util {\n${methods}\n}\n`;
    const utilPath = write("src/lib/Util.java", util);
    const app = "package app;\n\nclass App {\n    int run() {\n        return Util.m57(";
    const appPath = write("src/app/App.java", app);
    const { documents, repo } = repository();
    const utilUri = pathToFileURL(utilPath).href;
    documents.didOpen({ textDocument: { uri: utilUri, languageId: "java", version: 1, text: util } });
    repo.didOpen(utilUri);
    const appUri = pathToFileURL(appPath).href;
    documents.didOpen({ textDocument: { uri: appUri, languageId: "java", version: 1, text: app } });
    repo.didOpen(appUri);
    const { block } = await repo.block(documents.get(appUri)!, { line: 4, character: 26 }, 1024);
    repo.dispose();
    expect(block.text).toContain("public static int m57(int x) {");
  });
});
