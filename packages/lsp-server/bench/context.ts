// Repository context: what choosing it costs with many open documents and a big workspace, what it does to the
// prompt cache, and raw vs commented snippets. Every figure is measured in this run.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { type Sim, startSim } from "@infill/sim";
import { assembleBlock } from "../src/context/block/block.js";
import { RepositoryContext } from "../src/context/repository-context.js";
import { Documents } from "../src/documents/documents.js";
import { defaultSettings } from "../src/settings/settings.js";
import { cacheHitRatio, Doc, launch, type Position, quantile, report } from "./harness.js";
import { symbolIndexBench } from "./symbol-index.js";

const AREAS = 40;
const MODULES_PER_AREA = 50;
const OPEN_TABS = 50;

/** A generated module: a model interface, functions with doc comments, a class, and ordinary code. */
function moduleText(area: number, mod: number): string {
  const k = area * MODULES_PER_AREA + mod;
  const dep = ((area + 7) % AREAS) * MODULES_PER_AREA + ((mod + 13) % MODULES_PER_AREA);
  const depPath = `../area${Math.floor(dep / MODULES_PER_AREA)}/mod${dep % MODULES_PER_AREA}.js`;
  const filler = Array.from(
    { length: 30 },
    (_, i) =>
      `  const step${i} = weights${k}[${i % 7}] * (input.length + ${i}) - offset${(k + i) % 11};\n  if (step${i} > limit) total += normalise(step${i}, "${"abc".repeat(i % 4)}");`,
  ).join("\n");
  return `import { helper${dep}, type Model${dep} } from "${depPath}";

/** A record kept by area ${area}. */
export interface Model${k} {
  id: string;
  value${k}: number;
  label: string;
  parent?: Model${dep};
}

/**
 * Computes the weighted score of a model.
 * @param model - the record
 * @param factor - how much the value counts
 */
export function compute${k}(model: Model${k}, factor: number): number {
  const base = model.value${k} * factor;
  const bonus = model.label.length > 3 ? 1 : 0;
  const parent = model.parent ? model.parent.id.length : 0;
  const adjusted = base + bonus - parent;
  const rounded = Math.round(adjusted * 100) / 100;
  return rounded;
}

/** Formats an input for display. */
export function helper${k}(input: string, count = 2): string {
  return helper${dep}(input.repeat(count));
}

export class Service${k} {
  constructor(private readonly base: string) {}

  async fetch${k}(id: string): Promise<Model${k}> {
    const response = await fetch(\`\${this.base}/models/\${id}\`);
    return (await response.json()) as Model${k};
  }

  close(): void {}
}

export function process${k}(input: string, limit: number): number {
  let total = 0;
${filler}
  return total;
}
`;
}

const MAIN = `import { compute120, type Model120 } from "../area2/mod20.js";
import { helper345 } from "../area6/mod45.js";
import { Service77 } from "../area1/mod27.js";
import { compute999 } from "../area19/mod49.js";

export async function main(models: Model120[], base: string): Promise<number> {
  
}
`;
/** What is typed into `main`, a word at a time, with a request after each word. */
const TYPED =
  'const service = new Service77(base);\n  const first = await service.fetch77("a");\n  const label = helper345(first.label, 3);\n  let total = 0;\n  for (const model of models) {\n    total += compute120(model, 2) + compute999(model, label.length);\n  }\n  service.close();\n  return total;';

function makeWorkspace(): string {
  const root = mkdtempSync(join(tmpdir(), "infill-bench-ws-"));
  for (let area = 0; area < AREAS; area++) {
    for (let mod = 0; mod < MODULES_PER_AREA; mod++) {
      const path = join(root, "src", `area${area}`, `mod${mod}.ts`);
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, moduleText(area, mod));
    }
  }
  writeFileSync(join(root, ".gitignore"), "dist/\nnode_modules/\n");
  mkdirSync(join(root, "src", "app"), { recursive: true });
  writeFileSync(join(root, "src", "app", "main.ts"), MAIN);
  return root;
}

interface SessionFigures {
  contextMs: number[];
  recomputedMs: number[];
  hitRatio: number;
  /** Mean estimated tokens of prompt + suffix per request. */
  promptTokens: number;
  requests: number;
}

/** Replay typing `TYPED` into main.ts with the tabs open; collect the context figures and the cache accounting. */
async function replay(root: string, contextOn: boolean): Promise<SessionFigures> {
  const sim: Sim = await startSim();
  const server = await launch(sim, { debounceMs: 0, metrics: true, context: { enabled: contextOn } }, root);
  const contextMs: number[] = [];
  const recomputedMs: number[] = [];
  server.rpc.onNotification(
    "$/infill/metrics",
    (m: { context: { ms: number; recomputed: boolean } | null }) => {
      if (!m.context) return;
      contextMs.push(m.context.ms);
      if (m.context.recomputed) recomputedMs.push(m.context.ms);
    },
  );
  for (let i = 0; i < OPEN_TABS; i++) {
    const area = i % 5;
    const mod = Math.floor(i / 5);
    const uri = pathToFileURL(join(root, "src", `area${area}`, `mod${mod}.ts`)).href;
    await Doc.open(server, uri, moduleText(area, mod));
  }
  const doc = await Doc.open(server, pathToFileURL(join(root, "src", "app", "main.ts")).href, MAIN);
  // Opened documents are indexed, and their imports read, in the background; an editor's tabs are open long
  // before, and the user takes a moment to find their place in a file just opened.
  await new Promise((resolve) => setTimeout(resolve, 600));
  let at: Position = { line: 6, character: 2 };
  for (const word of TYPED.split(/(?<=[ \n(])/)) {
    at = await doc.insert(at, word);
    await doc.inline(at);
  }
  await server.close();
  const bodies = sim.requests.map((r) => r.body as { prompt: string; suffix: string });
  await sim.close();
  const tokens = bodies.reduce((sum, b) => sum + Math.ceil((b.prompt.length + b.suffix.length) / 3.5), 0);
  return {
    contextMs,
    recomputedMs,
    hitRatio: await cacheHitRatio(bodies),
    promptTokens: tokens / bodies.length,
    requests: bodies.length,
  };
}

/** Raw vs commented snippets: the same choices rendered both ways, and what fits a budget each way. */
async function style(root: string) {
  const documents = new Documents();
  const settings = defaultSettings({}).context;
  const log = { error() {}, warn() {}, info() {}, debug() {} };
  const repo = new RepositoryContext({ documents, settings: () => settings, log });
  repo.workspace.set([{ uri: pathToFileURL(root).href, name: "bench" }]);
  const uri = pathToFileURL(join(root, "src", "app", "main.ts")).href;
  const text = MAIN.replace("main(models: Model120[], base: string): Promise<number> {\n  ", `$&${TYPED}`);
  documents.didOpen({ textDocument: { uri, languageId: "typescript", version: 1, text } });
  const doc = documents.get(uri)!;
  let raw = 0;
  let commented = 0;
  let fitRaw = 0;
  let fitCommented = 0;
  const lines = text.split("\n");
  for (let line = 7; line < 15; line++) {
    const position = { line, character: lines[line]!.length };
    const { block } = await repo.block(doc, position, 100_000);
    const again = (commentedOut: boolean, budgetTokens: number) =>
      assembleBlock({
        languageId: "typescript",
        currentPath: "src/app/main.ts",
        candidates: block.snippets,
        budgetTokens,
        commented: commentedOut,
      });
    raw += again(false, 100_000).tokens;
    commented += again(true, 100_000).tokens;
    fitRaw += again(false, 512).snippets.length;
    fitCommented += again(true, 512).snippets.length;
    documents.didClose(uri);
    documents.didOpen({ textDocument: { uri, languageId: "typescript", version: line, text } });
  }
  repo.dispose();
  console.log(
    `  the same snippets raw vs commented out: ${raw} vs ${commented} tokens (${((100 * (commented - raw)) / raw).toFixed(1)} % more commented); ` +
      `in a 512-token budget ${fitRaw} vs ${fitCommented} snippets fit (over 8 positions)`,
  );
}

/** Run the context benchmark; figures go to the shared report. */
export async function contextBench(): Promise<void> {
  const root = makeWorkspace();
  try {
    console.log(
      `  workspace: ${AREAS * MODULES_PER_AREA} files, ${OPEN_TABS} open as tabs; typing a function that calls four imported modules`,
    );
    const off = await replay(root, false);
    const on = await replay(root, true);
    const p50 = quantile(on.contextMs, 0.5);
    const p99 = quantile(on.contextMs, 0.99);
    console.log(
      `  context selection over ${on.contextMs.length} requests: p50 ${p50.toFixed(3)} ms, p99 ${p99.toFixed(3)} ms; ` +
        `chosen anew ${on.recomputedMs.length} times (p50 ${quantile(on.recomputedMs, 0.5).toFixed(2)} ms, ` +
        `the first: ${on.recomputedMs[0]?.toFixed(2)} ms)`,
    );
    console.log(
      `  prompt cache hits, the same session: context off ${(100 * off.hitRatio).toFixed(1)} %, on ${(100 * on.hitRatio).toFixed(1)} %; ` +
        `mean estimated tokens per request off ${off.promptTokens.toFixed(0)}, on ${on.promptTokens.toFixed(0)} (${on.requests} requests)`,
    );
    report("context selection p50 (50 tabs, 2000 files)", `${p50.toFixed(3)} ms`, "< 1 ms", p50 < 1);
    report("context selection p99, and the first in a file", `${p99.toFixed(1)} ms`, "—", undefined);
    report(
      "prompt cache hits with context on",
      `${(100 * on.hitRatio).toFixed(1)} %`,
      "≥ 90 %",
      on.hitRatio >= 0.9,
    );
    await style(root);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
  console.log("  the workspace symbol index:");
  await symbolIndexBench();
}
