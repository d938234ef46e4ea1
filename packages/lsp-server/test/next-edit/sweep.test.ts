import { describe, expect, it } from "vitest";
import type { EditEvent } from "../../src/next-edit/prompt/excerpt.js";
import { originalWindow, sweep } from "../../src/next-edit/prompt/sweep.js";
import { eventAt, excerptOf, inputOf } from "../support/next-edit-input.js";

const promptText = (events: EditEvent[], related: { path: string; text: string }[], text: string) => {
  const excerpt = excerptOf("src/main.rs", text, { context: [0, 0], region: [0, 0], cursor: [0, 0] });
  const prompt = sweep.prompt(inputOf(excerpt, events, related));
  if (prompt.shape !== "raw") throw new Error("sweep is a raw prompt");
  return prompt;
};

describe("sweep prompt", () => {
  it("is Zed's run-model ordering: related files, changes, original, current, updated", () => {
    // Zed's sweep_prompt.rs test_build_prompt_uses_run_model_ordering (@ 24e24d84ea0b7406810cb5a00d5a6ecc8c6d3e88).
    const prompt = promptText(
      [eventAt("src/lib.rs", 3, "old\n", "new\n")],
      [{ path: "src/context.rs", text: "context" }],
      "current window\n",
    );
    expect(prompt.prompt).toBe(
      "<|file_sep|>src/context.rs\ncontext\n" +
        "<|file_sep|>src/lib.rs.diff\noriginal:\nold\nupdated:\nnew\n" +
        "<|file_sep|>original/src/main.rs\ncurrent window\n" +
        "<|file_sep|>current/src/main.rs\ncurrent window\n" +
        "<|file_sep|>updated/src/main.rs\n",
    );
    expect(prompt.stop).toEqual(["<|file_sep|>", "</s>"]);
  });

  it("writes a change's context on both sides, as Zed reads a unified diff", () => {
    // Zed's test_recent_change_block_from_event_formats_original_and_updated_sections.
    const prompt = promptText(
      [
        eventAt(
          "src/main.rs",
          5,
          'fn main() {\n    println!("old");\n}\n',
          'fn main() {\n    println!("new");\n}\n',
        ),
      ],
      [],
      "x\n",
    );
    expect(prompt.prompt).toContain(
      '<|file_sep|>src/main.rs.diff\noriginal:\nfn main() {\n    println!("old");\n}\n' +
        'updated:\nfn main() {\n    println!("new");\n}\n<|file_sep|>',
    );
  });

  it("keeps the last three changes, and 40 lines of a long one (20, ..., 19)", () => {
    const long = Array.from({ length: 50 }, (_, i) => `line ${i}\n`).join("");
    const events = [
      eventAt("a.rs", 0, "a\n", "A\n"),
      eventAt("b.rs", 0, "b\n", "B\n"),
      eventAt("c.rs", 0, "c\n", "C\n"),
      eventAt("d.rs", 0, long, `${long}tail\n`),
    ];
    const text = promptText(events, [], "x\n").prompt;
    expect(text).not.toContain("a.rs.diff");
    expect(text).toContain("<|file_sep|>b.rs.diff\noriginal:\nb\nupdated:\nB\n");
    const updated = text.slice(text.indexOf("d.rs.diff"));
    expect(updated).toContain("line 19\n...\nline 31\n");
    expect(updated).toContain("line 49\ntail\n<|file_sep|>");
  });

  it("leaves out related files and changes holding its separator tokens", () => {
    const text = promptText(
      [eventAt("a.rs", 0, "a\n", "a</s>\n")],
      [{ path: "x.rs", text: "<|file_sep|>" }],
      "x\n",
    ).prompt;
    expect(text).toBe(
      "<|file_sep|>original/src/main.rs\nx\n<|file_sep|>current/src/main.rs\nx\n<|file_sep|>updated/src/main.rs\n",
    );
  });
});

describe("sweep original window", () => {
  const file = "zero\none\ntwo\nthree\nfour\n";
  const excerpt = excerptOf("f.txt", file, { context: [1, 3], region: [1, 3], cursor: [2, 0] });

  it.each<[string, EditEvent[], string]>([
    ["no change in this file: the region", [eventAt("g.txt", 2, "TWO\n", "two\n")], "one\ntwo\nthree\n"],
    // Zed's test_original_window_for_current_window_uses_latest_pre_edit_snapshot: the latest change undone.
    ["the latest change put back", [eventAt("f.txt", 1, "ONE\n", "one\n")], "ONE\ntwo\nthree\n"],
    [
      "only the latest change of this file",
      [
        eventAt("f.txt", 2, "2\n", "two\n"),
        eventAt("f.txt", 3, "3\n", "three\n"),
        eventAt("g.txt", 0, "a\n", "b\n"),
      ],
      "one\ntwo\n3\n",
    ],
    ["a change outside the region", [eventAt("f.txt", 4, "4\n", "four\n")], "one\ntwo\nthree\n"],
    [
      "a change reaching past the region's edge: its whole before",
      [{ path: "f.txt", oldStartLine: 0, newStartLine: 0, before: "0\n1\n", after: "zero\none\n" }],
      "0\n1\ntwo\nthree\n",
    ],
    [
      "lines inserted: the window before them is shorter",
      [
        {
          path: "f.txt",
          oldStartLine: 1,
          newStartLine: 1,
          before: "one\nthree\n",
          after: "one\ntwo\nthree\n",
        },
      ],
      "one\nthree\n",
    ],
  ])("%s", (_, events, window) => {
    expect(originalWindow(excerpt, events)).toBe(window);
  });
});

describe("sweep answer", () => {
  const excerpt = excerptOf("f.txt", "a\nb\n", { context: [0, 1], region: [0, 1], cursor: [0, 0] });
  const read = (answer: string, region = excerpt.region) =>
    sweep.rewrittenRegion(answer, inputOf({ ...excerpt, region }));

  it.each([
    ["the updated window, ended by the separator the request stops at", "a\nB\n", "a\nB\n"],
    ["cut at a separator the provider left in", "a\nB\n<|file_sep|>other\n", "a\nB\n"],
    ["cut at the end-of-text token", "a\nB\n</s>", "a\nB\n"],
    ["without a final newline", "a\nB", "a\nB\n"],
  ])("reads %s", (_, answer, region) => {
    expect(read(answer)).toEqual({ ok: true, region });
  });

  it("refuses an empty answer, and a region holding its tokens", () => {
    expect(read("\n<|file_sep|>x")).toEqual({ ok: false, problem: "empty" });
    expect(read("a\n", "a</s>\n")).toEqual({ ok: false, problem: "stray-marker" });
  });
});
