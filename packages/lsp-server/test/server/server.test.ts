import { describe, expect, it } from "vitest";
import { ADD_TS, sessions } from "../support/session.js";

const start = sessions();

describe("initialize", () => {
  it("announces incremental sync, completion, inline completion and utf-16 by default", async () => {
    const s = await start();
    const caps = s.initializeResult.capabilities;
    expect(caps.textDocumentSync).toMatchObject({ openClose: true, change: 2 });
    expect(caps.completionProvider).toBeDefined();
    expect(caps.inlineCompletionProvider).toBeTruthy();
    expect(caps.positionEncoding).toBe("utf-16");
    expect(s.initializeResult.serverInfo?.name).toBe("infill-lsp");
  });

  it("negotiates the client's preferred position encoding", async () => {
    const s = await start({ capabilities: { general: { positionEncodings: ["utf-8", "utf-16"] } } });
    expect(s.initializeResult.capabilities.positionEncoding).toBe("utf-8");
  });
});

describe("inline completion", () => {
  it("completes a block on an empty line from the sim, range at the cursor", async () => {
    const s = await start();
    const at = await s.open("file:///add.ts", ADD_TS);
    const list = await s.inline("file:///add.ts", at);
    expect(list.items).toHaveLength(1);
    const item = list.items[0]!;
    expect(item.insertText).toBe("return a + b;");
    expect(item.range).toEqual({ start: at, end: at });
    expect(s.sim.requests).toHaveLength(1);
    const body = s.sim.requests[0]!.body as Record<string, unknown>;
    expect(body.prompt).toBe(ADD_TS.slice(0, ADD_TS.indexOf("│")));
    expect(body.suffix).toBe(ADD_TS.slice(ADD_TS.indexOf("│") + 1));
    expect(body.model).toBe("deepseek-v4-flash");
    expect(body.stream).toBe(true);
  });

  it("does not repeat an auto-paired closer that follows the cursor", async () => {
    const s = await start();
    const text = "const total = sum(items, 0);\nconst again = sum(│)\n";
    const at = await s.open("file:///pair.ts", text);
    const item = (await s.inline("file:///pair.ts", at)).items[0]!;
    const line = "const again = sum()";
    const after = `${line.slice(0, at.character)}${item.insertText as string}${line.slice(item.range!.end.character)}`;
    expect(after).toBe("const again = sum(items, 0)");
  });

  it("answers empty for an unknown document, a negative position, and then still works", async () => {
    const s = await start();
    expect((await s.inline("file:///nope.ts", { line: 0, character: 0 })).items).toEqual([]);
    const at = await s.open("file:///add.ts", ADD_TS);
    expect((await s.inline("file:///add.ts", { line: -1, character: 3 })).items).toEqual([]);
    expect((await s.inline("file:///add.ts", { line: 2, character: -4 })).items).toEqual([]);
    expect((await s.inline("file:///add.ts", at)).items[0]?.insertText).toBe("return a + b;");
  });

  it("clamps a position past the end of the line", async () => {
    const s = await start();
    await s.open("file:///add.ts", ADD_TS);
    const list = await s.inline("file:///add.ts", { line: 5, character: 999 });
    expect(list.items[0]?.insertText).toBe("return a + b;");
  });

  it("completes in a 10 MB buffer, sending only the window around the cursor", async () => {
    const s = await start();
    const line = "export const value = compute(alpha, beta, gamma); // an ordinary line of code\n";
    const big = line.repeat(Math.ceil((10 * 1024 * 1024) / line.length));
    const at = await s.open("file:///big.ts", `${big}${ADD_TS}`);
    expect((await s.inline("file:///big.ts", at)).items[0]?.insertText).toBe("return a + b;");
    const body = s.sim.requests[0]!.body as { prompt: string; suffix: string };
    expect(body.prompt.length + body.suffix.length).toBeLessThan(4096 * 3.5 + 1);
  });

  it("answers empty for a binary buffer without going upstream", async () => {
    const s = await start();
    await s.open("file:///bin.dat", "\0\0\x01ELF\0│\0\0", "plaintext");
    expect((await s.inline("file:///bin.dat", { line: 0, character: 6 })).items).toEqual([]);
    expect(s.sim.requests).toHaveLength(0);
  });
});

describe("popup completion", () => {
  it("gives a one-line variant first for a multi-line suggestion, as an incomplete list", async () => {
    const s = await start();
    const text = "function one() {\n  const a = 1;\n  return a;\n}\nfunction two() {│\n";
    const at = await s.open("file:///two.ts", text);
    const list = await s.completion("file:///two.ts", at);
    expect(list.isIncomplete).toBe(true);
    expect(list.items.length).toBe(2);
    const [line, block] = list.items;
    expect(line!.textEdit).toMatchObject({ newText: "\n  const a = 1;", range: { start: at, end: at } });
    // No closing brace below the cursor, so the block brings its own.
    expect(block!.textEdit).toMatchObject({ newText: "\n  const a = 1;\n  return a;\n}" });
    expect(line!.sortText! < block!.sortText!).toBe(true);
    expect(line!.preselect).toBe(true);
  });

  it("re-inserts the word being typed so popup filtering keeps the item", async () => {
    const s = await start();
    const text = "const alpha = compute(1);\nconst beta = comp│\n";
    const at = await s.open("file:///w.ts", text);
    const list = await s.completion("file:///w.ts", at);
    const item = list.items[0]!;
    expect(item.filterText?.startsWith("comp")).toBe(true);
    expect(item.textEdit).toMatchObject({
      range: { start: { line: 1, character: at.character - 4 }, end: at },
      newText: "compute(1);",
    });
  });
});
