import { describe, expect, it } from "vitest";
import type { TextDocumentContentChangeEvent } from "vscode-languageserver";
import { Documents } from "../../src/documents/documents.js";
import {
  followAnswer,
  type NextEdit,
  nearestFirst,
  type RememberedAnswer,
} from "../../src/next-edit/answer-memory.js";
import { documentEdits, editRequest, readAnswer } from "../../src/next-edit/exchange.js";
import type { NextEditInput } from "../../src/next-edit/prompt/excerpt.js";
import { REGION_FORMAT } from "../support/next-edit-doubles.js";

const r = (sl: number, sc: number, el: number, ec: number) => ({
  start: { line: sl, character: sc },
  end: { line: el, character: ec },
});
const ne = (id: string, range: ReturnType<typeof r>, text: string): NextEdit => ({ id, range, text });

const TEXT = "let total = 0;\nuse(total);\nlog(total, total);\n";
const ANSWER: RememberedAnswer = {
  uri: "file:///a.ts",
  version: 2,
  edits: [ne("a", r(1, 4, 1, 9), "sum"), ne("b", r(2, 4, 2, 9), "sum"), ne("c", r(2, 11, 2, 16), "sum")],
  region: { start: 1, end: 2 },
};

function followed(changes: TextDocumentContentChangeEvent[]) {
  const docs = new Documents();
  docs.didOpen({ textDocument: { uri: "file:///a.ts", languageId: "typescript", version: 2, text: TEXT } });
  const applied = docs.didChange({
    textDocument: { uri: "file:///a.ts", version: 3 },
    contentChanges: changes,
  })!;
  return followAnswer(ANSWER, 3, applied.changes, docs.get("file:///a.ts")!.buffer);
}

describe("followAnswer", () => {
  it("advances when a change applies an edit: the others move with it", () => {
    const result = followed([{ range: r(2, 4, 2, 9), text: "sum" }]);
    expect(result.kind).toBe("advanced");
    if (result.kind !== "advanced") return;
    expect(result.applied).toEqual([ne("b", r(2, 4, 2, 7), "sum")]);
    expect(result.answer.version).toBe(3);
    expect(result.answer.edits).toEqual([ne("a", r(1, 4, 1, 9), "sum"), ne("c", r(2, 9, 2, 14), "sum")]);
  });

  it("advances when the client sends the edit as a bigger change (the whole line), trimmed to the same", () => {
    const result = followed([{ range: r(1, 0, 1, 11), text: "use(sum);" }]);
    expect(result.kind === "advanced" && result.applied.map((e) => e.id)).toEqual(["a"]);
  });

  it("advances through several edits applied at once (sidekick applies them all)", () => {
    const result = followed([
      { range: r(2, 11, 2, 16), text: "sum" },
      { range: r(2, 4, 2, 9), text: "sum" },
    ]);
    expect(result.kind === "advanced" && result.answer.edits.map((e) => e.id)).toEqual(["a"]);
    // Each applied edit where its text is now: the second change moved the first one's place left.
    expect(result.kind === "advanced" && result.applied).toEqual([
      ne("b", r(2, 4, 2, 7), "sum"),
      ne("c", r(2, 9, 2, 12), "sum"),
    ]);
  });

  it("moves the region with the lines an applied edit adds or removes", () => {
    const docs = new Documents();
    const uri = "file:///b.ts";
    docs.didOpen({ textDocument: { uri, languageId: "typescript", version: 1, text: "a;\nb;\nc;\nd;\n" } });
    const answer: RememberedAnswer = {
      uri,
      version: 1,
      edits: [ne("n", r(1, 2, 1, 2), "\nb2;\nb3;"), ne("x", r(2, 0, 3, 0), "")],
      region: { start: 1, end: 3 },
    };
    const step = (version: number, change: TextDocumentContentChangeEvent, from: RememberedAnswer) => {
      const applied = docs.didChange({ textDocument: { uri, version }, contentChanges: [change] })!;
      const result = followAnswer(from, version, applied.changes, docs.get(uri)!.buffer);
      if (result.kind !== "advanced") throw new Error("dropped");
      return result.answer;
    };
    const grown = step(2, { range: r(1, 2, 1, 2), text: "\nb2;\nb3;" }, answer);
    expect(grown.region).toEqual({ start: 1, end: 5 });
    expect(grown.edits).toEqual([ne("x", r(4, 0, 5, 0), "")]);
    expect(step(3, { range: r(4, 0, 5, 0), text: "" }, grown).region).toEqual({ start: 1, end: 4 });
  });

  const drops: Array<[string, TextDocumentContentChangeEvent[]]> = [
    ["typing elsewhere", [{ range: r(0, 0, 0, 0), text: "// " }]],
    ["typing something else at an edit", [{ range: r(1, 4, 1, 9), text: "count" }]],
    ["typing at an edit's edge", [{ range: r(1, 9, 1, 9), text: "x" }]],
  ];
  it.each(drops)("drops the answer on %s", (_name, changes) => {
    expect(followed(changes)).toEqual({ kind: "dropped", dropped: ANSWER.edits });
  });
});

describe("nearestFirst", () => {
  it("orders by lines away, then characters on the line", () => {
    const ids = (line: number, character: number) =>
      nearestFirst(ANSWER.edits, { line, character }).map((e) => e.id);
    expect(ids(0, 0)).toEqual(["a", "b", "c"]);
    expect(ids(2, 20)).toEqual(["c", "b", "a"]);
    expect(ids(2, 0)).toEqual(["b", "c", "a"]);
  });
});

describe("the exchange", () => {
  const input = (region: string, cursorOffset = 0): NextEditInput => ({
    excerpt: {
      path: "a.ts",
      languageId: "typescript",
      startsFile: true,
      beforeRegion: "",
      region,
      regionStartLine: 4,
      cursorOffset,
      afterRegion: "",
    },
    events: [],
    related: [],
  });
  const rules = { format: REGION_FORMAT };
  const raw = { shape: "raw" as const, prompt: "p", stop: ["<end>"], maxTokens: 64 };

  it("asks raw prompts and chat messages as the client takes them, at temperature 0", () => {
    expect(editRequest(raw)).toEqual({ prompt: "p", max_tokens: 64, temperature: 0, stop: ["<end>"] });
    const chat = {
      shape: "chat" as const,
      messages: [{ role: "user" as const, content: "x" }],
      prefix: "<r>",
      stop: [],
      maxTokens: 9,
    };
    expect(editRequest(chat)).toEqual({
      messages: chat.messages,
      prefix: "<r>",
      max_tokens: 9,
      temperature: 0,
      stop: [],
    });
  });

  const readings: Array<[string, string, string, object]> = [
    ["edits", "a\nb\n", "a\nc\n", { kind: "edits", edits: [{ startOffset: 2, endOffset: 3, text: "c" }] }],
    ["no change", "a\nb\n", "a\nb\n", { kind: "none", reason: "unchanged" }],
    ["a malformed answer", "a\n", "BAD", { kind: "malformed", problem: "no-region" }],
  ];
  it.each(readings)("reads %s", (_name, region, answer, reading) => {
    expect(readAnswer(answer, "stop", raw, input(region), rules)).toEqual(reading);
  });

  it("puts a chat prompt's forced prefix back before reading", () => {
    const chat = { shape: "chat" as const, messages: [], prefix: "a\n", stop: [], maxTokens: 9 };
    expect(readAnswer("c\n", "stop", chat, input("a\nb\n"), rules)).toMatchObject({ kind: "edits" });
  });

  it("never lets an edit outside the region, a throwing rule or a cut answer through", () => {
    const outside = { ...rules, regionEdits: () => [{ startOffset: 0, endOffset: 99, text: "x" }] };
    expect(readAnswer("a\nc\n", "stop", raw, input("a\nb\n"), outside)).toEqual({
      kind: "malformed",
      problem: "outside-region",
    });
    const throwing = {
      ...rules,
      regionEdits: () => {
        throw new Error("bug");
      },
    };
    expect(readAnswer("a\nc\n", "stop", raw, input("a\nb\n"), throwing)).toEqual({
      kind: "malformed",
      problem: "unreadable",
    });
    expect(readAnswer("a\nc\n", "length", raw, input("a\nb\n"), rules)).toEqual({
      kind: "malformed",
      problem: "truncated",
    });
  });

  it("gives no suggestion for an answer that undoes the user's last edit in this file", () => {
    const undone = {
      ...input("let sum = 0;\n"),
      events: [
        {
          path: "a.ts",
          oldStartLine: 4,
          newStartLine: 4,
          before: "let total = 0;\n",
          after: "let sum = 0;\n",
        },
      ],
    };
    expect(readAnswer("let total = 0;\n", "stop", raw, undone, rules)).toEqual({
      kind: "none",
      reason: "undoes-last-edit",
    });
    expect(
      readAnswer(
        "let total = 0;\n",
        "stop",
        raw,
        { ...undone, events: [{ ...undone.events[0]!, path: "b.ts" }] },
        rules,
      ),
    ).toMatchObject({ kind: "edits" });
  });

  it("places region offsets in the document", () => {
    let id = 0;
    const edits = documentEdits(
      "ab\ncd\n",
      4,
      [
        { startOffset: 4, endOffset: 6, text: "x" },
        { startOffset: 0, endOffset: 0, text: "y" },
      ],
      () => `e${++id}`,
    );
    expect(edits).toEqual([ne("e1", r(5, 1, 6, 0), "x"), ne("e2", r(4, 0, 4, 0), "y")]);
  });
});
