import { describe, expect, it } from "vitest";
import { zeta, zetaExcerpt } from "../../src/next-edit/prompt/zeta.js";
import { eventAt, excerptOf, inputOf } from "../support/next-edit-input.js";

// The file of Zed's crates/zeta/src/input_excerpt.rs test_excerpt_for_cursor_position
// (@ 0d6926886567df0c1e4ef14cb919d3fa89957a12), cursor at line 12, column 5.
const MAIN_RS = `fn foo() {
    let x = 42;
    println!("Hello, world!");
}

fn bar() {
    let x = 42;
    let mut sum = 0;
    for i in 0..x {
        sum += i;
    }
    println!("Sum: {}", sum);
    return sum;
}

fn generate_random_numbers() -> Vec<i32> {
    let mut rng = rand::thread_rng();
    let mut numbers = Vec::new();
    for _ in 0..5 {
        numbers.push(rng.gen_range(1..101));
    }
    numbers
}
`;

const INSTRUCTION =
  "### Instruction:\nYou are a code completion assistant and your task is to analyze user edits and then rewrite " +
  "an excerpt that the user provides, suggesting the appropriate edits within the excerpt, taking into account the " +
  "cursor location.\n\n";

describe("zeta excerpt", () => {
  it.each([
    [
      "the region grown to `bar` and a line each side (the test's first case)",
      { context: [1, 17], region: [3, 15], cursor: [12, 5] },
      "```main.rs\n" +
        '    let x = 42;\n    println!("Hello, world!");\n' +
        "<|editable_region_start|>\n" +
        "}\n\nfn bar() {\n    let x = 42;\n    let mut sum = 0;\n    for i in 0..x {\n        sum += i;\n    }\n" +
        '    println!("Sum: {}", sum);\n    r<|user_cursor_is_here|>eturn sum;\n}\n\n' +
        "fn generate_random_numbers() -> Vec<i32> {\n" +
        "<|editable_region_end|>\n" +
        "    let mut rng = rand::thread_rng();\n    let mut numbers = Vec::new();\n" +
        "```",
    ],
    [
      "the region by lines (the test's second case)",
      { context: [5, 19], region: [8, 16], cursor: [12, 5] },
      "```main.rs\n" +
        "fn bar() {\n    let x = 42;\n    let mut sum = 0;\n" +
        "<|editable_region_start|>\n" +
        "    for i in 0..x {\n        sum += i;\n    }\n" +
        '    println!("Sum: {}", sum);\n    r<|user_cursor_is_here|>eturn sum;\n}\n\n' +
        "fn generate_random_numbers() -> Vec<i32> {\n    let mut rng = rand::thread_rng();\n" +
        "<|editable_region_end|>\n" +
        "    let mut numbers = Vec::new();\n    for _ in 0..5 {\n        numbers.push(rng.gen_range(1..101));\n" +
        "```",
    ],
    [
      "an excerpt from the first line, the region its end (<|start_of_file|>, nothing after the end marker)",
      { context: [0, 3], region: [1, 3], cursor: [1, 0] },
      "```main.rs\n<|start_of_file|>\nfn foo() {\n<|editable_region_start|>\n" +
        '<|user_cursor_is_here|>    let x = 42;\n    println!("Hello, world!");\n}\n' +
        "<|editable_region_end|>\n```",
    ],
  ] as const)("%s", (_, place, expected) => {
    const excerpt = excerptOf("main.rs", MAIN_RS, place);
    expect(zetaExcerpt(excerpt)).toBe(expected);
  });
});

describe("zeta prompt", () => {
  it("is the instruction, the edits, the excerpt and the response heading, stopped at the region's end", () => {
    const excerpt = excerptOf(
      "src/main.rs",
      "fn before() {}\nfn foo() {\n    let x = 1;\n}\nfn after() {}\n",
      {
        context: [0, 4],
        region: [1, 3],
        cursor: [2, 4],
      },
    );
    const events = [
      eventAt("other.rs", 0, "old\n", "new\n"),
      eventAt("src/main.rs", 1, "fn foo() {\n", "fn foo() {\n"),
    ];
    const prompt = zeta.prompt(inputOf(excerpt, events));
    // Zed's zeta_prompt tests (test_format_zeta1_from_input_basic) give this layout, with the path unquoted and an
    // empty line before the end marker; the model learnt Event::to_prompt's quoted path and input_excerpt.rs's region.
    expect(prompt).toEqual({
      shape: "raw",
      prompt:
        INSTRUCTION +
        "### User Edits:\n\n" +
        'User edited "other.rs":\n```diff\n@@ -1 +1 @@\n-old\n+new\n\n```' +
        "\n\n### User Excerpt:\n\n" +
        "```src/main.rs\n<|start_of_file|>\nfn before() {}\n<|editable_region_start|>\n" +
        "fn foo() {\n    <|user_cursor_is_here|>let x = 1;\n}\n<|editable_region_end|>\nfn after() {}\n```" +
        "\n\n### Response:\n",
      stop: ["<|editable_region_end|>"],
      maxTokens: expect.any(Number),
    });
  });

  it("with no edits leaves the section empty, as Zed's no-events test shows", () => {
    const excerpt = excerptOf("src/main.rs", "fn foo() {\n    let x = 1;\n}\n", {
      context: [0, 2],
      region: [0, 2],
      cursor: [1, 4],
    });
    const prompt = zeta.prompt(inputOf({ ...excerpt, startsFile: false }));
    expect(prompt.shape === "raw" && prompt.prompt).toBe(
      `${INSTRUCTION}### User Edits:\n\n\n\n### User Excerpt:\n\n` +
        "```src/main.rs\n<|editable_region_start|>\nfn foo() {\n    <|user_cursor_is_here|>let x = 1;\n}\n" +
        "<|editable_region_end|>\n```\n\n### Response:\n",
    );
  });

  it("keeps the last 16 events, oldest first", () => {
    const excerpt = excerptOf("a.rs", "x\n", { context: [0, 0], region: [0, 0], cursor: [0, 0] });
    const events = Array.from({ length: 18 }, (_, i) => eventAt("a.rs", 0, `v${i}\n`, `v${i + 1}\n`));
    const prompt = zeta.prompt(inputOf(excerpt, events));
    const text = prompt.shape === "raw" ? prompt.prompt : "";
    expect(text).not.toContain("-v1\n");
    expect(text.indexOf("-v2\n")).toBeLessThan(text.indexOf("-v17\n"));
  });
});

describe("zeta answer", () => {
  const excerpt = excerptOf("animals.js", "lorem\n", { context: [0, 0], region: [0, 0], cursor: [0, 5] });
  const read = (answer: string) => zeta.rewrittenRegion(answer, inputOf(excerpt));

  it.each([
    [
      // Zed's zeta.rs test_edit_prediction_end_of_buffer: the whole excerpt, fence and markers.
      "the excerpt rewritten, fence and start of file around it",
      "```animals.js\n<|start_of_file|>\n<|editable_region_start|>\nlorem\nipsum\n<|editable_region_end|>\n```",
      "lorem\nipsum\n",
    ],
    [
      "stopped at the end marker (the request's stop)",
      "<|editable_region_start|>\nlorem ipsum\n",
      "lorem ipsum\n",
    ],
    [
      // zeta_prompt's test_clean_zeta1_model_output_with_cursor: the cursor marker is dropped.
      "the cursor marker kept by the model",
      "<|editable_region_start|>\nlo<|user_cursor_is_here|>rem\n<|editable_region_end|>\n",
      "lorem\n",
    ],
    [
      // zeta1.rs test_parse_edits_empty_editable_region: every line deleted.
      "an empty region",
      "<|editable_region_start|>\n<|editable_region_end|>",
      "",
    ],
    ["one empty line", "<|editable_region_start|>\n\n<|editable_region_end|>", "\n"],
    // zeta1.rs test_parse_edits_multibyte_char_*: a marker on the same line as the text.
    [
      "the end marker after the last line's text",
      "<|editable_region_start|>\n// café<|editable_region_end|>",
      "// café\n",
    ],
  ])("%s", (_, answer, region) => {
    expect(read(answer)).toEqual({ ok: true, region });
  });

  it.each([
    ["no marker at all", "lorem ipsum\n", "no-region"],
    [
      "two regions",
      "<|editable_region_start|>\na\n<|editable_region_end|>\n<|editable_region_start|>\nb\n<|editable_region_end|>",
      "two-regions",
    ],
    [
      "the end before the start",
      "<|editable_region_end|>\n<|editable_region_start|>\na\n",
      "misplaced-marker",
    ],
    ["an end and no start", "a\n<|editable_region_end|>", "misplaced-marker"],
    [
      "the start of file inside the region",
      "<|editable_region_start|>\n<|start_of_file|>\na\n",
      "stray-marker",
    ],
  ])("refuses %s", (_, answer, problem) => {
    expect(read(answer)).toEqual({ ok: false, problem });
  });
});
