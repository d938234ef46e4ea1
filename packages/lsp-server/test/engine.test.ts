import type { FimChunk, FimRequest } from "@infill/core";
import { describe, expect, it } from "vitest";
import { EMPTY_BLOCK } from "../src/context/block.js";
import { Documents } from "../src/documents.js";
import { CompletionEngine, type ContextSource, type Upstream } from "../src/engine.js";
import { UpstreamHealth } from "../src/health.js";
import { defaultSettings, type Settings } from "../src/settings.js";

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
