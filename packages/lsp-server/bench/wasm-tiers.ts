// tree-sitter on V8's baseline WebAssembly compiler alone (`--liftoff-only`, what the server sets) against V8's
// default (hot functions optimised by TurboFan on background threads): parse time of a 1,000-line C file, and the
// malloc arenas the optimisation leaves behind, each in a process of its own (this bench's bundle, run again with
// BENCH_WASM_TIERS_CHILD: V8 shares a compiled module between compiles of the same bytes in a process).
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { loadGrammar } from "../src/context/syntax/runtime.js";
import { quantile } from "./harness.js";
import { rssParts } from "./rss-parts.js";
import { generated } from "./syntax.js";

interface ParseRun {
  p50: number;
  malloc: number;
}

/** Parse time (p50 of the last 100 of 300 parses, in ms) and the growth of malloc's memory over them, in MB. */
async function parseRun(): Promise<ParseRun> {
  const before = rssParts("self").malloc;
  const grammar = (await loadGrammar("c"))!;
  const text = generated("c", 125);
  const ms: number[] = [];
  for (let i = 0; i < 300; i++) {
    const t0 = performance.now();
    grammar.parser.parse(text)?.delete();
    ms.push(performance.now() - t0);
    // Let the background compiler threads finish what the parses tiered up.
    if (i % 50 === 49) await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const malloc = rssParts("self").malloc - before;
  return { p50: quantile(ms.slice(200), 0.5), malloc };
}

// In the child (whichever bench bundle it is, evaluated before the bench's own code): one run, printed as JSON.
if (process.env.BENCH_WASM_TIERS_CHILD) {
  process.stdout.write(JSON.stringify(await parseRun()));
  process.exit(0);
}

/** One run in a child process started with `flags`. */
function childRun(flags: string[]): ParseRun {
  const child = spawnSync(process.execPath, [...flags, fileURLToPath(import.meta.url)], {
    env: { ...process.env, BENCH_WASM_TIERS_CHILD: "1" },
    encoding: "utf8",
  });
  if (child.status !== 0) throw new Error(`wasm tiers child: ${child.stderr}`);
  return JSON.parse(child.stdout) as ParseRun;
}

/** Both, printed side by side. */
export async function wasmTiers(): Promise<void> {
  const liftoff = childRun(["--liftoff-only"]);
  const tiered = childRun([]);
  console.log(
    `  tree-sitter parsing 1,000 lines of C (p50, after 200 parses) and malloc's growth over 300 parses: ` +
      `--liftoff-only (the server's) ${liftoff.p50.toFixed(2)} ms, +${liftoff.malloc.toFixed(1)} MB | ` +
      `V8's default tiers ${tiered.p50.toFixed(2)} ms, +${tiered.malloc.toFixed(1)} MB ` +
      `(${(liftoff.p50 / tiered.p50).toFixed(2)}× the time)`,
  );
}
