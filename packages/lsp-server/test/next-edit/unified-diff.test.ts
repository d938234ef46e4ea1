import { describe, expect, it } from "vitest";
import type { EditEvent } from "../../src/next-edit/prompt/excerpt.js";
import { type HunkCountStyle, unifiedDiffHunk } from "../../src/next-edit/prompt/unified-diff.js";

const event = (oldStartLine: number, newStartLine: number, before: string, after: string): EditEvent => ({
  path: "a.js",
  oldStartLine,
  newStartLine,
  before,
  after,
});

describe("unifiedDiffHunk", () => {
  it.each<[string, EditEvent, HunkCountStyle, string]>([
    [
      // Continue's editHistoryBlock test "should format single diff history entry" (a jsdiff createPatch hunk).
      "one line changed between context lines, jsdiff counts",
      event(
        0,
        0,
        'function test() {\n  console.log("old");\n}\n',
        'function test() {\n  console.log("new");\n}\n',
      ),
      "always",
      '@@ -1,3 +1,3 @@\n function test() {\n-  console.log("old");\n+  console.log("new");\n }\n',
    ],
    [
      // Zed's sweep_prompt.rs test_recent_change_block_from_event_formats_original_and_updated_sections.
      "the same in GNU style (a count of 3 is written either way)",
      event(0, 0, 'fn main() {\n    println!("old");\n}\n', 'fn main() {\n    println!("new");\n}\n'),
      "gnu",
      '@@ -1,3 +1,3 @@\n fn main() {\n-    println!("old");\n+    println!("new");\n }\n',
    ],
    ["a single line, GNU leaves the count out", event(4, 4, "a\n", "b\n"), "gnu", "@@ -5 +5 @@\n-a\n+b\n"],
    ["a single line, jsdiff writes it", event(4, 4, "a\n", "b\n"), "always", "@@ -5,1 +5,1 @@\n-a\n+b\n"],
    [
      // Continue's "should handle diff with new file creation": an empty run starts at the line before it.
      "lines added to an empty file",
      event(0, 0, "", "function f() {\n  return 1;\n}\n"),
      "always",
      "@@ -0,0 +1,3 @@\n+function f() {\n+  return 1;\n+}\n",
    ],
    ["lines deleted after line 7", event(7, 7, "x\ny\n", ""), "gnu", "@@ -8,2 +7,0 @@\n-x\n-y\n"],
    [
      "a line inserted between context lines moves the new side's start",
      event(9, 10, "a\nb\n", "a\nnew\nb\n"),
      "gnu",
      "@@ -10,2 +11,3 @@\n a\n+new\n b\n",
    ],
    [
      "two changes in one event, removed lines before added ones in each",
      event(0, 0, "a\nb\nc\nd\ne\n", "a\nB\nc\nD1\nD2\ne\n"),
      "gnu",
      "@@ -1,5 +1,6 @@\n a\n-b\n+B\n c\n-d\n+D1\n+D2\n e\n",
    ],
    [
      "a last line without a newline is marked as diff marks it",
      event(2, 2, "a\nb", "a\nc"),
      "gnu",
      "@@ -3,2 +3,2 @@\n a\n-b\n\\ No newline at end of file\n+c\n\\ No newline at end of file\n",
    ],
    ["nothing changed: no hunk", event(3, 3, "a\n", "a\n"), "gnu", ""],
  ])("%s", (_, input, style, hunk) => {
    expect(unifiedDiffHunk(input, style)).toBe(hunk);
  });
});
