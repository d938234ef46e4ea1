import { describe, expect, it } from "vitest";
import type { TextDocumentContentChangeEvent } from "vscode-languageserver";
import { Documents } from "../../src/documents/documents.js";
import { eventsOf } from "../../src/next-edit/history/edit-events.js";
import { type EditGroup, recordChange } from "../../src/next-edit/history/edit-groups.js";
import { EditHistory } from "../../src/next-edit/history/edit-history.js";
import { notificationChange } from "../../src/next-edit/history/line-change.js";
import { renameOf } from "../../src/next-edit/history/rename.js";

/** An open document and a way to change it as an editor does: what the history is fed. */
function editor(text: string, uri = "file:///w/a.ts") {
  const docs = new Documents();
  docs.didOpen({ textDocument: { uri, languageId: "typescript", version: 1, text } });
  let version = 1;
  return {
    uri,
    docs,
    /** Apply one notification's changes; the applied changes and the buffer after them. */
    change(...contentChanges: TextDocumentContentChangeEvent[]) {
      const applied = docs.didChange({ textDocument: { uri, version: ++version }, contentChanges })!;
      return { changes: applied.changes, buffer: docs.get(uri)!.buffer };
    },
  };
}

const at = (line: number, character: number) => ({ line, character });
const insert = (line: number, character: number, text: string) => ({
  range: { start: at(line, character), end: at(line, character) },
  text,
});
const replace = (sl: number, sc: number, el: number, ec: number, text: string) => ({
  range: { start: at(sl, sc), end: at(el, ec) },
  text,
});

describe("notificationChange: a change as whole lines", () => {
  const cases: Array<[string, string, TextDocumentContentChangeEvent[], number, string[], string[]]> = [
    ["a word typed in a line", "a\nlet x = 1;\nb", [insert(1, 4, "yz")], 1, ["let x = 1;"], ["let yzx = 1;"]],
    ["a line inserted", "a\nb\nc", [insert(1, 0, "new\n")], 1, [], ["new"]],
    ["a line deleted", "a\nb\nc", [replace(1, 0, 2, 0, "")], 1, ["b"], []],
    ["a line split", "a\nbc\nd", [insert(1, 1, "\n")], 1, ["bc"], ["b", "c"]],
    ["two lines joined", "a\nb\nc\nd", [replace(1, 1, 2, 0, "")], 1, ["b", "c"], ["bc"]],
    [
      "keystrokes sent together (Neovim batches them)",
      "let total = 0;\nuse(total);",
      [replace(0, 4, 0, 9, ""), insert(0, 4, "s"), insert(0, 5, "u"), insert(0, 6, "m")],
      0,
      ["let total = 0;"],
      ["let sum = 0;"],
    ],
    [
      "changes on two lines in one notification, the lower first",
      "a\nb\nc\nd",
      [insert(3, 1, "!"), insert(0, 0, "x\n")],
      0,
      ["a", "b", "c", "d"],
      ["x", "a", "b", "c", "d!"],
    ],
  ];
  it.each(cases)("%s", (_name, text, changes, startLine, oldLines, newLines) => {
    const doc = editor(text);
    const applied = doc.change(...changes);
    expect(notificationChange(applied.changes, (line) => applied.buffer.lineAt(line))).toEqual({
      startLine,
      oldLines,
      newLines,
    });
  });
});

describe("renameOf", () => {
  const cases: Array<[string, string, { from: string; to: string } | undefined]> = [
    ["let total = 0;\n", "let sum = 0;\n", { from: "total", to: "sum" }],
    ["f(total, total);\n", "f(sum, sum);\n", { from: "total", to: "sum" }],
    ["f(total, count);\n", "f(sum, n);\n", undefined],
    ["f(total);\n", "f(total + 1);\n", undefined],
    ["a.b\n", "a.b\n", undefined],
    ["x = 1\n", "x = 2\n", undefined],
    ["ünïcode = 1\n", "ascii = 1\n", { from: "ünïcode", to: "ascii" }],
  ];
  it.each(cases)("%j → %j", (before, after, rename) => {
    expect(renameOf(before, after)).toEqual(rename);
  });
});

/** Changes fed to the pure grouping at given times, as the edge feeds them. */
function grouped(
  text: string,
  steps: Array<{ at: number; uri?: string; changes: TextDocumentContentChangeEvent[] }>,
): EditGroup[] {
  const groups: EditGroup[] = [];
  const docs = new Map<string, ReturnType<typeof editor>>();
  for (const step of steps) {
    const uri = step.uri ?? "file:///w/a.ts";
    let doc = docs.get(uri);
    if (!doc) {
      doc = editor(text, uri);
      docs.set(uri, doc);
    }
    const { changes, buffer } = doc.change(...step.changes);
    const change = notificationChange(changes, (line) => buffer.lineAt(line))!;
    recordChange(groups, uri, change, buffer, step.at);
  }
  return groups;
}

const TEN = Array.from({ length: 40 }, (_, i) => `line ${i}`).join("\n");

describe("recordChange: grouping", () => {
  it("groups the keystrokes of a word into one edit, with context lines around it", () => {
    const groups = grouped(TEN, [
      { at: 0, changes: [insert(5, 6, "a")] },
      { at: 5000, changes: [insert(5, 7, "b")] },
      { at: 9000, changes: [insert(5, 8, "c")] },
    ]);
    expect(groups).toHaveLength(1);
    expect(groups[0]).toMatchObject({
      before: ["line 5"],
      after: ["line 5abc"],
      above: ["line 3", "line 4"],
      below: ["line 6", "line 7"],
      oldStart: 5,
      newStart: 5,
    });
  });

  it("joins edits a few lines apart whenever they come, and far apart only within a second", () => {
    const near = grouped(TEN, [
      { at: 0, changes: [insert(5, 0, "x")] },
      { at: 60_000, changes: [insert(8, 0, "y")] },
    ]);
    expect(near.map((g) => [g.oldStart, g.before.length])).toEqual([[5, 4]]);
    expect(near[0]!.after).toEqual(["xline 5", "line 6", "line 7", "yline 8"]);
    const quick = grouped(TEN, [
      { at: 0, changes: [insert(5, 0, "x")] },
      { at: 900, changes: [insert(20, 0, "y")] },
    ]);
    expect(quick).toHaveLength(1);
    const slow = grouped(TEN, [
      { at: 0, changes: [insert(5, 0, "x")] },
      { at: 1100, changes: [insert(20, 0, "y")] },
    ]);
    expect(slow).toHaveLength(2);
    // Within a second but too far: a group spans at most 24 lines.
    const far = grouped(TEN, [
      { at: 0, changes: [insert(2, 0, "x")] },
      { at: 100, changes: [insert(35, 0, "y")] },
    ]);
    expect(far).toHaveLength(2);
  });

  it("closes the open group when another document is edited, and never reopens it", () => {
    const groups = grouped(TEN, [
      { at: 0, changes: [insert(5, 0, "x")] },
      { at: 10, uri: "file:///w/b.ts", changes: [insert(1, 0, "y")] },
      { at: 20, changes: [insert(5, 1, "z")] },
    ]);
    expect(groups.map((g) => [g.uri, g.after])).toEqual([
      ["file:///w/a.ts", ["xline 5"]],
      ["file:///w/b.ts", ["yline 1"]],
      ["file:///w/a.ts", ["xzline 5"]],
    ]);
    expect(groups[2]!.before).toEqual(["xline 5"]);
  });

  it("moves the groups below a change by the lines it added, and follows lines added inside a group", () => {
    const groups = grouped(TEN, [
      { at: 0, changes: [insert(30, 0, "x")] },
      { at: 5000, changes: [insert(2, 0, "new\nlines\n")] },
      { at: 5100, changes: [insert(3, 5, "\nmore")] },
    ]);
    expect(groups.map((g) => [g.newStart, g.after])).toEqual([
      [33, ["xline 30"]],
      [2, ["new", "lines", "more"]],
    ]);
    expect(groups[1]!.before).toEqual([]);
  });

  it("extends a group upward with the lines it had before", () => {
    const groups = grouped(TEN, [
      { at: 0, changes: [insert(10, 0, "b")] },
      { at: 100, changes: [replace(8, 0, 8, 6, "changed")] },
    ]);
    expect(groups).toHaveLength(1);
    expect(groups[0]).toMatchObject({
      oldStart: 8,
      newStart: 8,
      before: ["line 8", "line 9", "line 10"],
      after: ["changed", "line 9", "bline 10"],
    });
  });
});

describe("eventsOf: what a prompt carries", () => {
  const path = (uri: string) => uri.slice("file:///w/".length);

  it("writes events oldest first with whole lines and context, and names a rename", () => {
    const groups = grouped("a\nlet total = 0;\nuse(total);\nz", [
      { at: 0, changes: [replace(1, 4, 1, 9, "sum")] },
    ]);
    expect(eventsOf(groups, path)).toEqual([
      {
        path: "a.ts",
        oldStartLine: 0,
        newStartLine: 0,
        before: "a\nlet total = 0;\nuse(total);\nz\n",
        after: "a\nlet sum = 0;\nuse(total);\nz\n",
        rename: { from: "total", to: "sum" },
      },
    ]);
  });

  it("drops edits that changed only whitespace or were taken back", () => {
    const groups = grouped(TEN, [
      { at: 0, changes: [insert(5, 0, "  ")] },
      { at: 5000, changes: [insert(20, 0, "x")] },
      { at: 5100, changes: [replace(20, 0, 20, 1, "")] },
      { at: 10_000, changes: [insert(30, 0, "kept")] },
    ]);
    expect(groups).toHaveLength(3);
    expect(eventsOf(groups, path).map((e) => e.newStartLine + 2)).toEqual([30]);
  });

  it("chooses the newest events within the budget and count", () => {
    const steps = Array.from({ length: 20 }, (_, i) => ({
      at: i * 5000,
      uri: `file:///w/f${i}.ts`,
      changes: [insert(0, 0, `edit${i}`)],
    }));
    const groups = grouped(TEN, steps);
    const events = eventsOf(groups, path);
    expect(events).toHaveLength(16);
    expect(events[0]!.path).toBe("f4.ts");
    expect(events.at(-1)!.path).toBe("f19.ts");
    const few = eventsOf(groups, path, { maxEvents: 16, maxTokens: 35 });
    expect(few.map((e) => e.path)).toEqual(["f18.ts", "f19.ts"]);
    // A document without a path (excluded, outside the workspace) gives no event.
    expect(eventsOf(groups, (uri) => (uri.endsWith("f19.ts") ? undefined : path(uri))).at(-1)!.path).toBe(
      "f18.ts",
    );
  });
});

describe("EditHistory (the edge)", () => {
  it("never keeps or sends the edits of a document the policy excludes", async () => {
    let clock = 0;
    const asked: string[] = [];
    const history = new EditHistory({
      mayUse: async (uri) => {
        asked.push(uri);
        return !uri.endsWith(".env");
      },
      pathOf: (uri) => uri.slice("file:///w/".length),
      now: () => clock,
    });
    const code = editor(TEN, "file:///w/a.ts");
    const secret = editor("KEY=1\n", "file:///w/.env");
    for (const [doc, change] of [
      [secret, insert(0, 6, "2")],
      [code, insert(3, 0, "x")],
      [secret, insert(0, 7, "3")],
    ] as const) {
      clock += 5000;
      const { changes, buffer } = doc.change(change);
      history.record(doc.uri, changes, buffer);
    }
    const events = await history.events();
    expect(events.map((e) => e.path)).toEqual(["a.ts"]);
    expect(JSON.stringify(events)).not.toContain("KEY");
    // Asked once per document.
    expect(asked).toEqual(["file:///w/.env", "file:///w/a.ts"]);
  });
});

describe("EditHistory: a document closed or opened again", () => {
  it("lets no later change join an edit made before, whose lines may be another text's now", async () => {
    const history = new EditHistory({
      mayUse: async () => true,
      pathOf: (uri) => uri.slice("file:///w/".length),
      now: () => 0,
    });
    const first = editor(TEN);
    const before = first.change(replace(2, 0, 2, 1, "c"));
    history.record(first.uri, before.changes, before.buffer);
    history.documentGone(first.uri);
    // Opened again with the text on disk, and edited a line below, at once.
    const again = editor(TEN);
    const after = again.change(replace(3, 0, 3, 1, "d"));
    history.record(again.uri, after.changes, after.buffer);
    const events = await history.events();
    expect(events.map((event) => event.after.includes("cine 2"))).toEqual([true, false]);
    expect(events[1]!.after).toContain("dine 3");
    // Without it, the second edit joins the first: one event claiming both.
    const joined = new EditHistory({
      mayUse: async () => true,
      pathOf: (uri) => uri.slice("file:///w/".length),
      now: () => 0,
    });
    joined.record(first.uri, before.changes, before.buffer);
    joined.record(again.uri, after.changes, after.buffer);
    expect(await joined.events()).toHaveLength(1);
  });
});
