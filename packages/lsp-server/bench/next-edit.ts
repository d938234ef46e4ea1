// Next edits through the built server against a sim in its own process: from the end of an edit burst (a local
// renamed at its declaration, a key at a time) to the next edit shown, beside the same upstream requests sent
// straight to a fresh sim; the Tab that serves the rest of the answer from memory; upstream requests per burst.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { request } from "undici";
import { Doc, launch, type Position, quantile, report, type Server, simProcess } from "./harness.js";

/** A function with a local and four uses: renaming it leaves four sites for the next edit. */
const FILE = [
  "export function area(width: number, height: number): number {",
  "  let total = width * height;",
  "  if (total < 0) total = -total;",
  "  log(total);",
  "  return total;",
  "}",
  "",
].join("\n");
const DECLARATION: Position = { line: 1, character: "  let ".length };

/** One upstream request sent straight to the sim, the whole answer read; its time, ms. */
async function direct(url: string, body: unknown): Promise<number> {
  const t = performance.now();
  const res = await request(`${url}/chat/completions`, {
    method: "POST",
    body: JSON.stringify(body),
    headers: { "content-type": "application/json", authorization: "Bearer sk-bench" },
  });
  const text = await res.body.text();
  if (res.statusCode !== 200) throw new Error(`unexpected answer: ${text.slice(0, 200)}`);
  return performance.now() - t;
}

interface ShownEdit {
  range: { start: Position; end: Position };
  text: string;
}

/** `textDocument/copilotInlineEdit` at `at`, as copilot-lsp asks: the edits, nearest first. */
async function ask(doc: Doc, at: Position): Promise<ShownEdit[]> {
  const answer = (await doc.server.rpc.sendRequest("textDocument/copilotInlineEdit", {
    textDocument: { uri: doc.uri, version: doc.version },
    position: at,
  })) as { edits: ShownEdit[] };
  return answer.edits;
}

/** Bursts first run untimed: the first loads the grammar and the HTTP client's code. */
const WARMUP = 5;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Open a fresh file (its own path, so each request is a fresh one) in a workspace of the server. */
function fileIn(server: Server, workspace: string, name: string): Promise<Doc> {
  return Doc.open(server, pathToFileURL(path.join(workspace, name)).href, FILE);
}

/**
 * End of burst → next edit, beyond the upstream's own time: the name replaced in one change (no pause to wait:
 * `nextEdit.debounceMs` 0), asked at once; then Tab, the rest of the answer from memory.
 */
async function timedBursts(sim: { url: string }, workspace: string, n: number) {
  const server = await launch(
    sim,
    { debounceMs: 0, usage: { persist: false }, nextEdit: { enabled: true, debounceMs: 0 } },
    workspace,
  );
  const lsp: number[] = [];
  const memory: number[] = [];
  let multi = 0;
  for (let i = -WARMUP; i < n; i++) {
    const doc = await fileIn(server, workspace, `timed-${i}.ts`);
    const end = { ...DECLARATION, character: DECLARATION.character + "total".length };
    await doc.replace(DECLARATION, end, "sum");
    const t = performance.now();
    const edits = await ask(doc, { ...DECLARATION, character: DECLARATION.character + 3 });
    if (i >= 0) lsp.push(performance.now() - t);
    const first = edits[0];
    if (first && edits.length > 1 && i >= 0) {
      multi++;
      // Tab: the first edit applied, the next asked from its end; the rest of the answer, from memory.
      await doc.replace(first.range.start, first.range.end, first.text);
      const at = { line: first.range.start.line, character: first.range.start.character + first.text.length };
      const m = performance.now();
      await ask(doc, at);
      memory.push(performance.now() - m);
    }
    await server.rpc.sendNotification("textDocument/didClose", { textDocument: { uri: doc.uri } });
  }
  await server.close();
  return { lsp, memory, multi };
}

/**
 * Upstream requests per burst with the default pause (`nextEdit.debounceMs` 300, adaptive): the name deleted and
 * the new one typed a key every 40 ms, then asked at the end of the burst.
 */
async function typedBursts(sim: { url: string }, workspace: string, n: number): Promise<void> {
  const server = await launch(
    sim,
    { debounceMs: 0, usage: { persist: false }, nextEdit: { enabled: true } },
    workspace,
  );
  for (let i = 0; i < n; i++) {
    const doc = await fileIn(server, workspace, `typed-${i}.ts`);
    await doc.replace(DECLARATION, { ...DECLARATION, character: DECLARATION.character + "total".length }, "");
    let at = DECLARATION;
    for (const key of "sum") {
      await pause(40);
      at = await doc.insert(at, key);
    }
    await ask(doc, at);
    await server.rpc.sendNotification("textDocument/didClose", { textDocument: { uri: doc.uri } });
  }
  await server.close();
}

/** The figures of next edits: server overhead p50 / p99 beyond the upstream's time, the Tab from memory, requests. */
export async function nextEditBench(): Promise<void> {
  // A workspace: the edit history keeps the edits of workspace files only.
  const workspace = mkdtempSync(path.join(tmpdir(), "infill-bench-ne-"));
  const N = Number(process.env.BENCH_NEXT_EDITS ?? 100);
  const TYPED = 20;
  const sim = await simProcess();
  const { lsp, memory, multi } = await timedBursts(sim, workspace, N);
  const timedBodies = await sim.bodies();
  await typedBursts(sim, workspace, TYPED);
  const typedRequests = (await sim.bodies()).length - timedBodies.length;
  await sim.close();
  rmSync(workspace, { recursive: true, force: true });
  // The same requests, straight from this process to a fresh sim (the first one has them cached).
  const fresh = await simProcess();
  const upstream: number[] = [];
  for (const [i, body] of timedBodies.entries()) {
    const time = await direct(fresh.url, body);
    if (i >= WARMUP) upstream.push(time);
  }
  await fresh.close();
  const ms = (value: number) => `${value.toFixed(2)} ms`;
  const p = (values: number[], q: number) => quantile(values, q);
  console.log(
    `  ${N} bursts after ${WARMUP} untimed (${timedBodies.length} upstream requests in all), ${multi} answered with several edits; end of burst → ` +
      `next edit, p50 / p99: through infill-lsp ${ms(p(lsp, 0.5))} / ${ms(p(lsp, 0.99))}, the same requests ` +
      `straight to the sim ${ms(p(upstream, 0.5))} / ${ms(p(upstream, 0.99))}; the Tab after it ` +
      `${ms(p(memory, 0.5))} / ${ms(p(memory, 0.99))}`,
  );
  const over50 = p(lsp, 0.5) - p(upstream, 0.5);
  const over99 = p(lsp, 0.99) - p(upstream, 0.99);
  report("next edit: end of burst → shown, beyond upstream (p50)", ms(over50), "< 30 ms", over50 < 30);
  report("next edit: end of burst → shown, beyond upstream (p99)", ms(over99), "(none)");
  report("next edit: the Tab after it, from memory (p50)", ms(p(memory, 0.5)), "(none)");
  const perBurst = typedRequests / TYPED;
  report(
    `next edit: upstream requests per typed burst (${TYPED}, a key every 40 ms)`,
    perBurst.toFixed(2),
    "≤ 1",
    perBurst <= 1,
  );
}
