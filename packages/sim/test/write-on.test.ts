import { describe, expect, it } from "vitest";
import { generate } from "../src/generate.js";

const WRITTEN = "function add(a, b) {\n  return a + b;\n}\n\nfunction sub(a, b) {\n  return a - b;\n}\n\n";

describe("writeOn", () => {
  it("at the end of a file, copies on past the end of the block", () => {
    const prompt = `${WRITTEN}// again\nfunction add(a, b) {\n`;
    const block = generate({ prompt, suffix: "\n", maxTokens: 200 });
    const on = generate({ prompt, suffix: "\n", maxTokens: 200, writeOn: true });
    expect(block.text).toBe("  return a + b;");
    expect(on.text).toBe(
      "  return a + b;\n}\n\nfunction sub(a, b) {\n  return a - b;\n}\n\n// again\nfunction add(a, b) {\n",
    );
  });

  it("in the middle of a file, stops at the block's end as without it", () => {
    const prompt = `${WRITTEN}function add(a, b) {\n`;
    const suffix = "}\nconst x = 1;\n";
    expect(generate({ prompt, suffix, maxTokens: 200, writeOn: true }).text).toBe(
      generate({ prompt, suffix, maxTokens: 200 }).text,
    );
  });
});

describe("temperature", () => {
  const prompt =
    "}\nfunction one() {\n  return 1;\n}\nfunction two() {\n  return 2;\n}\nfunction three() {\n  return 3;\n}\nfunction ";
  it("copies after the nearest occurrence at 0, farther ones above", () => {
    const at = (temperature: number) => generate({ prompt, maxTokens: 50, temperature }).text;
    expect(at(0)).toBe("three() {\n  return 3;\n}");
    expect(at(0.5)).toBe("two() {\n  return 2;\n}");
    // The matched text (";\n}\nfunction ") occurs twice before the cursor: none farther than the earliest.
    expect(at(1)).toBe("two() {\n  return 2;\n}");
  });
});
