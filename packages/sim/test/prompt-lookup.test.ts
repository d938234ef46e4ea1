import { describe, expect, it } from "vitest";
import { filler } from "../src/filler.js";
import { generate } from "../src/generate.js";
import { promptLookup } from "../src/prompt-lookup.js";
import { ADD_SUB, complete, MODEL, sim } from "./helpers.js";

interface Case {
  name: string;
  prompt: string;
  suffix?: string;
  text: string;
  from?: "prompt" | "suffix";
}

const cases: Case[] = [
  {
    name: "a function body from the previous function (cursor on an indented blank line)",
    prompt: ADD_SUB,
    text: "return a + b;",
  },
  {
    name: "from an indented blank line, the rest of the block: every line until one indented less",
    prompt: "function add(a, b) {\n  const s = a + b;\n  return s;\n}\nfunction sub(a, b) {\n  ",
    suffix: "\n}\n",
    text: "const s = a + b;\n  return s;",
  },
  {
    name: "from an indented blank line, a blank line ends the copy",
    prompt: "function add(a, b) {\n  const s = a + b;\n\n  return s;\n}\nfunction sub(a, b) {\n  ",
    text: "const s = a + b;",
  },
  {
    name: "stops where the suffix resumes",
    prompt: ADD_SUB,
    suffix: "\n}\n",
    text: "return a + b;",
  },
  {
    name: "a line that opens a block continues to its closing line",
    prompt: "function add(a, b) {\n  return a + b;\n}\nfunction sub(a, b) {",
    text: "\n  return a + b;\n}",
  },
  {
    name: "mid-line: the rest of the line, up to the suffix on the same line",
    prompt: "const x = foo(bar, baz);\nconst y = foo(",
    suffix: ");\n",
    text: "bar, baz",
  },
  {
    name: "mid-line without a suffix: up to the end of the line",
    prompt: "const total = sum(prices, taxes);\nlet other = 1;\nconst again = sum(",
    text: "prices, taxes);",
  },
  {
    name: "the longest matching tail wins over a more recent shorter one",
    prompt: "emit(alpha, 1); done();\nsend(alpha, 1); wait();\nemit(alpha, 1);",
    text: " done();",
  },
  {
    name: "the most recent occurrence wins among equally long ones",
    prompt: "x = 1;\nx = 2;\nx = ",
    text: "2;",
  },
  {
    name: "from the suffix when the tail occurs there, nearer than in the prompt",
    prompt: "const user = get",
    suffix: "\nconst userName = getUserName(id);\n",
    text: "UserName(id);",
    from: "suffix",
  },
  {
    name: "after a keyword: the rest of that line",
    prompt: "import a from 'a';\nimport b from 'b';\n\nexport const x = 1;\nimport ",
    text: "b from 'b';",
  },
  {
    name: "one line when the line does not open a block",
    prompt: "def f(x):\n    if x > 0:\n        return 1\n    return 0\n\ndef g(x):\n    if x > 0:\n        ",
    text: "return 1",
  },
  {
    name: "a block without closers ends at its last indented line, blank lines inside kept",
    prompt: "def f(x):\n    y = x * 2\n\n    return y\n\ndef g(x):",
    text: "\n    y = x * 2\n\n    return y",
  },
  {
    name: "a line at the cursor's indentation ends the block before it",
    prompt: "log(alpha);\nlog(beta);\nrun(alpha);\nrun(gamma);\nlog(alpha);\n",
    text: "log(beta);",
  },
  {
    name: "inside brackets the suffix closes: up to the copy's unmatched closer",
    prompt: "function price(cents: number): string {\n  return format(cents);\n}\nconst label = `${price(",
    suffix: ")}`;\n",
    text: "cents: number",
  },
  {
    name: "brackets opened in the copy are copied whole",
    prompt: "draw(point(1, 2), size);\ndraw(",
    suffix: ");\n",
    text: "point(1, 2), size",
  },
  {
    name: "the suffix already there: nothing to add",
    prompt: "call(one);\ncall(",
    suffix: "one);\n",
    text: "",
  },
];

describe("promptLookup", () => {
  it.each(cases)("$name", ({ prompt, suffix, text, from }) => {
    const result = promptLookup(prompt, suffix);
    expect(result?.text).toBe(text);
    if (from !== undefined) expect(result?.from).toBe(from);
  });

  it.each([
    ["an empty prompt", ""],
    ["a single token", "hello"],
    ["a tail seen nowhere else", "abc xyz"],
  ])("finds nothing in %s", (_, prompt) => {
    expect(promptLookup(prompt, "")).toBeUndefined();
  });

  it("copies at most 16 lines", () => {
    const body = Array.from({ length: 40 }, (_, i) => `  step${i}();`).join("\n");
    const prompt = `function a() {\n${body}\n}\nfunction b() {`;
    const result = promptLookup(prompt);
    expect(result?.text.split("\n")).toHaveLength(16);
    expect(result?.text.startsWith("\n  step0();\n  step1();")).toBe(true);
  });

  it("is deterministic", () => {
    const prompt = `${ADD_SUB}return a - b;\n}\n`;
    expect(promptLookup(prompt, "tail")).toEqual(promptLookup(prompt, "tail"));
  });
});

describe("filler", () => {
  it.each([
    ["// style by default", "", "", /^\/\/ TODO: /],
    ["// when the prompt uses it", "let x = 1; // one\n", "", /^\/\/ TODO: /],
    ["# for Python", "import os\n\n", "", /^# TODO: /],
    ["-- for SQL or Lua", "-- schema\nselect 1;\n", "", /^-- TODO: /],
    ["a leading space after text on the cursor line", "value = ", "", /^ \/\/ TODO: /],
  ])("%s", (_, prompt, suffix, pattern) => {
    expect(filler(prompt, suffix)).toMatch(pattern);
    expect(filler(prompt, suffix)).toBe(filler(prompt, suffix));
  });

  it("depends on the text around the cursor", () => {
    const fillers = new Set(Array.from({ length: 40 }, (_, i) => filler(`v${i}`, "")));
    expect(fillers.size).toBeGreaterThan(1);
  });
});

describe("generate", () => {
  it("falls back to the filler when nothing matches", () => {
    const result = generate({ prompt: "zzz", maxTokens: 100 });
    expect(result).toMatchObject({ source: "filler", finishReason: "stop" });
    expect(result.text).toBe(filler("zzz", ""));
  });

  it("limits the filler too", () => {
    const result = generate({ prompt: "zzz", maxTokens: 1 });
    expect(result).toMatchObject({ text: " ", finishReason: "length", tokens: [" "] });
  });
});

describe("over HTTP", () => {
  it.each(cases)("$name", async ({ prompt, suffix, text }) => {
    const s = await sim();
    const { json } = await complete(s, { model: MODEL, prompt, ...(suffix === undefined ? {} : { suffix }) });
    expect(json.choices[0].text).toBe(text);
  });
});
