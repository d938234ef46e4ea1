// infill-lsp benchmark: every figure below is measured in this one run and printed side by side with its goal.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { type Sim, startSim } from "@infill/sim";
import { buildPromptWindow } from "../src/completion/prompt-window.js";
import { Documents } from "../src/documents/documents.js";
import { TextBuffer } from "../src/documents/text-buffer.js";
import { contextBench } from "./context.js";
import { cursorJumpBench } from "./cursor-jump.js";
import { endingsBench } from "./endings.js";
import {
  cacheHitRatio,
  cpuOf,
  Doc,
  directCall,
  launch,
  type Position,
  printSummary,
  quantile,
  report,
  simProcess,
} from "./harness.js";
import { hotStreakBench } from "./hot-streak.js";
import { memoryBench } from "./memory.js";
import { nextEditBench } from "./next-edit.js";
import { outcomesBench } from "./outcomes.js";
import { parsersBench } from "./parsers.js";
import { partialsBench } from "./partials.js";
import {
  concurrencyBench,
  debounceBench,
  flakyBench,
  followBench,
  hedgeBench,
  warmUpBench,
} from "./resilience.js";
import { syntaxBench } from "./syntax.js";
import { typeDefinitionsBench } from "./type-definitions.js";
import { usageBench } from "./usage.js";

const source = readFileSync(fileURLToPath(new URL("../src/completion/engine.ts", import.meta.url)), "utf8");
const sample = `${source}\n\nexport function next(a: number, b: number): number {\n  \n}\n`;
const cursorOf = (text: string): Position => {
  const lines = text.split("\n");
  return { line: lines.length - 3, character: 2 };
};

async function overhead() {
  const sim = await simProcess();
  const server = await launch(sim, { debounceMs: 0, metrics: true });
  const inServer: number[] = [];
  const upstreamMs: number[] = [];
  // The completions measured below only (not the floor's), and only those whose upstream request started after
  // they arrived: one that adopted a stream already in flight has no time of its own upstream.
  let measuring = true;
  let adopted = 0;
  server.rpc.onNotification("$/infill/metrics", (m: { latencyMs: number; upstreamMs: number | null }) => {
    if (!measuring || m.upstreamMs === null) return;
    if (m.upstreamMs > m.latencyMs) {
      adopted++;
      return;
    }
    inServer.push(m.latencyMs);
    upstreamMs.push(m.upstreamMs);
  });
  const doc = await Doc.open(server, "file:///overhead.ts", sample);
  const cursor = cursorOf(sample);
  const lsp: number[] = [];
  const N = Number(process.env.BENCH_COMPLETIONS ?? 300);
  // CPU is counted after the first completions, which also load the HTTP client's code.
  const WARMUP = 20;
  let cpuAtStart = 0;
  for (let i = 0; i < N; i++) {
    if (i === WARMUP) cpuAtStart = cpuOf(server.pid);
    // A character seen nowhere before, taken out again after the request: no suggestion starts with it and none
    // remembered was made for the text before it, so every request really goes upstream (the same `§` each time
    // let the sim continue `§` with `§`, and the server serve what was typed from memory).
    const at = await doc.insert(cursor, String.fromCodePoint(0x100 + i));
    const t = performance.now();
    await doc.inline(at);
    lsp.push(performance.now() - t);
    await doc.replace(cursor, at, "");
  }
  const serverCpu = (cpuOf(server.pid) - cpuAtStart) / (N - WARMUP);
  measuring = false;
  // The floor of any LSP request: one the server answers at once (a document it does not have).
  const floor: number[] = [];
  const unknown = new Doc(server, "file:///not-open.ts");
  for (let i = 0; i < N; i++) {
    const t = performance.now();
    await unknown.inline({ line: 0, character: 0 });
    floor.push(performance.now() - t);
  }
  await server.close();
  // The very same requests, sent straight from this process to a fresh sim (the first one has them cached).
  const bodies = await sim.bodies();
  await sim.close();
  const fresh = await simProcess();
  const direct: number[] = [];
  let cpu0 = process.cpuUsage();
  for (const [i, body] of bodies.entries()) {
    if (i === WARMUP) cpu0 = process.cpuUsage();
    direct.push(await directCall(fresh.url, body));
  }
  const cpu = process.cpuUsage(cpu0);
  const directCpu = (cpu.user + cpu.system) / 1000 / (bodies.length - WARMUP);
  await fresh.close();
  const p50 = (values: number[]) => quantile(values, 0.5);
  const ms = (value: number) => `${value.toFixed(3)} ms`;
  console.log(
    `  per completion, p50: through infill-lsp ${ms(p50(lsp))}, direct HTTP to the same sim ${ms(p50(direct))} ` +
      `(${bodies.length} upstream requests for ${N} completions)`,
  );
  console.log(
    `  where the difference goes (p50s): JSON-RPC over stdio, both ends, ${ms(p50(lsp) - p50(inServer))} ` +
      `(a request answered at once takes ${ms(p50(floor))} end to end); ` +
      `the engine around the upstream request ${ms(p50(inServer) - p50(upstreamMs))}; ` +
      `the upstream request as the server makes it (validated, sent, read, checked, post-processed) vs the direct call ${ms(p50(upstreamMs) - p50(direct))}` +
      ` (over the ${inServer.length} completions whose upstream request was their own; ${adopted} adopted one in flight)`,
  );
  console.log(
    `  CPU time per completion: the server process ${ms(serverCpu)} (edit, window, request, stream, answer), ` +
      `a direct HTTP client ${ms(directCpu)} (serialise, request, read)`,
  );
  const p99 = (values: number[]) => quantile(values, 0.99);
  console.log(
    `  per completion, p50 / p99: through infill-lsp ${ms(p50(lsp))} / ${ms(p99(lsp))}, ` +
      `direct ${ms(p50(direct))} / ${ms(p99(direct))}`,
  );
  const overhead = p50(lsp) - p50(direct);
  const tail = p99(lsp) - p99(direct);
  report("server overhead per completion (p50)", ms(overhead), "< 0.5 ms", overhead < 0.5);
  report("server overhead per completion (p99)", ms(tail), "< 5 ms", tail < 5);
}

function editCost() {
  const line = "export const value = compute(alpha, beta, gamma); // a line of ordinary code\n";
  const text = line.repeat(Math.ceil((5 * 1024 * 1024) / line.length));
  const documents = new Documents();
  documents.didOpen({ textDocument: { uri: "file:///big.ts", languageId: "typescript", version: 1, text } });
  const middle = Math.floor(text.length / line.length / 2);
  const N = 20_000;
  let character = 10;
  const t = performance.now();
  for (let i = 0; i < N; i++) {
    documents.didChange({
      textDocument: { uri: "file:///big.ts", version: i + 2 },
      contentChanges: [
        { range: { start: { line: middle, character }, end: { line: middle, character } }, text: "x" },
      ],
    });
    character++;
  }
  const perEdit = (performance.now() - t) / N;
  // The alternative an LSP server gets for free: one string, rebuilt per edit.
  let flat = text;
  const offset = middle * line.length + 10;
  const M = 200;
  const t2 = performance.now();
  for (let i = 0; i < M; i++) flat = `${flat.slice(0, offset + i)}x${flat.slice(offset + i)}`;
  const perFlat = (performance.now() - t2) / M;
  console.log(
    `  one-character edit on a ${(text.length / 1024 / 1024).toFixed(1)} MB buffer: ${(perEdit * 1000).toFixed(2)} µs (a whole-string rebuild: ${(perFlat * 1000).toFixed(0)} µs)`,
  );
  report("one-character edit, 5 MB buffer", `${(perEdit * 1000).toFixed(2)} µs`, "< 50 µs", perEdit < 0.05);
  const buffer = new TextBuffer(text);
  const t3 = performance.now();
  for (let i = 0; i < 1000; i++) buildPromptWindow(buffer, { line: middle + (i % 50), character: 5 });
  const perWindow = (performance.now() - t3) / 1000;
  report(
    "prompt extraction, 5 MB buffer",
    `${(perWindow * 1000).toFixed(1)} µs`,
    "no whole-document copy",
    undefined,
  );
}

const typingGap = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function typing(sim: Sim) {
  const server = await launch(sim, { debounceMs: 100 });
  const text =
    "function add(a: number, b: number): number {\n  return a + b;\n}\n\nfunction mul(a: number, b: number): number {\n  \n}\n";
  const doc = await Doc.open(server, "file:///typing.ts", text);
  // A burst: 12 keystrokes 35 ms apart (about 100 words per minute), each followed by a request, as Neovim does.
  let at: Position = { line: 5, character: 2 };
  let before = sim.requests.length;
  const word = "const prod =";
  const pending: Array<Promise<unknown>> = [];
  for (const ch of word) {
    at = await doc.insert(at, ch);
    pending.push(doc.inline(at));
    await typingGap(35);
  }
  await Promise.all(pending);
  const burst = sim.requests.length - before;
  report(`upstream requests for a ${word.length}-keystroke typing burst`, String(burst), "1", burst === 1);

  // Type through the suggestion now shown.
  const shown = (await doc.inline(at)).items[0]?.insertText ?? "";
  before = sim.requests.length;
  const typed = shown.slice(0, Math.min(8, shown.length - 1));
  for (const ch of typed) {
    at = await doc.insert(at, ch);
    await doc.inline(at);
  }
  const through = sim.requests.length - before;
  report(
    `upstream requests while typing ${typed.length} characters of a shown suggestion`,
    String(through),
    "0",
    typed.length > 0 && through === 0,
  );
  await server.close();
}

async function coldStart(sim: Sim) {
  const times: number[] = [];
  for (let i = 0; i < 7; i++) {
    const server = await launch(sim, {});
    times.push(server.startMs);
    await server.close();
  }
  report(
    "cold start to initialize answer (median of 7)",
    `${quantile(times, 0.5).toFixed(0)} ms`,
    "< 200 ms",
    quantile(times, 0.5) < 200,
  );
}

/** Replay writing a new function near the end of a long file: a request after every word, as after a pause. */
async function cacheHits() {
  const base = Array.from(
    { length: 900 },
    (_, i) => `  const item${i} = await load(${i}, "${"k".repeat(i % 13)}");`,
  );
  const text = `export async function main() {\n${base.join("\n")}\n  \n}\n`;
  const words = "const total = items.reduce((sum, item) => sum + item.price, 0); return total;".split(
    /(?<= )/,
  );

  const sim = await startSim();
  const server = await launch(sim, { debounceMs: 0 });
  const doc = await Doc.open(server, "file:///cache.ts", text);
  let at: Position = { line: base.length + 1, character: 2 };
  for (const word of words) {
    at = await doc.insert(at, word);
    await doc.inline(at);
  }
  await server.close();
  const ours = sim.requests.map((r) => r.body as { prompt: string; suffix: string });
  await sim.close();

  // The same session with the window cut at the earliest line that fits (what a straightforward server does).
  const buffer = new TextBuffer(text);
  let cursor: Position = { line: base.length + 1, character: 2 };
  const naiveBodies: Array<{ prompt: string; suffix: string }> = [];
  for (const word of words) {
    buffer.applyChange({ range: { start: cursor, end: cursor }, text: word });
    cursor = { line: cursor.line, character: cursor.character + word.length };
    naiveBodies.push(buildPromptWindow(buffer, cursor, { stepLines: 1, stepChars: 1 }));
  }
  const oursRatio = await cacheHitRatio(ours);
  const naiveRatio = await cacheHitRatio(naiveBodies);
  console.log(
    `  prompt cache hits over ${words.length} requests: infill's window ${(100 * oursRatio).toFixed(1)} %, earliest-fitting-line window ${(100 * naiveRatio).toFixed(1)} %`,
  );
  report(
    "prompt cache-hit ratio (replayed session)",
    `${(100 * oursRatio).toFixed(1)} %`,
    `> naive ${(100 * naiveRatio).toFixed(1)} %`,
    oursRatio > naiveRatio,
  );
}

console.log("infill-lsp benchmark (Node", process.version, ")");
const sim = await startSim();
console.log("overhead:");
await overhead();
console.log("memory:");
await memoryBench();
console.log("document sync:");
editCost();
console.log("following suggestions (accept inference, retention):");
usageBench();
console.log("following taken suggestions, by how many are pending their retention checks:");
await outcomesBench();
console.log("typing:");
await typing(sim);
console.log("cold start:");
await coldStart(sim);
console.log("prompt caching:");
await cacheHits();
console.log("debounce:");
await debounceBench();
console.log("warm connection:");
await warmUpBench();
console.log("concurrency:");
await concurrencyBench();
console.log("following a request in flight:");
await followBench();
console.log("hedged follow (a stream slow to its first token):");
await hedgeBench();
console.log("a flaky upstream (messages that respect attention):");
await flakyBench();
console.log("the next suggestion after an accept (hot streak and prefetch):");
await hotStreakBench();
console.log("repository context:");
await contextBench();
console.log("repository context with the cursor jumping around a 5,000-line file:");
await cursorJumpBench();
console.log("types from the editor (infill/typeDefinitions), invoked completions at a member access:");
await typeDefinitionsBench();
console.log("streaming ghost text (partial results):");
await partialsBench();
console.log("next edits:");
await nextEditBench();
await syntaxBench(sim);
await parsersBench();
await endingsBench();
await sim.close();

printSummary();
