import {
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import { readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { IgnoreRules } from "../../src/context/files/ignore-rules.js";
import { SourceCache } from "../../src/context/files/source-cache.js";
import { python } from "../../src/context/lang/index.js";
import { indexGroup, SymbolIndex } from "../../src/context/symbols/symbol-index.js";
import { type IndexFiles, WorkspaceSymbols } from "../../src/context/symbols/workspace-symbols.js";
import type { Family, ModuleOutline, ParsedModule } from "../../src/context/types.js";
import { pathToUri, Workspace } from "../../src/workspace/workspace.js";
import { decl } from "./fixture-modules.js";

const outline = (names: string[], pkg?: string, exported = true): ModuleOutline => ({
  declarations: names.map((n, i) => ({ ...decl(n, "class", [], i), exported })),
  reexports: [],
  ...(pkg !== undefined ? { package: pkg } : {}),
});
const LIMITS = { maxFiles: 100, maxEntries: 1000, maxPerFile: 100 };

describe("SymbolIndex: ranking by nearness", () => {
  const index = new SymbolIndex(LIMITS);
  index.set("/w/far/away/deep/Z.cs", "csharp", outline(["Widget"], "Other"));
  index.set("/w/lib/B.cs", "csharp", outline(["Widget"], "Other"));
  index.set("/w/app/ui/Widget.cs", "csharp", outline(["Widget"], "App.Ui"));
  index.set("/w/app/Same.cs", "csharp", outline(["Widget"], "Other"));
  index.set("/w/tabs/Open.cs", "csharp", outline(["Widget"], "Other"));
  index.set("/w/edits/Recent.cs", "csharp", outline(["Widget"], "Other"));
  index.set("/w/app/widget.py", "python", outline(["Widget"]));
  const near = { path: "/w/app/Main.cs", family: "csharp" as Family, package: "App.Ui" };

  it("orders: same folder, same namespace, open tab, recently edited, then folder distance", () => {
    const hits = index.lookup(
      "Widget",
      { ...near, open: new Set(["/w/tabs/Open.cs"]), recent: ["/w/edits/Recent.cs"] },
      10,
    );
    expect(hits.map((h) => h.path)).toEqual([
      "/w/app/Same.cs",
      "/w/app/ui/Widget.cs",
      "/w/tabs/Open.cs",
      "/w/edits/Recent.cs",
      "/w/lib/B.cs",
      "/w/far/away/deep/Z.cs",
    ]);
  });
  it("never answers the asking file, nor another family group", () => {
    expect(index.lookup("Widget", { path: "/w/app/widget.py", family: "python" }, 10)).toEqual([]);
    expect(
      index.lookup("Widget", { path: "/w/app/Same.cs", family: "csharp" }, 10).map((h) => h.path),
    ).not.toContain("/w/app/Same.cs");
  });
  it("groups C with C++ and Java with Kotlin and Scala", () => {
    expect(
      ["c", "cpp", "java", "kotlin", "scala", "csharp", "go"].map((f) => indexGroup(f as Family)),
    ).toEqual(["c", "c", "java", "java", "java", "csharp", "go"]);
    const mixed = new SymbolIndex(LIMITS);
    mixed.set("/w/a.h", "c", outline(["point_new"]));
    mixed.set("/w/B.kt", "kotlin", outline(["Repo"]));
    expect(mixed.lookup("point_new", { path: "/w/x.cpp", family: "cpp" }, 5).map((h) => h.path)).toEqual([
      "/w/a.h",
    ]);
    expect(mixed.lookup("Repo", { path: "/w/X.java", family: "java" }, 5).map((h) => h.path)).toEqual([
      "/w/B.kt",
    ]);
  });
  it("puts exported declarations first within a tier, and is stable", () => {
    const ties = new SymbolIndex(LIMITS);
    ties.set("/w/x/b.py", "python", outline(["Thing"], undefined, false));
    ties.set("/w/x/a.py", "python", outline(["Thing"], undefined, false));
    ties.set("/w/x/c.py", "python", outline(["Thing"]));
    expect(ties.lookup("Thing", { path: "/w/y/q.py", family: "python" }, 3).map((h) => h.path)).toEqual([
      "/w/x/c.py",
      "/w/x/a.py",
      "/w/x/b.py",
    ]);
  });
});

describe("SymbolIndex: members, by their container and its bases", () => {
  const withBases = (d: ReturnType<typeof decl>, bases: string[]) => ({ ...d, bases });
  const file = (...declarations: ReturnType<typeof decl>[]): ModuleOutline => ({
    declarations,
    reexports: [],
  });
  const index = new SymbolIndex(LIMITS);
  // A class reopened in two files; a superclass with a mixin; a constant assigned an instance.
  index.set("/w/lib/pry.rb", "ruby", file(decl("Pry", "class", [decl("run", "method")])));
  index.set("/w/lib/pry_class.rb", "ruby", file(decl("Pry", "class", [decl("binding_for", "method")])));
  index.set("/w/lib/text.rb", "ruby", file(decl("Text", "module", [decl("bold", "method")])));
  index.set("/w/lib/command.rb", "ruby", file(withBases(decl("Command", "class"), ["Helpers::Text"])));
  index.set("/w/lib/edit.rb", "ruby", file(withBases(decl("Edit", "class"), ["Pry::Command"])));
  index.set("/w/lib/set.rb", "ruby", file(decl("CommandSet", "class", [decl("add_command", "method")])));
  index.set("/w/lib/commands.rb", "ruby", file(withBases(decl("Commands", "variable"), ["CommandSet"])));
  const near = { path: "/w/lib/cli.rb", family: "ruby" as Family };
  const paths = (hits: { path: string }[]) => hits.map((h) => h.path);

  it.each([
    {
      name: "the member of a class reopened elsewhere",
      args: ["binding_for", "Pry"],
      want: ["/w/lib/pry_class.rb"],
    },
    { name: "no member of another container", args: ["bold", "Pry"], want: [] },
    { name: "through a base's mixin, two levels up", args: ["bold", "Edit"], want: ["/w/lib/text.rb"] },
    { name: "through a constant's class", args: ["add_command", "Commands"], want: ["/w/lib/set.rb"] },
    { name: "of any container", args: ["bold", undefined], want: ["/w/lib/text.rb"] },
  ])("$name", ({ args: [name, owner], want }) => {
    expect(paths(index.lookupMember(name!, near, 3, owner))).toEqual(want);
  });
  it("keeps members apart from top-level names, and counts and forgets them with their file", () => {
    expect(index.lookup("bold", near, 3)).toEqual([]);
    expect(index.lookupMember("bold", near, 1)[0]).toMatchObject({ owner: "Text", kind: "method" });
    const entries = index.entries;
    index.remove("/w/lib/text.rb");
    expect(index.entries).toBe(entries - 2);
    expect(index.lookupMember("bold", near, 3)).toEqual([]);
  });
});

describe("SymbolIndex: bounds and changes", () => {
  it("refuses a new file when full, but takes a changed one in place of its old entries", () => {
    const index = new SymbolIndex({ maxFiles: 2, maxEntries: 1000, maxPerFile: 100 });
    expect(index.set("/w/a.py", "python", outline(["A"]))).toBe(true);
    expect(index.set("/w/b.py", "python", outline(["B"]))).toBe(true);
    expect(index.set("/w/c.py", "python", outline(["C"]))).toBe(false);
    expect(index.set("/w/a.py", "python", outline(["A2"]))).toBe(true);
    expect(index.lookup("A", { path: "/w/x.py", family: "python" }, 5)).toEqual([]);
    expect(index.lookup("A2", { path: "/w/x.py", family: "python" }, 5).map((h) => h.path)).toEqual([
      "/w/a.py",
    ]);
    expect([index.files, index.entries]).toEqual([2, 2]);
  });
  it("keeps at most maxPerFile per file and maxEntries in all", () => {
    const index = new SymbolIndex({ maxFiles: 10, maxEntries: 5, maxPerFile: 3 });
    index.set("/w/a.py", "python", outline(["A", "B", "C", "D"]));
    index.set("/w/b.py", "python", outline(["E", "F", "G"]));
    expect(index.entries).toBe(5);
    expect(index.lookup("D", { path: "/w/x.py", family: "python" }, 5)).toEqual([]);
    expect(index.lookup("G", { path: "/w/x.py", family: "python" }, 5)).toEqual([]);
    index.remove("/w/a.py");
    expect([index.files, index.entries]).toEqual([1, 2]);
    index.clear();
    expect([index.files, index.entries]).toEqual([0, 0]);
  });
});

let root: string;
let outside: string;
const write = (rel: string, text: string, base = root) => {
  const path = join(base, rel);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
  return path;
};

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "infill-index-"));
  outside = mkdtempSync(join(tmpdir(), "infill-index-out-"));
});
afterEach(() => {
  rmSync(root, { recursive: true, force: true });
  rmSync(outside, { recursive: true, force: true });
});

/** A WorkspaceSymbols over `root` whose build runs only when the test turns the crank; reads recorded. */
function setUp(options: { maxFiles?: number } = {}) {
  const workspace = new Workspace();
  workspace.set([{ uri: pathToUri(root) }]);
  const ignore = new IgnoreRules((path) => readFile(path, "utf8").catch(() => undefined));
  const cache = new SourceCache<ParsedModule>({
    workspace,
    ignore,
    exclude: () => [],
    parse: (path, text) => ({ path, ...python.parse(text) }),
  });
  const asked: string[] = [];
  const files: IndexFiles = {
    subdirectories: (dir) => cache.subdirectories(dir),
    list: (dir) => cache.list(dir),
    readText: (path) => {
      asked.push(path);
      return cache.readText(path);
    },
    mayUse: (path) => cache.mayUse(path),
  };
  const slices: Array<() => void> = [];
  let wake: (() => void) | undefined;
  const symbols = new WorkspaceSymbols({
    workspace,
    files,
    outline: (path, text) =>
      path.endsWith(".py") ? { family: "python", outline: python.parse(text).outline } : undefined,
    indexable: (path) => path.endsWith(".py"),
    defer: (work) => {
      slices.push(work);
      wake?.();
    },
    limits: { maxFiles: options.maxFiles ?? 1000, maxEntries: 100_000, maxPerFile: 1000 },
  });
  /** Run one slice, once the build has asked for it (after the I/O of the previous one), or the build ended. */
  const turn = async (): Promise<boolean> => {
    if (slices.length === 0 && symbols.state === "building")
      await Promise.race([new Promise<void>((resolve) => (wake = resolve)), symbols.whenBuilt()]);
    const work = slices.shift();
    work?.();
    return work !== undefined;
  };
  const build = async () => {
    symbols.want();
    while (symbols.state === "building") if (!(await turn())) break;
    await symbols.whenBuilt();
  };
  const names = (name: string, from = join(root, "main.py")) =>
    symbols.index
      .lookup(name, { path: from, family: "python" }, 10)
      .map((h) => h.path.slice(root.length + 1));
  return { symbols, build, turn, names, asked, cache, slices };
}

/** Resolves once `check` holds, turning the event loop meanwhile (a bound in turns, not in time). */
async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 100_000 && !check(); i++) await new Promise((resolve) => setImmediate(resolve));
  expect(check()).toBe(true);
}

describe("WorkspaceSymbols: the build", () => {
  it("does nothing until a request wants it, then builds in slices and answers what it has meanwhile", async () => {
    for (let i = 0; i < 30; i++) write(`pkg/m${String(i).padStart(2, "0")}.py`, `class C${i}:\n    pass\n`);
    const { symbols, turn, names, asked, build } = setUp();
    expect(symbols.state).toBe("idle");
    expect(asked).toEqual([]);
    symbols.want();
    expect(symbols.state).toBe("building");
    // Each slice lists a folder or reads a file at most eight times before it yields.
    const counts = [symbols.index.files];
    for (let i = 0; i < 3; i++) {
      await turn();
      counts.push(symbols.index.files);
    }
    for (let i = 1; i < counts.length; i++) expect(counts[i]! - counts[i - 1]!).toBeLessThanOrEqual(8);
    expect(names("C29")).toEqual([]);
    await build();
    expect(symbols.state).toBe("built");
    expect(symbols.index.files).toBe(30);
    expect(names("C29")).toEqual(["pkg/m29.py"]);
  });

  it("never indexes an ignored file, a secret, an ignored folder, a file over the size limit, or one outside the workspace", async () => {
    write(".gitignore", "generated/\nskip.py\n");
    write("ok.py", "class Kept:\n    pass\n");
    write("skip.py", "class Ignored:\n    pass\n");
    write("generated/gen.py", "class Generated:\n    pass\n");
    write("secrets.py", "class Secret:\n    pass\n");
    write("node_modules/dep/x.py", "class Dep:\n    pass\n");
    write("big.py", `class Big:\n    pass\n${"# padding\n".repeat(120_000)}`);
    const target = write("far.py", "class Outside:\n    pass\n", outside);
    symlinkSync(target, join(root, "link.py"));
    const { build, names, asked, symbols } = setUp();
    await build();
    expect(names("Kept")).toEqual(["ok.py"]);
    for (const name of ["Ignored", "Generated", "Secret", "Dep", "Big", "Outside"])
      expect(names(name)).toEqual([]);
    expect(asked.some((p) => p.includes("node_modules") || p.includes("generated"))).toBe(false);
    symbols.fileChanged(target);
    expect(asked).not.toContain(target);
  });

  it("waits while a request holds it, and goes on when every hold is released", async () => {
    for (let i = 0; i < 5; i++) write(`m${i}.py`, `class C${i}:\n    pass\n`);
    const { build, symbols, names } = setUp();
    const first = symbols.hold();
    const second = symbols.hold();
    symbols.want();
    for (let i = 0; i < 200; i++) await new Promise((resolve) => setImmediate(resolve));
    expect(symbols.index.files).toBe(0);
    first();
    first();
    for (let i = 0; i < 200; i++) await new Promise((resolve) => setImmediate(resolve));
    expect(symbols.index.files).toBe(0);
    second();
    await build();
    expect(names("C4")).toEqual(["m4.py"]);
  });

  it("starts at the folder of the file that wants it (its subfolders queued first), then its parents, then the rest, each folder once", async () => {
    write("a/x.py", "class X:\n    pass\n");
    write("b/c/near.py", "class Near:\n    pass\n");
    write("b/c/d/deeper.py", "class Deeper:\n    pass\n");
    write("b/up.py", "class Up:\n    pass\n");
    write("top.py", "class Top:\n    pass\n");
    const { symbols, asked, build } = setUp();
    symbols.want("python", join(root, "b/c/near.py"));
    await build();
    expect(asked.map((p) => p.slice(root.length + 1))).toEqual([
      "b/c/near.py",
      "b/up.py",
      "top.py",
      "b/c/d/deeper.py",
      "a/x.py",
    ]);
  });

  it("stops at its file bound", async () => {
    for (let i = 0; i < 20; i++) write(`m${i}.py`, `class C${i}:\n    pass\n`);
    const { build, symbols } = setUp({ maxFiles: 5 });
    await build();
    expect(symbols.index.files).toBe(5);
  });
});

describe("WorkspaceSymbols: changes", () => {
  it("follows a changed, a deleted and a new file, and an open buffer's parse", async () => {
    const a = write("a.py", "class First:\n    pass\n");
    const { build, names, symbols, cache } = setUp();
    await build();
    expect(names("First")).toEqual(["a.py"]);
    writeFileSync(a, "class Second:\n    pass\n");
    cache.invalidate(a);
    symbols.fileChanged(a);
    await until(() => names("Second").length === 1);
    expect(names("First")).toEqual([]);
    const b = write("b.py", "def made():\n    pass\n");
    symbols.fileChanged(b);
    await until(() => names("made").length === 1);
    unlinkSync(a);
    cache.invalidate(a);
    symbols.fileChanged(a);
    await until(() => names("Second").length === 0);
    symbols.parsed(b, "python", python.parse("class Typed:\n    pass\n").outline);
    await until(() => names("Typed").length === 1);
    expect(names("made")).toEqual([]);
    expect(readFileSync(b, "utf8")).toContain("made");
  });

  it("forgets everything when cleared, and builds again when next wanted", async () => {
    write("a.py", "class First:\n    pass\n");
    const { build, names, symbols } = setUp();
    await build();
    symbols.clear();
    expect([symbols.state, symbols.index.files]).toEqual(["idle", 0]);
    symbols.fileChanged(join(root, "a.py"));
    expect(names("First")).toEqual([]);
    await build();
    expect(names("First")).toEqual(["a.py"]);
  });
});

describe("WorkspaceSymbols: families whose parser is not loaded yet", () => {
  it("leaves their files unread until a lookup of their group wants them, then indexes them once it loads", async () => {
    write("a.py", "class Ready:\n    pass\n");
    write("b.rb", "Waiting\n");
    write("c.rb", "Late\n");
    const workspace = new Workspace();
    workspace.set([{ uri: pathToUri(root) }]);
    const ignore = new IgnoreRules((path) => readFile(path, "utf8").catch(() => undefined));
    const cache = new SourceCache<string>({ workspace, ignore, exclude: () => [], parse: (_, text) => text });
    const read: string[] = [];
    let loaded = false;
    let loads = 0;
    // Each `.rb` file declares a class named by its text, but only once its "grammar" is loaded.
    const symbols = new WorkspaceSymbols({
      workspace,
      files: {
        subdirectories: (dir) => cache.subdirectories(dir),
        list: (dir) => cache.list(dir),
        readText: (path) => {
          read.push(path.slice(root.length + 1));
          return cache.readText(path);
        },
        mayUse: (path) => cache.mayUse(path),
      },
      outline: (path, text) =>
        path.endsWith(".py")
          ? { family: "python", outline: python.parse(text).outline }
          : { family: "ruby", outline: outline(loaded ? [text.trim()] : []) },
      indexable: (path) => path.endsWith(".py") || path.endsWith(".rb"),
      waiting: (path) => (path.endsWith(".rb") && !loaded ? "ruby" : undefined),
      load: async () => {
        loads++;
        loaded = true;
      },
    });
    const names = (name: string) => symbols.index.lookup(name, { path: "/elsewhere.rb", family: "ruby" }, 5);
    symbols.want("python");
    await symbols.whenBuilt();
    expect(read).toEqual(["a.py"]);
    expect(names("Waiting")).toEqual([]);
    symbols.want("ruby");
    await until(() => names("Waiting").length === 1 && names("Late").length === 1);
    expect(read.sort()).toEqual(["a.py", "b.rb", "c.rb"]);
    expect(loads).toBe(1);
  });
});

describe("WorkspaceSymbols: C# names through the index", () => {
  it("finds a class a `using` brings in, nearest first, with its declaration read through the host", async () => {
    const index = new WorkspaceSymbols({
      workspace: new Workspace(),
      files: {
        subdirectories: async () => [],
        list: () => [],
        readText: async () => undefined,
        mayUse: async () => true,
      },
      outline: () => undefined,
      indexable: () => true,
    });
    const services = outline(["OrderService"], "Shop.Services");
    const other = outline(["OrderService"], "Legacy");
    index.index.set("/w/src/Services/OrderService.cs", "csharp", services);
    index.index.set("/w/legacy/OrderService.cs", "csharp", other);
    const host = {
      module: (path: string) => ({
        path,
        imports: [],
        outline: path.startsWith("/w/src") ? services : other,
      }),
      list: () => undefined,
    };
    const found = await index.declarations(
      [
        { reference: { name: "OrderService", distance: 0 }, steps: [{ kind: "top", name: "OrderService" }] },
        { reference: { name: "Missing", distance: 1 }, steps: [{ kind: "top", name: "Missing" }] },
      ],
      { path: "/w/src/Controllers/OrdersController.cs", family: "csharp", package: "Shop.Controllers" },
      host,
      4,
    );
    expect(found.map((f) => `${f.path}:${f.declaration.name}`)).toEqual([
      "/w/src/Services/OrderService.cs:OrderService",
    ]);
  });
});
