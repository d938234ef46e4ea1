import { ServiceUnavailableError } from "@infill/core";
import { describe, expect, it } from "vitest";
import { CancellationTokenSource, type TextDocumentContentChangeEvent } from "vscode-languageserver";
import { Documents } from "../../src/documents/documents.js";
import type { Logger } from "../../src/log/logger.js";
import type { NextEdit } from "../../src/next-edit/answer-memory.js";
import { NextEditEngine, type NextEditSettings } from "../../src/next-edit/next-edit-engine.js";
import type { FailureNotice } from "../../src/upstream/failure-notice.js";
import { UpstreamHealth } from "../../src/upstream/health.js";
import { FakeTimers } from "../support/fake-timers.js";
import { renamingModel, ScriptedUpstream, scriptedTarget } from "../support/next-edit-doubles.js";

const SILENT: Logger = { error() {}, warn() {}, info() {}, debug() {} };

const SOURCE = `function add(items) {
  let total = 0;
  for (const item of items) total += item;
  return total;
}
`;

/** An engine over one open document, a scripted upstream and a fake clock. */
function setup(options: { busy?: boolean; excluded?: boolean; text?: string } = {}) {
  const uri = "file:///w/sum.js";
  const documents = new Documents();
  documents.didOpen({
    textDocument: { uri, languageId: "javascript", version: 1, text: options.text ?? SOURCE },
  });
  const clock = new FakeTimers();
  const upstream = new ScriptedUpstream(renamingModel("total", "sum"));
  const settings: NextEditSettings = { enabled: true, debounceMs: 300, adaptive: false, maxRegionLines: 40 };
  const seen = {
    applied: [] as string[],
    dropped: [] as string[],
    malformed: [] as string[],
    ends: [] as string[],
  };
  const notices: FailureNotice[] = [];
  const health = new UpstreamHealth(() => clock.now());
  const engine = new NextEditEngine({
    documents,
    events: async () => [],
    settings: () => settings,
    target: () => scriptedTarget(upstream),
    health,
    onFailure: (notice) => notices.push(notice),
    excluded: async () => options.excluded ?? false,
    pathOf: () => "sum.js",
    completionBusy: () => options.busy ?? false,
    hooks: {
      upstream: () => (end) => seen.ends.push(end.outcome),
      applied: (_uri, edits) => seen.applied.push(...edits.map((e) => e.text)),
      dropped: (_uri, edits) => seen.dropped.push(...edits.map((e) => e.text)),
      malformed: (problem) => seen.malformed.push(problem),
    },
    clock,
    log: SILENT,
  });
  let version = 1;
  const change = (...contentChanges: TextDocumentContentChangeEvent[]) => {
    version++;
    const applied = documents.didChange({ textDocument: { uri, version }, contentChanges })!;
    engine.didChange(uri, version, applied.changes);
    return version;
  };
  const text = () => documents.get(uri)!.buffer.getText();
  return { uri, engine, upstream, clock, settings, seen, notices, change, text, version: () => version };
}

const edit = (line: number, start: number, end: number, text: string) => ({
  range: { start: { line, character: start }, end: { line, character: end } },
  text,
});
const shape = (edits: NextEdit[]) => edits.map((e) => [e.range.start.line, e.range.start.character, e.text]);

/** Let the engine's promise chains run (no clock moves). */
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe("NextEditEngine", () => {
  it("asks once the user pauses after an edit, once per pause, and serves the cursor's moves from memory", async () => {
    const s = setup();
    // The rename typed at the declaration, a key at a time.
    s.change(edit(1, 6, 11, ""));
    s.clock.advance(100);
    s.change(edit(1, 6, 6, "sum"));
    expect(s.upstream.requests).toHaveLength(0);
    s.clock.advance(299);
    expect(s.upstream.requests).toHaveLength(0);
    s.clock.advance(1);
    await settle();
    expect(s.upstream.requests).toHaveLength(1);
    const at = (line: number) => s.engine.editsAt(s.uri, s.version(), { line, character: 0 });
    expect(shape(await at(1))).toEqual([
      [2, 28, "sum"],
      [3, 9, "sum"],
    ]);
    expect(shape(await at(3))).toEqual([
      [3, 9, "sum"],
      [2, 28, "sum"],
    ]);
    expect(s.upstream.requests).toHaveLength(1);
    expect(s.seen.ends).toEqual(["completed"]);
  });

  it("serves the rest of an answer from memory once its first edit is applied, moved by that edit", async () => {
    const s = setup();
    s.change(edit(1, 6, 11, "sum"));
    s.clock.advance(300);
    const first = (await s.engine.editsAt(s.uri, s.version(), { line: 1, character: 9 }))[0]!;
    // The client applies the first edit only (copilot-lsp), and asks again at the new version.
    s.change({ range: first.range, text: first.text });
    const rest = await s.engine.editsAt(s.uri, s.version(), { line: 2, character: 39 });
    expect(shape(rest)).toEqual([[3, 9, "sum"]]);
    s.change({ range: rest[0]!.range, text: rest[0]!.text });
    expect(s.text()).toBe(SOURCE.replace(/\btotal\b/g, "sum"));
    expect(s.upstream.requests).toHaveLength(1);
    expect(s.seen.applied).toEqual(["sum", "sum"]);
    // Nothing left: the next pause asks again (and the model has nothing more).
    s.clock.advance(300);
    expect(await s.engine.editsAt(s.uri, s.version(), { line: 3, character: 12 })).toEqual([]);
    expect(s.upstream.requests).toHaveLength(2);
  });

  it("drops an answer when the user types something else, and asks again after the next pause", async () => {
    const s = setup();
    s.change(edit(1, 6, 11, "sum"));
    s.clock.advance(300);
    await settle();
    expect(await s.engine.editsAt(s.uri, s.version(), { line: 1, character: 9 })).toHaveLength(2);
    s.change(edit(0, 0, 0, "// "));
    expect(s.seen.dropped).toEqual(["sum", "sum"]);
    s.clock.advance(300);
    expect(await s.engine.editsAt(s.uri, s.version(), { line: 0, character: 3 })).toHaveLength(2);
    expect(s.upstream.requests).toHaveLength(2);
  });

  it("aborts a request made stale by typing, and never shows what it would have answered", async () => {
    const s = setup();
    s.upstream.auto = false;
    s.change(edit(1, 6, 11, "sum"));
    s.clock.advance(300);
    await settle();
    const stale = s.upstream.requests[0]!;
    const waiting = s.engine.editsAt(s.uri, s.version(), { line: 1, character: 9 });
    s.change(edit(1, 9, 9, "s"));
    expect(stale.signal.aborted).toBe(true);
    expect(await waiting).toEqual([]);
    stale.release();
    await settle();
    expect(s.seen.ends).toEqual(["superseded"]);
    expect(s.engine.remembered(s.uri)).toBeUndefined();
  });

  it("answers a version that is not the document's with nothing, and asks at once for one nobody asked for", async () => {
    const s = setup();
    expect(await s.engine.editsAt(s.uri, 7, { line: 1, character: 0 })).toEqual([]);
    expect(s.upstream.requests).toHaveLength(0);
    // No edit since the document opened: the editor's request is the first.
    s.upstream.model = renamingModel("items", "values");
    expect(shape(await s.engine.editsAt(s.uri, 1, { line: 0, character: 0 }))).toEqual([
      [0, 13, "value"],
      [2, 21, "value"],
    ]);
  });

  it("answers `$/cancelRequest` at once; the request goes on and its answer is remembered", async () => {
    const s = setup();
    s.upstream.auto = false;
    s.change(edit(1, 6, 11, "sum"));
    const source = new CancellationTokenSource();
    const waiting = s.engine.editsAt(s.uri, s.version(), { line: 1, character: 9 }, source.token);
    s.clock.advance(300);
    await settle();
    source.cancel();
    expect(await waiting).toEqual([]);
    s.upstream.requests[0]!.release();
    await settle();
    expect(s.engine.remembered(s.uri)?.edits).toHaveLength(2);
  });

  it("does not ask while a completion is showing there, in an excluded file, or when next edits are off", async () => {
    for (const options of [{ busy: true }, { excluded: true }]) {
      const s = setup(options);
      s.change(edit(1, 6, 11, "sum"));
      s.clock.advance(300);
      expect(await s.engine.editsAt(s.uri, s.version(), { line: 1, character: 9 })).toEqual([]);
      expect(s.upstream.requests).toHaveLength(0);
    }
    const off = setup();
    off.settings.enabled = false;
    off.change(edit(1, 6, 11, "sum"));
    off.clock.advance(300);
    expect(await off.engine.editsAt(off.uri, off.version(), { line: 1, character: 9 })).toEqual([]);
    expect(off.upstream.requests).toHaveLength(0);
  });

  it("sends the pause's request that gave way to a completion once a code action asks (invoked, or one that does not say), once", async () => {
    for (const how of ["invoked", "unsaid"] as const) {
      // A completion shows there all along (the server cannot tell when an editor closes its menu).
      const s = setup({ busy: true });
      s.change(edit(1, 6, 11, "sum"));
      s.clock.advance(300);
      await settle();
      expect(s.upstream.requests).toHaveLength(0);
      // copilot-lsp's next request is no code action: it waits its turn still.
      expect(await s.engine.editsAt(s.uri, s.version(), { line: 1, character: 9 })).toEqual([]);
      expect(s.upstream.requests).toHaveLength(0);
      const at = { line: 1, character: 9 };
      const answer = await s.engine.settled(
        s.uri,
        how === "invoked" ? { ask: { position: at, invoked: true } } : { deferred: { position: at } },
      );
      expect(answer?.edits.map((e) => e.range.start.line)).toEqual([2, 3]);
      expect(s.upstream.requests).toHaveLength(1);
      expect(await s.engine.settled(s.uri, { deferred: { position: at } })).toBe(answer);
      expect(s.upstream.requests).toHaveLength(1);
    }
  });

  it("counts a malformed answer by its problem and shows nothing; a failure is told through the health policy", async () => {
    const s = setup();
    s.upstream.model = () => "BAD answer";
    s.change(edit(1, 6, 11, "sum"));
    s.clock.advance(300);
    expect(await s.engine.editsAt(s.uri, s.version(), { line: 1, character: 9 })).toEqual([]);
    expect(s.seen.malformed).toEqual(["no-region"]);
    s.upstream.auto = false;
    s.change(edit(1, 9, 9, "s"));
    s.clock.advance(300);
    await settle();
    const waiting = s.engine.editsAt(s.uri, s.version(), { line: 1, character: 10 });
    s.upstream.requests[1]!.fail(new ServiceUnavailableError(503, "503 Server Overloaded"));
    expect(await waiting).toEqual([]);
    expect(s.seen.ends).toEqual(["completed", "failed"]);
  });

  it("learns the pause from the edits' cadence when adaptive", async () => {
    const s = setup();
    s.settings.adaptive = true;
    for (let i = 0; i < 8; i++) {
      s.change(edit(1, 11, 11, "x"));
      s.clock.advance(50);
    }
    // Eight edits 50 ms apart: the wait is just over 50 ms, far under 300.
    s.clock.advance(20);
    await settle();
    expect(s.upstream.requests).toHaveLength(1);
  });
});
