import { describe, expect, it } from "vitest";
import { sparkline } from "../src/sparkline.js";

describe("sparkline", () => {
  it.each<[string, Array<number | null>, number | undefined, string]>([
    ["scaled to the largest value", [0, 1, 2, 4, 8], undefined, "▁▂▃▅█"],
    ["a day without data is a space", [8, null, 8], undefined, "█ █"],
    ["a small day is told from an empty one", [0, 1, 1000], undefined, "▁▂█"],
    ["all zeros", [0, 0], undefined, "▁▁"],
    ["nothing", [], undefined, ""],
    ["a given scale", [5, 10, 20], 10, "▅██"],
  ])("%s", (_name, values, max, expected) => {
    expect(sparkline(values, max)).toBe(expected);
  });
});
