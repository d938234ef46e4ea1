import { answerEdit } from "@infill/sim";
import { describe, expect, it } from "vitest";
import { whyNoSuggestion } from "../../src/next-edit/answer/no-suggestion.js";
import { regionEdits } from "../../src/next-edit/answer/region-edits.js";
import type { EditEvent, EditPrompt, NextEditInput } from "../../src/next-edit/prompt/excerpt.js";
import { NEXT_EDIT_FORMAT_NAMES, NEXT_EDIT_FORMATS } from "../../src/next-edit/prompt/formats.js";
import { type ExcerptPlace, excerptOf, inputOf } from "../support/next-edit-input.js";

// Each format's prompt, answered by @infill/sim's edit model as that format's model answers, read back by the
// format: the round trip a next edit makes, with the simulator as the model.

/** The text the model writes, cut at the request's first stop string as a provider cuts it. */
function answered(prompt: EditPrompt): string {
  const text =
    prompt.shape === "raw"
      ? answerEdit({ prompt: prompt.prompt })
      : answerEdit({ messages: prompt.messages, prefix: prompt.prefix });
  const cuts = prompt.stop.map((stop) => text.indexOf(stop)).filter((at) => at !== -1);
  const continuation = text.slice(0, Math.min(text.length, ...cuts));
  return prompt.shape === "chat" && prompt.prefix !== undefined ? prompt.prefix + continuation : continuation;
}

interface Scenario {
  name: string;
  path: string;
  file: string;
  place: ExcerptPlace;
  event: EditEvent;
  region: string;
}

const SCENARIOS: Scenario[] = [
  {
    name: "a rename carried to the other uses",
    path: "src/add.js",
    file: "function add(a, b) {\n  const sum = a + b;\n  log(total);\n  return total;\n}\n",
    place: { context: [0, 4], region: [1, 3], cursor: [1, 11] },
    event: {
      path: "src/add.js",
      oldStartLine: 0,
      newStartLine: 0,
      before: "function add(a, b) {\n  const total = a + b;\n  log(total);\n",
      after: "function add(a, b) {\n  const sum = a + b;\n  log(total);\n",
    },
    region: "  const sum = a + b;\n  log(sum);\n  return sum;\n",
  },
  {
    name: "a parameter carried to the calls",
    path: "lib/area.py",
    file: "def area(w, h, unit):\n    return w * h\n\nsmall = area(1, 2)\nlarge = area(10, 20)\n",
    place: { context: [0, 4], region: [0, 4], cursor: [0, 19] },
    event: {
      path: "lib/area.py",
      oldStartLine: 0,
      newStartLine: 0,
      before: "def area(w, h):\n    return w * h\n",
      after: "def area(w, h, unit):\n    return w * h\n",
    },
    region:
      "def area(w, h, unit):\n    return w * h\n\nsmall = area(1, 2, unit)\nlarge = area(10, 20, unit)\n",
  },
  {
    name: "a line's change repeated on its twin",
    path: "src/max.ts",
    file: "function max(left: number, right: number) {\n  let max = 0;\n  if (left >= max) max = left;\n  if (right > max) max = right;\n  return max;\n}\n",
    place: { context: [0, 5], region: [1, 4], cursor: [2, 13] },
    event: {
      path: "src/max.ts",
      oldStartLine: 1,
      newStartLine: 1,
      before: "  let max = 0;\n  if (left > max) max = left;\n  if (right > max) max = right;\n",
      after: "  let max = 0;\n  if (left >= max) max = left;\n  if (right > max) max = right;\n",
    },
    region:
      "  let max = 0;\n  if (left >= max) max = left;\n  if (right >= max) max = right;\n  return max;\n",
  },
];

const CASES = NEXT_EDIT_FORMAT_NAMES.flatMap((format) =>
  SCENARIOS.map((scenario) => [format, scenario] as const),
);

describe("next-edit round trip through @infill/sim", () => {
  it.each(CASES)("%s: %s", (name, scenario) => {
    const format = NEXT_EDIT_FORMATS[name];
    const excerpt = excerptOf(scenario.path, scenario.file, scenario.place);
    const input: NextEditInput = inputOf(
      excerpt,
      [scenario.event],
      [{ path: "README.md", text: "# notes\n" }],
    );
    const read = format.rewrittenRegion(answered(format.prompt(input)), input);
    expect(read).toEqual({ ok: true, region: scenario.region });
    const region = read.ok ? read.region : "";
    expect(
      whyNoSuggestion({ current: excerpt.region, rewritten: region, lastEdit: scenario.event }),
    ).toBeUndefined();
    expect(regionEdits(excerpt.region, region, excerpt.cursorOffset).length).toBeGreaterThan(0);
  });

  it.each(NEXT_EDIT_FORMAT_NAMES)("%s: no edit follows, the region comes back as it is", (name) => {
    const format = NEXT_EDIT_FORMATS[name];
    const excerpt = excerptOf("a.txt", "one\ntwo\nthree\n", {
      context: [0, 2],
      region: [0, 2],
      cursor: [1, 1],
    });
    const input = inputOf(excerpt, [
      { path: "b.txt", oldStartLine: 0, newStartLine: 0, before: "x\n", after: "x\ny\n" },
    ]);
    expect(format.rewrittenRegion(answered(format.prompt(input)), input)).toEqual({
      ok: true,
      region: excerpt.region,
    });
  });
});
