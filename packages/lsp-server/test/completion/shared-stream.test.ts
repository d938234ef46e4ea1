import type { FimChunk, FimRequest, Usage } from "@infill/core";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { Anchor } from "../../src/completion/anchor.js";
import { none } from "../../src/completion/answer.js";
import type { PostProcessContext } from "../../src/completion/postprocess.js";
import { ADOPTION_GRACE_MS, SharedStream, type StreamHooks } from "../../src/completion/shared-stream.js";
import { Slot } from "../../src/completion/slot.js";
import type { SyntaxDocument } from "../../src/completion/syntax-ending.js";
import { loadGrammar } from "../../src/context/syntax/runtime.js";
import type { Upstream, UpstreamEnd } from "../../src/upstream/upstream.js";
import { textSyntax } from "../support/text-syntax.js";

/** An upstream whose stream the test feeds piece by piece: `push` text, then `end`, or `fail`. */
function fed() {
  const queue: Array<{ text: string; usage?: Usage } | { error: Error } | "end"> = [];
  let wake: (() => void) | undefined;
  const state = { aborted: undefined as unknown, requests: [] as FimRequest[] };
  const upstream: Upstream = {
    complete() {
      throw new Error("streamed");
    },
    async *stream(request, { signal }) {
      state.requests.push(request);
      signal.addEventListener("abort", () => {
        state.aborted = signal.reason;
        wake?.();
      });
      for (;;) {
        while (queue.length === 0 && !signal.aborted) await new Promise<void>((resolve) => (wake = resolve));
        if (signal.aborted) throw new Error("aborted");
        const next = queue.shift()!;
        if (next === "end") return;
        if ("error" in next) throw next.error;
        yield { text: next.text, finish_reason: null, usage: next.usage, raw: {} } satisfies FimChunk;
      }
    },
  };
  const push = (item: (typeof queue)[number]) => {
    queue.push(item);
    wake?.();
  };
  return {
    upstream,
    state,
    push: (text: string, usage?: Usage) => push(usage ? { text, usage } : { text }),
    end: () => push("end"),
    fail: (error: Error) => push({ error }),
  };
}

const ANCHOR: Anchor = { line: 1, character: 2, linePrefix: "  ", lineRest: "" };
/** A block after `{` in `function f(a, b) {`: it ends at the dedent. */
const BLOCK: PostProcessContext = { lineBefore: "  ", lineAfter: "", suffix: "\n}\n", mode: "multi-line" };
const LINE: PostProcessContext = {
  lineBefore: "const x = ",
  lineAfter: "",
  suffix: "\n",
  mode: "single-line",
};

function start(ctx = BLOCK, streamed = true, syntax?: () => SyntaxDocument | undefined) {
  const feed = fed();
  const ends: UpstreamEnd[] = [];
  const events: string[] = [];
  const hooks: StreamHooks = {
    onSuccess: () => events.push("success"),
    onFailure: (error) => events.push(`failure: ${(error as Error).message}`),
    onEnd: (end) => {
      ends.push(end);
      events.push(`end: ${end.outcome}`);
    },
    onSuggestion: (suggestion) => events.push(`suggestion: ${suggestion.text}`),
  };
  const stream = new SharedStream(
    feed.upstream,
    { uri: "file:///a.ts", anchor: ANCHOR, request: { prompt: "p", suffix: "s" }, ctx, streamed, syntax },
    hooks,
  );
  return { ...feed, stream, ends, events };
}

/** Let the stream's loop read what was pushed. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe("SharedStream", () => {
  it("reads the text as it arrives, cuts it once settled, and reports its end and suggestion", async () => {
    const { stream, push, events, ends, state } = start();
    push("return a");
    await settle();
    expect(stream.raw).toBe("return a");
    push(" + b;\n");
    push("}\n", { prompt_tokens: 9, completion_tokens: 3, total_tokens: 12 });
    const result = await stream.done;
    expect(result).toEqual({ text: "return a + b;", replaceEnd: 0 });
    // The dedent settles it: the stream is left, not read to its end.
    expect(events).toEqual(["success", "end: completed", "suggestion: return a + b;"]);
    expect(ends[0]).toMatchObject({ outcome: "completed", usage: { prompt_tokens: 9 } });
    expect(stream.suggestion).toMatchObject({
      uri: "file:///a.ts",
      line: 1,
      character: 2,
      text: "return a + b;",
    });
    expect(stream.upstreamMs).toBeGreaterThanOrEqual(0);
    expect(state.requests).toHaveLength(1);
  });

  it("never rejects: a failure is reported and gives no suggestion", async () => {
    const { stream, fail, events, ends } = start();
    fail(new Error("503"));
    expect(await stream.done).toBeNull();
    expect(events).toEqual(["failure: 503", "end: failed"]);
    expect(ends[0]?.error).toBeInstanceOf(Error);
  });

  it("an abort ends it as cancelled or superseded, not as a failure", async () => {
    const superseded = start();
    superseded.stream.abort("superseded");
    expect(await superseded.stream.done).toBeNull();
    expect(superseded.events).toEqual(["end: superseded"]);
    const cancelled = start();
    cancelled.stream.abort("cancelled");
    await cancelled.stream.done;
    expect(cancelled.events).toEqual(["end: cancelled"]);
  });

  it.each<[string, string | null, boolean, string, boolean]>([
    ["nothing typed, nothing come yet", "", true, "", true],
    ["typing that agrees with the text so far", "ret", true, "return a", true],
    ["typing that starts what has not come yet", "return a +", true, "return", true],
    ["typing that disagrees", "x", true, "return a", false],
    ["a cursor before the anchor", null, true, "", false],
    ["typing into text not known until the end (not streamed)", "r", false, "", false],
    ["nothing typed into text not known until the end", "", false, "", true],
  ])("may serve %s: %s", async (_, typed, streamed, raw, serves) => {
    const { stream, push } = start(BLOCK, streamed);
    if (raw) {
      push(raw);
      await settle();
    }
    expect(stream.canServe(typed)).toBe(serves);
    stream.abort("cancelled");
  });

  it("serves nobody once stale (the text it was made for changed)", () => {
    const { stream } = start();
    stream.stale = true;
    expect(stream.canServe("")).toBe(false);
    stream.abort("superseded");
  });

  describe("followers, on a fake clock", () => {
    beforeEach(() => {
      vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    });
    afterEach(() => {
      vi.useRealTimers();
    });

    it("waits for its end on behalf of a request", async () => {
      const { stream, push, state } = start();
      const slot = new Slot();
      const following = stream.follow(slot);
      push("return 1;\n}\n");
      await following;
      expect(slot.settled).toBe(false);
      expect(await stream.done).toEqual({ text: "return 1;", replaceEnd: 0 });
      // Ended, not left: no grace timer, no abort.
      vi.advanceTimersByTime(ADOPTION_GRACE_MS);
      expect(state.aborted).toBeUndefined();
    });

    it("a request cancelled while it follows leaves the stream running for a grace, then aborts it as cancelled", async () => {
      const { stream, state } = start();
      const slot = new Slot();
      const following = stream.follow(slot);
      slot.resolve(none("cancelled"));
      await following;
      expect(stream.followed).toBe(false);
      vi.advanceTimersByTime(ADOPTION_GRACE_MS - 1);
      expect(state.aborted).toBeUndefined();
      vi.advanceTimersByTime(1);
      expect(state.aborted).toBe("cancelled");
    });

    it("a request that adopts it within the grace keeps it running", async () => {
      const { stream, push, state } = start();
      const first = new Slot();
      const following = stream.follow(first);
      first.resolve(none("superseded"));
      await following;
      vi.advanceTimersByTime(ADOPTION_GRACE_MS - 10);
      const next = new Slot();
      const adopted = stream.follow(next, "");
      vi.advanceTimersByTime(ADOPTION_GRACE_MS * 2);
      expect(state.aborted).toBeUndefined();
      push("return 2;\n}\n");
      await adopted;
      expect(await stream.done).toEqual({ text: "return 2;", replaceEnd: 0 });
    });

    it("left by a superseded request, it is aborted as superseded", async () => {
      const { stream, state } = start();
      const slot = new Slot();
      const following = stream.follow(slot);
      slot.resolve(none("superseded"));
      await following;
      vi.advanceTimersByTime(ADOPTION_GRACE_MS);
      expect(state.aborted).toBe("superseded");
    });

    it("a follower that typed ahead stops following as soon as the text parts ways with its typing", async () => {
      const { stream, push } = start();
      const slot = new Slot();
      let stopped = false;
      const following = stream.follow(slot, "return a +").then(() => {
        stopped = true;
      });
      push("return a");
      await settle();
      expect(stopped).toBe(false);
      push(" - b");
      await settle();
      expect(stopped).toBe(true);
      await following;
      // It stopped following; the stream itself goes on for whoever else waits (nobody here: no slot was answered).
      expect(slot.settled).toBe(false);
      stream.abort("superseded");
    });

    it("drops itself only when nobody follows", async () => {
      const { stream, state } = start();
      const slot = new Slot();
      const following = stream.follow(slot);
      stream.dropIfUnfollowed("superseded");
      expect(state.aborted).toBeUndefined();
      slot.resolve(none("error"));
      await following;
      stream.dropIfUnfollowed("superseded");
      await settle();
      expect(state.aborted).toBe("superseded");
    });

    it("tells a follower the settled lines as seen from its cursor, only growing", async () => {
      const { stream, push } = start();
      const partials: string[] = [];
      const slot = new Slot((text) => partials.push(text));
      const following = stream.follow(slot, undefined, (settled) => settled.toUpperCase());
      push("a = 1;\n");
      await settle();
      push("  b = 2;\n");
      await settle();
      push("}\n");
      await following;
      expect(partials).toEqual(["A = 1;", "A = 1;\n  B = 2;"]);
    });
  });

  it("a single line is cut at its end", async () => {
    const { stream, push } = start(LINE);
    push("42;");
    push("\nmore");
    expect(await stream.done).toEqual({ text: "42;", replaceEnd: 0 });
  });

  describe("with the document's syntax (syntax-aware endings)", () => {
    // A new C function at the end of the file, the cursor on a line without indentation: no dedent ends its body.
    const before = "int mul(int a, int b) {\n";
    const atEnd: PostProcessContext = { lineBefore: "", lineAfter: "", suffix: "", mode: "multi-line" };
    const cDocument = async (): Promise<SyntaxDocument> => {
      const { parser } = (await loadGrammar("c"))!;
      return textSyntax(parser, before, "");
    };

    it("settles once the lines that closed the block arrive, without reading on, and no partial shows them", async () => {
      const doc = await cDocument();
      const { stream, push, end } = start(atEnd, true, () => doc);
      const partials: string[] = [];
      const slot = new Slot((text) => partials.push(text));
      const following = stream.follow(slot);
      push("  return a * b;\n");
      await settle();
      push("}\n");
      await following;
      push("int div(int a, int b) {\n");
      end();
      expect(await stream.settled).toEqual({ text: "  return a * b;\n}", replaceEnd: 0 });
      expect(await stream.done).toEqual({ text: "  return a * b;\n}", replaceEnd: 0 });
      expect(stream.raw).toBe("  return a * b;\n}\n");
      expect(partials).toEqual(["  return a * b;"]);
    });

    it("keeps the plain rules while the syntax is not had (a grammar not loaded yet)", async () => {
      const { stream, push, end } = start(atEnd, true, () => undefined);
      push("  return a * b;\n}\n");
      push("int div(int a, int b) {\n");
      end();
      expect((await stream.done)?.text).toBe("  return a * b;\n}\nint div(int a, int b) {");
    });
  });
});
