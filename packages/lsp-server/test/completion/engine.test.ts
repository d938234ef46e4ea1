import type { FimChunk, FimRequest } from "@infill/core";
import { afterEach, describe, expect, it, vi } from "vitest";
import { CompletionEngine } from "../../src/completion/engine.js";
import { EMPTY_BLOCK } from "../../src/context/block/block.js";
import type { ContextSource } from "../../src/context/context-loader.js";
import { Documents } from "../../src/documents/documents.js";
import { defaultSettings, type Settings } from "../../src/settings/settings.js";
import { UpstreamHealth } from "../../src/upstream/health.js";
import type { Upstream } from "../../src/upstream/upstream.js";

const quiet = { error() {}, warn() {}, info() {}, debug() {} };

/** An upstream that streams `text` in pieces and counts how many it had to produce. */
function scripted(pieces: string[]) {
  const seen = { requests: [] as FimRequest[], produced: 0, aborted: false };
  const upstream: Upstream = {
    complete() {
      throw new Error("the engine streams blocks");
    },
    async *stream(request, { signal }) {
      seen.requests.push(request);
      signal.addEventListener("abort", () => {
        seen.aborted = true;
      });
      for (const text of pieces) {
        seen.produced++;
        yield chunk(text);
      }
    },
  };
  return { upstream, seen };
}

function chunk(text: string): FimChunk {
  return { text, finish_reason: null, usage: undefined, raw: {} };
}

function setup(upstream: Upstream, overrides: Partial<Settings> = {}, context?: ContextSource) {
  const documents = new Documents();
  const settings = { ...defaultSettings({}), debounceMs: 0, ...overrides };
  const engine = new CompletionEngine({
    documents,
    upstream: () => upstream,
    settings: () => settings,
    health: new UpstreamHealth(),
    onFailure: () => {},
    log: quiet,
    ...(context ? { context } : {}),
  });
  return { documents, engine };
}

describe("CompletionEngine streaming", () => {
  it("stops reading the stream once the suggestion is settled", async () => {
    const { upstream, seen } = scripted([
      "return a",
      " + b;\n",
      "}\n",
      "\nfunction",
      " more() {",
      "}\n",
      "x",
      "y",
    ]);
    const { documents, engine } = setup(upstream, { hotStreak: { maxTokens: 0 } });
    documents.didOpen({
      textDocument: {
        uri: "file:///a.ts",
        languageId: "typescript",
        version: 1,
        text: "function f(a, b) {\n  \n}\n",
      },
    });
    const answer = await engine.complete("file:///a.ts", { line: 1, character: 2 });
    expect(answer).toMatchObject({ kind: "suggestion", text: "return a + b;" });
    // The dedent line "}" settles it: nothing after the third piece is read.
    expect(seen.produced).toBe(3);
  });

  it("with a hot streak, answers as soon as settled and reads on, up to its budget, into memory", async () => {
    const { upstream, seen } = scripted([
      "return a",
      " + b;\n",
      "}\n",
      "\nfunction",
      " more() {",
      "}\n",
      "x",
      "y",
    ]);
    const { documents, engine } = setup(upstream, { hotStreak: { maxTokens: 3 } });
    documents.didOpen({
      textDocument: {
        uri: "file:///a.ts",
        languageId: "typescript",
        version: 1,
        text: "function f(a, b) {\n  \n}\n",
      },
    });
    const answer = await engine.complete("file:///a.ts", { line: 1, character: 2 });
    expect(answer).toMatchObject({ kind: "suggestion", text: "return a + b;" });
    // Three pieces past the one that settled it.
    await until(() => seen.produced === 6);
    expect(seen.aborted).toBe(false);
  });

  it("answers no suggestion for whitespace-only output", async () => {
    const { upstream } = scripted(["   ", "\n"]);
    const { documents, engine } = setup(upstream);
    documents.didOpen({
      textDocument: { uri: "file:///b.ts", languageId: "typescript", version: 1, text: "x = " },
    });
    expect(await engine.complete("file:///b.ts", { line: 0, character: 4 })).toEqual({
      kind: "none",
      reason: "empty",
    });
  });
});

describe("CompletionEngine and the concurrency cap", () => {
  it("chooses a queued request's context before it waits for a slot, and sends it once one frees up", async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const sent: string[] = [];
    const upstream: Upstream = {
      complete() {
        throw new Error("the engine streams");
      },
      async *stream(request) {
        sent.push(request.prompt);
        if (sent.length === 1) await held;
        yield chunk("return a + b;\n}\n");
      },
    };
    const chosen: string[] = [];
    const { documents, engine } = setup(
      upstream,
      { maxConcurrent: 1 },
      {
        async block(doc) {
          chosen.push(doc.uri);
          return { block: EMPTY_BLOCK, ms: 0, recomputed: true };
        },
      },
    );
    for (const name of ["a", "b"]) {
      documents.didOpen({
        textDocument: {
          uri: `file:///${name}.ts`,
          languageId: "typescript",
          version: 1,
          text: `// ${name}\nf(\n  \n`,
        },
      });
    }
    const first = engine.complete("file:///a.ts", { line: 2, character: 2 });
    await until(() => sent.length === 1);
    const second = engine.complete("file:///b.ts", { line: 2, character: 2 });
    await until(() => chosen.length === 2);
    expect(engine.upstreamLoad).toEqual({ inFlight: 1, waiting: 1 });
    expect(sent).toHaveLength(1);
    release();
    expect(await first).toMatchObject({ kind: "suggestion" });
    expect(await second).toMatchObject({ kind: "suggestion" });
    expect(sent.map((prompt) => prompt.split("\n")[0])).toEqual(["// a", "// b"]);
  });
});

/** Resolves once `condition()` holds, checking after each turn of the event loop. */
async function until(condition: () => boolean): Promise<void> {
  for (let turns = 0; !condition(); turns++) {
    if (turns > 10_000) throw new Error("condition never held");
    await new Promise((resolve) => setImmediate(resolve));
  }
}

describe("CompletionEngine's adaptive debounce, on a fake clock", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  /** A typist writes four 6-key bursts, 35 ms between keys: per burst, its requests and last key → request. */
  async function typeBursts(overrides: Partial<Settings>) {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "performance"] });
    const sentAt: number[] = [];
    const upstream: Upstream = {
      complete() {
        throw new Error("the engine streams");
      },
      async *stream() {
        sentAt.push(performance.now());
        // Nothing the next keys will type: every burst needs a request of its own.
        yield chunk("// TODO\n");
      },
    };
    const context = { enabled: false, maxTokens: 0, exclude: [], holdout: 0, typeDefinitionMs: 50 };
    const { documents, engine } = setup(upstream, { debounceMs: 100, context, ...overrides });
    const uri = "file:///typist.ts";
    documents.didOpen({ textDocument: { uri, languageId: "typescript", version: 1, text: "\n".repeat(8) } });
    let version = 1;
    const bursts: Array<{ requests: number; lastKeyToRequestMs: number | undefined }> = [];
    for (const [line, word] of ["qzjxkv", "wyqkzj", "jxwvqy", "kvzyjw"].entries()) {
      const before = sentAt.length;
      let lastKey = 0;
      for (const [i, ch] of [...word].entries()) {
        const at = { line, character: i };
        version++;
        documents.didChange({
          textDocument: { uri, version },
          contentChanges: [{ range: { start: at, end: at }, text: ch }],
        });
        engine.didChange(uri, at);
        lastKey = performance.now();
        void engine.complete(uri, { line, character: i + 1 });
        await vi.advanceTimersByTimeAsync(35);
      }
      await vi.advanceTimersByTimeAsync(300);
      const sent = sentAt.slice(before);
      bursts.push({
        requests: sent.length,
        lastKeyToRequestMs: sent.length ? sent.at(-1)! - lastKey : undefined,
      });
    }
    return bursts;
  }

  it("sends one request per burst of a 35 ms typist, 36 ms after the last key instead of 100", async () => {
    // The sixth key of the first burst already knows five gaps.
    const learned = { requests: 1, lastKeyToRequestMs: 36 };
    expect(await typeBursts({})).toEqual([learned, learned, learned, learned]);
    vi.useRealTimers();
    const fixed = { requests: 1, lastKeyToRequestMs: 100 };
    expect(await typeBursts({ adaptiveDebounce: false })).toEqual([fixed, fixed, fixed, fixed]);
  });
});

describe("CompletionEngine's hedged follow, on a fake clock", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  const uri = "file:///hedge.ts";

  /**
   * An upstream whose n-th request (from 0) waits `firstTokenMs[n]` before it writes `texts[n]`; it records when
   * each request was aborted.
   */
  function timed(firstTokenMs: number[], texts: string[]) {
    const aborted: Array<number | undefined> = [];
    const upstream: Upstream = {
      complete() {
        throw new Error("the engine streams");
      },
      async *stream(_request, { signal }) {
        const n = aborted.length;
        aborted.push(undefined);
        signal.addEventListener("abort", () => {
          aborted[n] = performance.now();
        });
        await new Promise((resolve) => setTimeout(resolve, firstTokenMs[n] ?? 0));
        if (signal.aborted) throw new Error("aborted");
        yield chunk(texts[n] ?? "");
      },
    };
    return { upstream, aborted };
  }

  /** Ask at the block's cursor, type `typed` 100 ms later, ask again: the second request's answer and the upstream. */
  async function typeDuringFirstToken(firstTokenMs: number[], texts: string[], typed: string, warmups = 0) {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "performance"] });
    const { upstream, aborted } = timed(firstTokenMs, texts);
    const { documents, engine } = setup(upstream, {
      context: { enabled: false, maxTokens: 0, exclude: [], holdout: 0, typeDefinitionMs: 50 },
    });
    // Earlier completions in another document: the server measures their time to first token.
    for (let n = 0; n < warmups; n++) {
      const other = `file:///warm-${n}.ts`;
      documents.didOpen({
        textDocument: { uri: other, languageId: "typescript", version: 1, text: "f(\n  \n" },
      });
      const done = engine.complete(other, { line: 1, character: 2 });
      await vi.advanceTimersByTimeAsync(1_000);
      await done;
    }
    documents.didOpen({
      textDocument: { uri, languageId: "typescript", version: 1, text: "function f(a, b) {\n  \n}\n" },
    });
    void engine.complete(uri, { line: 1, character: 2 });
    await vi.advanceTimersByTimeAsync(100);
    documents.didChange({
      textDocument: { uri, version: 2 },
      contentChanges: [
        { range: { start: { line: 1, character: 2 }, end: { line: 1, character: 2 } }, text: typed },
      ],
    });
    engine.didChange(uri, { line: 1, character: 2 });
    const answer = engine.complete(uri, { line: 1, character: 2 + typed.length });
    await vi.advanceTimersByTimeAsync(2_000);
    return { answer: await answer, aborted };
  }

  it("a stream whose first token is late: a fresh request goes out beside it and serves, the late one is aborted", async () => {
    // The first stream's text comes at 800 ms (and would not fit "x"); the fresh one's at 100 ms.
    const { answer, aborted } = await typeDuringFirstToken(
      [800, 100],
      ["return a + b;\n}\n", "yz = 1;\n}\n"],
      "x",
    );
    expect(answer).toMatchObject({ kind: "suggestion", source: "upstream", text: "yz = 1;" });
    // Hedged at 400 ms after the first stream started (no first token measured yet: the default), answered 100 ms
    // later: 400 ms after the second request, where following alone would have answered after 800 + 100 ms.
    expect((answer as { latencyMs: number }).latencyMs).toBe(400);
    expect(aborted).toHaveLength(2);
    expect(aborted[0]).toBeDefined();
    expect(aborted[1]).toBeUndefined();
  });

  it("is late by the first tokens the server measured: 200 ms here, not the 400 ms assumed before any", async () => {
    const { answer } = await typeDuringFirstToken(
      [200, 200, 800, 100],
      ["x;\n", "x;\n", "return a + b;\n}\n", "yz = 1;\n}\n"],
      "x",
      2,
    );
    // Hedged 200 ms after the late stream started (100 ms after the second request), answered 100 ms later.
    expect(answer).toMatchObject({ kind: "suggestion", source: "upstream", text: "yz = 1;" });
    expect((answer as { latencyMs: number }).latencyMs).toBe(200);
  });

  it("a late stream that comes first and fits serves, and the fresh one is aborted", async () => {
    // Late (600 ms > 400), but the fresh request is slower still (1000 ms): the first to serve wins.
    const { answer, aborted } = await typeDuringFirstToken(
      [600, 1_000],
      ["return a + b;\n}\n", "zz;\n}\n"],
      "re",
    );
    expect(answer).toMatchObject({ kind: "suggestion", source: "shared", text: "turn a + b;" });
    expect(aborted).toHaveLength(2);
    expect(aborted[0]).toBeUndefined();
    expect(aborted[1]).toBeDefined();
  });

  it("a stream whose first token is on time is followed alone", async () => {
    const { answer, aborted } = await typeDuringFirstToken(
      [250, 100],
      ["return a + b;\n}\n", "zz;\n}\n"],
      "re",
    );
    expect(answer).toMatchObject({ kind: "suggestion", source: "shared", text: "turn a + b;" });
    expect(aborted).toHaveLength(1);
  });

  it("a stream on time whose text parts ways with the typing is dropped, and a fresh request goes at once", async () => {
    const { answer, aborted } = await typeDuringFirstToken(
      [250, 100],
      ["return a + b;\n}\n", "yz = 1;\n}\n"],
      "x",
    );
    expect(answer).toMatchObject({ kind: "suggestion", source: "upstream", text: "yz = 1;" });
    // It followed until the first token (150 ms after the second request), then 100 ms for the fresh one.
    expect((answer as { latencyMs: number }).latencyMs).toBe(250);
    expect(aborted).toHaveLength(2);
  });
});
