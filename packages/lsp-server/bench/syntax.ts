// What tree-sitter costs the server: cold start (no grammar may load before a file of its language is read), resident
// memory with three grammars loaded against none, and the installed size of the packed package.
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { Sim } from "@infill/sim";
import { supportFor } from "../src/context/lang/index.js";
import { RepositoryContext } from "../src/context/repository-context.js";
import type { Family } from "../src/context/types.js";
import { Documents } from "../src/documents/documents.js";
import { defaultSettings } from "../src/settings/settings.js";
import { BIN, Doc, launch, quantile, report } from "./harness.js";

const packageDir = fileURLToPath(new URL("..", import.meta.url));
const rssOf = (pid: number) =>
  Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1]) / 1024;

/**
 * Cold start to the `initialize` answer of this build, interleaved with another build's when
 * `INFILL_BENCH_BASELINE` names its `infill-lsp.js` (the commit before tree-sitter, to show that nothing loads
 * at start-up).
 */
async function coldStarts(sim: Sim): Promise<void> {
  const baseline = process.env.INFILL_BENCH_BASELINE;
  const ours: number[] = [];
  const theirs: number[] = [];
  // Interleaved, each build first every other round: neither gains from what the other left in the page cache.
  const hasBaseline = baseline !== undefined && existsSync(baseline);
  for (let i = 0; i < 15; i++) {
    const order = hasBaseline && i % 2 === 1 ? ["baseline", "ours"] : ["ours", "baseline"];
    for (const which of order) {
      if (which === "baseline" && !hasBaseline) continue;
      const server = await launch(sim, {}, undefined, {}, which === "ours" ? undefined : baseline);
      (which === "ours" ? ours : theirs).push(server.startMs);
      await server.close();
    }
  }
  const median = quantile(ours, 0.5);
  if (theirs.length > 0) {
    const before = quantile(theirs, 0.5);
    console.log(
      `  cold start, median of 15 interleaved: this build ${median.toFixed(0)} ms, ${baseline} ${before.toFixed(0)} ms`,
    );
    report(
      "cold start with tree-sitter vs before it",
      `${median.toFixed(0)} ms`,
      `≤ before (${before.toFixed(0)} ms) + 10 %`,
      median <= before * 1.1,
    );
  } else
    console.log(`  cold start, median of 15: ${median.toFixed(0)} ms (set INFILL_BENCH_BASELINE to compare)`);
}

/** Documents that end where a completion is asked. */
const FILES: Record<string, { languageId: string; text: string }> = {
  "src/geometry.c": {
    languageId: "c",
    text: '#include "geometry.h"\n\n/** Area. */\ndouble circle_area(double r) {\n  return 3.14159 * r * r;\n}\n\nint main(void) {\n  double a = circle_area(',
  },
  "src/Shop.java": {
    languageId: "java",
    text: "package shop;\n\n/** A shop. */\npublic class Shop {\n  public double price() { return 1; }\n  void run() {\n    Shop s = new Shop(",
  },
  "lib/cart.rb": {
    languageId: "ruby",
    text: 'require_relative "item"\n\n# A cart.\nclass Cart\n  def total\n    Item.new(',
  },
  "src/a.ts": { languageId: "typescript", text: 'import { b } from "./b";\n\nexport const a = b(' },
  "src/b.ts": {
    languageId: "typescript",
    text: "/** B. */\nexport function b(x: number) {\n  return x;\n}\nexport const c = b(",
  },
  "src/c.ts": { languageId: "typescript", text: 'import { c } from "./b";\n\nexport const d = c + b(' },
};

/** Seconds a grammar stays loaded after its last use, in the idle figure's servers (the default is 600). */
const IDLE_SECONDS = 1;
/** How long each server is left alone before its memory is read: past the idle time, and the collection after it. */
const QUIET_MS = IDLE_SECONDS * 1000 + 2_000;

/**
 * A server (`bin`) that opened `names` and completed at the end of each, then its resident memory once it has been
 * quiet for {@link QUIET_MS} (what a server keeps, not the compilers' work in flight); with `idle`, its grammars are
 * let go after {@link IDLE_SECONDS} (`grammarIdleSeconds`, which a build without the setting warns about and ignores).
 */
async function rssAfter(
  sim: Sim,
  workspace: string,
  names: string[],
  bin: string,
  idle = false,
): Promise<number> {
  const server = await launch(sim, idle ? { grammarIdleSeconds: IDLE_SECONDS } : {}, workspace, {}, bin);
  for (const name of names) {
    const file = FILES[name]!;
    const doc = await Doc.open(server, pathToFileURL(join(workspace, name)).href, file.text, file.languageId);
    const lines = file.text.split("\n");
    await doc.inline({ line: lines.length - 1, character: lines.at(-1)!.length });
  }
  await new Promise((resolve) => setTimeout(resolve, QUIET_MS));
  const rss = rssOf(server.pid);
  await server.close();
  return rss;
}

/**
 * Resident memory of servers that opened three TypeScript documents (no grammar) or a C, a Java and a Ruby one (three
 * grammars, kept or let go once idle): the medians of five servers each, for this build and for `BENCH_BASE_BIN`'s
 * when set, one server of each kind after the other.
 */
export async function syntaxMemory(sim: Sim): Promise<void> {
  const workspace = mkdtempSync(join(tmpdir(), "infill-syntax-bench-"));
  const base = process.env.BENCH_BASE_BIN;
  const builds = [...(base ? [{ name: "base", bin: base }] : []), { name: "this build", bin: BIN }];
  const TS = ["src/a.ts", "src/b.ts", "src/c.ts"];
  const GRAMMARS = ["src/geometry.c", "src/Shop.java", "lib/cart.rb"];
  try {
    for (const [name, file] of Object.entries(FILES)) {
      execFileSync("mkdir", ["-p", join(workspace, name, "..")]);
      writeFileSync(join(workspace, name), file.text);
    }
    const figures = builds.map(() => ({ none: [] as number[], three: [] as number[], idle: [] as number[] }));
    // Resident memory moves by several MB with garbage collection's timing: the median of five servers each.
    for (let i = 0; i < 5; i++) {
      for (const [b, build] of builds.entries()) {
        const f = figures[b]!;
        f.none.push(await rssAfter(sim, workspace, TS, build.bin));
        f.three.push(await rssAfter(sim, workspace, GRAMMARS, build.bin));
        f.idle.push(await rssAfter(sim, workspace, GRAMMARS, build.bin, true));
      }
    }
    if (process.env.BENCH_VERBOSE) console.log(JSON.stringify(figures));
    const mb = (values: number[]) => `${quantile(values, 0.5).toFixed(1)} MB`;
    const over = (values: number[], none: number[]) => quantile(values, 0.5) - quantile(none, 0.5);
    const signed = (mb: number) => `${mb >= 0 ? "+" : ""}${mb.toFixed(1)}`;
    console.log(
      `  server RSS after three documents and a completion in each, ${QUIET_MS / 1000} s later (medians of five): ` +
        `TypeScript (no grammar) | C + Java + Ruby (three grammars) | the same, the grammars let go after ${IDLE_SECONDS} s idle`,
    );
    for (const [b, build] of builds.entries()) {
      const f = figures[b]!;
      console.log(
        `    ${build.name}: ${mb(f.none)} | ${mb(f.three)} (${signed(over(f.three, f.none))}) | ${mb(f.idle)} (${signed(over(f.idle, f.none))})`,
      );
    }
    const ours = figures.at(-1)!;
    const three = over(ours.three, ours.none);
    report("RSS with three grammars loaded over none", `${signed(three)} MB`, "≤ +15 MB", three <= 15);
    const idle = over(ours.idle, ours.none);
    report("RSS with three grammars idled over none", `${signed(idle)} MB`, "≤ +5 MB", idle <= 5);
  } finally {
    rmSync(workspace, { recursive: true, force: true });
  }
}

/** The installed size of `@infill/lsp-server`: what npm would unpack from its tarball. */
function installedSize(): void {
  const [packed] = JSON.parse(
    execFileSync("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], {
      cwd: packageDir,
      encoding: "utf8",
    }),
  ) as Array<{ size: number; unpackedSize: number; files: Array<{ path: string; size: number }> }>;
  const grammars = packed!.files.filter((f) => f.path.startsWith("dist/grammars/"));
  const grammarBytes = grammars.reduce((sum, f) => sum + f.size, 0);
  console.log(
    `  @infill/lsp-server packed: ${(packed!.size / 1e6).toFixed(2)} MB, installed ${(packed!.unpackedSize / 1e6).toFixed(2)} MB, of which ${grammars.length} grammar files (runtime included) ${(grammarBytes / 1e6).toFixed(2)} MB`,
  );
  report(
    "installed size of @infill/lsp-server",
    `${(packed!.unpackedSize / 1e6).toFixed(1)} MB`,
    "≤ 30 MB",
    packed!.unpackedSize <= 30e6,
  );
}

/** A generated C or Java file of about `functions` functions with doc comments and bodies, calling open headers' functions. */
export function generated(family: "c" | "java", functions: number): string {
  const out: string[] = [];
  if (family === "c") {
    for (let h = 0; h < 10; h++) out.push(`#include "lib${h}.h"`);
    out.push("", "static int counter;", "");
    for (let f = 0; f < functions; f++)
      out.push(
        `/** Step ${f}: scales and clamps. */`,
        `int step${f}(int x, const char *name) {`,
        `  int y = lib${f % 10}_scale(x, ${f});`,
        `  if (y > ${f * 3}) y = lib${(f + 1) % 10}_clamp(y);`,
        `  counter += y; /* "not code" */`,
        "  return y;",
        "}",
        "",
      );
  } else {
    out.push("package shop;", "", "import java.util.List;", "", "/** Steps. */", "public class Steps {");
    for (let f = 0; f < functions; f++)
      out.push(
        `  /** Step ${f}: scales and clamps. */`,
        `  public int step${f}(int x, String name) {`,
        `    int y = Lib${f % 10}.scale(x, ${f});`,
        `    if (y > ${f * 3}) y = Lib${(f + 1) % 10}.clamp(y);`,
        '    log("not code");',
        "    return y;",
        "  }",
        "",
      );
    out.push("}");
  }
  return out.join("\n");
}

/**
 * Choosing the context in a C and a Java file of 1,000 lines with ten open files of declarations: every request a
 * fresh choice (the cursor 30 lines further each time), in process. The current file's imports are parsed from its
 * head at each choice; the open files were parsed when they opened.
 */
async function selection(): Promise<void> {
  const root = mkdtempSync(join(tmpdir(), "infill-syntax-select-"));
  try {
    for (const family of ["c", "java"] as const) {
      await supportFor(family as Family)?.ready?.();
      const documents = new Documents();
      const settings = defaultSettings({}).context;
      const repo = new RepositoryContext({
        documents,
        settings: () => settings,
        log: { error() {}, warn() {}, info() {}, debug() {} },
      });
      repo.workspace.set([{ uri: pathToFileURL(root).href, name: "bench" }]);
      for (let h = 0; h < 10; h++) {
        const name = family === "c" ? `lib${h}.h` : `Lib${h}.java`;
        const text =
          family === "c"
            ? `/** Scales. */\nint lib${h}_scale(int x, int by);\n/** Clamps. */\nint lib${h}_clamp(int x);\n`
            : `/** Lib. */\npublic class Lib${h} {\n  /** Scales. */\n  public static int scale(int x, int by) { return x * by; }\n}\n`;
        const uri = pathToFileURL(join(root, name)).href;
        documents.didOpen({ textDocument: { uri, languageId: family, version: 1, text } });
        repo.didOpen(uri);
      }
      const main = generated(family, 125);
      const uri = pathToFileURL(join(root, family === "c" ? "main.c" : "Steps.java")).href;
      documents.didOpen({ textDocument: { uri, languageId: family, version: 1, text: main } });
      repo.didOpen(uri);
      // The open files are parsed in tasks of their own, queued when they opened: they run before this one.
      await new Promise((resolve) => setImmediate(resolve));
      const doc = documents.get(uri)!;
      const lines = main.split("\n");
      const fresh: number[] = [];
      const reused: number[] = [];
      // CPU time too: on a busy machine the wall time of a choice includes waiting for the event loop.
      const cpuMs: number[] = [];
      let withSnippets = 0;
      // A first pass warms the code up (JavaScript and WebAssembly compile as they run hot; the server does this in
      // its first minutes), then the measured pass: other lines, every choice 30 lines from the last, so fresh.
      const warmUp: number[] = [];
      for (const [from, measured] of [
        [35, false],
        [20, true],
      ] as const) {
        for (let line = from; line < lines.length; line += 30) {
          // The cursor after the call's `(` on the line that calls a header's function.
          const at = lines[line]!.indexOf("(", lines[line]!.indexOf("=")) + 1 || lines[line]!.length;
          const cpu = process.cpuUsage();
          const first = await repo.block(doc, { line, character: at }, 100_000);
          const used = process.cpuUsage(cpu);
          if (!measured) {
            warmUp.push(first.ms);
            continue;
          }
          cpuMs.push((used.user + used.system) / 1000);
          fresh.push(first.ms);
          if (first.block.snippets.length > 0) withSnippets++;
          reused.push((await repo.block(doc, { line, character: at }, 100_000)).ms);
        }
      }
      repo.dispose();
      const p50 = quantile(fresh, 0.5);
      const p99 = quantile(fresh, 0.99);
      console.log(
        `  choosing the context in a 1,000-line ${family === "c" ? "C" : "Java"} file, ${fresh.length} fresh choices (${withSnippets} with an open file's declaration): p50 ${p50.toFixed(2)} ms, p99 ${p99.toFixed(2)} ms (CPU p50 ${quantile(cpuMs, 0.5).toFixed(2)} ms, p99 ${quantile(cpuMs, 0.99).toFixed(2)} ms); reused p50 ${quantile(reused, 0.5).toFixed(3)} ms; the first pass (cold code) p50 ${quantile(warmUp, 0.5).toFixed(2)} ms, p99 ${quantile(warmUp, 0.99).toFixed(1)} ms`,
      );
      report(
        `context selection, fresh choice, ${family} (p50 / p99)`,
        `${p50.toFixed(2)} / ${p99.toFixed(1)} ms`,
        "p50 < 1 ms, p99 < 10 ms",
        p50 < 1 && p99 < 10,
      );
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

export async function syntaxBench(sim: Sim): Promise<void> {
  console.log("tree-sitter in the server:");
  await selection();
  await coldStarts(sim);
  await syntaxMemory(sim);
  installedSize();
}
