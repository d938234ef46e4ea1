// Latency and upstream requests under real conditions: the debounce (fixed vs adaptive), the first completion with
// and without a warm connection, the concurrency cap in a 50-document burst, and how a single-line request still in
// flight is handled when the user types on (streamed vs aborted). Every figure is measured in this run.
import { ProviderClient } from "@infill/core";
import { type Sim, startSim } from "@infill/sim";
import type { Answer } from "../src/completion/answer.js";
import { CompletionEngine, type EngineOptions } from "../src/completion/engine.js";
import { Documents } from "../src/documents/documents.js";
import { defaultSettings, type Settings } from "../src/settings/settings.js";
import { UpstreamHealth } from "../src/upstream/health.js";
import { Doc, launch, type Position, quantile, report } from "./harness.js";

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** Now on the epoch clock, with a fraction: comparable with `SimRequest.receivedAt`. */
const epochNow = () => performance.timeOrigin + performance.now();
const ms = (value: number) => `${value.toFixed(1)} ms`;

/** Letters no suggestion starts with, a different word per burst (a tiny LCG: the same words every run). */
function words(count: number, length: number): string[] {
  let seed = 12345;
  const letter = () => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return "qzjxkvwy"[(seed >>> 16) % 8]!;
  };
  return Array.from({ length: count }, () => Array.from({ length }, letter).join(""));
}

const BURSTS = 10;
const BURST_KEYS = 6;
const FAST_TYPIST_GAP_MS = 35;

/**
 * A fast typist (35 ms between keys) writes 6-key bursts, a request per keystroke as Neovim does, with pauses
 * between bursts. Per burst: the upstream requests, and the time from the last keystroke to the sim receiving the
 * request for it. The first burst is where the adaptive debounce learns; the figures are over the bursts after it.
 */
async function burstTyping(sim: Sim, options: Record<string, unknown>) {
  const server = await launch(sim, { ...options, context: { enabled: false } });
  const lines = words(BURSTS, BURST_KEYS);
  const doc = await Doc.open(server, "file:///bursts.ts", `${"\n".repeat(BURSTS)}`);
  const perBurst: number[] = [];
  const latencies: number[] = [];
  for (const [i, word] of lines.entries()) {
    let at: Position = { line: i, character: 0 };
    const before = sim.requests.length;
    const pending: Array<Promise<unknown>> = [];
    let lastKey = 0;
    // Keys on a fixed grid from the burst's first, as a typist's cadence does not drift with the editor's latency.
    const firstKey = performance.now();
    for (const [k, ch] of [...word].entries()) {
      lastKey = epochNow();
      at = await doc.insert(at, ch);
      pending.push(doc.inline(at));
      if (k < word.length - 1) await pause(firstKey + (k + 1) * FAST_TYPIST_GAP_MS - performance.now());
    }
    await Promise.all(pending);
    const sent = sim.requests.slice(before);
    const last = sent.at(-1);
    if (i > 0) {
      perBurst.push(sent.length);
      // The request for the last keystroke is the one whose prompt ends with the whole word.
      if (last && (last.body as { prompt: string }).prompt.endsWith(word))
        latencies.push(last.receivedAt - lastKey);
    }
    await pause(300);
  }
  await server.close();
  return { perBurst, latencies };
}

export async function debounceBench(): Promise<void> {
  const sim = await startSim({ keepRequests: 1000 });
  const fixed = await burstTyping(sim, { debounceMs: 100, adaptiveDebounce: false });
  const adaptive = await burstTyping(sim, { debounceMs: 100 });
  await sim.close();
  const line = (name: string, run: typeof fixed) =>
    `${name}: last keystroke → request sent p50 ${ms(quantile(run.latencies, 0.5))}, ` +
    `max ${ms(Math.max(...run.latencies))}; upstream requests per ${BURST_KEYS}-key burst ` +
    `${run.perBurst.join(" ")} (max ${Math.max(...run.perBurst)})`;
  console.log(
    `  fast typist, ${FAST_TYPIST_GAP_MS} ms between keys, ${BURSTS - 1} bursts after the first (which teaches):`,
  );
  console.log(`    ${line("fixed 100 ms", fixed)}`);
  console.log(`    ${line("adaptive    ", adaptive)}`);
  const p50 = quantile(adaptive.latencies, 0.5);
  const worst = Math.max(...adaptive.perBurst);
  report(
    "last keystroke → request sent, adaptive (p50)",
    ms(p50),
    `< 40 ms (fixed: ${ms(quantile(fixed.latencies, 0.5))})`,
    p50 < 40 && adaptive.latencies.length === adaptive.perBurst.length,
  );
  report(
    `upstream requests per ${BURST_KEYS}-key burst, adaptive (max)`,
    String(worst),
    `≤ 2 (fixed: ${Math.max(...fixed.perBurst)})`,
    worst <= 2,
  );
}

/** Connection set-up a distant HTTPS API costs: about three round trips (TCP, TLS 1.3) of 60-70 ms. */
const SET_UP_MS = 200;

/**
 * The first completion of a session (the user starts typing 400 ms after the editor started the server), and the
 * first after an idle period longer than the keep-alive (the sim's `Keep-Alive: timeout=5` makes undici keep an
 * idle connection 3 s), with `preconnect` off and on, against a sim whose new connections take 200 ms to set up.
 */
async function firstCompletions(preconnect: boolean): Promise<{ first: number; afterIdle: number }> {
  const sim = await startSim({ connectDelayMs: SET_UP_MS, keepRequests: 0 });
  const server = await launch(sim, { preconnect, context: { enabled: false } });
  await pause(400);
  const text =
    "function add(a: number, b: number): number {\n  return a + b;\n}\n\nfunction sub(a, b) {\n  \n}\n";
  // A keystroke in a document opened now, then its request: the time to the suggestion.
  const keystroke = async (uri: string) => {
    const doc = await Doc.open(server, uri, text);
    const t0 = performance.now();
    const list = await doc.inline(await doc.insert({ line: 5, character: 2 }, "r"));
    if (list.items.length === 0) throw new Error(`the bench expected a suggestion in ${uri}`);
    return performance.now() - t0;
  };
  const first = await keystroke("file:///first.ts");
  await pause(3_500);
  const afterIdle = await keystroke("file:///after-idle.ts");
  await server.close();
  await sim.close();
  return { first, afterIdle };
}

export async function warmUpBench(): Promise<void> {
  const cold = await firstCompletions(false);
  const warm = await firstCompletions(true);
  console.log(
    `  new connections take ${SET_UP_MS} ms (DNS, TCP, TLS); default debounce: the first request waits 100 ms`,
  );
  console.log(
    `    first completion of the session: preconnect off ${ms(cold.first)}, on ${ms(warm.first)}; ` +
      `first after 3.5 s idle: off ${ms(cold.afterIdle)}, on ${ms(warm.afterIdle)}`,
  );
  report(
    "first completion, warm connection",
    ms(warm.first),
    `< cold ${ms(cold.first)} − ${SET_UP_MS / 2} ms`,
    warm.first < cold.first - SET_UP_MS / 2,
  );
  report(
    "first completion after idle, warmed during the debounce",
    ms(warm.afterIdle),
    `< cold ${ms(cold.afterIdle)}`,
    warm.afterIdle < cold.afterIdle,
  );
}

const DOCUMENTS = 50;

/** 50 documents typing at once (3 keys each, a request per key) against a sim that takes 300 ms per answer. */
async function manyDocuments(maxConcurrent: number) {
  const sim = await startSim({ latencyMs: 300, keepRequests: 0 });
  const server = await launch(sim, { maxConcurrent, context: { enabled: false } });
  const docs = await Promise.all(
    Array.from({ length: DOCUMENTS }, (_, i) =>
      Doc.open(
        server,
        `file:///many-${i}.ts`,
        "function add(a, b) {\n  return a + b;\n}\nfunction sub(a, b) {\n  \n}\n",
      ),
    ),
  );
  const t0 = performance.now();
  const answers = await Promise.all(
    docs.map(async (doc) => {
      let at: Position = { line: 4, character: 2 };
      const pending: Array<Promise<{ items: unknown[] }>> = [];
      for (const ch of "ret") {
        at = await doc.insert(at, ch);
        pending.push(doc.inline(at));
        await pause(FAST_TYPIST_GAP_MS);
      }
      return (await Promise.all(pending)).at(-1)!;
    }),
  );
  const allMs = performance.now() - t0;
  const served = answers.filter((a) => a.items.length > 0).length;
  await server.close();
  const peak = sim.peakConcurrency;
  await sim.close();
  return { peak, served, allMs };
}

export async function concurrencyBench(): Promise<void> {
  const capped = await manyDocuments(4);
  const uncapped = await manyDocuments(64);
  console.log(
    `  ${DOCUMENTS} documents typing at once, 300 ms per answer: most requests in flight ` +
      `maxConcurrent 4 → ${capped.peak} (${capped.served}/${DOCUMENTS} served, all in ${ms(capped.allMs)}), ` +
      `64 → ${uncapped.peak} (${uncapped.served}/${DOCUMENTS} served, all in ${ms(uncapped.allMs)})`,
  );
  report(
    `most requests in flight, ${DOCUMENTS}-document burst`,
    String(capped.peak),
    `≤ 4 (uncapped: ${uncapped.peak})`,
    capped.peak <= 4 && capped.served === DOCUMENTS,
  );
}

const quiet = { error() {}, warn() {}, info() {}, debug() {} };

/**
 * The engine in-process, as the server makes it, talking to `sim` through the real client (a ProviderClient adds
 * the model the engine leaves out), without repository context.
 */
function inProcess(
  sim: Sim,
  overrides: Partial<Settings>,
  options: Pick<EngineOptions, "streamSingleLines" | "hedge">,
  parts: Partial<Pick<EngineOptions, "health" | "onFailure">> = {},
): { documents: Documents; engine: CompletionEngine } {
  const client = new ProviderClient({ baseURL: sim.url, apiKey: "", maxRetries: 0 });
  const documents = new Documents();
  const settings: Settings = {
    ...defaultSettings({}),
    context: { enabled: false, maxTokens: 0, exclude: [], holdout: 0, typeDefinitionMs: 50 },
    ...overrides,
  };
  const engine = new CompletionEngine({
    documents,
    upstream: () => client,
    settings: () => settings,
    health: new UpstreamHealth(),
    onFailure: () => {},
    log: quiet,
    ...options,
    ...parts,
  });
  return { documents, engine };
}

/**
 * A line typed mid-line (single-line requests), a key every 150 ms: slower than the debounce, so each key sends a
 * request that is still waiting for its first token (250 ms) when the next key comes. In-process: the engine with
 * the real client over HTTP to the sim, the only difference being how such a request is handled.
 */
async function followRun(streamSingleLines: boolean, typed: string) {
  const sim = await startSim({ latencyMs: 250, tokenMs: 10, keepRequests: 1000 });
  const { documents, engine } = inProcess(sim, { lineMode: "single-line" }, { streamSingleLines });
  const uri = "file:///follow.ts";
  const lines = [
    "export function total(items: Item[]): number {",
    "  const subtotal = items.reduce((sum, item) => sum + item.price * item.count, 0);",
    "  const shipping = subtotal > 100 ? 0 : 4.99;",
    "  return subtotal + shipping;",
    "}",
    "export function average(items: Item[]): number {",
    "  ",
    "}",
  ];
  documents.didOpen({ textDocument: { uri, languageId: "typescript", version: 1, text: lines.join("\n") } });
  let version = 1;
  let at: Position = { line: 6, character: 2 };
  const shown: number[] = [];
  let last: Promise<Answer> = Promise.resolve({ kind: "none", reason: "empty" });
  for (const ch of typed) {
    version++;
    documents.didChange({
      textDocument: { uri, version },
      contentChanges: [{ range: { start: at, end: at }, text: ch }],
    });
    engine.didChange(uri, at);
    at = { line: at.line, character: at.character + 1 };
    const asked = performance.now();
    last = engine.complete(uri, at);
    void last.then((answer) => {
      if (answer.kind === "suggestion") shown.push(performance.now() - asked);
    });
    await pause(150);
  }
  const final = await last;
  const finalMs = final.kind === "suggestion" ? final.latencyMs : Number.NaN;
  engine.dispose();
  const requests = sim.requests.length;
  await sim.close();
  return { requests, shown: shown.length, finalMs, keys: typed.length };
}

export async function followBench(): Promise<void> {
  // The sim copies the line above: typing it again agrees with what is in flight; new code does not.
  const agrees = "const subtotal = items.reduce(";
  const differs = "if (items.length === 0) ret";
  const rows: string[] = [];
  const results: Record<string, { requests: number; finalMs: number }> = {};
  for (const [name, stream] of [
    ["streamed", true],
    ["aborted", false],
  ] as const) {
    const same = await followRun(stream, agrees);
    const other = await followRun(stream, differs);
    results[name] = {
      requests: same.requests + other.requests,
      finalMs: (same.finalMs + other.finalMs) / 2,
    };
    rows.push(
      `    ${name.padEnd(8)}: typing what is in flight ${same.requests} requests for ${same.keys} keys, ` +
        `${same.shown} suggestions shown, last key → suggestion ${ms(same.finalMs)}; ` +
        `typing something else ${other.requests} requests for ${other.keys} keys, ${other.shown} shown, ` +
        `last key → suggestion ${ms(other.finalMs)}`,
    );
  }
  console.log(
    "  a key every 150 ms mid-line, 250 ms to the first token: a request in flight when the user types on is",
  );
  for (const row of rows) console.log(row);
  const streamed = results.streamed!;
  const aborted = results.aborted!;
  report(
    "single-line request in flight, streamed: upstream requests",
    String(streamed.requests),
    `< aborted ${aborted.requests}`,
    streamed.requests < aborted.requests,
  );
  report(
    "single-line request in flight, streamed: last key → suggestion (mean)",
    ms(streamed.finalMs),
    `≤ aborted ${ms(aborted.finalMs)}`,
    streamed.finalMs <= aborted.finalMs,
  );
}

/** The own upstream time of the fresh requests (the sim's latency), and the gap before the user types on, ms. */
const HEDGE_UPSTREAM_MS = 250;
const HEDGE_KEY_GAP_MS = 150;
const HEDGE_ROUNDS = 6;

/**
 * A block asked for, then 150 ms later a key that parts ways with what the request in flight will write; that
 * request's first token comes at `staleMs` (the sim answers the others at 250 ms). The newer request, hedged or
 * not: its latency, its own upstream time, and the upstream requests per round.
 */
async function hedgeRun(hedge: boolean, staleMs: number) {
  const sim = await startSim({ latencyMs: HEDGE_UPSTREAM_MS, tokenMs: 5, keepRequests: 1000 });
  const { documents, engine } = inProcess(sim, { debounceMs: 0 }, { hedge });
  const text =
    "export function add(a: number, b: number): number {\n  return a + b;\n}\nexport function sub(a: number, b: number): number {\n  \n}\n";
  // Warm-up: the engine learns the upstream's time to first token.
  for (let n = 0; n < 3; n++) {
    const uri = `file:///warm-${n}.ts`;
    documents.didOpen({ textDocument: { uri, languageId: "typescript", version: 1, text } });
    await engine.complete(uri, { line: 4, character: 2 });
  }
  const latencies: number[] = [];
  const own: number[] = [];
  const before = sim.requests.length;
  for (let round = 0; round < HEDGE_ROUNDS; round++) {
    const uri = `file:///hedge-${round}.ts`;
    documents.didOpen({ textDocument: { uri, languageId: "typescript", version: 1, text } });
    sim.inject({ type: "slow", latencyMs: staleMs });
    void engine.complete(uri, { line: 4, character: 2 });
    await pause(HEDGE_KEY_GAP_MS);
    const at = { line: 4, character: 2 };
    documents.didChange({
      textDocument: { uri, version: 2 },
      contentChanges: [{ range: { start: at, end: at }, text: "if" }],
    });
    engine.didChange(uri, at);
    const answer = await engine.complete(uri, { line: 4, character: 4 });
    if (answer.kind === "suggestion") {
      latencies.push(answer.latencyMs);
      if (answer.upstreamMs !== undefined) own.push(answer.upstreamMs);
    }
    engine.forget(uri);
  }
  const requests = (sim.requests.length - before) / HEDGE_ROUNDS;
  engine.dispose();
  await sim.close();
  return { latency: quantile(latencies, 0.5), own: quantile(own, 0.5), requests, answered: latencies.length };
}

export async function hedgeBench(): Promise<void> {
  console.log(
    `  a block in flight, then ${HEDGE_KEY_GAP_MS} ms later a key it does not fit; the others' first token at ${HEDGE_UPSTREAM_MS} ms (median of ${HEDGE_ROUNDS} rounds):`,
  );
  for (const staleMs of [250, 800]) {
    const plain = await hedgeRun(false, staleMs);
    const hedged = await hedgeRun(true, staleMs);
    for (const [name, run] of [
      ["plain ", plain],
      ["hedged", hedged],
    ] as const) {
      console.log(
        `    stale first token ${String(staleMs).padStart(3)} ms, ${name}: newer request answered in ${ms(run.latency)} ` +
          `(its own upstream time ${ms(run.own)}), ${run.requests.toFixed(1)} upstream requests a round, ${run.answered}/${HEDGE_ROUNDS} answered`,
      );
    }
    report(
      `hedged follow, stale first token ${staleMs} ms: newer request − its own upstream time`,
      ms(hedged.latency - hedged.own),
      `≤ 100 ms (plain: ${ms(plain.latency - plain.own)})`,
      hedged.latency - hedged.own <= 100,
    );
  }
}

/** Requests of the flaky session, the share of them whose upstream answer fails, and the user's pace. */
const FLAKY_REQUESTS = 2_000;
const FLAKY_SHARE = 0.05;
const FLAKY_GAP_MS = 400;

/**
 * A session against an upstream where 5 % of the answers fail in a transient way (a 503, a reset, a body that is
 * not JSON, a stream cut or failing midway), at random, with one run of four failures in a row halfway: the
 * messages the user is told, by wording, and the requests the backoff held back. In-process, on a clock of its own:
 * a request every 400 ms of it (a typist's pace), about 13 minutes of session in a few seconds.
 */
export async function flakyBench(): Promise<void> {
  const sim = await startSim();
  let clock = Date.now();
  const told: string[] = [];
  const { documents, engine } = inProcess(
    sim,
    { debounceMs: 0 },
    {},
    {
      health: new UpstreamHealth(() => clock),
      onFailure: (notice) => told.push(notice.message),
    },
  );
  const kinds = [
    { type: "status", status: 503 },
    { type: "reset" },
    { type: "garbage" },
    { type: "cut" },
    { type: "stream-error" },
  ] as const;
  let seed = 99;
  const next = () => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed / 2 ** 31;
  };
  let injected = 0;
  // A fault is drawn for the next upstream request, once per request that went upstream (none while the backoff holds
  // requests back, none while one waits): the share is of the requests that go upstream.
  let waiting = -1;
  let drawnAt = -1;
  const outcomes = new Map<string, number>();
  const text = "export function add(a: number, b: number): number {\n  \n}\n";
  for (let i = 0; i < FLAKY_REQUESTS; i++) {
    const sent = sim.requests.length;
    if (i === FLAKY_REQUESTS / 2) {
      sim.inject({ type: "garbage", times: 4 });
      injected += 4;
      waiting = sent + 3;
    } else if (sent > waiting && sent > drawnAt) {
      drawnAt = sent;
      if (next() < FLAKY_SHARE) {
        sim.inject(kinds[Math.floor(next() * kinds.length)]!);
        injected++;
        waiting = sent;
      }
    }
    // A document of its own, so that none is served from memory.
    const uri = `file:///flaky-${i}.ts`;
    documents.didOpen({ textDocument: { uri, languageId: "typescript", version: 1, text } });
    const answer = await engine.complete(uri, { line: 1, character: 2 });
    const outcome = answer.kind === "suggestion" ? "answered" : answer.reason;
    outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
    engine.forget(uri);
    documents.didClose(uri);
    clock += FLAKY_GAP_MS;
  }
  const upstream = sim.requests.length;
  engine.dispose();
  await sim.close();
  const byWording = new Map<string, number>();
  for (const message of told) byWording.set(message, (byWording.get(message) ?? 0) + 1);
  const most = Math.max(0, ...byWording.values());
  console.log(
    `  ${FLAKY_REQUESTS} requests ${FLAKY_GAP_MS} ms apart, ${injected} transient faults (${(100 * FLAKY_SHARE).toFixed(0)} % at ` +
      `random, and four in a row halfway): ${[...outcomes].map(([o, n]) => `${n} ${o}`).join(", ")}; ` +
      `${upstream} upstream requests; told ${told.length}` +
      (told.length > 0 ? `: ${[...byWording].map(([m, n]) => `${n}× "${m}"`).join("; ")}` : ""),
  );
  report(
    `messages told in a session with ${(100 * FLAKY_SHARE).toFixed(0)} % transient faults, most of one wording`,
    String(most),
    "≤ 1 per kind",
    most <= 1,
  );
}
