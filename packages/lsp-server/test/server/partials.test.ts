import { describe, expect, it } from "vitest";
import { partialFeed } from "../../src/completion/partial-feed.js";
import type { PostProcessContext } from "../../src/completion/postprocess.js";
import { PARTIAL_NOTIFICATION, partialResultToken } from "../../src/protocol/partial-results.js";
import { ADD_TS, CancellationTokenSource, type Session, sessions } from "../support/session.js";

const start = sessions();

/** A function whose body @infill/sim copies into `sub` as a block of ten lines and a closer, line by line. */
const BODY = Array.from(
  { length: 9 },
  (_, i) => `  const s${i + 1} = ${i === 0 ? "a + b" : `s${i} * ${i + 1}`};`,
);
const BLOCK_TS = `function add(a: number, b: number): number {
${BODY.join("\n")}
  return s9;
}

function sub(a: number, b: number): number {│
`;
const BLOCK = `\n${BODY.join("\n")}\n  return s9;\n}`;

const WANTS_PARTIALS = { experimental: { infill: { partialResults: true } } };

interface Partial {
  token: string | number;
  items: Array<{ insertText: string; range: unknown }>;
}

/** The partial results received for `token`, in order. */
function partials(s: Session, token: string | number): Partial[] {
  return s
    .messages(PARTIAL_NOTIFICATION)
    .map((n) => n.params as Partial)
    .filter((p) => p.token === token);
}

/** An inline completion request carrying `partialResultToken`. */
function inline(
  s: Session,
  uri: string,
  position: { line: number; character: number },
  token: string | number,
  cancel?: CancellationTokenSource,
) {
  const params = { textDocument: { uri }, position, context: { triggerKind: 2 }, partialResultToken: token };
  return (
    cancel
      ? s.client.sendRequest("textDocument/inlineCompletion", params, cancel.token)
      : s.client.sendRequest("textDocument/inlineCompletion", params)
  ) as Promise<{ items: Array<{ insertText: string; range: unknown }> }>;
}

/** Is `partial` (lines) the start of `text` (lines)? */
function startsWithLines(text: string, partial: string): boolean {
  const want = partial.split("\n");
  return text.split("\n").slice(0, want.length).join("\n") === partial;
}

/** Partial results for `token` that arrived after the answer to the request (`answered` marks its arrival). */
function lateFor(s: Session, token: string) {
  let seen: number | undefined;
  return {
    answered: () => {
      seen = s.notifications.length;
    },
    late: () =>
      s.notifications
        .slice(seen ?? s.notifications.length)
        .filter((n) => n.method === PARTIAL_NOTIFICATION && (n.params as Partial).token === token).length,
  };
}

describe("partialResultToken", () => {
  it.each([
    { capabilities: WANTS_PARTIALS, params: { partialResultToken: "t" }, want: "t" },
    { capabilities: WANTS_PARTIALS, params: { partialResultToken: 7 }, want: 7 },
    { capabilities: WANTS_PARTIALS, params: {}, want: undefined },
    { capabilities: WANTS_PARTIALS, params: { partialResultToken: 1.5 }, want: undefined },
    { capabilities: WANTS_PARTIALS, params: { partialResultToken: { a: 1 } }, want: undefined },
    { capabilities: {}, params: { partialResultToken: "t" }, want: undefined },
    {
      capabilities: { experimental: { infill: { partialResults: "yes" } } },
      params: { partialResultToken: "t" },
      want: undefined,
    },
    { capabilities: undefined, params: undefined, want: undefined },
  ])("$capabilities with $params → $want", ({ capabilities, params, want }) => {
    expect(partialResultToken(capabilities, params)).toBe(want);
  });
});

describe("partialFeed", () => {
  const ctx: PostProcessContext = {
    lineBefore: "function f() {",
    lineAfter: "",
    suffix: "\n",
    mode: "multi-line",
  };
  /** Feed `pieces` one by one to a stream and collect what is emitted. */
  const feed = (pieces: string[], view?: (settled: string) => string | null) => {
    const source = { raw: "", ctx };
    const seen: string[] = [];
    const listener = partialFeed(source, (text) => seen.push(text), view);
    for (const piece of pieces) {
      source.raw += piece;
      listener();
    }
    return seen;
  };

  it("emits each settled text once, as lines complete", () => {
    expect(feed(["\n", "  a", "();", "\n  b", "();\n", "}\n", "\nmore\n"])).toEqual([
      "\n  a();",
      "\n  a();\n  b();",
      "\n  a();\n  b();\n}",
    ]);
  });

  it("emits what the view shows, and nothing it hides or that would not extend what was emitted", () => {
    const view = (settled: string) => (settled.includes("b") ? settled.slice(1) : settled);
    expect(feed(["\n  a();\n", "  b();\n", "  c();\n"], view)).toEqual(["\n  a();"]);
    expect(feed(["\n  a();\n", "  b();\n"], () => null)).toEqual([]);
  });
});

describe("partial results of a streaming block", () => {
  it("sends whole, post-processed lines as they settle, each extending the last, then the unchanged answer", async () => {
    const s = await start({ sim: { tokenMs: 5 }, capabilities: WANTS_PARTIALS });
    expect(s.initializeResult.capabilities.experimental).toEqual(WANTS_PARTIALS.experimental);
    const uri = "file:///block.ts";
    const at = await s.open(uri, BLOCK_TS);
    const answer = await inline(s, uri, at, "p1");
    expect(answer.items[0]?.insertText).toBe(BLOCK);

    const texts = partials(s, "p1").map((p) => {
      expect(p.items).toHaveLength(1);
      expect(p.items[0]!.range).toEqual({ start: at, end: at });
      return p.items[0]!.insertText;
    });
    // The line break before the block shows with its first line; then one more line each time.
    expect(texts).toHaveLength(BODY.length + 1);
    expect(texts[0]).toBe(`\n${BODY[0]}`);
    for (const [i, text] of texts.entries()) {
      expect(startsWithLines(BLOCK, text), text).toBe(true);
      if (i > 0) expect(text.split("\n").length).toBeGreaterThan(texts[i - 1]!.split("\n").length);
    }

    // The same request from a client that asked for no partials gets the very same answer.
    const plain = await start({ sim: { tokenMs: 5 } });
    const plainAt = await plain.open(uri, BLOCK_TS);
    expect(await plain.inline(uri, plainAt)).toEqual(answer);
  });

  it("sends none to a client without the capability, nor for a request without a token", async () => {
    const s = await start({ sim: { tokenMs: 2 } });
    const uri = "file:///quiet.ts";
    const at = await s.open(uri, BLOCK_TS);
    expect((await inline(s, uri, at, "p1")).items[0]?.insertText).toBe(BLOCK);
    expect(s.initializeResult.capabilities.experimental).toEqual(WANTS_PARTIALS.experimental);

    const asked = await start({ sim: { tokenMs: 2 }, capabilities: WANTS_PARTIALS });
    const at2 = await asked.open(uri, BLOCK_TS);
    expect((await asked.inline(uri, at2)).items[0]?.insertText).toBe(BLOCK);
    expect(s.messages(PARTIAL_NOTIFICATION)).toEqual([]);
    expect(asked.messages(PARTIAL_NOTIFICATION)).toEqual([]);
  });

  it("sends none for a one-line suggestion (its line is the answer)", async () => {
    const s = await start({ capabilities: WANTS_PARTIALS });
    const uri = "file:///line.ts";
    const at = await s.open(uri, ADD_TS.replace("│", "return │"));
    expect((await inline(s, uri, at, "p1")).items[0]?.insertText).toBe("a + b;");
    expect(s.messages(PARTIAL_NOTIFICATION)).toEqual([]);
  });

  it("sends none once the request is cancelled, and the upstream request is aborted", async () => {
    const s = await start({ sim: { tokenMs: 20 }, capabilities: WANTS_PARTIALS });
    const uri = "file:///cancel.ts";
    const at = await s.open(uri, BLOCK_TS);
    const late = lateFor(s, "p1");
    const cancel = new CancellationTokenSource();
    const answer = inline(s, uri, at, "p1", cancel).then((list) => {
      late.answered();
      return list;
    });
    await s.until(() => partials(s, "p1").length === 1, "the first partial result");
    cancel.cancel();
    expect((await answer).items).toEqual([]);
    await s.sim.requests[0]!.closed;
    expect(s.sim.requests[0]!.aborted).toBe(true);
    // Everything the server sent after the answer has arrived by now (one connection, in order).
    await s.client.sendRequest("textDocument/inlineCompletion", {
      textDocument: { uri: "file:///not-open.ts" },
      position: at,
      context: { triggerKind: 2 },
    });
    expect(late.late()).toBe(0);
    expect(partials(s, "p1").length).toBeLessThan(BODY.length);
  });

  it("sends none to a superseded request; the newer one picks up the stream's lines from its own cursor", async () => {
    const s = await start({ sim: { tokenMs: 10 }, capabilities: WANTS_PARTIALS });
    const uri = "file:///super.ts";
    const at = await s.open(uri, BLOCK_TS);
    const late = lateFor(s, "old");
    const first = inline(s, uri, at, "old").then((list) => {
      late.answered();
      return list;
    });
    await s.until(() => partials(s, "old").length === 2, "two partial results");
    // The user types the block's line break and indentation: the next request follows the same stream.
    const typed = "\n  ";
    const moved = await s.type(uri, at, typed);
    const second = await inline(s, uri, moved, "new");
    expect((await first).items).toEqual([]);
    expect(late.late()).toBe(0);
    const rest = BLOCK.slice(typed.length);
    expect(second.items[0]?.insertText).toBe(rest);
    expect(s.sim.requests).toHaveLength(1);
    const texts = partials(s, "new").map((p) => p.items[0]!.insertText);
    expect(texts.length).toBeGreaterThan(1);
    // At once what had settled already (two lines, seen past the typed text), then growing.
    expect(startsWithLines(texts[0]!, `${BODY[0]!.trimStart()}\n${BODY[1]}`), texts[0]).toBe(true);
    for (const text of texts) expect(startsWithLines(rest, text), text).toBe(true);
    for (const p of partials(s, "new")) expect(p.items[0]!.range).toEqual({ start: moved, end: moved });
  });
});
