import { describe, expect, it, vi } from "vitest";
import type { Position } from "vscode-languageserver";
import {
  EditorTypes,
  type EditorTypesOptions,
  type TypeDefinitionAsk,
  type TypeLocation,
} from "../../../src/context/typing/editor-types.js";
import type { Receiver } from "../../../src/context/typing/receivers.js";
import { Documents, type OpenDocument } from "../../../src/documents/documents.js";
import type { Logger } from "../../../src/log/logger.js";

const URI = "file:///w/app.ts";
const CLIENT = { uri: "file:///w/client.ts", line: 3 };
/** `await mail.` on line 2: the receiver `mail`. */
const MAIL: Receiver = { line: 2, character: 6, end: 10, member: "" };

function doc(): OpenDocument {
  const documents = new Documents();
  documents.didOpen({
    textDocument: { uri: URI, languageId: "typescript", version: 1, text: "a\nb\nawait mail.\n" },
  });
  return documents.get(URI)!;
}

const quiet: Logger = { error() {}, warn() {}, info() {}, debug() {} };

/** A client whose answers the test gives, one question at a time. */
class ScriptedAsk {
  readonly questions: Array<{
    positions: readonly Position[];
    signal: AbortSignal;
    answer: (answers: Array<TypeLocation | null>) => void;
    fail: (error: Error) => void;
  }> = [];
  readonly ask: TypeDefinitionAsk = (_doc, positions, signal) =>
    new Promise((answer, fail) => this.questions.push({ positions, signal, answer, fail }));
}

function types(scripted: ScriptedAsk, options: Partial<EditorTypesOptions> = {}): EditorTypes {
  return new EditorTypes({ ask: () => scripted.ask, budgetMs: () => 1000, log: quiet, ...options });
}

describe("EditorTypes", () => {
  it("asks once per receiver, at its first character, and answers from memory after", async () => {
    const scripted = new ScriptedAsk();
    const t = types(scripted);
    const d = doc();
    const first = t.locations(d, MAIL);
    expect(scripted.questions.map((q) => q.positions)).toEqual([[{ line: 2, character: 6 }]]);
    scripted.questions[0]!.answer([CLIENT]);
    expect(await first).toEqual([CLIENT]);
    // The member name typed after the receiver: the same receiver, the same answer, no new question.
    expect(await t.locations(d, { ...MAIL, member: "del" })).toEqual([CLIENT]);
    expect(scripted.questions).toHaveLength(1);
  });

  it("goes without an answer later than the budget, which still serves the next request", async () => {
    const scripted = new ScriptedAsk();
    const t = types(scripted, { budgetMs: () => 5 });
    const d = doc();
    expect(await t.locations(d, MAIL)).toEqual([]);
    expect(t.known(URI, MAIL)).toBeUndefined();
    scripted.questions[0]!.answer([CLIENT]);
    await expect.poll(() => t.known(URI, MAIL)).toEqual([CLIENT]);
    expect(await t.locations(d, MAIL)).toEqual([CLIENT]);
    expect(scripted.questions).toHaveLength(1);
  });

  it("waits as long as the request's debounce when that is longer than the budget", async () => {
    vi.useFakeTimers();
    try {
      for (const [quietMs, expected] of [
        [100, [CLIENT]],
        [0, []],
      ] as const) {
        const scripted = new ScriptedAsk();
        const t = types(scripted, { budgetMs: () => 5 });
        const found = t.locations(doc(), MAIL, quietMs);
        // Past the budget, within the debounce.
        await vi.advanceTimersByTimeAsync(50);
        scripted.questions[0]!.answer([CLIENT]);
        await vi.advanceTimersByTimeAsync(100);
        expect(await found).toEqual(expected);
      }
    } finally {
      vi.useRealTimers();
    }
  });

  it("waits for a question in flight rather than asking it again", async () => {
    const scripted = new ScriptedAsk();
    const t = types(scripted);
    const d = doc();
    const [a, b] = [t.locations(d, MAIL), t.locations(d, MAIL)];
    scripted.questions[0]!.answer([CLIENT]);
    expect(await Promise.all([a, b])).toEqual([[CLIENT], [CLIENT]]);
    expect(scripted.questions).toHaveLength(1);
  });

  it("remembers an empty answer as one", async () => {
    const scripted = new ScriptedAsk();
    const t = types(scripted);
    const d = doc();
    const first = t.locations(d, MAIL);
    scripted.questions[0]!.answer([null]);
    expect(await first).toEqual([]);
    expect(await t.locations(d, MAIL)).toEqual([]);
    expect(scripted.questions).toHaveLength(1);
  });

  it.each<[string, Position, string, boolean]>([
    ["an edit after the receiver (the member typed)", { line: 2, character: 11 }, URI, true],
    ["an edit on a later line", { line: 3, character: 0 }, URI, true],
    ["an edit at the receiver's end", { line: 2, character: 10 }, URI, false],
    ["an edit inside the receiver", { line: 2, character: 7 }, URI, false],
    ["an edit above", { line: 0, character: 1 }, URI, false],
    ["an edit of the file the answer points into", { line: 90, character: 0 }, CLIENT.uri, false],
    ["an edit of another file", { line: 0, character: 0 }, "file:///w/other.ts", true],
  ])("after %s the answer is %s", async (_, from, uri, kept) => {
    const scripted = new ScriptedAsk();
    const t = types(scripted);
    const d = doc();
    const first = t.locations(d, MAIL);
    scripted.questions[0]!.answer([CLIENT]);
    await first;
    t.changed(uri, from);
    expect(t.known(URI, MAIL)).toEqual(kept ? [CLIENT] : undefined);
  });

  it("forgets a closed document", async () => {
    const scripted = new ScriptedAsk();
    const t = types(scripted);
    const first = t.locations(doc(), MAIL);
    scripted.questions[0]!.answer([CLIENT]);
    await first;
    t.forget(URI);
    expect(t.known(URI, MAIL)).toBeUndefined();
  });

  it("stops asking a client after three failures in a row, silently", async () => {
    const scripted = new ScriptedAsk();
    const lines: string[] = [];
    const t = types(scripted, { log: { ...quiet, info: (l) => lines.push(l), warn: (l) => lines.push(l) } });
    const d = doc();
    for (let i = 0; i < 3; i++) {
      const at = t.locations(d, { ...MAIL, line: i });
      scripted.questions[i]!.fail(new Error("boom"));
      expect(await at).toEqual([]);
    }
    expect(t.asking).toBe(false);
    expect(await t.locations(d, { ...MAIL, line: 9 })).toEqual([]);
    expect(scripted.questions).toHaveLength(3);
    expect(lines).toEqual(["type definitions: the client failed 3 times in a row; not asking it again"]);
  });

  it("counts failures in a row only: an answer in between starts the count again", async () => {
    const scripted = new ScriptedAsk();
    const t = types(scripted);
    const d = doc();
    const outcomes = ["fail", "fail", "answer", "fail", "fail"] as const;
    for (const [i, outcome] of outcomes.entries()) {
      const at = t.locations(d, { ...MAIL, line: i });
      if (outcome === "fail") scripted.questions[i]!.fail(new Error("boom"));
      else scripted.questions[i]!.answer([null]);
      await at;
    }
    expect(t.asking).toBe(true);
  });

  it("gives up on a question never answered: cancelled, and a failure", async () => {
    const scripted = new ScriptedAsk();
    const t = types(scripted, { giveUpMs: 1, budgetMs: () => 1, maxFailures: 1 });
    expect(await t.locations(doc(), MAIL)).toEqual([]);
    await expect.poll(() => scripted.questions[0]!.signal.aborted).toBe(true);
    await expect.poll(() => t.asking).toBe(false);
  });

  it("never asks with a budget of 0, or a client that does not answer the request", async () => {
    const scripted = new ScriptedAsk();
    expect(await types(scripted, { budgetMs: () => 0 }).locations(doc(), MAIL)).toEqual([]);
    const none = new EditorTypes({ ask: () => undefined, budgetMs: () => 50, log: quiet });
    expect(none.asking).toBe(false);
    expect(await none.locations(doc(), MAIL)).toEqual([]);
    expect(scripted.questions).toHaveLength(0);
  });
});
