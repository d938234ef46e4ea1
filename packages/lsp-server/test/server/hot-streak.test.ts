import { describe, expect, it } from "vitest";
import { type Session, sessions } from "../support/session.js";

const start = sessions();

// Written once already: the sim copies it, and (writeOn) goes on past the block at the end of the file, as a model
// does there.
const WRITTEN = "function add(a, b) {\n  return a + b;\n}\n\nfunction sub(a, b) {\n  return a - b;\n}\n\n";
const AGAIN = `${WRITTEN}// again\nfunction add(a, b) {\n│\n`;

const metrics = (s: Session) =>
  s.messages("$/infill/metrics").map((m) => m.params as { source: string; upstreamMs: number | null });

describe("the hot streak", () => {
  it("keeps what the model wrote past the block shown, and shows it from memory once the block is accepted", async () => {
    const s = await start({
      sim: { writeOn: true },
      initializationOptions: { debounceMs: 0, metrics: true, prefetch: false },
    });
    const uri = "file:///again.js";
    const at = await s.open(uri, AGAIN);
    const first = (await s.inline(uri, at)).items[0]?.insertText as string;
    expect(first).toBe("  return a + b;\n}");
    // The stream reads on into memory; accepting the block (the editor inserts it) shows what followed.
    await s.until(
      () => s.sim.requests[0]?.aborted === false && s.sim.requests[0]?.status === 200,
      "the stream",
    );
    await s.sim.requests[0]!.closed;
    const accepted = await s.type(uri, at, first);
    const next = await s.inline(uri, accepted);
    expect(next.items[0]?.insertText).toBe("\n\nfunction sub(a, b) {\n  return a - b;\n}");
    expect(s.sim.requests).toHaveLength(1);
    await s.until(() => metrics(s).length === 2, "the metrics");
    expect(metrics(s).map((m) => m.source)).toEqual(["upstream", "memory"]);
  });

  it("is off with hotStreak.maxTokens 0: the whole block is one suggestion, and nothing is kept past it", async () => {
    const s = await start({
      sim: { writeOn: true },
      initializationOptions: { debounceMs: 0, prefetch: false, hotStreak: { maxTokens: 0 } },
    });
    const uri = "file:///off.js";
    const at = await s.open(uri, AGAIN);
    const first = (await s.inline(uri, at)).items[0]?.insertText as string;
    expect(first.startsWith("  return a + b;\n}\n\nfunction sub(a, b) {")).toBe(true);
    const accepted = await s.type(uri, at, first);
    await s.inline(uri, accepted);
    expect(s.sim.requests).toHaveLength(2);
  });
});

describe("prefetch after accept", () => {
  it("asks for the next suggestion as soon as one is accepted, before the editor does", async () => {
    const s = await start({
      initializationOptions: { debounceMs: 0, metrics: true, hotStreak: { maxTokens: 0 } },
    });
    const uri = "file:///prefetch.js";
    const at = await s.open(uri, AGAIN);
    const first = (await s.inline(uri, at)).items[0]?.insertText as string;
    expect(s.sim.requests).toHaveLength(1);
    const accepted = await s.type(uri, at, first);
    // The server asks on its own: no completion request was sent for the new cursor yet.
    await s.until(() => s.sim.requests.length === 2, "the prefetch");
    const body = s.sim.requests[1]!.body as { prompt: string };
    expect(body.prompt.endsWith(`function add(a, b) {\n${first}`)).toBe(true);
    // When the editor asks, it gets that request's suggestion: no third request.
    await s.inline(uri, accepted);
    expect(s.sim.requests).toHaveLength(2);
  });

  it("does not ask again for a suggestion already accepted, nor with prefetch off", async () => {
    const s = await start({
      initializationOptions: { debounceMs: 0, prefetch: false, hotStreak: { maxTokens: 0 } },
    });
    const uri = "file:///no-prefetch.js";
    const at = await s.open(uri, AGAIN);
    const first = (await s.inline(uri, at)).items[0]?.insertText as string;
    await s.type(uri, at, first);
    // A completion request on another document is answered after the change was handled: nothing more was sent.
    const other = await s.open("file:///other.js", AGAIN);
    await s.inline("file:///other.js", other);
    expect(s.sim.requests).toHaveLength(2);
  });
});

describe("alternatives", () => {
  // Three functions end alike: the sim's stand-in for sampling copies after a farther one at a higher temperature.
  const THREE =
    "function one() {\n  return 1;\n}\nfunction two() {\n  return 2;\n}\nfunction three() {\n  return 3;\n}\nfunction │\n";

  it("an invoked request brings the other candidates, ranked, duplicates dropped; typing does not", async () => {
    const s = await start({ initializationOptions: { debounceMs: 0, alternatives: 3 } });
    const uri = "file:///three.js";
    const at = await s.open(uri, THREE);
    const invoked = await s.inline(uri, at, undefined, "invoked");
    const texts = invoked.items.map((item) => item.insertText);
    expect(new Set(texts).size).toBe(texts.length);
    expect(texts.sort()).toEqual(["three() {", "two() {"]);
    expect(s.sim.requests.map((r) => (r.body as { temperature?: number }).temperature).sort()).toEqual([
      0, 0.5, 0.8,
    ]);
    expect(s.sim.requests.every((r) => (r.body as { logprobs?: number }).logprobs === 1)).toBe(true);
    const popup = await s.completion(uri, at, "invoked");
    expect(popup.items.some((item) => item.detail === "infill (alternative 2)")).toBe(true);
    // Typing into them: served from memory, the candidates that still agree.
    const before = s.sim.requests.length;
    const t = await s.type(uri, at, "t");
    expect((await s.inline(uri, t)).items.map((item) => item.insertText).sort()).toEqual([
      "hree() {",
      "wo() {",
    ]);
    const th = await s.type(uri, t, "h");
    expect((await s.inline(uri, th)).items.map((item) => item.insertText)).toEqual(["ree() {"]);
    expect(s.sim.requests.length).toBe(before);
  });
});
