import { describe, expect, it } from "vitest";
import { ADD_TS, CancellationTokenSource, sessions } from "../support/session.js";

const start = sessions();

describe("debounce and supersede", () => {
  it("sends one upstream request for a fast typing burst, answering the older requests empty at once", async () => {
    const s = await start({ initializationOptions: { debounceMs: 80 } });
    const uri = "file:///burst.ts";
    let at = await s.open(
      uri,
      "function add(a: number, b: number): number {\n  return a + b;\n}\n\nfunction mul(│",
    );
    const answers: Array<Promise<{ items: unknown[] }>> = [];
    for (const ch of "a: num") {
      answers.push(s.inline(uri, at));
      at = await s.type(uri, at, ch);
    }
    const last = s.inline(uri, at);
    const settled = await Promise.all(answers);
    for (const answer of settled) expect(answer.items).toEqual([]);
    const final = await last;
    expect(final.items).toHaveLength(1);
    expect(s.sim.requests).toHaveLength(1);
  });

  it("answers $/cancelRequest at once and aborts the upstream request", async () => {
    const s = await start({ sim: { latencyMs: 10_000 } });
    const uri = "file:///cancel.ts";
    const at = await s.open(uri, ADD_TS);
    const source = new CancellationTokenSource();
    const answer = s.inline(uri, at, source);
    await s.until(() => s.sim.requests.length === 1, "the upstream request");
    source.cancel();
    const result = await answer.catch((error: unknown) => error);
    expect(result).toMatchObject({ items: [] });
    // Answered before the upstream request could have ended (the sim takes 10 s): it was aborted, not awaited.
    await s.sim.requests[0]!.closed;
    expect(s.sim.requests[0]!.aborted).toBe(true);
  });

  it("aborts the older upstream request once its text and the user's typing part ways", async () => {
    const s = await start({ sim: { tokenMs: 50 } });
    const uri = "file:///newer.ts";
    const at = await s.open(uri, ADD_TS);
    const first = s.inline(uri, at);
    await s.until(() => s.sim.requests.length === 1, "the first upstream request");
    // The suggestion is "return a + b;": typing "zz" cannot be typed through it.
    const moved = await s.type(uri, at, "zz");
    const second = s.inline(uri, moved);
    expect((await first).items).toEqual([]);
    await s.sim.requests[0]!.closed;
    expect(s.sim.requests[0]!.aborted).toBe(true);
    await second;
    expect(s.sim.requests).toHaveLength(2);
  });
});

describe("ghost text and popup", () => {
  it("answers both kinds of request at the same position from one upstream request", async () => {
    const s = await start({ initializationOptions: { debounceMs: 50 } });
    const uri = "file:///both.ts";
    const at = await s.open(uri, ADD_TS);
    const [popup, ghost] = await Promise.all([s.completion(uri, at), s.inline(uri, at)]);
    expect(ghost.items[0]?.insertText).toBe("return a + b;");
    expect(popup.items.map((item) => item.label)).toContain("return a + b;");
    expect(s.sim.requests).toHaveLength(1);
  });
});

describe("type-through", () => {
  it("serves the rest of a shown suggestion from memory while the user types it", async () => {
    const s = await start();
    const uri = "file:///tt.ts";
    let at = await s.open(uri, ADD_TS);
    const shown = (await s.inline(uri, at)).items[0]!.insertText as string;
    expect(shown).toBe("return a + b;");
    for (let i = 0; i < 6; i++) {
      at = await s.type(uri, at, shown[i]!);
      const list = await s.inline(uri, at);
      expect(list.items[0]?.insertText).toBe(shown.slice(i + 1));
      expect(list.items[0]?.range).toEqual({ start: at, end: at });
    }
    expect(s.sim.requests).toHaveLength(1);
  });

  it("forgets a suggestion once the text before it changes, even if the cursor's line looks the same", async () => {
    const s = await start();
    const uri = "file:///shifted.ts";
    const text =
      "function add(a, b) {\n  return a + b;\n}\nfunction sub(a, b) {\n  │\n}\nfunction mul(x) {\n  \n}\n";
    const at = await s.open(uri, text);
    expect((await s.inline(uri, at)).items[0]?.insertText).toBe("return a + b;");
    // Delete `add` (three lines above the suggestion): mul's empty body line now sits where sub's was.
    await s.client.sendNotification("textDocument/didChange", {
      textDocument: { uri, version: 2 },
      contentChanges: [
        { range: { start: { line: 0, character: 0 }, end: { line: 3, character: 0 } }, text: "" },
      ],
    });
    const answer = await s.inline(uri, { line: 4, character: 2 });
    expect(s.sim.requests).toHaveLength(2);
    expect(answer.items[0]?.insertText).not.toBe("return a + b;");
  });

  it("keeps serving from memory for a client that sends the whole text on every keystroke", async () => {
    const s = await start();
    const uri = "file:///full.ts";
    const at = await s.open(uri, ADD_TS);
    expect((await s.inline(uri, at)).items[0]?.insertText).toBe("return a + b;");
    const text = ADD_TS.replace("│", "ret");
    await s.client.sendNotification("textDocument/didChange", {
      textDocument: { uri, version: 2 },
      contentChanges: [{ text }],
    });
    const next = await s.inline(uri, { line: at.line, character: at.character + 3 });
    expect(next.items[0]?.insertText).toBe("urn a + b;");
    expect(s.sim.requests).toHaveLength(1);
  });

  it("goes upstream again once the typing leaves the suggestion", async () => {
    const s = await start();
    const uri = "file:///tt2.ts";
    let at = await s.open(uri, ADD_TS);
    await s.inline(uri, at);
    at = await s.type(uri, at, "x");
    await s.inline(uri, at);
    expect(s.sim.requests).toHaveLength(2);
  });

  it("lets a still-streaming request serve the next keystroke", async () => {
    const s = await start({ sim: { tokenMs: 40 } });
    // Learn what the sim will say for this text (it is deterministic), on another document.
    const learned = await s.open("file:///learn.ts", ADD_TS);
    const expected = (await s.inline("file:///learn.ts", learned)).items[0]!.insertText as string;
    const uri = "file:///shared.ts";
    const at = await s.open(uri, ADD_TS);
    const first = s.inline(uri, at);
    await s.until(() => s.sim.requests.length === 2, "the streaming request");
    const next = await s.type(uri, at, expected[0]!);
    const second = await s.inline(uri, next);
    expect((await first).items).toEqual([]);
    expect(second.items[0]?.insertText).toBe(expected.slice(1));
    expect(s.sim.requests).toHaveLength(2);
  });
});

describe("line policy", () => {
  it("asks the server to stop at the line break in single-line mode and inserts one line", async () => {
    const s = await start({ initializationOptions: { debounceMs: 0, lineMode: "single-line" } });
    const uri = "file:///line.ts";
    const text = "function add(a, b) {\n  const s = a + b;\n  return s;\n}\nfunction sub(a, b) {\n  │\n}\n";
    const at = await s.open(uri, text);
    const list = await s.inline(uri, at);
    expect(list.items[0]?.insertText).toBe("const s = a + b;");
    const body = s.sim.requests[0]!.body as { stop?: string[]; stream?: boolean };
    expect(body.stop).toEqual(["\n"]);
    // Streamed all the same: a request still in flight when the user types on is followed or dropped on its
    // first text (see resilience.test.ts).
    expect(body.stream).toBe(true);
  });

  it("completes the whole block on an empty line in auto mode", async () => {
    const s = await start();
    const uri = "file:///block.ts";
    const text = "function add(a, b) {\n  const s = a + b;\n  return s;\n}\nfunction sub(a, b) {\n  │\n}\n";
    const at = await s.open(uri, text);
    const list = await s.inline(uri, at);
    expect(list.items[0]?.insertText).toBe("const s = a + b;\n  return s;");
    expect((s.sim.requests[0]!.body as { stop?: string[] }).stop).toBeUndefined();
  });
});

describe("prompt caching", () => {
  it("keeps the prompt prefix stable while typing so the upstream cache hits", async () => {
    const lines = Array.from(
      { length: 400 },
      (_, i) => `export const value${i} = compute(${i}, "${"x".repeat(i % 17)}");`,
    );
    const s = await start({ initializationOptions: { debounceMs: 0, metrics: true } });
    const uri = "file:///big.ts";
    let at = await s.open(uri, `${lines.join("\n")}\n│\n`);
    await s.inline(uri, at);
    for (const word of ["export ", "function ", "later"]) {
      at = await s.type(uri, at, word);
      await s.inline(uri, at);
    }
    const usages = s
      .messages("$/infill/metrics")
      .map(
        (m) =>
          (m.params as { usage: { prompt_cache_hit_tokens: number; prompt_tokens: number } | null }).usage,
      );
    const upstream = usages.filter((u) => u !== null);
    expect(upstream.length).toBeGreaterThanOrEqual(2);
    const later = upstream.slice(1);
    for (const usage of later)
      expect(usage!.prompt_cache_hit_tokens / usage!.prompt_tokens).toBeGreaterThan(0.8);
  });
});
