import { describe, expect, it } from "vitest";
import { type StreamPlan, streamPlan } from "../src/answer-writer.js";

describe("streamPlan", () => {
  it.each<[number, number | undefined, number | undefined, StreamPlan]>([
    [5, undefined, undefined, { sent: 5, end: "end" }],
    [5, 2, undefined, { sent: 2, end: "drop" }],
    [5, 0, undefined, { sent: 0, end: "drop" }],
    [5, 9, undefined, { sent: 5, end: "drop" }],
    [5, undefined, 1, { sent: 1, end: "error" }],
    [5, undefined, 9, { sent: 5, end: "error" }],
    [0, undefined, 0, { sent: 0, end: "error" }],
    // Both at once cannot come from one fault; the cut would win.
    [5, 3, 1, { sent: 3, end: "drop" }],
  ])("%s events, cut %s, stream error %s: %j", (events, cut, streamError, expected) => {
    expect(streamPlan(events, cut, streamError)).toEqual(expected);
  });
});
