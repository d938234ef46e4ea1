import { describe, expect, it, vi } from "vitest";
import { DeclarationMemo } from "../../src/context/block/declaration-memo.js";
import { findDeclarations } from "../../src/context/declarations/find-declarations.js";
import type { Reached } from "../../src/context/declarations/reference-memo.js";
import { SYNTAX_SUPPORTS, typescript } from "../../src/context/lang/index.js";
import { indentedNesting, rubyTypeLine } from "../../src/context/scan/nesting.js";
import type { Declaration, ModuleImport, ResolveEnv } from "../../src/context/types.js";
import { code, VirtualHost } from "./helpers.js";

const declaration = (name: string): Declaration => ({
  name,
  kind: "function",
  exported: true,
  startLine: 0,
  endLine: 0,
  nameLine: 0,
  snippet: `function ${name}() {}`,
});
const reached = (path: string, name: string): Reached => [[path, declaration(name)]];
const imports = (...specifiers: string[]): { imports: ModuleImport[] } => ({
  imports: specifiers.map((specifier, line) => ({
    specifier,
    bindings: [{ local: "x", imported: "x" }],
    line,
  })),
});
const ENV: ResolveEnv = { root: "/w" };
const nothing = () => {};

describe("DeclarationMemo", () => {
  it("answers what was stored, for the same imports and environment", () => {
    const memo = new DeclarationMemo();
    memo
      .for("file:///w/a.ts", imports("./b"), ENV, nothing)
      .set("b", reached("/w/b.ts", "b"), new Set(["/w/b.ts"]));
    const view = memo.for("file:///w/a.ts", imports("./b"), ENV, nothing);
    expect(view.get("b")?.reached).toEqual(reached("/w/b.ts", "b"));
    expect([...(view.get("b")?.read ?? [])]).toEqual(["/w/b.ts"]);
    expect(view.get("c")).toBeUndefined();
  });

  it.each([
    ["its imports change", imports("./b", "./c"), ENV],
    [
      "an import moves to another line only: kept",
      { imports: [{ ...imports("./b").imports[0]!, line: 7 }] },
      ENV,
    ],
    ["its package changes", { ...imports("./b"), package: "com.acme" }, ENV],
    ["the project environment is another object (a project file changed)", imports("./b"), { root: "/w" }],
  ])("forgets a document's answers when %s", (what, now, env) => {
    const memo = new DeclarationMemo();
    memo
      .for("file:///w/a.ts", imports("./b"), ENV, nothing)
      .set("b", reached("/w/b.ts", "b"), new Set(["/w/b.ts"]));
    const kept = memo.for("file:///w/a.ts", now, env, nothing).get("b") !== undefined;
    expect(kept).toBe(what.endsWith("kept"));
  });

  it("drops the answers that read a changed file, and with a listing change those that listed its directory", () => {
    const memo = new DeclarationMemo();
    const view = memo.for("file:///w/a.java", imports("p.B"), ENV, nothing);
    view.set("B", reached("/w/p/B.java", "B"), new Set(["/w/p/B.java"]));
    view.set("C", reached("/w/p/C.java", "C"), new Set(["/w/p/", "/w/p/C.java"]));
    view.set("D", reached("/w/q/D.java", "D"), new Set(["/w/q/D.java"]));
    memo.sourceChanged("/w/p/E.java", false);
    expect(["B", "C", "D"].filter((k) => view.get(k))).toEqual(["B", "C", "D"]);
    memo.sourceChanged("/w/p/E.java", true);
    expect(["B", "C", "D"].filter((k) => view.get(k))).toEqual(["B", "D"]);
    memo.sourceChanged("/w/q/D.java", false);
    expect(["B", "C", "D"].filter((k) => view.get(k))).toEqual(["B"]);
  });

  it("forgets a closed document and everything on clear, and keeps at most 2,000 answers per document", () => {
    const memo = new DeclarationMemo();
    const view = memo.for("file:///w/a.ts", imports("./b"), ENV, nothing);
    for (let i = 0; i < 2_001; i++) view.set(`n${i}`, reached("/w/b.ts", `n${i}`), new Set(["/w/b.ts"]));
    expect(view.get("n0")).toBeUndefined();
    expect(view.get("n1")).toBeDefined();
    memo.forget("file:///w/a.ts");
    expect(memo.for("file:///w/a.ts", imports("./b"), ENV, nothing).get("n1")).toBeUndefined();
    const again = memo.for("file:///w/a.ts", imports("./b"), ENV, nothing);
    again.set("b", reached("/w/b.ts", "b"), new Set(["/w/b.ts"]));
    memo.clear();
    expect(memo.for("file:///w/a.ts", imports("./b"), ENV, nothing).get("b")).toBeUndefined();
  });

  it("asks the file cache to re-check an answer's files, at most every 2 s", () => {
    vi.useFakeTimers({ toFake: ["performance"] });
    try {
      const memo = new DeclarationMemo();
      const rechecked: string[] = [];
      const view = memo.for("file:///w/a.ts", imports("./b"), ENV, (path) => rechecked.push(path));
      view.set("b", reached("/w/b.ts", "b"), new Set(["/w/b.ts"]));
      view.get("b");
      vi.advanceTimersByTime(1_999);
      view.get("b");
      expect(rechecked).toEqual([]);
      vi.advanceTimersByTime(1);
      view.get("b");
      view.get("b");
      expect(rechecked).toEqual(["/w/b.ts"]);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe("findDeclarations with a memo", () => {
  const files = {
    "/w/src/app.ts": code`
      import { Button } from "./ui/index.js";
      import { load } from "./config";`,
    "/w/src/ui/index.ts": 'export * from "./button.js";\n',
    "/w/src/ui/button.ts": "export class Button {}\n",
    "/w/src/config.ts": "export function load() {}\n",
  };

  it("reads no file for a reference it answered before, and names the files that answer read", async () => {
    const memo = new DeclarationMemo();
    const refs = [
      { name: "Button", distance: 0 },
      { name: "load", distance: 1 },
    ];
    const first = new VirtualHost(files);
    const from = first.parse("/w/src/app.ts");
    const view = () => memo.for("file:///w/src/app.ts", from, ENV, nothing);
    const before = await findDeclarations(typescript, from, refs, first, ENV, {}, undefined, view());
    expect(first.reads.length).toBeGreaterThan(0);

    const second = new VirtualHost(files);
    const noted: string[] = [];
    const host = Object.assign(second, { noteRead: (path: string) => noted.push(path) });
    const after = await findDeclarations(typescript, from, refs, host, ENV, {}, undefined, view());
    expect(after).toEqual(before);
    expect(second.reads).toEqual([]);
    expect(noted).toEqual(
      expect.arrayContaining(["/w/src/ui/index.ts", "/w/src/ui/button.ts", "/w/src/config.ts"]),
    );
  });

  it("does not remember an answer the file budget may have cut short", async () => {
    const memo = new DeclarationMemo();
    const host = new VirtualHost(files);
    const from = host.parse("/w/src/app.ts");
    const view = memo.for("file:///w/src/app.ts", from, ENV, nothing);
    // One file: the barrel is read, the button past the budget.
    const cut = await findDeclarations(
      typescript,
      from,
      [{ name: "Button", distance: 0 }],
      host,
      ENV,
      { maxFiles: 1 },
      undefined,
      view,
    );
    expect(cut).toEqual([]);
    expect(view.get("Button")).toBeUndefined();
    const whole = await findDeclarations(
      typescript,
      from,
      [{ name: "Button", distance: 0 }],
      host,
      ENV,
      {},
      undefined,
      view,
    );
    expect(whole.map((f) => f.path)).toEqual(["/w/src/ui/button.ts"]);
    expect(view.get("Button")?.reached.map(([path]) => path)).toEqual(["/w/src/ui/button.ts"]);
  });
});

describe("the memo and the namespaces around a reference", () => {
  it("keeps apart what one name reaches in two namespaces (Ruby's Item in Shop and in Stock)", async () => {
    const { ruby } = SYNTAX_SUPPORTS;
    await ruby.ready?.();
    const app = code`
      module Shop
        def self.a
          Item
        end
      end
      module Stock
        def self.b
          Item
        end
      end`;
    const host = new VirtualHost({
      "/w/lib/shop/item.rb": "module Shop\n  class Item\n  end\nend\n",
      "/w/lib/stock/item.rb": "module Stock\n  class Item\n  end\nend\n",
      "/w/lib/app.rb": app,
    });
    const env = { root: "/w", rubyLoadPath: ["/w/lib"] };
    const from = host.parse("/w/lib/app.rb");
    const lines = app.split("\n");
    const memo = new DeclarationMemo();
    const view = memo.for("file:///w/lib/app.rb", from, env, nothing);
    const reach = async (line: number) =>
      (
        await findDeclarations(
          ruby,
          from,
          [{ name: "Item", distance: 0 }],
          host,
          env,
          {},
          { line, nesting: indentedNesting(lines.slice(0, line + 1), rubyTypeLine) },
          view,
        )
      ).map((f) => f.path);
    for (let round = 0; round < 2; round++) {
      expect(await reach(2)).toEqual(["/w/lib/shop/item.rb"]);
      expect(await reach(7)).toEqual(["/w/lib/stock/item.rb"]);
    }
  });
});
