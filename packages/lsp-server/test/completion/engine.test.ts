import type { FimChunk, FimRequest } from "@infill/core";
import { afterEach, describe, expect, it, vi } from "vitest";
import { CompletionEngine } from "../../src/completion/engine.js";
import { EMPTY_BLOCK } from "../../src/context/block.js";
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
    const { documents, engine } = setup(upstream);
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
    const context = { enabled: false, maxTokens: 0, exclude: [], holdout: 0 };
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
