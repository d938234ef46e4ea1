import { describe, expect, it } from "vitest";
import { type SuggestionCandidate, whyNoSuggestion } from "../../src/next-edit/answer/no-suggestion.js";

const REGION = "let sum = a + b;\nlog(total);\nreturn total;\n";
const RENAME = { before: "let total = a + b;\n", after: "let sum = a + b;\n" };

describe("whyNoSuggestion", () => {
  it.each<[string, SuggestionCandidate, ReturnType<typeof whyNoSuggestion>]>([
    [
      "a rename carried on is a suggestion",
      { current: REGION, rewritten: "let sum = a + b;\nlog(sum);\nreturn sum;\n", lastEdit: RENAME },
      undefined,
    ],
    ["the region as it is", { current: REGION, rewritten: REGION, lastEdit: RENAME }, "unchanged"],
    [
      "the user's last edit put back",
      { current: REGION, rewritten: "let total = a + b;\nlog(total);\nreturn total;\n", lastEdit: RENAME },
      "undoes-last-edit",
    ],
    [
      "typed text taken out again",
      { current: "f(a, b);\n", rewritten: "f(a);\n", lastEdit: { before: "f(a);\n", after: "f(a, b);\n" } },
      "undoes-last-edit",
    ],
    [
      "the same change made again elsewhere does not undo it",
      {
        current: "f(a, b);\nf(a);\n",
        rewritten: "f(a, b);\nf(a, b);\n",
        lastEdit: { before: "f(a);\n", after: "f(a, b);\n" },
      },
      undefined,
    ],
    ["only indentation", { current: REGION, rewritten: REGION.replace("log", "  log") }, "whitespace-only"],
    ["only line breaks", { current: "a(b, c);\n", rewritten: "a(\n  b,\n  c\n);\n" }, "whitespace-only"],
    [
      "more lines than the bound",
      { current: "a\nb\nc\n", rewritten: "A\nB\nC\n", bounds: { maxChangedLines: 2, maxChangedChars: 100 } },
      "too-large",
    ],
    [
      "as many lines as the bound",
      { current: "a\nb\nc\n", rewritten: "A\nB\nc\n", bounds: { maxChangedLines: 2, maxChangedChars: 100 } },
      undefined,
    ],
    [
      "more characters than the bound (removed plus inserted)",
      {
        current: "x = 1;\n",
        rewritten: "x = 1234567;\n",
        bounds: { maxChangedLines: 9, maxChangedChars: 5 },
      },
      "too-large",
    ],
    [
      "the default bound: 20 lines",
      {
        current: Array.from({ length: 21 }, (_, i) => `line ${i}\n`).join(""),
        rewritten: Array.from({ length: 21 }, (_, i) => `LINE ${i}\n`).join(""),
      },
      "too-large",
    ],
  ])("%s", (_, candidate, reason) => {
    expect(whyNoSuggestion(candidate)).toBe(reason);
  });
});
