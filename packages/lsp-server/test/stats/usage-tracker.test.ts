import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readUsageLog } from "@infill/core";
import { type ContextArm, emptyTotals } from "@infill/core/usage";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Suggestion } from "../../src/completion/type-through.js";
import { Documents } from "../../src/documents/documents.js";
import type { Logger } from "../../src/log/logger.js";
import { StatusSchema } from "../../src/stats/status-schema.js";
import { SHOWN_AFTER_MS } from "../../src/stats/suggestion-outcomes.js";
import { type UsageSettings, UsageTracker } from "../../src/stats/usage-tracker.js";
import type { UpstreamEnd } from "../../src/upstream/upstream.js";
import { Workspace } from "../../src/workspace/workspace.js";
import { FakeTimers } from "../support/fake-timers.js";
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
let timers: FakeTimers;
let documents: Documents;
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
    buffer: (uri) => documents.get(uri)?.buffer,
    directory,
    serverVersion: "1.2.3",
    log,
    now: () => clock,
    timers,
  });
  trackers.push(t);
  return t;
}

/** An upstream request for `uri` that ends as `end`, with the usage above unless `reported` is false. */
function request(
  t: UsageTracker,
  uri: string,
  end: Partial<UpstreamEnd> = {},
  reported = true,
  language = "typescript",
  arm: ContextArm = "on",
): void {
  t.upstream(uri, language, arm)({ outcome: "completed", ms: 100, ...(reported ? { usage } : {}), ...end });
}

/** An answer showing `text` of `s`, left on screen long enough to count shown; its id and what came before. */
function show(t: UsageTracker, s: Suggestion, text: string, latencyMs: number, language = "typescript") {
  const shown = t.answered(s.uri, language, s, text, { line: 0, character: 0 }, latencyMs);
  timers.advance(SHOWN_AFTER_MS);
  return shown;
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "infill-tracker-"));
  clock = new Date(2026, 10, 2, 12, 0);
  timers = new FakeTimers();
  documents = new Documents();
  settings = {
    provider: "deepseek",
    model: "deepseek-v4-flash",
    prices: {},
    persist: true,
    retentionChecks: [30, 600],
    contextHoldout: 0,
  };
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
    expect(show(t, s, "return a + b;", 120)).toEqual({ id: "s1", before: 0 });
    t.typedThrough(s, 3);
    // Typed through: the next answer shows the rest, the same suggestion.
    expect(show(t, s, "urn a + b;", 1)).toEqual({ id: "s1", before: 3 });
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
    show(t, a, "one", 10);
    show(t, b, "two", 10);
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
    show(t, s, "x", 3);
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
    for (let i = 0; i < 501; i++) show(t, suggestion("abc"), "abc", 1);
    t.accepted([{ id: "s1", chars: 3 }]);
    t.accepted([{ id: "s2", chars: 3 }]);
    expect(t.status().total).toMatchObject({ shown: 501, accepted: 1 });
  });
});

describe("UsageTracker: by language and context, what is kept, per dollar", () => {
  const URI = "file:///ws/a/x.ts";

  /** A suggestion at the start of x.ts's empty line 1, taken by the edit that puts it there. */
  function takeByEdit(t: UsageTracker, text: string, arm: ContextArm, language = "typescript") {
    const doc = documents.get(URI)!;
    const line = doc.buffer.lineCount - 1;
    const s: Suggestion = { ...suggestion(text, URI), line, contextArm: arm };
    t.answered(URI, language, s, text, { line, character: 0 }, 5);
    const applied = documents.didChange({
      textDocument: { uri: URI, version: doc.version + 1 },
      contentChanges: [
        { range: { start: { line, character: 0 }, end: { line, character: 0 } }, text: `${text}\n` },
      ],
    });
    t.changed(URI, applied!.changes);
    return { line };
  }

  beforeEach(() => {
    documents.didOpen({ textDocument: { uri: URI, languageId: "typescript", version: 1, text: "" } });
  });

  it("splits requests and suggestions by language and context arm, each suggestion under its request's arm", () => {
    const t = tracker();
    request(t, URI, {}, true, "typescript", "on");
    request(t, URI, {}, true, "typescript", "holdout");
    request(t, "file:///ws/a/y.py", {}, true, "python", "on");
    takeByEdit(t, "return a + b;", "on");
    takeByEdit(t, "x", "holdout");
    const status = t.status();
    expect(status.languages.map((l) => [l.language, l.figures.requests, l.figures.accepted])).toEqual([
      ["typescript", 2, 2],
      ["python", 1, 0],
    ]);
    expect(status.contexts.map((c) => [c.context, c.figures.requests, c.figures.acceptedChars])).toEqual([
      ["on", 2, 13],
      ["holdout", 1, 1],
    ]);
    expect(StatusSchema.parse(status)).toEqual(status);
  });

  it("counts what is kept at each horizon, and what taken and kept come to per dollar and per 1k output tokens", () => {
    const t = tracker();
    request(t, URI);
    const { line } = takeByEdit(t, "return a + b;", "on");
    timers.advance(30_000);
    let total = t.status().total;
    expect(total.retained).toEqual([
      {
        seconds: 30,
        checkedChars: 13,
        retainedChars: 13,
        rate: 1,
        perDollar: 13 / FLASH_COST,
        per1kOutputTokens: (13 * 1000) / 12,
      },
      {
        seconds: 600,
        checkedChars: 0,
        retainedChars: 0,
        rate: null,
        perDollar: null,
        per1kOutputTokens: null,
      },
    ]);
    expect(total.acceptedCharsPerDollar).toBeCloseTo(13 / FLASH_COST, 6);
    expect(total.acceptedCharsPer1kOutputTokens).toBeCloseTo(13000 / 12, 9);
    // Deleted before the next check.
    const doc = documents.get(URI)!;
    const applied = documents.didChange({
      textDocument: { uri: URI, version: doc.version + 1 },
      contentChanges: [
        { range: { start: { line, character: 0 }, end: { line: line + 1, character: 0 } }, text: "" },
      ],
    });
    t.changed(URI, applied!.changes);
    timers.advance(570_000);
    total = t.status().total;
    expect(total.retained[1]).toMatchObject({ seconds: 600, checkedChars: 13, retainedChars: 0, rate: 0 });
  });

  it("writes next edits' usage on lines of kind next-edit, apart from completions' figures", async () => {
    const t = tracker();
    request(t, URI, {}, true, "typescript", "on");
    const delta = { ...emptyTotals(), requests: 1, completionTokens: 40, shown: 1, accepted: 1 };
    t.nextEdit("typescript", "deepseek", "deepseek-v4-flash", delta);
    t.nextEdit("typescript", "sim", "deepseek-v4-flash", delta);
    expect(t.status().total.requests).toBe(1);
    t.dispose();
    const { records } = await readUsageLog(join(dir, "usage", "2026-11.jsonl"));
    expect(
      records.map((r) => [r.kind, r.provider, r.requests, r.completionTokens, r.shown, r.accepted]),
    ).toEqual([
      ["completion", "deepseek", 1, usage.completion_tokens, 0, 0],
      ["next-edit", "deepseek", 1, 40, 1, 1],
    ]);
  });

  it("writes a line per day, model, language and arm, with the retention checks and no code or file name", async () => {
    const t = tracker();
    request(t, URI, {}, true, "typescript", "on");
    takeByEdit(t, "return a + b;", "on");
    timers.advance(30_000);
    request(t, URI, {}, true, "typescript", "holdout");
    t.dispose();
    const text = readFileSync(join(dir, "usage", "2026-11.jsonl"), "utf8");
    expect(text).not.toMatch(/return|file:|x\.ts/);
    const { records } = await readUsageLog(join(dir, "usage", "2026-11.jsonl"));
    expect(
      records.map((r) => [
        r.language,
        r.context,
        r.requests,
        r.acceptedChars,
        r.acceptedCharsSq,
        r.retention,
      ]),
    ).toEqual([
      [
        "typescript",
        "on",
        1,
        13,
        169,
        {
          "30": { checkedChars: 13, retainedChars: 13, retainedCharsSq: 169 },
          // Checked when the tracker stopped: the document's last state.
          "600": { checkedChars: 13, retainedChars: 13, retainedCharsSq: 169 },
        },
      ],
      ["typescript", "holdout", 1, 0, 0, {}],
    ]);
  });

  it("refuses infill.shown without an id, and ignores an unknown one", () => {
    const t = tracker();
    expect(() => t.reportedShown([{}])).toThrow(/^infill.shown: id: /);
    t.reportedShown([{ id: "s404" }]);
    expect(t.status().total.shown).toBe(0);
  });
});

describe("UsageTracker: the usage log", () => {
  const logFile = (month = "2026-11") => join(dir, "usage", `${month}.jsonl`);

  it("writes one line per day and model with the day's figures, on flush", async () => {
    const t = tracker();
    request(t, "file:///ws/a/x.ts");
    request(t, "file:///ws/b/x.ts");
    // From a request with context, like those above: counted on the same line.
    const s: Suggestion = { ...suggestion("abc"), contextArm: "on" };
    show(t, s, "abc", 1);
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
