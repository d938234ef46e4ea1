import { describe, expect, it } from "vitest";
import { answerEdit, type EditModelInput } from "../../src/next-edit/answer-edit.js";

// Requests written out as infill's formatters (packages/lsp-server/src/next-edit/prompt) lay them out; the
// lsp-server's next-edit round-trip test sends the formatters' own prompts through answerEdit.

const ZETA_INSTRUCTION =
  "### Instruction:\nYou are a code completion assistant and your task is to analyze user edits and then rewrite " +
  "an excerpt that the user provides, suggesting the appropriate edits within the excerpt, taking into account the " +
  "cursor location.\n\n";

const RENAME_DIFF =
  "@@ -1,3 +1,3 @@\n function add(a, b) {\n-  const total = a + b;\n+  const sum = a + b;\n   log(total);\n";
const PARAMETER_DIFF = "@@ -1 +1 @@\n-function add(a, b) {\n+function add(a, b, c) {\n";

const zetaPrompt = (diff: string, excerpt: string): EditModelInput => ({
  prompt:
    `${ZETA_INSTRUCTION}### User Edits:\n\nUser edited "src/add.js":\n\`\`\`diff\n${diff}\n\`\`\`\n\n` +
    `### User Excerpt:\n\n${excerpt}\n\n### Response:\n`,
});

describe("answerEdit", () => {
  it.each<[string, EditModelInput, string]>([
    [
      "zeta, a rename: the excerpt again, fence and context included",
      zetaPrompt(
        RENAME_DIFF,
        "```src/add.js\n<|start_of_file|>\nfunction add(a, b) {\n<|editable_region_start|>\n  const sum = a + b;\n" +
          "  log(<|user_cursor_is_here|>total);\n  return total;\n<|editable_region_end|>\n}\n```",
      ),
      "```src/add.js\n<|start_of_file|>\nfunction add(a, b) {\n<|editable_region_start|>\n  const sum = a + b;\n" +
        "  log(sum);\n  return sum;\n<|editable_region_end|>\n}\n```",
    ],
    [
      "zeta, a parameter added: its calls get the argument",
      zetaPrompt(
        PARAMETER_DIFF,
        "```src/add.js\nfunction add(a, b, c) {\n  return a + b + c;\n}\n<|editable_region_start|>\n" +
          "const x = add(1, 2);<|user_cursor_is_here|>\nconst y = add(3, 4);\n<|editable_region_end|>\n```",
      ),
      "```src/add.js\nfunction add(a, b, c) {\n  return a + b + c;\n}\n<|editable_region_start|>\n" +
        "const x = add(1, 2, c);\nconst y = add(3, 4, c);\n<|editable_region_end|>\n```",
    ],
    [
      "sweep, a rename: the updated window",
      {
        prompt:
          "<|file_sep|>src/log.js\nexport function log(x) {}\n" +
          "<|file_sep|>src/add.js.diff\noriginal:\nfunction add(a, b) {\n  const total = a + b;\n  log(total);\n" +
          "updated:\nfunction add(a, b) {\n  const sum = a + b;\n  log(total);\n" +
          "<|file_sep|>original/src/add.js\n  const total = a + b;\n  log(total);\n  return total;\n" +
          "<|file_sep|>current/src/add.js\n  const sum = a + b;\n  log(total);\n  return total;\n" +
          "<|file_sep|>updated/src/add.js\n",
      },
      "  const sum = a + b;\n  log(sum);\n  return sum;\n",
    ],
    [
      "sweep, a line's change repeated on its twin",
      {
        prompt:
          "<|file_sep|>src/max.js.diff\noriginal:\n  if (left > max) max = left;\nupdated:\n  if (left >= max) max = left;\n" +
          "<|file_sep|>original/src/max.js\n  if (left > max) max = left;\n  if (right > max) max = right;\n" +
          "<|file_sep|>current/src/max.js\n  if (left >= max) max = left;\n  if (right > max) max = right;\n" +
          "<|file_sep|>updated/src/max.js\n",
      },
      "  if (left >= max) max = left;\n  if (right >= max) max = right;\n",
    ],
    [
      "instinct, a rename: the region's lines, no markers",
      {
        messages: [
          {
            role: "system",
            content: "You are Instinct, an intelligent next-edit predictor developed by Continue.dev.",
          },
          {
            role: "user",
            content:
              "Reference the user excerpt, user edits, and the snippets.\n\n### Context:\n\n\n### User Edits:\n\n" +
              `User edited file "src/add.js"\n\n\`\`\`diff\n${RENAME_DIFF}\`\`\`` +
              "\n\n### User Excerpt:\nsrc/add.js\n\nfunction add(a, b) {\n<|editable_region_start|>\n  const sum = a + b;\n" +
              "  log(<|user_cursor_is_here|>total);\n  return total;\n<|editable_region_end|>\n}```\n### Response:",
          },
        ],
      },
      "  const sum = a + b;\n  log(sum);\n  return sum;",
    ],
    [
      "deepseek, a parameter added: the region from the cursor's line, the prefix's lines left alone",
      {
        messages: [
          { role: "system", content: "You predict the next edit a developer makes to their code." },
          {
            role: "user",
            content:
              `### User Edits:\n\nUser edited "src/add.js":\n\`\`\`diff\n${PARAMETER_DIFF}\n\`\`\`\n\n` +
              "### User Excerpt:\n\n```src/add.js\n<|editable_region_start|>\nconst x = add(1, 2);\n" +
              "const y = add(3, <|user_cursor_is_here|>4);\n<|editable_region_end|>\n```",
          },
        ],
        prefix: "<|editable_region_start|>\nconst x = add(1, 2);\n",
      },
      "const y = add(3, 4, c);\n",
    ],
    [
      "deepseek without a prefix: the whole region after the start marker",
      {
        messages: [
          {
            role: "user",
            content:
              `### User Edits:\n\nUser edited "src/add.js":\n\`\`\`diff\n${PARAMETER_DIFF}\n\`\`\`\n\n` +
              "### User Excerpt:\n\n```src/add.js\n<|editable_region_start|>\nconst x = add(1, 2);\n<|editable_region_end|>\n```",
          },
        ],
      },
      "<|editable_region_start|>\nconst x = add(1, 2, c);\n",
    ],
    [
      "nothing follows from the last edit: the region unchanged",
      zetaPrompt(
        "@@ -1 +1 @@\n-a\n+b\n",
        "```x.txt\n<|editable_region_start|>\nc<|user_cursor_is_here|>\n<|editable_region_end|>\n```",
      ),
      "```x.txt\n<|editable_region_start|>\nc\n<|editable_region_end|>\n```",
    ],
    ["a request in no known layout", { prompt: "def add(a, b):\n    return " }, ""],
    ["chat with no excerpt", { messages: [{ role: "user", content: "hello" }] }, ""],
  ])("%s", (_, input, answer) => {
    expect(answerEdit(input)).toBe(answer);
  });
});
