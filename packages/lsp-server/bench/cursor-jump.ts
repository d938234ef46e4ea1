// The cost of a completion when the cursor jumps around a 5,000-line file with repository context on: through the
// built server vs the same requests sent straight to the sim, with context on and off, for a language read by a
// hand-written parser (TypeScript) and one read by tree-sitter (Java). Every figure is measured in this run.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import {
  BIN,
  cpuOf,
  Doc,
  directCall,
  launch,
  type Position,
  quantile,
  report,
  simProcess,
} from "./harness.js";

const LINES = 5_000;
const LIBRARIES = 12;
/** Completions measured per arm, after {@link WARMUP} more. */
const N = Number(process.env.BENCH_JUMPS ?? 300);
const WARMUP = 20;

export interface Language {
  name: string;
  languageId: string;
  /** Workspace-relative path → text: the libraries the big file imports. */
  libraries(): Array<[string, string]>;
  big: { path: string; text: string };
}

/** A small deterministic PRNG (mulberry32): the same jumps in every arm and every run. */
export function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Lines of ordinary code in a function body, calling into library `lib`. */
function body(k: number, lib: number, call: (lib: number, k: number) => string, declare: string): string[] {
  return Array.from({ length: 12 }, (_, i) =>
    i % 4 === 0
      ? `    ${declare} v${i} = ${call(lib, k + i)};`
      : `    ${declare} w${i} = v${i - (i % 4)} * ${i} + offset${(k + i) % 9} - (input.length % ${i + 2});`,
  );
}

export const typescript: Language = {
  name: "TypeScript",
  languageId: "typescript",
  libraries: () =>
    Array.from({ length: LIBRARIES }, (_, lib) => [
      `src/lib/lib${lib}.ts`,
      Array.from(
        { length: 8 },
        (_, f) =>
          `/** Scores an input (library ${lib}, ${f}). */\nexport function score${lib}x${f}(input: string, weight: number): number {\n  return input.length * weight + ${lib * 8 + f};\n}\n`,
      ).join("\n"),
    ]),
  big: {
    path: "src/app/big.ts",
    text: (() => {
      const head = Array.from(
        { length: LIBRARIES },
        (_, lib) =>
          `import { ${Array.from({ length: 8 }, (_, f) => `score${lib}x${f}`).join(", ")} } from "../lib/lib${lib}.js";`,
      );
      const lines = [...head, ""];
      for (let k = 0; lines.length < LINES; k++) {
        const lib = k % LIBRARIES;
        lines.push(
          `export function step${k}(input: string, offset${k % 9}: number): number {`,
          ...Array.from({ length: 9 }, (_, o) => `  const offset${o} = ${o + k};`),
          ...body(k, lib, (l, i) => `score${l}x${i % 8}(input, ${i})`, "const"),
          `  return v0 + w1 + v4 + w5 + v8 + w9;`,
          "}",
          "",
        );
      }
      return lines.slice(0, LINES).join("\n");
    })(),
  },
};

export const java: Language = {
  name: "Java",
  languageId: "java",
  libraries: () => [
    [
      "pom.xml",
      '<project xmlns="http://maven.apache.org/POM/4.0.0">\n  <modelVersion>4.0.0</modelVersion>\n  <groupId>com.acme</groupId>\n  <artifactId>bench</artifactId>\n  <version>1</version>\n</project>\n',
    ],
    ...Array.from({ length: LIBRARIES }, (_, lib): [string, string] => [
      `src/main/java/com/acme/lib/Lib${lib}.java`,
      `package com.acme.lib;\n\n/** Scores for library ${lib}. */\npublic final class Lib${lib} {\n${Array.from(
        { length: 8 },
        (_, f) =>
          `  /** Scores an input (${f}). */\n  public static int score${f}(String input, int weight) {\n    return input.length() * weight + ${lib * 8 + f};\n  }\n`,
      ).join("\n")}}\n`,
    ]),
  ],
  big: {
    path: "src/main/java/com/acme/app/Big.java",
    text: (() => {
      const head = [
        "package com.acme.app;",
        "",
        ...Array.from({ length: LIBRARIES }, (_, lib) => `import com.acme.lib.Lib${lib};`),
        "",
        "public final class Big {",
      ];
      const lines = [...head];
      for (let k = 0; lines.length < LINES - 1; k++) {
        const lib = k % LIBRARIES;
        lines.push(
          `  public static int step${k}(String input, int offset${k % 9}) {`,
          ...Array.from({ length: 9 }, (_, o) => `    int offset${o} = ${o + k};`),
          ...body(k, lib, (l, i) => `Lib${l}.score${i % 8}(input, ${i})`, "int"),
          `    return v0 + w1 + v4 + w5 + v8 + w9;`,
          "  }",
          "",
        );
      }
      return [...lines.slice(0, LINES - 1), "}"].join("\n");
    })(),
  },
};

export function makeWorkspace(language: Language): string {
  const root = mkdtempSync(join(tmpdir(), "infill-bench-jump-"));
  for (const [path, text] of [...language.libraries(), [language.big.path, language.big.text] as const]) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

/** Lines a jump may land on: inside function bodies, where code is written. */
export function landingLines(text: string): number[] {
  return text.split("\n").flatMap((line, i) => (/^\s+(const|int) [vw]\d+ = /.test(line) ? [i] : []));
}

interface Arm {
  /** Through the server: request sent → answer read, ms. */
  lsp: number[];
  /** The same request bodies sent straight to a fresh sim, ms. */
  direct: number[];
  /** Context selection inside the server ($/infill/metrics), ms. */
  contextMs: number[];
  /** The request inside the server (received → answered), and its upstream request in it ($/infill/metrics), ms. */
  inServer: number[];
  upstream: number[];
  /** Requests whose prompt carried context from another file. */
  withContext: number;
  /** The server's CPU time (user + system) over the measured jumps, per jump, ms: what the machine's load does not inflate. */
  cpuPerJump: number;
}

/** An upstream that answers in this many ms, as a provider does at best (the first token over a network). */
const UPSTREAM_MS = 30;

async function arm(
  language: Language,
  root: string,
  contextOn: boolean,
  { bin = BIN, latencyMs = 0 }: { bin?: string; latencyMs?: number } = {},
): Promise<Arm> {
  const sim = await simProcess({ latencyMs });
  const server = await launch(
    sim,
    { debounceMs: 0, metrics: true, context: { enabled: contextOn } },
    root,
    {},
    bin,
  );
  const contextMs: number[] = [];
  const inServer: number[] = [];
  const upstream: number[] = [];
  server.rpc.onNotification(
    "$/infill/metrics",
    (m: { latencyMs: number; upstreamMs: number | null; context: { ms: number } | null }) => {
      if (m.context) contextMs.push(m.context.ms);
      inServer.push(m.latencyMs);
      if (m.upstreamMs !== null) upstream.push(m.upstreamMs);
    },
  );
  const uri = pathToFileURL(join(root, language.big.path)).href;
  const doc = await Doc.open(server, uri, language.big.text, language.languageId);
  // The file has been open a while: its parse and its imports' are ready (an editor's tabs are open long before).
  await new Promise((resolve) => setTimeout(resolve, 1_500));
  const lines = language.big.text.split("\n");
  const landing = landingLines(language.big.text);
  const next = random(17);
  const lsp: number[] = [];
  let cpuAtStart = 0;
  for (let i = 0; i < WARMUP + N; i++) {
    if (i === WARMUP) cpuAtStart = cpuOf(server.pid);
    const line = landing[Math.floor(next() * landing.length)]!;
    // A character no suggestion starts with, at the end of the line jumped to, so every request goes upstream.
    const end = { line, character: lines[line]!.length };
    const at: Position = await doc.insert(end, "\u00a7");
    const t = performance.now();
    await doc.inline(at);
    if (i >= WARMUP) lsp.push(performance.now() - t);
    // Taken out again: the file holds one unfinished line at a time, as when a user types.
    await doc.replace(end, at, "");
  }
  const cpuPerJump = (cpuOf(server.pid) - cpuAtStart) / N;
  await server.close();
  const bodies = (await sim.bodies()) as Array<{ prompt: string }>;
  await sim.close();
  const fresh = await simProcess({ latencyMs });
  const direct: number[] = [];
  for (const [i, body] of bodies.entries()) {
    const ms = await directCall(fresh.url, body);
    if (i >= WARMUP) direct.push(ms);
  }
  await fresh.close();
  const withContext = bodies.filter((b) =>
    /lib[/\\]|com\.acme\.lib|Lib\d+\.java/.test(b.prompt.slice(0, 2_000)),
  );
  return {
    lsp,
    direct,
    contextMs: contextMs.slice(WARMUP),
    inServer: inServer.slice(WARMUP),
    upstream: upstream.slice(WARMUP),
    withContext: withContext.length,
    cpuPerJump,
  };
}

const ms = (value: number) => `${value.toFixed(2)} ms`;

/** Run the cursor-jump benchmark; figures go to the shared report. */
export async function cursorJumpBench(): Promise<void> {
  for (const language of [typescript, java]) {
    const root = makeWorkspace(language);
    try {
      // BENCH_BASE_BIN: another build's server (e.g. main's, built with INFILL_BUILD_OUTDIR), context on, beside.
      const base = process.env.BENCH_BASE_BIN;
      // An instant upstream shows all the server's work on the request path; one that takes 30 ms to answer (the
      // best a provider does) shows what a user waits for, the work done while the request is in flight hidden.
      const figures: Record<string, Arm> = {
        off: await arm(language, root, false),
        ...(base ? { "on, base build": await arm(language, root, true, { bin: base }) } : {}),
        on: await arm(language, root, true),
        [`on, ${UPSTREAM_MS} ms upstream`]: await arm(language, root, true, { latencyMs: UPSTREAM_MS }),
      };
      for (const [name, f] of Object.entries(figures)) {
        const p50 = quantile(f.lsp, 0.5) - quantile(f.direct, 0.5);
        const p99 = quantile(f.lsp, 0.99) - quantile(f.direct, 0.99);
        console.log(
          `  ${language.name}, context ${name}, ${f.lsp.length} jumps: through infill-lsp p50 ${ms(quantile(f.lsp, 0.5))} / p99 ${ms(quantile(f.lsp, 0.99))}, ` +
            `direct ${ms(quantile(f.direct, 0.5))} / ${ms(quantile(f.direct, 0.99))}; overhead p50 ${ms(p50)}, p99 ${ms(p99)}` +
            (name.startsWith("on")
              ? `; context selection p50 ${ms(quantile(f.contextMs, 0.5))}, p99 ${ms(quantile(f.contextMs, 0.99))}, ` +
                `${f.withContext} of ${f.lsp.length + WARMUP} prompts carry another file`
              : ""),
        );
        const q = (values: number[]) => quantile(values, 0.5);
        console.log(`    the server's CPU time per jump (two edits and a completion): ${ms(f.cpuPerJump)}`);
        console.log(
          `    where it goes (p50s): JSON-RPC over stdio ${ms(q(f.lsp) - q(f.inServer))}, the engine around the upstream ` +
            `request ${ms(q(f.inServer) - q(f.upstream))}, the upstream request as the server makes it vs the direct call ` +
            `${ms(q(f.upstream) - q(f.direct))}`,
        );
      }
      for (const [name, upstream] of [
        ["on", "instant upstream"],
        [`on, ${UPSTREAM_MS} ms upstream`, `${UPSTREAM_MS} ms upstream`],
      ] as const) {
        const on = figures[name]!;
        const p50 = quantile(on.lsp, 0.5) - quantile(on.direct, 0.5);
        const p99 = quantile(on.lsp, 0.99) - quantile(on.direct, 0.99);
        const what = `overhead, context on, cursor jumping, 5,000-line ${language.name}, ${upstream}`;
        report(`${what} (p50)`, ms(p50), "< 1 ms", p50 < 1);
        report(`${what} (p99)`, ms(p99), "< 5 ms", p99 < 5);
      }
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  }
}
