import { describe, expect, it } from "vitest";
import { anchorAt } from "../../src/completion/anchor.js";
import { buildRequest, chooseContext, contextBudget } from "../../src/completion/request-builder.js";
import { type ContextBlock, EMPTY_BLOCK } from "../../src/context/block/block.js";
import type { ContextSource } from "../../src/context/context-loader.js";
import { Documents } from "../../src/documents/documents.js";
import { defaultSettings, type Settings } from "../../src/settings/settings.js";

function doc(text: string) {
  const documents = new Documents();
  documents.didOpen({ textDocument: { uri: "file:///a.ts", languageId: "typescript", version: 1, text } });
  return documents.get("file:///a.ts")!;
}

const settings = (overrides: Partial<Settings> = {}): Settings => ({ ...defaultSettings({}), ...overrides });

const BLOCK: ContextBlock = {
  text: "// lib.ts\nexport function add(a: number, b: number): number\n// a.ts\n",
  tokens: 20,
  snippets: [
    { path: "lib.ts", startLine: 0, endLine: 0, text: "export function add(…)", kind: "declaration" },
  ],
  pathLine: "// a.ts\n",
};

const source = (block: ContextBlock): ContextSource & { budgets: number[] } => {
  const budgets: number[] = [];
  return {
    budgets,
    async block(_doc, _position, budget) {
      budgets.push(budget);
      return { block, ms: 0.5, recomputed: true };
    },
  };
};

describe("contextBudget", () => {
  it.each([
    [1024, 4096, 1024],
    [1024, 1000, 500],
    [4000, 4096, 2048],
  ])("context.maxTokens %d within contextTokens %d → %d", (maxTokens, contextTokens, budget) => {
    expect(
      contextBudget(
        settings({
          contextTokens,
          context: { enabled: true, maxTokens, exclude: [], holdout: 0, typeDefinitionMs: 50 },
        }),
      ),
    ).toBe(budget);
  });
});

describe("chooseContext", () => {
  const d = doc("const x = add(");
  const here = { line: 0, character: 14 };

  it("asks the source within the budget and reports the block's figures", async () => {
    const s = source(BLOCK);
    const chosen = await chooseContext(s, d, here, settings());
    expect(s.budgets).toEqual([1024]);
    expect(chosen).toEqual({
      block: BLOCK,
      figures: { ms: 0.5, snippets: 1, tokens: 20, outlineTokens: 0, recomputed: true },
      arm: "on",
    });
  });

  it("is empty, with no figures, with context off or no source", async () => {
    const off = settings({
      context: { enabled: false, maxTokens: 1024, exclude: [], holdout: 0, typeDefinitionMs: 50 },
    });
    expect(await chooseContext(source(BLOCK), d, here, off)).toEqual({
      block: EMPTY_BLOCK,
      figures: undefined,
      arm: "off",
    });
    expect(await chooseContext(undefined, d, here, settings())).toEqual({
      block: EMPTY_BLOCK,
      figures: undefined,
      arm: "off",
    });
  });

  it("holds the share context.holdout asks out, without asking the source, the same way in a region on a day", async () => {
    const held = settings({
      context: { enabled: true, maxTokens: 1024, exclude: [], holdout: 1, typeDefinitionMs: 50 },
    });
    const s = source(BLOCK);
    expect(await chooseContext(s, d, here, held, "2026-11-02")).toEqual({
      block: EMPTY_BLOCK,
      figures: undefined,
      arm: "holdout",
    });
    expect(s.budgets).toEqual([]);
    const half = settings({
      context: { enabled: true, maxTokens: 1024, exclude: [], holdout: 0.5, typeDefinitionMs: 50 },
    });
    const arms = new Set<string>();
    for (let i = 0; i < 40; i++) {
      const other = { ...d, uri: `file:///m/file${i}.ts` };
      const first = await chooseContext(source(BLOCK), other, here, half, "2026-11-02");
      const again = await chooseContext(source(BLOCK), other, { line: 5, character: 0 }, half, "2026-11-02");
      expect(again.arm).toBe(first.arm);
      arms.add(first.arm);
    }
    expect(arms).toEqual(new Set(["on", "holdout"]));
  });

  it("leaves out a block holding NUL, which would make the request binary", async () => {
    const chosen = await chooseContext(source({ ...BLOCK, text: "a\0b" }), d, here, settings());
    expect(chosen.block).toBe(EMPTY_BLOCK);
    expect(chosen.figures).toMatchObject({ snippets: 0, tokens: 0 });
  });
});

describe("buildRequest", () => {
  it("asks one line mid-line, with a stop at the line break, streamed unless told not to", () => {
    const d = doc("const x = add(1, 2);\nconst y = add(x, );");
    const here = { line: 1, character: 17 };
    const built = buildRequest(d, here, anchorAt(d, here), EMPTY_BLOCK, settings({ maxTokens: 64 }));
    expect(built?.request).toEqual({
      prompt: "const x = add(1, 2);\nconst y = add(x, ",
      suffix: ");",
      max_tokens: 64,
      temperature: 0,
      stop: ["\n"],
    });
    expect(built?.ctx.mode).toBe("single-line");
    expect(built?.streamed).toBe(true);
    expect(buildRequest(d, here, anchorAt(d, here), EMPTY_BLOCK, settings(), false)?.streamed).toBe(false);
  });

  it("asks a block after an opener, streamed, with the context block", () => {
    const d = doc("function f() {\n  \n}\n");
    const here = { line: 1, character: 2 };
    const built = buildRequest(d, here, anchorAt(d, here), BLOCK, settings());
    expect(built?.request.stop).toBeUndefined();
    expect(built?.request.context).toEqual({
      snippets: [{ path: "lib.ts", text: "export function add(…)" }],
      text: BLOCK.text,
      pathLine: "// a.ts\n",
    });
    expect(built?.ctx).toMatchObject({ mode: "multi-line", lineBefore: "  ", suffix: "\n}\n" });
    expect(built?.streamed).toBe(true);
  });

  it("gives the context's tokens back to the window: the window shrinks by what the block uses", () => {
    const long = Array.from({ length: 400 }, (_, i) => `const v${i} = ${i};`).join("\n");
    const d = doc(long);
    const here = { line: 399, character: 10 };
    const withoutContext = buildRequest(
      d,
      here,
      anchorAt(d, here),
      EMPTY_BLOCK,
      settings({ contextTokens: 1000 }),
    );
    const big = { ...BLOCK, tokens: 400 };
    const withContext = buildRequest(d, here, anchorAt(d, here), big, settings({ contextTokens: 1000 }));
    expect(withContext!.request.prompt.length).toBeLessThan(withoutContext!.request.prompt.length);
  });

  it("sends nothing for a binary document", () => {
    const d = doc("a\0b\nc");
    expect(
      buildRequest(
        d,
        { line: 1, character: 1 },
        anchorAt(d, { line: 1, character: 1 }),
        EMPTY_BLOCK,
        settings(),
      ),
    ).toBeUndefined();
  });
});
