// Garbage in, server alive: thousands of random and malformed JSON-RPC messages to the built server over stdio,
// then a check that it still answers correctly.
import { existsSync } from "node:fs";
import { type Sim, startSim } from "@infill/sim";
import fc from "fast-check";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { BIN, RawClient } from "../support/raw-client.js";
import { ADD_TS, fixture } from "../support/session.js";

const KEY = "sk-fuzz-0123456789abcdef";
/** A fixed seed, so that a failure in CI replays; INFILL_FUZZ_SEED tries others. */
const SEED = Number(process.env.INFILL_FUZZ_SEED ?? 20_261_123);
const MESSAGES = 3_000;

const METHODS = [
  "textDocument/inlineCompletion",
  "textDocument/completion",
  "textDocument/didOpen",
  "textDocument/didChange",
  "textDocument/didClose",
  "textDocument/didSave",
  "workspace/didChangeConfiguration",
  "workspace/didChangeWatchedFiles",
  "workspace/didChangeWorkspaceFolders",
  "$/cancelRequest",
  "$/setTrace",
  "initialize",
  "initialized",
  "infill/unknown",
  "textDocument/hover",
];
const URIS = [
  "file:///fuzz/a.ts",
  "file:///fuzz/b.py",
  "file:///fuzz/closed.ts",
  "untitled:1",
  "",
  "not a uri",
];

/** Numbers that break careless arithmetic: huge, negative, fractional, past 2^53, past 2^31. */
const number = fc.oneof(
  fc.integer({ min: -3, max: 40 }),
  fc.constantFrom(-1, 2 ** 31, 2 ** 53 + 1, 1e308, -1e308, 0.5, Number.MAX_SAFE_INTEGER),
  fc.double({ noNaN: true }),
);
/** Any JSON value, now and then of the wrong type where a field is expected. */
const junk = fc.oneof(
  number,
  fc.string(),
  fc.boolean(),
  fc.constant(null),
  fc.json().map((j) => JSON.parse(j)),
);
const position = fc.oneof(
  fc.record({ line: number, character: number }),
  fc.record({ line: junk }, { requiredKeys: [] }),
  junk,
);
const range = fc.oneof(fc.record({ start: position, end: position }), junk);
const text = fc.oneof(
  fc.string({ maxLength: 200 }),
  fc.constant(ADD_TS.replace("│", "")),
  fc.string({ unit: "binary", maxLength: 100 }),
  fc.constant("\0\uFFFF\uD800\r\n\r"),
);
const uri = fc.oneof(fc.constantFrom(...URIS), junk);
const textDocument = fc.oneof(
  fc.record({
    uri,
    languageId: fc.constantFrom("typescript", "python", "", "markdown"),
    version: number,
    text,
  }),
  fc.record({ uri, version: number }, { requiredKeys: [] }),
  junk,
);
const params = fc.oneof(
  fc.record({ textDocument, position, context: fc.oneof(fc.record({ triggerKind: number }), junk) }),
  fc.record({
    textDocument,
    contentChanges: fc.oneof(fc.array(fc.oneof(fc.record({ range, text }), fc.record({ text }), junk)), junk),
  }),
  fc.record({ settings: fc.oneof(junk, fc.record({ infill: fc.dictionary(fc.string(), junk) })) }),
  fc.record({ id: junk }),
  junk,
);

/** One thing written to the server's stdin: a well-formed request or notification, or a broken frame. */
const message = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({ kind: fc.constant("request"), method: fc.constantFrom(...METHODS), params }),
  },
  {
    weight: 4,
    arbitrary: fc.record({ kind: fc.constant("notify"), method: fc.constantFrom(...METHODS), params }),
  },
  {
    weight: 1,
    arbitrary: fc.oneof(
      // A body that is not JSON, or JSON that is not a message.
      fc.string().map((body) => frame(body)),
      junk.map((value) => frame(JSON.stringify(value) ?? "null")),
      fc
        .record({ id: junk, method: junk, params: junk })
        .map((m) => frame(JSON.stringify({ jsonrpc: "2.0", ...m }))),
      // Headers without a length, with one that is not a number, with an unknown charset.
      fc.constantFrom(
        "X-Nonsense: 1\r\n\r\n",
        "Content-Length: many\r\n\r\n",
        "no colon here\r\n\r\n",
        frame("{}", "Content-Type: application/vscode-jsonrpc; charset=latin1\r\n"),
      ),
    ),
  },
);

function frame(body: string, extraHeaders = ""): string {
  return `Content-Length: ${Buffer.byteLength(body)}\r\n${extraHeaders}\r\n${body}`;
}

let client: RawClient | undefined;
let sim: Sim | undefined;
beforeAll(() => {
  if (!existsSync(BIN)) throw new Error(`${BIN} is missing: build first (npx --yes pnpm@10 build)`);
});
afterEach(async () => {
  client?.child.kill();
  client = undefined;
  await sim?.close();
  sim = undefined;
});

describe("garbage in, server alive", () => {
  it(`survives ${MESSAGES} random and malformed messages and still answers correctly`, async () => {
    sim = await startSim({ keepRequests: 0 });
    const c = new RawClient({ DEEPSEEK_API_KEY: KEY, INFILL_BASE_URL: sim.url });
    client = c;
    c.send({
      id: 0,
      method: "initialize",
      params: { processId: null, rootUri: null, capabilities: {}, initializationOptions: { debounceMs: 0 } },
    });
    await c.response(0);
    c.send({ method: "initialized", params: {} });

    // Ids of their own, which no junk message reuses.
    let n = 0;
    const requests: string[] = [];
    for (const m of fc.sample(message, { numRuns: MESSAGES, seed: SEED })) {
      if (typeof m === "string") c.write(m);
      else if (m.kind === "request") {
        const id = `fuzz-${n++}`;
        requests.push(id);
        c.send({ id, method: m.method, params: m.params });
      } else c.send({ method: m.method, params: m.params });
    }

    // Afterwards: a document opened now gets its completion, an unknown method its error, a closed document nothing.
    const { text, position } = fixture(ADD_TS);
    c.send({
      method: "textDocument/didOpen",
      params: { textDocument: { uri: "file:///after.ts", languageId: "typescript", version: 1, text } },
    });
    c.send({
      id: "after-1",
      method: "textDocument/inlineCompletion",
      params: inline("file:///after.ts", position),
    });
    c.send({ id: "after-2", method: "infill/doesNotExist", params: {} });
    c.send({
      id: "after-3",
      method: "textDocument/inlineCompletion",
      params: inline("file:///gone.ts", position),
    });
    const answer = (await c.response("after-1", 20_000)).result as { items: Array<{ insertText: string }> };
    expect(answer.items[0]?.insertText).toBe("return a + b;");
    expect((await c.response("after-2")).error).toMatchObject({ code: -32601 });
    expect((await c.response("after-3")).result).toEqual({ items: [] });

    // Every well-formed request got exactly one answer, and the server is still running.
    const answered = new Map<unknown, number>();
    for (const m of c.received) if (!("method" in m)) answered.set(m.id, (answered.get(m.id) ?? 0) + 1);
    expect(requests.filter((id) => answered.get(id) !== 1)).toEqual([]);
    expect(c.child.exitCode).toBeNull();
    // Nothing reached the process's last-resort handlers, and the key was never sent back.
    expect(c.stderr).toBe("");
    expect(JSON.stringify(c.received)).not.toContain(KEY);
  }, 60_000);
});

function inline(uri: string, position: { line: number; character: number }) {
  return { textDocument: { uri }, position, context: { triggerKind: 2 } };
}
