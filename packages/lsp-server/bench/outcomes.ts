// What following taken suggestions costs the built server, by how many it follows: 0, 100, 1,000 and 2,000
// suggestions taken and pending their retention checks, then the server's CPU per keystroke (a didChange that
// asks for nothing) and per completion (a letter typed and its inline completion), and its V8 heap after a full
// garbage collection. With `BENCH_BASE_BIN` (another build's dist/infill-lsp.js) the same session runs against it
// first, and the figures are printed side by side. Every figure is measured in this run.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { advance } from "../src/documents/position-map.js";
import { BIN, cpuOf, Doc, launch, type Position, report, type Server, simProcess } from "./harness.js";

/** How many suggestions are taken and followed at each step (2,000: the bound on those pending checks). */
const STEPS = [0, 100, 1000, 2000];
/** Keystrokes measured at each step (CPU time is read in ticks of 10 ms: enough of them to see µs). */
const KEYSTROKES = Number(process.env.BENCH_OUTCOME_KEYSTROKES ?? 5000);
/** Completions measured at each step. */
const COMPLETIONS = Number(process.env.BENCH_OUTCOME_COMPLETIONS ?? 200);
/** Retention horizons long enough that no check runs during the session: every suggestion taken stays followed. */
const HORIZONS = [300, 600, 900, 1200];
const MB = 1024 * 1024;

interface Step {
  /** Suggestions the server counts taken (whole or in part). */
  taken: number;
  /** CPU time of the server per keystroke, in µs. */
  keystrokeUs: number;
  /** CPU time of the server per completion, in ms. */
  completionMs: number;
  /** V8 heap used after a full garbage collection, in MB. */
  heapMb: number;
  /** What the server says of its retention checks (builds that say it). */
  queue: { pending: number; followed: number; unchecked: number } | undefined;
}

interface Status {
  server: { memory?: { heapUsed: number } };
  total: { accepted: number; acceptedPartly: number };
  retentionQueue?: { pending: number; followed: number; unchecked: number };
}

const status = async (server: Server) =>
  (await server.rpc.sendRequest("workspace/executeCommand", {
    command: "infill.status",
    arguments: [{ message: false }],
  })) as Status;

/** The flags of a built server's shebang (`#!/usr/bin/env -S node --flag…`), which running it by node loses. */
const shebangFlags = (bin: string) =>
  readFileSync(bin, "utf8")
    .split("\n", 1)[0]!
    .split(" ")
    .filter((word) => word.startsWith("--"));

/** A little deterministic typing: letters the sim rarely continues the same way twice. */
function letters(seed: number): () => string {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return String.fromCharCode(97 + ((state >> 16) % 26));
  };
}

async function session(bin: string): Promise<Step[]> {
  const snapshots = mkdtempSync(join(tmpdir(), "infill-outcomes-heap-"));
  const sim = await simProcess();
  const server = await launch(
    sim,
    { debounceMs: 0, context: { enabled: false }, usage: { persist: false, retentionChecks: HORIZONS } },
    undefined,
    {},
    bin,
    [...shebangFlags(bin), "--heapsnapshot-signal=SIGUSR2", `--diagnostic-dir=${snapshots}`],
  );
  const head = "// typed here\n\n";
  const body = Array.from({ length: 40 }, (_, i) => `export const value${i} = compute(alpha, ${i});`).join(
    "\n",
  );
  const doc = await Doc.open(server, "file:///outcomes.ts", `${head}${body}\n`);
  const unknown = new Doc(server, "file:///not-open.ts");
  // Takes at the end of the document; keystrokes and completions at its head, above every place followed.
  let end: Position = { line: 42, character: 0 };
  let top: Position = { line: 1, character: 0 };
  const next = letters(7);
  let taken = 0;
  const take = async () => {
    end = await doc.insert(end, `\n${next()}`);
    const item = (await doc.inline(end)).items[0] as
      | { insertText: string; range: { start: Position; end: Position } }
      | undefined;
    if (!item || item.insertText === "") return;
    doc.version++;
    await server.rpc.sendNotification("textDocument/didChange", {
      textDocument: { uri: doc.uri, version: doc.version },
      contentChanges: [{ range: item.range, text: item.insertText }],
    });
    end = advance(item.range.start, item.insertText);
  };
  const steps: Step[] = [];
  try {
    // Warm up first (the code of edits and completions loads and compiles), so that the first step pays no more.
    for (let i = 0; i < 50; i++) {
      top = await doc.insert(top, next());
      await doc.inline(top);
    }
    top = await doc.insert(top, "\n");
    for (const target of STEPS) {
      for (let tries = 0; taken < target && tries < target * 3; tries++) {
        await take();
        if (tries % 50 === 49 || taken + 50 >= target) {
          const now = await status(server);
          taken = now.total.accepted + now.total.acceptedPartly;
        }
      }
      const before = await status(server);
      taken = before.total.accepted + before.total.acceptedPartly;
      // The heap after the full collection a heap snapshot makes (the snapshot is written before the next request).
      const files = readdirSync(snapshots).length;
      process.kill(server.pid, "SIGUSR2");
      for (let i = 0; readdirSync(snapshots).length === files && i < 500; i++) await pause(20);
      const heap = (await status(server)).server.memory?.heapUsed ?? Number.NaN;
      for (const file of readdirSync(snapshots)) rmSync(join(snapshots, file));

      let cpu = cpuOf(server.pid);
      for (let i = 0; i < KEYSTROKES; i++) top = await doc.insert(top, i % 40 === 39 ? "\n" : "x");
      await unknown.inline({ line: 0, character: 0 });
      const keystrokeUs = ((cpuOf(server.pid) - cpu) * 1000) / KEYSTROKES;

      cpu = cpuOf(server.pid);
      for (let i = 0; i < COMPLETIONS; i++) {
        top = await doc.insert(top, i % 40 === 39 ? "\n" : next());
        await doc.inline(top);
      }
      const completionMs = (cpuOf(server.pid) - cpu) / COMPLETIONS;
      steps.push({
        taken,
        keystrokeUs,
        completionMs,
        heapMb: heap / MB,
        queue: (await status(server)).retentionQueue,
      });
    }
  } finally {
    await server.close();
    await sim.close();
    rmSync(snapshots, { recursive: true, force: true });
  }
  return steps;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The cost of following taken suggestions, by how many: this build, and `BENCH_BASE_BIN`'s when set. */
export async function outcomesBench(): Promise<void> {
  const base = process.env.BENCH_BASE_BIN;
  const runs: Array<{ name: string; steps: Step[] }> = [];
  if (base) runs.push({ name: "base", steps: await session(base) });
  const ours = await session(BIN);
  runs.push({ name: "this build", steps: ours });
  console.log(
    `  ${KEYSTROKES} keystrokes and ${COMPLETIONS} completions at the head of the document per step, ` +
      `retention checks at ${HORIZONS.join(", ")} s (none runs during the session)${base ? `; ${runs.map((r) => r.name).join(" | ")}` : ""}`,
  );
  for (const [i, step] of ours.entries()) {
    const cell = (f: (s: Step) => string) => runs.map((run) => f(run.steps[i]!)).join(" | ");
    console.log(
      `    ${STEPS[i]!.toLocaleString("en")} taken (counted: ${cell((s) => String(s.taken))}): ` +
        `CPU per keystroke ${cell((s) => `${s.keystrokeUs.toFixed(1)} µs`)}, ` +
        `per completion ${cell((s) => `${s.completionMs.toFixed(2)} ms`)}, ` +
        `heap after a full GC ${cell((s) => `${s.heapMb.toFixed(1)} MB`)}` +
        (step.queue
          ? `; pending ${step.queue.pending}, followed ${step.queue.followed}, unchecked ${step.queue.unchecked}`
          : ""),
    );
  }
  const first = ours[0]!;
  const last = ours.at(-1)!;
  report(
    `CPU per keystroke, ${last.taken} taken suggestions followed vs none`,
    `${last.keystrokeUs.toFixed(1)} µs vs ${first.keystrokeUs.toFixed(1)} µs`,
    "within 10 µs",
    last.keystrokeUs - first.keystrokeUs <= 10,
  );
  report(
    `CPU per completion, ${last.taken} taken suggestions followed vs none`,
    `${last.completionMs.toFixed(2)} ms vs ${first.completionMs.toFixed(2)} ms`,
    "within 0.1 ms",
    last.completionMs - first.completionMs <= 0.1,
  );
  report(
    `heap for ${last.taken} taken suggestions followed`,
    `${(last.heapMb - first.heapMb).toFixed(1)} MB`,
    "< 5 MB",
    last.heapMb - first.heapMb < 5,
  );
}
