import { describe, expect, it } from "vitest";
import { DEEPSEEK_NEXT_EDIT_SYSTEM_PROMPT, deepseek } from "../../src/next-edit/prompt/deepseek.js";
import { eventAt, excerptOf, inputOf } from "../support/next-edit-input.js";

const FILE = "function add(a, b) {\n  const total = a + b;\n  log(total);\n  return total;\n}\n";
const excerpt = excerptOf("src/add.js", FILE, { context: [0, 4], region: [1, 3], cursor: [2, 8] });
const renamed = eventAt("src/add.js", 1, "  const sum = a + b;\n", "  const total = a + b;\n");

const chat = (input = inputOf(excerpt, [renamed])) => {
  const prompt = deepseek.prompt(input);
  if (prompt.shape !== "chat") throw new Error("deepseek is a chat prompt");
  return prompt;
};

describe("deepseek prompt", () => {
  it("is the instruction, then the edits and the excerpt as Zeta writes them; the answer begun above the cursor", () => {
    expect(chat()).toEqual({
      shape: "chat",
      messages: [
        { role: "system", content: DEEPSEEK_NEXT_EDIT_SYSTEM_PROMPT },
        {
          role: "user",
          content:
            "### User Edits:\n\n" +
            'User edited "src/add.js":\n```diff\n@@ -2 +2 @@\n-  const sum = a + b;\n+  const total = a + b;\n\n```' +
            "\n\n### User Excerpt:\n\n" +
            "```src/add.js\n<|start_of_file|>\nfunction add(a, b) {\n<|editable_region_start|>\n" +
            "  const total = a + b;\n  log(to<|user_cursor_is_here|>tal);\n  return total;\n<|editable_region_end|>\n" +
            "}\n```",
        },
      ],
      prefix: "<|editable_region_start|>\n  const total = a + b;\n",
      stop: ["<|editable_region_end|>"],
      maxTokens: expect.any(Number),
    });
  });

  it("puts related files first and says when there are no edits", () => {
    const user = chat(inputOf(excerpt, [], [{ path: "src/log.js", text: "export function log(x) {}" }]))
      .messages[1];
    expect(user?.content).toMatch(
      /^### Related files:\n\n```src\/log.js\nexport function log\(x\) \{\}\n```\n\n### User Edits:\n\n\(none\)\n\n### User Excerpt:/,
    );
  });

  it.each([
    ["the cursor on the region's first line: the marker alone", [1, 4], "<|editable_region_start|>\n"],
    [
      "the cursor at a line's start: the lines above it",
      [3, 0],
      "<|editable_region_start|>\n  const total = a + b;\n  log(total);\n",
    ],
  ] as const)("begins the answer with %s", (_, cursor, prefix) => {
    const at = excerptOf("src/add.js", FILE, { context: [0, 4], region: [1, 3], cursor });
    expect(chat(inputOf(at)).prefix).toBe(prefix);
  });

  it.each([
    [
      "a use of the renamed name above the cursor: the prefix stops before it",
      {
        ...eventAt("src/add.js", 3, "  return total;\n", "  return sum;\n"),
        rename: { from: "total", to: "sum" },
      },
      "<|editable_region_start|>\n",
    ],
    [
      "no line above the cursor the edit may reach: every line above it",
      {
        ...eventAt("src/add.js", 3, "  return sub;\n", "  return diff;\n"),
        rename: { from: "sub", to: "diff" },
      },
      "<|editable_region_start|>\n  const total = a + b;\n  log(total);\n",
    ],
  ] as const)("leaves free the lines the last edit may be carried to: %s", (_, event, prefix) => {
    const at = excerptOf("src/add.js", FILE, { context: [0, 4], region: [1, 3], cursor: [3, 9] });
    expect(chat(inputOf(at, [event])).prefix).toBe(prefix);
  });

  it("keeps the system message the same whatever the input: it is the cached part", () => {
    const other = excerptOf("b.py", "x = 1\n", { context: [0, 0], region: [0, 0], cursor: [0, 0] });
    expect(chat(inputOf(other)).messages[0]).toEqual(chat().messages[0]);
  });
});

describe("deepseek answer", () => {
  const read = (answer: string) => deepseek.rewrittenRegion(answer, inputOf(excerpt, [renamed]));
  const prefix = "<|editable_region_start|>\n  const total = a + b;\n";

  it.each([
    [
      "the prefix and the continuation, stopped at the end marker",
      `${prefix}  log(total);\n  return total;\n`,
    ],
    [
      "the end marker written (a request without the stop)",
      `${prefix}  log(total);\n  return total;\n<|editable_region_end|>\n}`,
    ],
    ["the cursor marker echoed", `${prefix}  log(to<|user_cursor_is_here|>tal);\n  return total;\n`],
  ])("reads %s", (_, answer) => {
    expect(read(answer)).toEqual({
      ok: true,
      region: "  const total = a + b;\n  log(total);\n  return total;\n",
    });
  });

  it("refuses a second region", () => {
    expect(read(`${prefix}x\n<|editable_region_start|>\n`)).toEqual({ ok: false, problem: "two-regions" });
  });
});
