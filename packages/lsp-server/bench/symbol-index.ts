// The workspace symbol index on a large generated workspace: build time, the longest slice a request could wait
// behind, memory, and lookup latency. Every figure is measured in this run.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { IgnoreRules } from "../src/context/files/ignore-rules.js";
import { SourceCache } from "../src/context/files/source-cache.js";
import { python } from "../src/context/lang/index.js";
import { INDEX_LIMITS, WorkspaceSymbols } from "../src/context/symbols/workspace-symbols.js";
import { pathToUri, Workspace } from "../src/workspace/workspace.js";
import { quantile, report } from "./harness.js";

const PACKAGES = 200;
const MODULES_PER_PACKAGE = 100;
const CLASSES_PER_MODULE = 6;
const FUNCTIONS_PER_MODULE = 8;

/** A generated Python module: classes with methods and top-level functions, with docstrings. */
function moduleText(pkg: number, mod: number): string {
  const out: string[] = [`"""Module ${mod} of package ${pkg}."""`, "import os", ""];
  for (let c = 0; c < CLASSES_PER_MODULE; c++) {
    out.push(`class Model${pkg}_${mod}_${c}:`, `    """A record of package ${pkg}."""`, "");
    out.push(`    def __init__(self, value: int) -> None:`, `        self.value = value`, "");
    out.push(`    def scaled(self, factor: float) -> float:`, `        return self.value * factor`, "");
  }
  for (let f = 0; f < FUNCTIONS_PER_MODULE; f++) {
    out.push(`def compute_${pkg}_${mod}_${f}(items: list, limit: int = ${f}) -> int:`);
    out.push(`    """Sums what is under the limit."""`);
    out.push(`    return sum(i for i in items if i < limit)`, "");
  }
  return out.join("\n");
}

function makeWorkspace(): string {
  const root = mkdtempSync(join(tmpdir(), "infill-bench-index-"));
  for (let pkg = 0; pkg < PACKAGES; pkg++) {
    const dir = join(root, `pkg${pkg}`);
    mkdirSync(dir, { recursive: true });
    for (let mod = 0; mod < MODULES_PER_PACKAGE; mod++)
      writeFileSync(join(dir, `mod${mod}.py`), moduleText(pkg, mod));
  }
  writeFileSync(join(root, ".gitignore"), "build/\n");
  return root;
}

/** Heap in use after a full collection, in bytes. */
function settledHeap(gc: () => void): number {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

/** Build the index of the generated workspace, then time lookups; figures go to the shared report. */
export async function symbolIndexBench(): Promise<void> {
  setFlagsFromString("--expose-gc");
  const gc = runInNewContext("gc") as () => void;
  const root = makeWorkspace();
  try {
    const workspace = new Workspace();
    workspace.set([{ uri: pathToUri(root) }]);
    const ignore = new IgnoreRules((path) => readFile(path, "utf8").catch(() => undefined));
    const cache = new SourceCache<undefined>({
      workspace,
      ignore,
      exclude: () => [],
      parse: () => undefined,
    });
    let slices = 0;
    const symbols = new WorkspaceSymbols({
      workspace,
      files: cache,
      outline: (path, text) =>
        path.endsWith(".py") ? { family: "python", outline: python.parse(text).outline } : undefined,
      indexable: (path) => path.endsWith(".py"),
      defer: (work) => {
        slices++;
        setImmediate(work);
      },
    });
    const before = settledHeap(gc);
    // How long the event loop is held at a stretch while the build runs: what a request may wait behind it.
    const delay = monitorEventLoopDelay({ resolution: 1 });
    delay.enable();
    const started = performance.now();
    symbols.want();
    await symbols.whenBuilt();
    const buildMs = performance.now() - started;
    delay.disable();
    const heap = settledHeap(gc) - before;
    const { files, entries } = symbols.index;
    console.log(
      `  workspace: ${PACKAGES * MODULES_PER_PACKAGE} Python files (${(symbols.bytesRead / 1024 / 1024).toFixed(1)} MiB), ` +
        `indexed ${files} files, ${entries} declarations (bounds: ${INDEX_LIMITS.maxFiles} files, ${INDEX_LIMITS.maxEntries} declarations)`,
    );
    console.log(
      `  build: ${(buildMs / 1000).toFixed(2)} s in ${slices} slices, in the background; the event loop's delay meanwhile ` +
        `p50 ${(delay.percentile(50) / 1e6).toFixed(2)} ms, p99 ${(delay.percentile(99) / 1e6).toFixed(2)} ms, ` +
        `max ${(delay.max / 1e6).toFixed(2)} ms (what a request may wait behind it)`,
    );
    console.log(
      `  index memory: ${(heap / 1024 / 1024).toFixed(1)} MiB (${((heap / entries) | 0).toString()} bytes per declaration)`,
    );
    // Lookups as the context makes them: a name, from a file somewhere, nearest first.
    const names: string[] = [];
    for (let i = 0; i < 10_000; i++) {
      const pkg = (i * 37) % PACKAGES;
      const mod = (i * 13) % MODULES_PER_PACKAGE;
      names.push(
        i % 2 === 0
          ? `Model${pkg}_${mod}_${i % CLASSES_PER_MODULE}`
          : `compute_${pkg}_${mod}_${i % FUNCTIONS_PER_MODULE}`,
      );
    }
    names.push("__init__", "scaled");
    const times: number[] = [];
    let hits = 0;
    for (const [i, name] of names.entries()) {
      const from = join(root, `pkg${(i * 7) % PACKAGES}`, "mod0.py");
      const t = performance.now();
      hits += symbols.index.lookup(name, { path: from, family: "python" }, 1).length;
      times.push(performance.now() - t);
    }
    const p50 = quantile(times, 0.5);
    const p99 = quantile(times, 0.99);
    console.log(
      `  lookup over ${times.length} names (${hits} found): p50 ${(p50 * 1000).toFixed(1)} µs, p99 ${(p99 * 1000).toFixed(1)} µs`,
    );
    report("symbol index build (20,000 files)", `${(buildMs / 1000).toFixed(2)} s`, "background", undefined);
    report("symbol index memory (20,000 files)", `${(heap / 1024 / 1024).toFixed(1)} MiB`, "—", undefined);
    report("symbol index lookup p99", `${(p99 * 1000).toFixed(1)} µs`, "< 1 ms", p99 < 1);
    report(
      "event-loop delay p99 while the index builds",
      `${(delay.percentile(99) / 1e6).toFixed(2)} ms`,
      "< 10 ms",
      delay.percentile(99) / 1e6 < 10,
    );
    symbols.dispose();
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
