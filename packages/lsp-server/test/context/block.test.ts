import { describe, expect, it } from "vitest";
import { assembleBlock } from "../../src/context/block/block.js";
import type { ContextSnippet } from "../../src/context/types.js";

const snip = (
  path: string,
  startLine: number,
  text: string,
  kind: ContextSnippet["kind"] = "declaration",
): ContextSnippet => ({
  path,
  startLine,
  endLine: startLine + text.split("\n").length - 1,
  text,
  kind,
});

const ITEM = snip("src/item.ts", 0, "export interface Item {\n  price: number;\n}");
const FORMAT = snip("src/format.ts", 4, "export function formatPrice(cents: number): string {\n  …\n}");
const TOTAL = snip("src/item.ts", 10, "export function total(items: Item[]): number {\n  …\n}");

describe("assembleBlock", () => {
  it("extends a block: its snippets first and unchanged, the new ones after them (a file may come twice)", () => {
    const assemble = (candidates: ContextSnippet[], keep?: readonly ContextSnippet[]) =>
      assembleBlock({
        languageId: "typescript",
        currentPath: "src/cart.ts",
        candidates,
        budgetTokens: 1000,
        keep,
      });
    const before = assemble([ITEM]);
    // The new choice, nearest first: it would sort format.ts before item.ts, and take ITEM again.
    const after = assemble([FORMAT, TOTAL, { ...ITEM }], before.snippets);
    expect(after.text.startsWith(before.text.slice(0, -before.pathLine.length))).toBe(true);
    expect(after.snippets).toEqual([ITEM, FORMAT, TOTAL]);
    expect(after.text).toBe(
      [
        "// src/item.ts",
        "export interface Item {",
        "  price: number;",
        "}",
        "// src/format.ts",
        "export function formatPrice(cents: number): string {",
        "  …",
        "}",
        "// src/item.ts",
        "export function total(items: Item[]): number {",
        "  …",
        "}",
        "// src/cart.ts",
        "",
      ].join("\n"),
    );
    // Without `keep`, the same choice renders sorted.
    const fresh = assemble([FORMAT, TOTAL, ITEM]);
    expect(fresh.text.startsWith("// src/format.ts\n")).toBe(true);
  });

  it("renders files by path and snippets by line, whatever the order of the candidates, then the current path", () => {
    const a = assembleBlock({
      languageId: "typescript",
      currentPath: "src/cart.ts",
      candidates: [TOTAL, FORMAT, ITEM],
      budgetTokens: 1000,
    });
    const b = assembleBlock({
      languageId: "typescript",
      currentPath: "src/cart.ts",
      candidates: [ITEM, TOTAL, FORMAT],
      budgetTokens: 1000,
    });
    expect(a.text).toBe(
      [
        "// src/format.ts",
        "export function formatPrice(cents: number): string {",
        "  …",
        "}",
        "// src/item.ts",
        "export interface Item {",
        "  price: number;",
        "}",
        "",
        "export function total(items: Item[]): number {",
        "  …",
        "}",
        "// src/cart.ts",
        "",
      ].join("\n"),
    );
    expect(b.text).toBe(a.text);
    expect(a.snippets).toEqual([FORMAT, ITEM, TOTAL]);
    expect(a.tokens).toBe(Math.ceil(a.text.length / 3.5));
  });

  it("uses the language's comment syntax", () => {
    const block = assembleBlock({
      languageId: "python",
      currentPath: "app/main.py",
      candidates: [snip("app/db.py", 0, "def connect(url):\n    ...")],
      budgetTokens: 100,
    });
    expect(block.text).toBe("# app/db.py\ndef connect(url):\n    ...\n# app/main.py\n");
    // The path line alone, for a provider that takes the snippets in a field of their own (llama.cpp).
    expect(block.pathLine).toBe("# app/main.py\n");
    expect(block.text.endsWith(block.pathLine)).toBe(true);
  });

  it("has no path line when not even it fits, nor for a buffer without a path", () => {
    const tiny = assembleBlock({
      languageId: "python",
      currentPath: "app/main.py",
      candidates: [],
      budgetTokens: 1,
    });
    expect(tiny).toEqual({ text: "", tokens: 0, snippets: [], pathLine: "" });
    const untitled = assembleBlock({
      languageId: "python",
      currentPath: undefined,
      candidates: [],
      budgetTokens: 100,
    });
    expect(untitled.pathLine).toBe("");
  });

  it("takes candidates in order while they fit, skipping a big one for a smaller later one", () => {
    const big = snip("src/big.ts", 0, "x".repeat(400));
    for (const budget of [10, 40, 60, 200, 400]) {
      const block = assembleBlock({
        languageId: "typescript",
        currentPath: "src/cart.ts",
        candidates: [ITEM, big, FORMAT],
        budgetTokens: budget,
      });
      expect(block.tokens).toBeLessThanOrEqual(budget);
      expect(block.text.endsWith("// src/cart.ts\n")).toBe(true);
    }
    const mid = assembleBlock({
      languageId: "typescript",
      currentPath: "src/cart.ts",
      candidates: [ITEM, big, FORMAT],
      budgetTokens: 60,
    });
    expect(mid.snippets).toEqual([FORMAT, ITEM]);
  });

  it("is empty when not even the path line fits, and only the path line without candidates", () => {
    expect(
      assembleBlock({
        languageId: "typescript",
        currentPath: "src/cart.ts",
        candidates: [ITEM],
        budgetTokens: 2,
      }).text,
    ).toBe("");
    expect(
      assembleBlock({
        languageId: "typescript",
        currentPath: "src/cart.ts",
        candidates: [],
        budgetTokens: 100,
      }).text,
    ).toBe("// src/cart.ts\n");
    expect(
      assembleBlock({ languageId: "typescript", currentPath: undefined, candidates: [], budgetTokens: 100 })
        .text,
    ).toBe("");
  });

  it("skips a snippet overlapping one already chosen from the same file, and blank ones", () => {
    const window = snip("src/item.ts", 1, "  price: number;\n}\n\nexport function total(", "similar");
    const block = assembleBlock({
      languageId: "typescript",
      currentPath: undefined,
      candidates: [ITEM, window, snip("src/e.ts", 0, "  \n ")],
      budgetTokens: 1000,
    });
    expect(block.snippets).toEqual([ITEM]);
  });

  it("takes a declaration nested in one already chosen (a member its container's snippet leaves out)", () => {
    const container = snip("src/events.h", 10, "class NodeEvents {\n  void Emit();\n};");
    const member = { ...snip("src/events.h", 14, "  class AliasManager {\n   …\n  };"), endLine: 16 };
    const wide = { ...container, endLine: 30 };
    const block = assembleBlock({
      languageId: "cpp",
      currentPath: undefined,
      candidates: [member, wide],
      budgetTokens: 1000,
    });
    expect(block.snippets).toEqual([wide, member]);
    expect(block.text).toBe(
      "// src/events.h\nclass NodeEvents {\n  void Emit();\n};\n\n  class AliasManager {\n   …\n  };\n",
    );
  });

  it("can comment every snippet line out", () => {
    const block = assembleBlock({
      languageId: "typescript",
      currentPath: "src/cart.ts",
      candidates: [ITEM],
      budgetTokens: 1000,
      commented: true,
    });
    expect(block.text).toBe(
      "// src/item.ts\n// export interface Item {\n//   price: number;\n// }\n// src/cart.ts\n",
    );
  });
});
