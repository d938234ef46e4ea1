// Memory of the built server over a session: resident memory (RSS) after initialize, every 1,000 completions of a
// long session, with a 5 MB buffer open, right after it closed, and once the server has idled. With
// `BENCH_BASE_BIN` (another build's dist/infill-lsp.js, e.g. of a `git worktree` of main) the same session runs
// against it first, and the figures are printed side by side. Every figure is measured in this run.
// Heap snapshots at each point: `BENCH_HEAP_SNAPSHOTS=1 BENCH_NODE_ARGS="--max-semi-space-size=1
// --heapsnapshot-signal=SIGUSR2 --diagnostic-dir=<dir>"`, then `node bench/heap-summary.mjs <one> [<another>]`.
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { MEMORY_PER_SOURCE_BYTE } from "../src/context/files/source-cache.js";
import { supportFor } from "../src/context/lang/index.js";
import { familyOf } from "../src/context/languages.js";
import { BIN, cpuOf, Doc, launch, type Position, report, type Server, simProcess } from "./harness.js";
import { describeParts, type RssParts, rssParts } from "./rss-parts.js";
import { wasmTiers } from "./wasm-tiers.js";

/** The heap figures `infill.status` reports (`server.memory`); absent from builds older than it. */
interface ServerMemory {
  rss: number;
  heapUsed: number;
  heapTotal: number;
  external: number;
}

interface Figures {
  /** Label → RSS in MB (from /proc), and what the server says of its heap when it says it. */
  points: Array<{ label: string; rss: number; parts: RssParts; memory: ServerMemory | undefined }>;
  /** CPU time of the server per completion (after the first 20, which load code), in ms: what the heap costs. */
  cpuPerCompletion: number;
  /** Suggestions the typing took, whole or in part (few: the session is about answering, not taking). */
  taken: number;
}

const MB = 1024 * 1024;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const rssOf = (pid: number) =>
  Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1]) / 1024;

/** What `infill.status` says: the server's memory, and how many suggestions were taken (whole or in part). */
async function serverStatus(server: Server): Promise<{ memory: ServerMemory | undefined; taken: number }> {
  const status = (await server.rpc.sendRequest("workspace/executeCommand", {
    command: "infill.status",
    arguments: [{ message: false }],
  })) as { server: { memory?: ServerMemory }; total: { accepted: number; acceptedPartly: number } };
  return { memory: status.server.memory, taken: status.total.accepted + status.total.acceptedPartly };
}

/** The line the 5 MB buffer repeats (the same as the edit-cost bench's). */
const BIG_LINE = "export const value = compute(alpha, beta, gamma); // a line of ordinary code\n";

/** Three documents whose languages are parsed with tree-sitter grammars (C, Java, Ruby), each ending where it completes. */
const GRAMMAR_DOCS = [
  {
    name: "src/geometry.c",
    languageId: "c",
    text: "/** Area. */\ndouble area(double r) {\n  return 3.14159 * r * r;\n}\n\nint main(void) {\n  double a = area(",
  },
  {
    name: "src/Shop.java",
    languageId: "java",
    text: "package shop;\n\n/** A shop. */\npublic class Shop {\n  public double price() { return 1; }\n  void run() {\n    Shop s = new Shop(",
  },
  { name: "lib/cart.rb", languageId: "ruby", text: "# A cart.\nclass Cart\n  def total\n    Item.new(" },
];

/** The grammar sessions' `grammarIdleSeconds`: past the 5 MB buffer's part, within the idle pause. */
const GRAMMAR_IDLE_SECONDS = 8;
/** The pause before the last figure, in ms: V8's memory reducer, and grammars idle past GRAMMAR_IDLE_SECONDS. */
const IDLE_PAUSE_MS = 12_000;

/** Which tree-sitter grammars a session loads: none, three kept, or three let go once idle. */
export type GrammarMode = "none" | "three" | "three, idle";

/**
 * One session against the server at `bin`: `completions` completions typed at the end of a copy of this package's
 * `src/completion/engine.ts`, in a workspace holding a copy of this package's `src/` (so repository context reads,
 * parses and indexes as it does for a user), then (with `grammars`) a C, a Java and a Ruby document opened and
 * completed in, then a 5 MB buffer opened, typed and completed in, and closed; the grammar documents are completed in
 * again just before the figure after the buffer. With `"three, idle"` the grammars are let go after
 * {@link GRAMMAR_IDLE_SECONDS} (`grammarIdleSeconds`), before the last figure.
 */
async function session(bin: string, completions: number, grammars: GrammarMode = "none"): Promise<Figures> {
  const workspace = mkdtempSync(join(tmpdir(), "infill-memory-"));
  cpSync(fileURLToPath(new URL("../src", import.meta.url)), join(workspace, "src"), { recursive: true });
  const sim = await simProcess();
  const options =
    grammars === "three, idle"
      ? { debounceMs: 0, grammarIdleSeconds: GRAMMAR_IDLE_SECONDS }
      : { debounceMs: 0 };
  const server = await launch(sim, options, workspace, {}, bin);
  const points: Figures["points"] = [];
  const measure = async (label: string) => {
    const rss = rssOf(server.pid);
    const parts = rssParts(server.pid);
    // A heap snapshot at each point, for bench/heap-summary.mjs (written before the status request is answered).
    if (process.env.BENCH_HEAP_SNAPSHOTS) process.kill(server.pid, "SIGUSR2");
    points.push({ label, rss, parts, memory: (await serverStatus(server)).memory });
  };
  try {
    await measure("after initialize");
    const path = join(workspace, "src/completion/engine.ts");
    const text = `${readFileSync(path, "utf8")}\n\nexport function next(a: number, b: number): number {\n  \n}\n`;
    const doc = await Doc.open(server, pathToFileURL(path).href, text);
    let at: Position = { line: text.split("\n").length - 3, character: 2 };
    // Letters in an order the sim cannot continue (it repeats what the prompt repeats: after "§§" it suggests "§",
    // and typing it took every suggestion, which a user does not do thousands of times), on lines of 60.
    let seed = 1;
    const complete = async () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      const key = at.character >= 62 ? "\n  " : String.fromCharCode(97 + ((seed >> 16) % 26));
      at = await doc.insert(at, key);
      await doc.inline(at);
    };
    const WARMUP = 20;
    let cpuAtStart = 0;
    for (let i = 1; i <= completions; i++) {
      if (i === WARMUP + 1) cpuAtStart = cpuOf(server.pid);
      await complete();
      if (i % 1000 === 0 || i === completions) await measure(`after ${i.toLocaleString("en")} completions`);
    }
    const cpuPerCompletion = (cpuOf(server.pid) - cpuAtStart) / (completions - WARMUP);
    const { taken } = await serverStatus(server);
    const grammarDocs: Doc[] = [];
    const completeInGrammars = async () => {
      for (const [i, doc] of grammarDocs.entries()) {
        const lines = GRAMMAR_DOCS[i]!.text.split("\n");
        await doc.inline({ line: lines.length - 1, character: lines.at(-1)!.length });
      }
    };
    if (grammars !== "none") {
      for (const file of GRAMMAR_DOCS) {
        const uri = pathToFileURL(join(workspace, file.name)).href;
        grammarDocs.push(await Doc.open(server, uri, file.text, file.languageId));
      }
      await completeInGrammars();
    }

    const bigText = BIG_LINE.repeat(Math.ceil((5 * MB) / BIG_LINE.length));
    const big = await Doc.open(server, pathToFileURL(join(workspace, "src/big.ts")).href, bigText);
    let bigAt: Position = { line: Math.floor(bigText.length / BIG_LINE.length / 2), character: 10 };
    for (let i = 0; i < 20; i++) {
      bigAt = await big.insert(bigAt, "\u00a7");
      await big.inline(bigAt);
    }
    // Long enough for the work a document's edits schedule in the background (its index, 300 ms after an edit).
    await pause(500);
    await measure("with a 5 MB buffer open (20 completions in it)");
    await server.rpc.sendNotification("textDocument/didClose", { textDocument: { uri: big.uri } });
    for (let i = 0; i < 20; i++) await complete();
    await completeInGrammars();
    await measure("5 MB buffer closed, 20 completions later");
    // V8 gives memory back once the process idles (its memory reducer): what is left then is what is kept; idle
    // grammars are let go meanwhile.
    await pause(IDLE_PAUSE_MS);
    await measure(`then ${IDLE_PAUSE_MS / 1000} s idle`);
    return { points, cpuPerCompletion, taken };
  } finally {
    await server.close();
    await sim.close();
    rmSync(workspace, { recursive: true, force: true });
  }
}

/**
 * The memory the repository context's source cache holds per byte of a file (its text and its parse), measured on
 * the TypeScript sources of this repository's packages: the heap a garbage collection leaves after reading and
 * parsing them all, over their size.
 */
function parseMemoryPerByte(): { files: number; bytes: number; perByte: number } {
  setFlagsFromString("--expose-gc");
  const gc = runInNewContext("gc") as () => void;
  const packages = fileURLToPath(new URL("../..", import.meta.url));
  const paths = ["core", "sim", "lsp-server"].flatMap((name) => {
    const src = join(packages, name, "src");
    return readdirSync(src, { recursive: true, encoding: "utf8" })
      .filter((rel) => rel.endsWith(".ts"))
      .map((rel) => join(src, rel));
  });
  const parseAll = () => {
    let bytes = 0;
    const kept: unknown[] = [];
    for (const path of paths) {
      const buffer = readFileSync(path);
      bytes += buffer.length;
      const family = familyOf(undefined, path);
      const support = family && supportFor(family);
      if (support) kept.push(support.parse(buffer.toString("utf8")));
    }
    return { bytes, kept };
  };
  // Once first, so that the parsers' compiled code is not counted.
  parseAll();
  gc();
  const before = process.memoryUsage().heapUsed;
  const { bytes, kept } = parseAll();
  gc();
  const perByte = (process.memoryUsage().heapUsed - before) / bytes;
  return { files: kept.length, bytes, perByte };
}

const describe = ({ rss, memory }: Figures["points"][number]) =>
  `${rss.toFixed(1)} MB` +
  (memory
    ? ` (heap ${(memory.heapUsed / MB).toFixed(1)}/${(memory.heapTotal / MB).toFixed(1)}, external ${(memory.external / MB).toFixed(1)})`
    : "");

/**
 * Resident memory of the server over a session of `BENCH_MEMORY_COMPLETIONS` completions (default 300; 10000 for
 * the long session: a figure every 1,000) and a 5 MB buffer, against `BENCH_BASE_BIN` too when set.
 */
export async function memoryBench(): Promise<void> {
  const parses = parseMemoryPerByte();
  console.log(
    `  the source cache's parses: ${parses.perByte.toFixed(2)} bytes of heap per byte of source (${parses.files} files, ` +
      `${(parses.bytes / MB).toFixed(1)} MB), where its bound estimates ${MEMORY_PER_SOURCE_BYTE}`,
  );
  await wasmTiers();
  const completions = Number(process.env.BENCH_MEMORY_COMPLETIONS ?? 300);
  const base = process.env.BENCH_BASE_BIN;
  const runs: Array<{ name: string; figures: Figures }> = [];
  if (base) runs.push({ name: "base", figures: await session(base, completions) });
  const ours = await session(BIN, completions);
  runs.push({ name: "this build", figures: ours });
  // The same session with three grammars loaded, kept or let go once idle, side by side with the one without.
  const three = await session(BIN, completions, "three");
  runs.push({ name: "this build, 3 grammars", figures: three });
  const idled = await session(BIN, completions, "three, idle");
  runs.push({ name: `this build, 3 grammars idle ${GRAMMAR_IDLE_SECONDS} s`, figures: idled });
  console.log(
    `  RSS (V8 heap used/total, external: as the server reports them, in MB): ${runs.map((r) => r.name).join(" | ")}`,
  );
  for (const [i, point] of ours.points.entries()) {
    const row = runs.map((run) => describe(run.figures.points[i]!)).join(" | ");
    console.log(`    ${point.label}: ${row}`);
  }
  console.log("  what the RSS is made of, in MB (bench/rss-parts.ts; V8's heap is in 'other')");
  for (const run of runs) {
    console.log(`    ${run.name}:`);
    for (const point of run.figures.points)
      console.log(`      ${point.label}: ${describeParts(point.parts)}`);
  }
  const cpu = runs.map((run) => `${run.figures.cpuPerCompletion.toFixed(2)} ms`).join(" | ");
  console.log(`    server CPU time per completion: ${cpu}`);
  console.log(`    suggestions taken by the typing: ${runs.map((run) => run.figures.taken).join(" | ")}`);
  const closed = ours.points.find((p) => p.label.startsWith("5 MB buffer closed"))!;
  report(
    `server RSS after ${completions} completions and a 5 MB buffer`,
    `${closed.rss.toFixed(1)} MB`,
    "≤ 80 MB",
    closed.rss <= 80,
  );
  const at = (figures: Figures, label: string) => figures.points.find((p) => p.label.startsWith(label))!.rss;
  const loaded = at(three, "5 MB buffer closed") - closed.rss;
  report(
    "RSS with three grammars loaded over none (after the 5 MB buffer)",
    `${loaded >= 0 ? "+" : ""}${loaded.toFixed(1)} MB`,
    "≤ +15 MB",
    loaded <= 15,
  );
  const last = `then ${IDLE_PAUSE_MS / 1000} s idle`;
  const dropped = at(idled, last) - at(ours, last);
  report(
    `RSS with three grammars let go once idle over none (${IDLE_PAUSE_MS / 1000} s idle)`,
    `${dropped >= 0 ? "+" : ""}${dropped.toFixed(1)} MB`,
    "≤ +5 MB",
    dropped <= 5,
  );
  const steps = ours.points.filter((p) => /^after [\d,]+ completions$/.test(p.label));
  if (steps.length >= 2) {
    const growth = steps.at(-1)!.rss - steps[0]!.rss;
    report(
      `server RSS growth, ${steps[0]!.label.slice(6)} → ${steps.at(-1)!.label.slice(6)}`,
      `${growth.toFixed(1)} MB`,
      "flat (< 5 MB)",
      growth < 5,
    );
  }
}
