import { describe, expect, it } from "vitest";
import { Admission } from "../src/admission.js";
import { RequestLog, type SimRequest } from "../src/request-log.js";

describe("Admission", () => {
  it("refuses a request while as many as the limit are answered, and counts the peak", () => {
    const admission = new Admission<string>(2, undefined, undefined);
    expect([admission.enter("a"), admission.enter("b"), admission.enter("c")]).toEqual([true, true, false]);
    expect([...admission.active()]).toEqual(["a", "b"]);
    // A refused request leaving is ignored; an answered one frees its place.
    admission.leave("c");
    expect(admission.enter("d")).toBe(false);
    admission.leave("a");
    expect(admission.enter("d")).toBe(true);
    expect(admission.peak).toBe(2);
    admission.leave("b");
    admission.leave("d");
    expect([...admission.active()]).toEqual([]);
    expect(admission.peak).toBe(2);
  });

  it("has no limit at Infinity", () => {
    const admission = new Admission<number>(Infinity, undefined, undefined);
    for (let i = 0; i < 1000; i++) expect(admission.enter(i)).toBe(true);
    expect(admission.peak).toBe(1000);
  });

  it("admits tokens while the window has room, recording the whole answer's", () => {
    const admission = new Admission<string>(Infinity, 100, 1_000);
    expect(admission.admitTokens(30, 80, 0)).toBe(0);
    // 80 recorded, not 30: 30 more do not fit until they leave at t = 1000.
    expect(admission.admitTokens(30, 30, 100)).toBe(900);
    expect(admission.admitTokens(20, 20, 100)).toBe(0);
    expect(admission.admitTokens(1, 1, 200)).toBe(800);
    // At t = 1000 the 80 have left; the 20 of t = 100 stay until t = 1100.
    expect(admission.admitTokens(81, 81, 1_000)).toBe(100);
    expect(admission.admitTokens(80, 80, 1_000)).toBe(0);
  });

  it("admits any tokens with no tokens-per-minute limit", () => {
    expect(new Admission<string>(1, undefined, undefined).admitTokens(1e12, 1e12, 0)).toBe(0);
  });
});

describe("RequestLog", () => {
  const record = (n: number): SimRequest => ({
    path: "/beta/completions",
    body: n,
    headers: {},
    receivedAt: n,
    status: 0,
    aborted: false,
    outputTokens: 0,
    closed: Promise.resolve(),
  });

  it.each([
    [Infinity, [1, 2, 3, 4, 5]],
    [2, [4, 5]],
    [1, [5]],
    [0, []],
  ])("keeps the latest %s", (keep, bodies) => {
    const log = new RequestLog(keep);
    const records = log.records;
    for (let n = 1; n <= 5; n++) log.add(record(n));
    expect(log.records.map((r) => r.body)).toEqual(bodies);
    // The same array all along: it is what Sim.requests hands out.
    expect(log.records).toBe(records);
  });
});
