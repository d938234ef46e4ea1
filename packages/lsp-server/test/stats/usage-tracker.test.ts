import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readUsageLog } from "@infill/core";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Suggestion } from "../../src/completion/type-through.js";
import type { Logger } from "../../src/log/logger.js";
import { StatusSchema } from "../../src/stats/status-schema.js";
import { type UsageSettings, UsageTracker } from "../../src/stats/usage-tracker.js";
import type { UpstreamEnd } from "../../src/upstream/upstream.js";
import { Workspace } from "../../src/workspace/workspace.js";
import { USAGE, USAGE_FLASH_COST } from "../support/usage-report.js";

const usage = USAGE;
const FLASH_COST = USAGE_FLASH_COST;

const suggestion = (text: string, uri = "file:///ws/a/x.ts"): Suggestion => ({
  uri,
  line: 0,
  character: 0,
  linePrefix: "",
  lineRest: "",
  text,
  replaceEnd: 0,
});

let dir: string;
let clock: Date;
let settings: UsageSettings;
let warnings: string[];
const trackers: UsageTracker[] = [];

const log: Logger = {
  error: () => {},
  warn: (message) => warnings.push(message),
  info: () => {},
  debug: () => {},
};

const folders = new Workspace();
folders.set([{ uri: "file:///ws/a" }, { uri: "file:///ws/b" }]);

/** A tracker writing to `dir`/usage, or with no log folder at all (`null`). */
function tracker(folder: string | null = join(dir, "usage")): UsageTracker {
  const directory = folder ?? undefined;
  const t = new UsageTracker({
    settings: () => settings,
    workspaceOf: (uri) => folders.scopeOf(uri),
    directory,
    serverVersion: "1.2.3",
    log,
    now: () => clock,
  });
  trackers.push(t);
  return t;
}

/** An upstream request for `uri` that ends as `end`, with the usage above unless `reported` is false. */
function request(t: UsageTracker, uri: string, end: Partial<UpstreamEnd> = {}, reported = true): void {
  t.upstream(uri)({ outcome: "completed", ms: 100, ...(reported ? { usage } : {}), ...end });
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "infill-tracker-"));
  clock = new Date(2026, 10, 2, 12, 0);
  settings = { provider: "deepseek", model: "deepseek-v4-flash", prices: {}, persist: true };
  warnings = [];
});
afterEach(() => {
  for (const t of trackers.splice(0)) t.dispose();
  rmSync(dir, { recursive: true, force: true });
});

describe("UsageTracker: counting", () => {
  it("counts a suggestion shown once however many answers show it, and what was taken of it", () => {
    const t = tracker();
    const s = suggestion("return a + b;");
    expect(t.shown(s.uri, s, "return a + b;", 120)).toEqual({ id: "s1", before: 0 });
    t.typedThrough(s, 3);
    // Typed through: the next answer shows the rest, the same suggestion.
    expect(t.shown(s.uri, s, "urn a + b;", 1)).toEqual({ id: "s1", before: 3 });
    let total = t.status().total;
    expect(total).toMatchObject({
      shown: 1,
      accepted: 0,
      acceptedPartly: 1,
      acceptedChars: 3,
      acceptanceRate: 1,
    });
    // The client reports the item taken: to the end of the suggestion.
    t.accepted([{ id: "s1", chars: 13 }]);
    total = t.status().total;
    expect(total).toMatchObject({ shown: 1, accepted: 1, acceptedPartly: 0, acceptedChars: 13 });
    // Only the first answer of a suggestion is an end-to-end latency.
    expect(total.latency.endToEnd).toEqual({ p50: 120, p90: 120, samples: 1 });
  });

  it("counts a replaced suggestion as shown only", () => {
    const t = tracker();
    const a = suggestion("one");
    const b = suggestion("two");
    t.shown(a.uri, a, "one", 10);
    t.shown(b.uri, b, "two", 10);
    expect(t.status().total).toMatchObject({ shown: 2, accepted: 0, acceptedPartly: 0, acceptanceRate: 0 });
  });

  it("counts requests, tokens and their cost, failures by kind and upstream latency", () => {
    const t = tracker();
    request(t, "file:///ws/a/x.ts", { ms: 80 });
    request(t, "file:///ws/a/x.ts", { outcome: "superseded", ms: 5 }, false);
    request(t, "file:///ws/a/x.ts", { outcome: "cancelled", ms: 5 }, false);
    request(
      t,
      "file:///ws/a/x.ts",
      { outcome: "failed", error: Object.assign(new Error("Authentication Fails"), { status: 401 }) },
      false,
    );
    request(t, "file:///ws/a/x.ts", { outcome: "failed", error: new Error("odd") }, false);
    const total = t.status().total;
    expect(total).toMatchObject({
      requests: 5,
      superseded: 1,
      cancelled: 1,
      failed: 2,
      unreported: 4,
      cacheHitTokens: 896,
      cacheMissTokens: 104,
      completionTokens: 12,
      cacheHitRatio: 0.896,
      failures: { auth: 1, other: 1 },
    });
    expect(total.cost).toBeCloseTo(FLASH_COST, 15);
    expect(total.latency.upstream).toEqual({ p50: 80, p90: 80, samples: 1 });
  });

  it("splits the figures by workspace folder and by model; the prices setting overrides and adds", () => {
    settings.prices = { "qwen2.5-coder": { cacheHit: 0, cacheMiss: 1, output: 2 } };
    const t = tracker();
    request(t, "file:///ws/a/src/x.ts");
    request(t, "file:///elsewhere/y.ts");
    settings.model = "qwen2.5-coder";
    request(t, "file:///ws/b/z.ts");
    settings.model = "unknown-model";
    request(t, "file:///ws/b/z.ts");
    const status = t.status();
    expect(status.workspaces.map((w) => [w.folder, w.figures.requests])).toEqual([
      ["file:///ws/a", 1],
      [null, 1],
      ["file:///ws/b", 2],
    ]);
    expect(status.models.map((m) => [m.model, m.figures.requests, m.figures.unpricedTokens])).toEqual([
      ["deepseek-v4-flash", 2, 0],
      ["qwen2.5-coder", 1, 0],
      ["unknown-model", 1, 1012],
    ]);
    expect(status.models[1]!.figures.cost).toBeCloseTo((104 * 1 + 12 * 2) / 1e6, 15);
    expect(status.price).toBeNull();
    expect(status.total.unpricedTokens).toBe(1012);
    settings.model = "qwen2.5-coder";
    expect(t.status().price).toEqual({ cacheHit: 0, cacheMiss: 1, output: 2, source: "setting" });
    settings.model = "deepseek-v4-pro";
    expect(t.status().price).toEqual({
      cacheHit: 0.003625,
      cacheMiss: 0.435,
      output: 0.87,
      source: "built-in",
    });
  });

  it("answers a status that fits its schema", () => {
    const t = tracker();
    request(t, "file:///ws/a/x.ts");
    const s = suggestion("x");
    t.shown(s.uri, s, "x", 3);
    const status = t.status();
    expect(StatusSchema.parse(status)).toEqual(status);
    expect(status).toMatchObject({
      version: 1,
      server: { name: "infill-lsp", version: "1.2.3", pid: process.pid },
      provider: "deepseek",
      model: "deepseek-v4-flash",
      costsAreEstimates: true,
      currency: "USD",
      log: { enabled: true, file: join(dir, "usage", "2026-11.jsonl"), error: null },
    });
    // The process's memory, for a user to tell a server that grows (bytes, from process.memoryUsage()).
    const memory = status.server.memory!;
    for (const bytes of Object.values(memory)) expect(Number.isSafeInteger(bytes) && bytes > 0).toBe(true);
    expect(memory.heapUsed).toBeLessThanOrEqual(memory.heapTotal);
  });

  it("refuses malformed infill.accepted arguments naming the field, and ignores an unknown id", () => {
    const t = tracker();
    expect(() => t.accepted(undefined)).toThrow("infill.accepted: expected the arguments [{ id, chars }]");
    expect(() => t.accepted([{ chars: 3 }])).toThrow(/^infill.accepted: id: /);
    expect(() => t.accepted([{ id: "s1", chars: -1 }])).toThrow(/^infill.accepted: chars: /);
    expect(() => t.accepted([{ id: "s1", chars: "3" }])).toThrow(/^infill.accepted: chars: /);
    t.accepted([{ id: "s99", chars: 3 }]);
    expect(t.status().total.acceptedChars).toBe(0);
  });

  it("remembers the latest 500 suggestion ids", () => {
    const t = tracker();
    for (let i = 0; i < 501; i++) t.shown("file:///ws/a/x.ts", suggestion("abc"), "abc", 1);
    t.accepted([{ id: "s1", chars: 3 }]);
    t.accepted([{ id: "s2", chars: 3 }]);
    expect(t.status().total).toMatchObject({ shown: 501, accepted: 1 });
  });
});

describe("UsageTracker: the usage log", () => {
  const logFile = (month = "2026-11") => join(dir, "usage", `${month}.jsonl`);

  it("writes one line per day and model with the day's figures, on flush", async () => {
    const t = tracker();
    request(t, "file:///ws/a/x.ts");
    request(t, "file:///ws/b/x.ts");
    const s = suggestion("abc");
    t.shown(s.uri, s, "abc", 1);
    t.accepted([{ id: "s1", chars: 3 }]);
    settings.model = "deepseek-v4-pro";
    request(t, "file:///ws/a/x.ts");
    t.flush();
    const { records, skipped } = await readUsageLog(logFile());
    expect(skipped).toBe(0);
    expect(records.map((r) => [r.day, r.model, r.requests, r.shown, r.accepted])).toEqual([
      ["2026-11-02", "deepseek-v4-flash", 2, 1, 1],
      ["2026-11-02", "deepseek-v4-pro", 1, 0, 0],
    ]);
    expect(records[0]!.cost).toBeCloseTo(2 * FLASH_COST, 12);
    // Nothing is written twice.
    t.flush();
    expect((await readUsageLog(logFile())).records).toHaveLength(2);
  });

  it("puts what happens after midnight in the next day, and a new month in its own file", async () => {
    const t = tracker();
    clock = new Date(2026, 9, 31, 23, 59);
    request(t, "file:///ws/a/x.ts");
    clock = new Date(2026, 10, 1, 0, 1);
    request(t, "file:///ws/a/x.ts");
    t.flush();
    expect((await readUsageLog(logFile("2026-10"))).records.map((r) => [r.day, r.requests])).toEqual([
      ["2026-10-31", 1],
    ]);
    expect((await readUsageLog(logFile("2026-11"))).records.map((r) => [r.day, r.requests])).toEqual([
      ["2026-11-01", 1],
    ]);
  });

  it("writes the status's figures as of the status (asking for it flushes)", async () => {
    const t = tracker();
    request(t, "file:///ws/a/x.ts");
    const status = t.status();
    const { records } = await readUsageLog(status.log.file!);
    expect(records[0]).toMatchObject({ requests: status.total.requests, cacheHitTokens: 896 });
  });

  it("writes nothing with usage.persist off, for the embedded sim, or without a home", async () => {
    settings.persist = false;
    const off = tracker();
    request(off, "file:///ws/a/x.ts");
    expect(off.status().log).toEqual({ enabled: false, file: null, error: null });
    settings.persist = true;
    settings.provider = "sim";
    const sim = tracker();
    request(sim, "file:///ws/a/x.ts");
    sim.flush();
    expect((await readUsageLog(logFile())).records).toEqual([]);
    expect(sim.status()).toMatchObject({ total: { requests: 1 }, log: { enabled: false, file: null } });
    const homeless = tracker(null);
    settings.provider = "deepseek";
    request(homeless, "file:///ws/a/x.ts");
    expect(homeless.status().log.enabled).toBe(false);
  });

  it("reports a write that fails once, keeps the figures, and writes them when it can", async () => {
    writeFileSync(join(dir, "usage"), "a file where the folder should be");
    const t = tracker();
    request(t, "file:///ws/a/x.ts");
    t.flush();
    t.flush();
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^infill: cannot write the usage log .*2026-11\.jsonl: /);
    expect(t.status().log.error).toMatch(/cannot write the usage log/);
    rmSync(join(dir, "usage"));
    request(t, "file:///ws/a/x.ts");
    expect(t.status().log.error).toBeNull();
    expect((await readUsageLog(logFile())).records.map((r) => r.requests)).toEqual([2]);
    expect(readFileSync(logFile(), "utf8")).not.toContain("file:///");
  });
});
