import { describe, expect, it } from "vitest";
import {
  isNextEditFormatName,
  NEXT_EDIT_FORMAT_NAMES,
  NEXT_EDIT_FORMATS,
} from "../../src/next-edit/prompt/formats.js";

describe("next-edit formats", () => {
  it("are the four the settings name, each under its own name", () => {
    expect(NEXT_EDIT_FORMAT_NAMES).toEqual(["zeta", "sweep", "instinct", "deepseek"]);
    for (const name of NEXT_EDIT_FORMAT_NAMES) expect(NEXT_EDIT_FORMATS[name].name).toBe(name);
  });

  it.each([
    ["zeta", true],
    ["deepseek", true],
    ["Zeta", false],
    ["toString", false],
    ["", false],
  ])("%j is a format name: %s", (name, known) => {
    expect(isNextEditFormatName(name)).toBe(known);
  });
});
