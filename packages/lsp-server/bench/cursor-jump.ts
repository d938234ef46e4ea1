// The cost of a completion when the cursor jumps around a 5,000-line file that calls into 20 other files of its
// project, with repository context on, in seven languages: a new line typed after a call, an invoked completion
// there, the line taken out again. Through the built server vs the same request bodies sent straight to a sim right
// after; context off, on, on with a 30 ms upstream, and on with a young generation large enough to know what each
// request allocates. Every figure is measured in this run.

import { rmSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { BIN, cpuOf, Doc, directCall, launch, quantile, report, simProcess } from "./harness.js";
import { JUMP_LANGUAGES } from "./jump-languages.js";
import {
  type BigFile,
  bigFile,
  type Call,
  type JumpLanguage,
  LIBRARIES,
  LINES,
  landingLines,
  writeProject,
} from "./jump-project.js";

/** Jumps measured per arm (`BENCH_JUMPS`), after {@link WARMUP} more. */
const N = Number(process.env.BENCH_JUMPS ?? 200);
const WARMUP = 20;
/** An upstream that answers in this many ms, as a provider does at best (the first token over a network). */
const UPSTREAM_MS = 30;
/**
 * Jumps measured in the arms that need fewer (`BENCH_SHORT_JUMPS`): against that upstream (each waits for it, and
 * fewer keep the bench's time in bounds) and for allocation (a steady figure).
 */
const SHORT_N = Math.min(N, Number(process.env.BENCH_SHORT_JUMPS ?? 100));
/**
 * The server's Node flags for the arm that measures allocation: its young generation large enough that most requests
 * see no collection, so that the heap each grows by is known (`heapBytes`). The server ships with a 1 MB one
 * (`--max-semi-space-size=1` in its shebang), which a request that allocates half a megabyte or more fills at almost
 * every request. What a request allocates does not depend on the young generation's size; its GC pauses do, and are
 * measured in the arms that run the server as shipped.
 */
const ALLOCATION_FLAGS = ["--min-semi-space-size=32", "--max-semi-space-size=32"];
const ALLOCATION_ARM = "on, 32 MB young generation";

/** One jump through the server. */
interface Round {
  /** Request sent → answer read, ms. */
  ms: number;
  /** Upstream requests it made: 0 when the server answered from memory. */
  sent: number;
  /** Where the cursor was: the line after this call. */
  call: Call;
  /** The `$/infill/metrics` of its answer, when it was a suggestion. */
  metrics?: Metrics;
  /** The bodies it sent upstream. */
  bodies: Array<{ prompt: string }>;
  /** The same body sent straight to a sim right after, ms, when it sent one. */
  direct?: number;
}

interface Metrics {
  latencyMs: number;
  upstreamMs: number | null;
  context: { ms: number } | null;
  /** Absent from a build before these fields. */
  gcMs?: number;
  heapBytes?: number | null;
}

interface Arm {
  name: string;
  rounds: Round[];
  /** The server's CPU time (user + system) over the measured jumps, per jump, ms: what the machine's load inflates least. */
  cpuPerJump: number;
}

/** Wait until `done()` holds, checked at once and at each call of `check`; give up after `ms`. */
function until(done: () => boolean, ms: number): Promise<void> & { check(): void } {
  let check = () => {};
  const promise = new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    check = () => {
      if (!done()) return;
      clearTimeout(timer);
      resolve();
    };
    check();
  });
  return Object.assign(promise, { check: () => check() });
}

async function arm(
  name: string,
  language: JumpLanguage,
  big: BigFile,
  root: string,
  {
    context,
    bin = BIN,
    latencyMs = 0,
    jumps = N,
    nodeArgs,
  }: { context: boolean; bin?: string; latencyMs?: number; jumps?: number; nodeArgs?: string[] },
): Promise<Arm> {
  // The direct calls go to a sim of their own that gets the same requests in the same order, each right after the
  // server's, so that both meet the same moment of the machine's load.
  const [sim, fresh] = await Promise.all([simProcess({ latencyMs }), simProcess({ latencyMs })]);
  const server = await launch(
    sim,
    { debounceMs: 0, metrics: true, context: { enabled: context } },
    root,
    {},
    bin,
    nodeArgs,
  );
  const metrics: Metrics[] = [];
  let arrived = () => {};
  server.rpc.onNotification("$/infill/metrics", (m: Metrics) => {
    metrics.push(m);
    arrived();
  });
  const doc = await Doc.open(
    server,
    pathToFileURL(join(root, language.main)).href,
    big.text,
    language.languageId,
  );
  // The file has been open a while: its parse and its imports' are ready (an editor's tabs are open long before).
  await new Promise((resolve) => setTimeout(resolve, 1_500));
  const lines = big.text.split("\n");
  const rounds: Array<Round & { answered: boolean }> = [];
  let cpuAtStart = 0;
  for (const [i, line] of landingLines(big, WARMUP + jumps).entries()) {
    if (i === WARMUP) cpuAtStart = cpuOf(server.pid);
    // A new line typed after the call, indented as an editor does; an invoked completion there; the line taken out.
    const end = { line, character: lines[line]!.length };
    const at = await doc.insert(end, `\n${/^\s*/.exec(lines[line]!)![0]}`);
    const t = performance.now();
    const answer = await doc.inline(at, "invoked");
    const ms = performance.now() - t;
    await doc.replace(end, at, "");
    const bodies = (await sim.since()) as Array<{ prompt: string }>;
    const direct: number[] = [];
    for (const body of bodies) direct.push(await directCall(fresh.url, body));
    rounds.push({
      ms,
      sent: bodies.length,
      call: big.calls.get(line)!,
      bodies,
      ...(bodies.length === 1 ? { direct: direct[0]! } : {}),
      answered: answer.items.length > 0,
    });
  }
  const cpuPerJump = (cpuOf(server.pid) - cpuAtStart) / jumps;
  // Each answered suggestion's metrics come just after it (the cost fields wait for Node's GC report).
  const answered = rounds.filter((r) => r.answered).length;
  const all = until(() => metrics.length >= answered, 5_000);
  arrived = all.check;
  await all;
  await server.close();
  await Promise.all([sim.close(), fresh.close()]);
  let m = 0;
  for (const round of rounds) {
    const metered = round.answered ? metrics[m++] : undefined;
    if (metered) round.metrics = metered;
  }
  return { name, rounds: rounds.slice(WARMUP), cpuPerJump };
}

/** The context block's text for each file it carries: from the comment line naming the file to the next such line. */
function blockSections(prompt: string, language: JumpLanguage): Map<string, string> {
  const paths = new Set([
    language.main,
    ...Array.from({ length: LIBRARIES }, (_, lib) => language.library(lib).path),
  ]);
  const sections = new Map<string, string>();
  let current: string | undefined;
  let start = 0;
  let offset = 0;
  for (const line of prompt.split("\n")) {
    const named = /^(?:\/\/|#|--|\/\*) (\S+?)(?: \*\/)?$/.exec(line)?.[1];
    if (named !== undefined && paths.has(named)) {
      if (current !== undefined) sections.set(current, prompt.slice(start, offset));
      if (named === language.main) return sections;
      current = named;
      start = offset;
    }
    offset += line.length + 1;
  }
  return sections;
}

/** The rounds whose prompt carried another file, and those whose prompt carried the called function's declaration. */
function carried(language: JumpLanguage, rounds: Round[]): { file: number; callee: number } {
  let file = 0;
  let callee = 0;
  for (const r of rounds) {
    const sections = r.bodies.map((b) => blockSections(b.prompt, language));
    if (sections.some((s) => s.size > 0)) file++;
    const declaration = language.declares(r.call);
    if (sections.some((s) => s.get(language.library(r.call.lib).path)?.includes(declaration))) callee++;
  }
  return { file, callee };
}

const ms = (value: number) => (Number.isNaN(value) ? "n/a" : `${value.toFixed(2)} ms`);
const kb = (value: number) => (Number.isNaN(value) ? "n/a" : `${(value / 1024).toFixed(0)} KB`);
const mean = (values: number[]) =>
  values.length === 0 ? Number.NaN : values.reduce((a, v) => a + v, 0) / values.length;

/** The figures of one arm: overheads, and what the measured requests cost the server. */
function figures(f: Arm) {
  const upstreamOnce = f.rounds.filter((r) => r.sent === 1);
  const lsp = upstreamOnce.map((r) => r.ms);
  const direct = upstreamOnce.map((r) => r.direct!);
  const metered = f.rounds.flatMap((r) => (r.metrics ? [r.metrics] : []));
  const gc = metered.flatMap((m) => (typeof m.gcMs === "number" ? [m.gcMs] : []));
  const heap = metered.flatMap((m) => (typeof m.heapBytes === "number" ? [m.heapBytes] : []));
  return {
    lsp,
    direct,
    p50: quantile(lsp, 0.5) - quantile(direct, 0.5),
    p99: quantile(lsp, 0.99) - quantile(direct, 0.99),
    fromMemory: f.rounds.filter((r) => r.sent === 0).length,
    more: f.rounds.filter((r) => r.sent > 1).length,
    metered,
    gc,
    heap,
  };
}

function printArm(language: JumpLanguage, f: Arm): void {
  const x = figures(f);
  const q = (values: number[]) => quantile(values, 0.5);
  console.log(
    `  ${language.name}, context ${f.name}, ${f.rounds.length} jumps: through infill-lsp p50 ${ms(q(x.lsp))} / p99 ${ms(quantile(x.lsp, 0.99))}, ` +
      `direct ${ms(q(x.direct))} / ${ms(quantile(x.direct, 0.99))}; overhead p50 ${ms(x.p50)}, p99 ${ms(x.p99)}`,
  );
  if (x.fromMemory > 0 || x.more > 0)
    console.log(
      `    ${x.fromMemory} answered from memory, ${x.more} with more than one upstream request: left out of the overheads`,
    );
  const context = carried(language, f.rounds);
  if (f.name.startsWith("on"))
    console.log(
      `    ${context.file} of ${f.rounds.length} prompts carry another file, ${context.callee} the called function's declaration; ` +
        `context selection p50 ${ms(q(x.metered.flatMap((m) => (m.context ? [m.context.ms] : []))))}`,
    );
  console.log(
    `    the server's CPU time per jump (two edits and a completion) ${ms(f.cpuPerJump)}; per request (${x.metered.length} with metrics): ` +
      `GC ${ms(mean(x.gc))} on average (${x.gc.filter((g) => g > 0).length} with a collection, p99 ${ms(quantile(x.gc, 0.99))}), ` +
      `heap grown p50 ${kb(q(x.heap))} (p90 ${kb(quantile(x.heap, 0.9))}, over the ${x.heap.length} without a collection)`,
  );
  const inServer = x.metered.map((m) => m.latencyMs);
  const upstream = x.metered.flatMap((m) => (m.upstreamMs === null ? [] : [m.upstreamMs]));
  console.log(
    `    where it goes (p50s): JSON-RPC over stdio ${ms(q(x.lsp) - q(inServer))}, the engine around the upstream ` +
      `request ${ms(q(inServer) - q(upstream))}, the upstream request as the server makes it vs the direct call ` +
      `${ms(q(upstream) - q(x.direct))}`,
  );
}

/** The summary's rows of one language: the goals, and what each request costs. */
function reportLanguage(language: JumpLanguage, arms: Arm[]): void {
  const on = arms.find((a) => a.name === "on")!;
  const slow = arms.find((a) => a.name === `on, ${UPSTREAM_MS} ms upstream`)!;
  const what = `cursor jump, ${language.name}, context on`;
  const instant = figures(on);
  report(`${what}: overhead p50`, ms(instant.p50), "< 1 ms", instant.p50 < 1);
  report(`${what}: overhead p99 (vs direct p99)`, ms(instant.p99), "< 5 ms", instant.p99 < 5);
  const late = figures(slow);
  report(`${what}, ${UPSTREAM_MS} ms upstream: overhead p50`, ms(late.p50), "< 1 ms", late.p50 < 1);
  report(`${what}, ${UPSTREAM_MS} ms upstream: overhead p99`, ms(late.p99), "< 5 ms", late.p99 < 5);
  report(`${what}: GC per request (mean)`, ms(mean(instant.gc)), "measured");
  const allocation = figures(arms.find((a) => a.name === ALLOCATION_ARM)!);
  report(
    `${what}: heap allocated per request (p50, 32 MB young generation)`,
    kb(quantile(allocation.heap, 0.5)),
    "measured",
  );
  report(`${what}: the server's CPU time per jump`, ms(on.cpuPerJump), "measured");
  const { file, callee } = carried(language, on.rounds);
  report(
    `${what}: prompts with another file / the called function`,
    `${file}, ${callee} of ${on.rounds.length}`,
    "another file in all",
    file === on.rounds.length,
  );
}

/** Run the cursor-jump benchmark; figures go to the shared report. */
export async function cursorJumpBench(): Promise<void> {
  console.log(
    `\ncursor jump: a ${LINES.toLocaleString("en")}-line file calling into ${LIBRARIES} library files; ${N} jumps ` +
      `per arm after ${WARMUP} (${SHORT_N} with a ${UPSTREAM_MS} ms upstream and for allocation). Other processes ` +
      "share the machine's cores: the server's CPU time per jump is what their load inflates least.",
  );
  // BENCH_JUMP_LANGUAGES=Go,Rust: only those.
  const only = process.env.BENCH_JUMP_LANGUAGES?.split(",").map((name) => name.trim().toLowerCase());
  for (const language of JUMP_LANGUAGES.filter((l) => !only || only.includes(l.name.toLowerCase()))) {
    const big = bigFile(language);
    const root = writeProject(language, big);
    try {
      const load = loadavg()
        .map((l) => l.toFixed(1))
        .join(" ");
      console.log(`  ${language.name}: ${language.main}, the machine's load average ${load}`);
      // BENCH_BASE_BIN: another build's server (e.g. main's, built with INFILL_BUILD_OUTDIR), context on, beside.
      const base = process.env.BENCH_BASE_BIN;
      // An instant upstream shows all the server's work on the request path; one that takes 30 ms to answer (the
      // best a provider does) shows what a user waits for, the work done while the request is in flight hidden.
      const arms = [
        await arm("off", language, big, root, { context: false }),
        ...(base ? [await arm("on, base build", language, big, root, { context: true, bin: base })] : []),
        await arm("on", language, big, root, { context: true }),
        await arm(`on, ${UPSTREAM_MS} ms upstream`, language, big, root, {
          context: true,
          latencyMs: UPSTREAM_MS,
          jumps: SHORT_N,
        }),
        await arm(ALLOCATION_ARM, language, big, root, {
          context: true,
          jumps: SHORT_N,
          nodeArgs: ALLOCATION_FLAGS,
        }),
      ];
      for (const f of arms) printArm(language, f);
      reportLanguage(language, arms);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  }
}
