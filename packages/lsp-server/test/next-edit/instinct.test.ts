import { describe, expect, it } from "vitest";
import type { NextEditInput } from "../../src/next-edit/prompt/excerpt.js";
import { INSTINCT_SYSTEM_PROMPT, instinct, instinctEvent } from "../../src/next-edit/prompt/instinct.js";
import { eventAt, excerptOf, inputOf } from "../support/next-edit-input.js";

// The published examples are Continue's core/nextEdit/templating/instinct.vitest.ts and the template of
// NextEditPromptEngine.ts (continuedev/continue @ d0a3c0b626b5bebc3bef4742eec05a0242be0bab).
const OPENING =
  "Reference the user excerpt, user edits, and the snippets to understand the developer's intent. Update the " +
  "editable region of the user excerpt by predicting and completing the changes they would have made next. This " +
  "may be a deletion, addition, or modification of code.";

const userMessage = (input: NextEditInput): string => {
  const prompt = instinct.prompt(input);
  if (prompt.shape !== "chat") throw new Error("instinct is a chat prompt");
  expect(prompt.messages[0]).toEqual({ role: "system", content: INSTINCT_SYSTEM_PROMPT });
  expect(prompt.prefix).toBeUndefined();
  return prompt.messages[1]?.content ?? "";
};

const FIVE_LINES = "line 0\nline 1\nline 2\nline 3\nline 4";

describe("instinct prompt", () => {
  it.each([
    [
      "should insert cursor and editable region tokens correctly",
      { context: [0, 4], region: [1, 3], cursor: [2, 4] },
      "line 0\n<|editable_region_start|>\nline 1\nline<|user_cursor_is_here|> 2\nline 3\n<|editable_region_end|>\nline 4",
    ],
    [
      "should handle single line editable region",
      { context: [0, 2], region: [1, 1], cursor: [1, 2] },
      "line 0\n<|editable_region_start|>\nli<|user_cursor_is_here|>ne 1\n<|editable_region_end|>\nline 2",
    ],
    [
      "should handle windowing - content outside window not included",
      { context: [1, 3], region: [2, 2], cursor: [2, 2] },
      "line 1\n<|editable_region_start|>\nli<|user_cursor_is_here|>ne 2\n<|editable_region_end|>\nline 3",
    ],
    [
      "should handle cursor at beginning of line (a region covering the excerpt)",
      { context: [0, 2], region: [0, 2], cursor: [1, 0] },
      "<|editable_region_start|>\nline 0\n<|user_cursor_is_here|>line 1\nline 2\n<|editable_region_end|>",
    ],
  ] as const)("lays the excerpt out as Continue's currentFileContentBlock test %j", (_, place, block) => {
    const excerpt = excerptOf("src/a.ts", FIVE_LINES, place);
    expect(userMessage(inputOf(excerpt))).toBe(
      `${OPENING}\n\n### Context:\n\n\n### User Edits:\n\n\n\n### User Excerpt:\nsrc/a.ts\n\n${block}\`\`\`\n### Response:`,
    );
  });

  it("writes related files as context items and changes as Continue's editHistoryBlock, oldest first", () => {
    const excerpt = excerptOf("test.js", "x\n", { context: [0, 0], region: [0, 0], cursor: [0, 0] });
    const events = [
      eventAt("file1.js", 0, "const old = 1;\n", "const new = 1;\n"),
      eventAt("file2.js", 0, 'let x = "old";\n', 'let x = "new";\n'),
    ];
    const related = [
      { path: "src/file1.ts", text: 'const var1 = "value1";\n' },
      { path: "src/file2.ts", text: 'const var2 = "value2";\nfunction test() {}' },
    ];
    const message = userMessage(inputOf(excerpt, events, related));
    // contextSnippetsBlock "should format multiple context snippets".
    expect(message).toContain(
      '### Context:\n<|context_file|>: src/file1.ts\n<|snippet|>\nconst var1 = "value1";\n\n' +
        '<|context_file|>: src/file2.ts\n<|snippet|>\nconst var2 = "value2";\nfunction test() {}\n\n### User Edits:',
    );
    // editHistoryBlock "should format multiple diff history entries", with jsdiff's counts.
    expect(message).toContain(
      '### User Edits:\n\nUser edited file "file1.js"\n\n```diff\n@@ -1,1 +1,1 @@\n-const old = 1;\n+const new = 1;\n```\n' +
        'User edited file "file2.js"\n\n```diff\n@@ -1,1 +1,1 @@\n-let x = "old";\n+let x = "new";\n```\n\n### User Excerpt:',
    );
  });

  it.each([
    [
      // "should format single diff history entry".
      "a change between context lines",
      eventAt(
        "test.js",
        0,
        'function test() {\n  console.log("old");\n}\n',
        'function test() {\n  console.log("new");\n}\n',
      ),
      'User edited file "test.js"\n\n```diff\n@@ -1,3 +1,3 @@\n function test() {\n-  console.log("old");\n' +
        '+  console.log("new");\n }\n```',
    ],
    [
      "a blank context line, left out as Continue's filter leaves it out",
      eventAt("a.py", 0, "a = 1\n\nb = 2\n", "a = 1\n\nb = 3\n"),
      'User edited file "a.py"\n\n```diff\n@@ -1,3 +1,3 @@\n a = 1\n-b = 2\n+b = 3\n```',
    ],
    ["nothing changed", eventAt("a.py", 0, "a\n", "a\n"), ""],
  ])("writes %s", (_, event, text) => {
    expect(instinctEvent(event)).toBe(text);
  });

  it("keeps the last six changes", () => {
    const excerpt = excerptOf("a.ts", "x\n", { context: [0, 0], region: [0, 0], cursor: [0, 0] });
    const events = Array.from({ length: 8 }, (_, i) => eventAt(`f${i}.ts`, 0, "a\n", "b\n"));
    const message = userMessage(inputOf(excerpt, events));
    expect(message).not.toContain('"f1.ts"');
    expect(message).toContain('"f2.ts"');
    expect(message).toContain('"f7.ts"');
  });
});

describe("instinct answer", () => {
  const excerpt = excerptOf("a.ts", "line 0\nline 1\nline 2\n", {
    context: [0, 2],
    region: [1, 2],
    cursor: [1, 0],
  });
  const read = (answer: string) => instinct.rewrittenRegion(answer, inputOf(excerpt));

  it.each([
    ["the region's lines, as the system prompt asks", "line 1\nLINE 2", "line 1\nLINE 2\n"],
    ["with a final newline", "line 1\nLINE 2\n", "line 1\nLINE 2\n"],
    ["in a fence", "```ts\nline 1\nLINE 2\n```", "line 1\nLINE 2\n"],
    // Continue's Test LLM answers next edits with the start marker kept.
    ["with the start marker kept", "<|editable_region_start|>\nline 1\nLINE 2\n", "line 1\nLINE 2\n"],
    ["between both markers", "<|editable_region_start|>\nLINE 1\n<|editable_region_end|>\n", "LINE 1\n"],
    ["with the cursor marker kept", "line<|user_cursor_is_here|> 1\nline 2", "line 1\nline 2\n"],
  ])("reads %s", (_, answer, region) => {
    expect(read(answer)).toEqual({ ok: true, region });
  });

  it.each([
    ["an empty answer", "\n", "empty"],
    ["two regions", "<|editable_region_start|>\na\n<|editable_region_start|>\nb\n", "two-regions"],
    ["a context marker in the region", "<|snippet|>\nline 1\n", "stray-marker"],
  ])("refuses %s", (_, answer, problem) => {
    expect(read(answer)).toEqual({ ok: false, problem });
  });
});
