import { beforeEach, describe, expect, it } from "vitest";
import { CheckSchedule } from "../../src/stats/check-schedule.js";
import { FakeTimers } from "../support/fake-timers.js";

let timers: FakeTimers;
let made: Array<[string, number, number]>;
let schedule: CheckSchedule<string>;

beforeEach(() => {
  timers = new FakeTimers();
  made = [];
  schedule = new CheckSchedule(timers, (item, seconds) => made.push([item, seconds, timers.now()]));
});

describe("CheckSchedule", () => {
  it("makes each check at its horizon, in order, on one timer whatever the number of items", () => {
    for (let i = 0; i < 100; i++) {
      schedule.add(`s${i}`, [30, 120, 300, 600]);
      timers.advance(10);
    }
    expect(timers.pending).toBe(1);
    expect(schedule.size).toBe(100);
    timers.advance(30_000 - 1000);
    expect(made).toEqual([["s0", 30, 30_000]]);
    timers.advance(600_000);
    expect(made).toHaveLength(400);
    expect(made.map(([, , when]) => when)).toEqual([...made.map(([, , when]) => when)].sort((a, b) => a - b));
    expect(made.filter(([item]) => item === "s42").map(([, s, when]) => [s, when])).toEqual([
      [30, 30_420],
      [120, 120_420],
      [300, 300_420],
      [600, 600_420],
    ]);
    expect([schedule.size, timers.pending]).toEqual([0, 0]);
  });

  it("counts an item done before its check runs, and forgets it after its last", () => {
    const seen: Array<[boolean, readonly number[]]> = [];
    const s = new CheckSchedule<string>(timers, (item) => seen.push([s.has(item), [...s.pendingFor(item)]]));
    s.add("a", [1, 2]);
    timers.advance(2000);
    expect(seen).toEqual([
      [true, [2]],
      [false, []],
    ]);
  });

  it("arms for an earlier check added later (another setting of the horizons)", () => {
    schedule.add("long", [600]);
    schedule.add("short", [30]);
    timers.advance(30_000);
    expect(made).toEqual([["short", 30, 30_000]]);
    expect(timers.pending).toBe(1);
  });

  it.each<[string, () => void, Array<[string, number]>]>([
    [
      "drop the oldest: its checks are never made",
      () => schedule.drop("a"),
      [
        ["b", 30],
        ["b", 60],
      ],
    ],
    [
      "drop a newer one",
      () => schedule.drop("b"),
      [
        ["a", 30],
        ["a", 60],
      ],
    ],
    [
      "drop both",
      () => {
        schedule.drop("a");
        schedule.drop("b");
      },
      [],
    ],
  ])("%s", (_name, act, expected) => {
    schedule.add("a", [30, 60]);
    schedule.add("b", [30, 60]);
    act();
    timers.advance(60_000);
    expect(made.map(([item, seconds]) => [item, seconds])).toEqual(expected);
    expect(timers.pending).toBe(0);
  });

  it("returns what a drop dropped, and keeps the oldest first", () => {
    schedule.add("a", [30, 60]);
    schedule.add("b", [30]);
    timers.advance(30_000);
    expect(schedule.oldest()).toBe("a");
    expect(schedule.drop("a")).toEqual([60]);
    expect(schedule.oldest()).toBeUndefined();
  });

  it("makes every pending check at once when run out, and stops its timer", () => {
    schedule.add("a", [30, 60]);
    timers.advance(1000);
    schedule.add("b", [30]);
    schedule.runAll();
    expect(made.map(([item, seconds]) => [item, seconds])).toEqual([
      ["a", 30],
      ["b", 30],
      ["a", 60],
    ]);
    expect([schedule.size, timers.pending]).toEqual([0, 0]);
  });
});
