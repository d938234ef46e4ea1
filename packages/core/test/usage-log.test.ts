import { appendFileSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  appendUsageRecords,
  emptyTotals,
  localDay,
  readUsageLog,
  type UsageRecord,
  usageDirectory,
  usageFile,
} from "../src/index.js";
import { formatUsageRecord } from "../src/usage-log.js";
import { parseUsageLog } from "../src/usage-report.js";

const record = (figures: Partial<UsageRecord> = {}): UsageRecord => ({
  ...emptyTotals(),
  day: "2026-11-02",
  provider: "deepseek",
  model: "deepseek-v4-flash",
  language: "typescript",
  context: "on",
  kind: "completion",
  ...figures,
});

describe("usageDirectory", () => {
  it.each<[string, NodeJS.ProcessEnv, NodeJS.Platform, string | undefined]>([
    [
      "XDG_STATE_HOME first",
      { XDG_STATE_HOME: "/x/state", HOME: "/home/u" },
      "linux",
      "/x/state/infill/usage",
    ],
    ["else HOME/.local/state", { HOME: "/home/u" }, "linux", "/home/u/.local/state/infill/usage"],
    [
      "a relative XDG_STATE_HOME is ignored",
      { XDG_STATE_HOME: "state", HOME: "/home/u" },
      "darwin",
      "/home/u/.local/state/infill/usage",
    ],
    [
      "an empty XDG_STATE_HOME is ignored",
      { XDG_STATE_HOME: "", HOME: "/home/u" },
      "linux",
      "/home/u/.local/state/infill/usage",
    ],
    ["nothing to go by", {}, "linux", undefined],
    ["a relative HOME is no home", { HOME: "u" }, "linux", undefined],
  ])("%s", (_name, env, platform, expected) => {
    expect(usageDirectory(env, platform)).toBe(expected);
  });

  it("uses LOCALAPPDATA on Windows", () => {
    expect(usageDirectory({ LOCALAPPDATA: "C:\\Users\\u\\AppData\\Local" }, "win32")).toMatch(
      /infill.usage$/,
    );
  });
});

describe("localDay and usageFile", () => {
  it("names the local calendar day and the month's file", () => {
    expect(localDay(new Date(2026, 0, 5, 23, 59))).toBe("2026-01-05");
    expect(usageFile("/s/infill/usage", "2026-01")).toBe("/s/infill/usage/2026-01.jsonl");
  });
});

describe("formatUsageRecord", () => {
  it("writes one line: the version, the keys, then every figure in a fixed order, the cost rounded", () => {
    const line = formatUsageRecord(record({ requests: 3, cost: 0.1 + 0.2, acceptedChars: 12 }));
    expect(line.endsWith("\n")).toBe(true);
    expect(line.slice(0, -1)).not.toContain("\n");
    expect(line).toBe(
      '{"v":1,"day":"2026-11-02","provider":"deepseek","model":"deepseek-v4-flash","language":"typescript",' +
        '"context":"on","kind":"completion","requests":3,"cancelled":0,' +
        '"superseded":0,"failed":0,"unreported":0,"cacheHitTokens":0,"cacheMissTokens":0,"completionTokens":0,' +
        '"cost":0.3,"unpricedTokens":0,"shown":0,"accepted":0,"acceptedPartly":0,"acceptedChars":12,' +
        '"acceptedCharsSq":0}\n',
    );
  });

  it.each<[string, Partial<UsageRecord>, string]>([
    ["a completion", { kind: "completion" }, "completion"],
    ["a next edit", { kind: "next-edit" }, "next-edit"],
    ["a record of a writer that names no kind", { kind: undefined }, "completion"],
  ])("writes the kind of %s, and reads it back", (_name, kind, written) => {
    const line = formatUsageRecord(record({ requests: 1, ...kind }));
    expect(line).toContain(`"context":"on","kind":"${written}","requests":1,`);
    expect(parseUsageLog(line).records[0]?.kind).toBe(written);
  });

  it("adds the retention checks by horizon, shortest first, and reads them back", () => {
    const written = record({
      acceptedChars: 20,
      acceptedCharsSq: 400,
      retention: {
        "600": { checkedChars: 20, retainedChars: 0, retainedCharsSq: 0 },
        "30": { checkedChars: 20, retainedChars: 18, retainedCharsSq: 324 },
      },
    });
    const line = formatUsageRecord(written);
    expect(line).toContain(
      '"retention":{"30":{"checkedChars":20,"retainedChars":18,"retainedCharsSq":324},' +
        '"600":{"checkedChars":20,"retainedChars":0,"retainedCharsSq":0}}}\n',
    );
    expect(parseUsageLog(line)).toEqual({ records: [written], skipped: 0 });
  });
});

describe("appendUsageRecords", () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "infill-usage-"));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("creates the folder and the file, private to the user, and appends whole lines", async () => {
    const file = join(dir, "state", "infill", "usage", "2026-11.jsonl");
    appendUsageRecords(file, [record({ requests: 1 }), record({ model: "deepseek-v4-pro", requests: 2 })]);
    appendUsageRecords(file, [record({ requests: 4 })]);
    appendUsageRecords(file, []);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(join(dir, "state", "infill", "usage")).mode & 0o777).toBe(0o700);
    const log = await readUsageLog(file);
    expect(log.skipped).toBe(0);
    expect(log.records.map((r) => [r.model, r.requests])).toEqual([
      ["deepseek-v4-flash", 1],
      ["deepseek-v4-pro", 2],
      ["deepseek-v4-flash", 4],
    ]);
  });

  it("after a torn last line (a writer that died mid-write) starts a line of its own: only the torn one is lost", async () => {
    const file = join(dir, "2026-11.jsonl");
    appendUsageRecords(file, [record({ requests: 1 })]);
    appendFileSync(file, formatUsageRecord(record({ requests: 100 })).slice(0, 40));
    appendUsageRecords(file, [record({ requests: 2 })]);
    const log = await readUsageLog(file);
    expect(log.skipped).toBe(1);
    expect(log.records.map((r) => r.requests)).toEqual([1, 2]);
    expect(readFileSync(file, "utf8").endsWith("\n")).toBe(true);
  });

  it("reads a missing file as no records, and throws when the folder cannot be made", async () => {
    expect(await readUsageLog(join(dir, "none.jsonl"))).toEqual({ records: [], skipped: 0 });
    appendFileSync(join(dir, "blocker"), "a file where a folder should be");
    expect(() => appendUsageRecords(join(dir, "blocker", "2026-11.jsonl"), [record()])).toThrow(
      /EEXIST|ENOTDIR/,
    );
  });
});
