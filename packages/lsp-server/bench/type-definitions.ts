// What asking the editor for the receiver's type (`infill/typeDefinitions`) costs on the invoked path: a member
// access typed at a new place each time (`s3.│` at the end of a line of a 2,000-line file), a completion invoked
// there, through the built server, with a client that does not offer the request and with a scripted one that
// answers it at once (as the Neovim plugin does from tsserver, minus tsserver's own time), side by side; then the
// same receivers asked again (the answers from memory). Each arm's requests are sent straight to a fresh sim too, so
// that what the server adds is measured, not the sim's time on a longer prompt.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { Doc, directCall, launch, type Position, quantile, report, simProcess } from "./harness.js";
import { random } from "./jump-project.js";

const SERVICES = 12;
const LINES = 2_000;
/** Completions measured per arm, after {@link WARMUP} more. */
const N = Number(process.env.BENCH_TYPEDEFS ?? 200);
const WARMUP = 20;
/** The first code point of the second character typed at a place (`repeat`): after every first one. */
const SECOND = 0x400;
/** The line of `export class Service<k>` in its file (0-based). */
const CLASS_LINE = 1;

function serviceFile(k: number): string {
  const methods = Array.from(
    { length: 8 },
    (_, m) =>
      `  /** Step ${m} of service ${k}. */\n  async step${m}(input: string, retries = ${m}): Promise<number> {\n    return input.length * ${k + m} + retries;\n  }\n`,
  );
  return `/** Service ${k}. */\nexport class Service${k} {\n  constructor(private readonly name: string) {}\n\n${methods.join("\n")}}\n`;
}

function factoryFile(): string {
  const imports = Array.from(
    { length: SERVICES },
    (_, k) => `import { Service${k} } from "./service${k}.js";`,
  );
  const makers = Array.from(
    { length: SERVICES },
    (_, k) => `export function make${k}(name: string): Service${k} {\n  return new Service${k}(name);\n}\n`,
  );
  return `${imports.join("\n")}\n\n${makers.join("\n")}`;
}

/** The big file: functions that each make every service, then use them (`s<k>` holds a `Service<k>`). */
function appFile(): string {
  const lines = [
    `import { ${Array.from({ length: SERVICES }, (_, k) => `make${k}`).join(", ")} } from "./factory.js";`,
    "",
  ];
  for (let f = 0; lines.length < LINES; f++) {
    lines.push(`export async function run${f}(input: string): Promise<number> {`);
    for (let k = 0; k < SERVICES; k++) lines.push(`  const s${k} = make${k}("run${f}");`);
    for (let k = 0; k < SERVICES; k++) lines.push(`  const v${k} = await s${k}.step${(f + k) % 8}(input);`);
    lines.push(`  return v0 + v${SERVICES - 1};`, "}", "");
  }
  return lines.slice(0, LINES).join("\n");
}

interface Arm {
  lsp: number[];
  direct: number[];
  /** Choosing the context inside the server ($/infill/metrics), which includes the wait for the answer, ms. */
  contextMs: number[];
  asked: number;
  measured: number;
  /** The questions to the client, asked → answered, as the server measured them, ms. */
  roundTrips: number[];
  /** Requests whose prompt carried the receiver's class. */
  withType: number;
}

/**
 * One arm: `offer` the request or not; `repeat`: each place asked twice, a character typed in between (the second
 * request, the one measured, at the same receiver: its answer from memory).
 */
async function arm(root: string, offer: boolean, repeat: boolean): Promise<Arm> {
  const sim = await simProcess();
  const server = await launch(
    sim,
    // Debug lines say how long each question to the client took (the server's own measure of the round trip).
    { debounceMs: 0, metrics: true, logLevel: "debug" },
    root,
    offer ? { experimental: { infill: { typeDefinitions: true } } } : {},
  );
  const serviceUri = (k: number) => pathToFileURL(join(root, `src/service${k}.ts`)).href;
  let current = 0;
  let asked = 0;
  server.rpc.onRequest("infill/typeDefinitions", (params: { positions: Position[] }) => {
    asked++;
    return params.positions.map(() => ({
      uri: serviceUri(current),
      range: { start: { line: CLASS_LINE, character: 13 }, end: { line: CLASS_LINE, character: 21 } },
    }));
  });
  const contextMs: number[] = [];
  server.rpc.onNotification("$/infill/metrics", (m: { context: { ms: number } | null }) => {
    if (m.context) contextMs.push(m.context.ms);
  });
  const roundTrips: number[] = [];
  server.rpc.onNotification("window/logMessage", (m: { message: string }) => {
    const asked = /^type definitions at .* \((\d+(?:\.\d+)?) ms\)$/.exec(m.message);
    if (asked) roundTrips.push(Number(asked[1]));
  });
  const text = appFile();
  const lines = text.split("\n");
  const doc = await Doc.open(server, pathToFileURL(join(root, "src/app.ts")).href, text);
  // The file has been open a while: its parse and its imports' are ready.
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  const landing = lines.flatMap((line, i) => (/^ {2}const v\d+ = /.test(line) ? [i] : []));
  const next = random(24);
  const lsp: number[] = [];
  let measured = 0;
  for (let i = 0; i < WARMUP + N; i++) {
    const line = landing[Math.floor(next() * landing.length)]!;
    current = Math.floor(next() * SERVICES);
    const end = { line, character: lines[line]!.length };
    // A member access, and a character nobody suggested before (so that every request goes upstream).
    let at = await doc.insert(end, ` s${current}.${String.fromCodePoint(0x100 + (i % 300))}`);
    if (repeat) {
      await doc.inline(at, "invoked");
      at = await doc.insert(at, String.fromCodePoint(SECOND + (i % 300)));
    }
    const t = performance.now();
    await doc.inline(at, "invoked");
    if (i >= WARMUP) {
      lsp.push(performance.now() - t);
      measured++;
    }
    await doc.replace(end, at, "");
  }
  await server.close();
  const bodies = (await sim.bodies()) as Array<{ prompt: string }>;
  await sim.close();
  // The measured requests' bodies (with `repeat`, the second of each place), straight to a fresh sim.
  const mine = repeat
    ? bodies.filter((b) => (b.prompt.codePointAt(b.prompt.length - 1) ?? 0) >= SECOND)
    : bodies;
  const fresh = await simProcess();
  const direct: number[] = [];
  for (const [i, body] of mine.entries()) {
    const ms = await directCall(fresh.url, body);
    if (i >= WARMUP) direct.push(ms);
  }
  await fresh.close();
  return {
    lsp,
    direct,
    contextMs: contextMs.slice(repeat ? 2 * WARMUP : WARMUP).filter((_, i) => !repeat || i % 2 === 1),
    measured,
    roundTrips: roundTrips.slice(WARMUP),
    asked,
    withType: mine.slice(WARMUP).filter((b) => /export class Service\d+ \{/.test(b.prompt)).length,
  };
}

const ms = (value: number) => `${value.toFixed(2)} ms`;

/** Run the benchmark; figures go to the shared report. */
export async function typeDefinitionsBench(): Promise<void> {
  const root = mkdtempSync(join(tmpdir(), "infill-bench-typedefs-"));
  try {
    const files: Array<[string, string]> = [
      ["package.json", '{ "name": "services", "type": "module" }\n'],
      ["src/factory.ts", factoryFile()],
      ...Array.from({ length: SERVICES }, (_, k): [string, string] => [`src/service${k}.ts`, serviceFile(k)]),
    ];
    for (const [path, text] of files) {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), text);
    }
    const arms: Array<[string, Arm]> = [
      ["not offered", await arm(root, false, false)],
      ["answered at once", await arm(root, true, false)],
      ["answered, asked again (from memory)", await arm(root, true, true)],
    ];
    const overhead = (a: Arm, q: number) => quantile(a.lsp, q) - quantile(a.direct, q);
    for (const [name, a] of arms) {
      console.log(
        `  ${name.padEnd(36)} ${a.lsp.length} invoked completions at \`s<k>.\`: through infill-lsp p50 ${ms(quantile(a.lsp, 0.5))} / p99 ${ms(quantile(a.lsp, 0.99))}, ` +
          `direct ${ms(quantile(a.direct, 0.5))} / ${ms(quantile(a.direct, 0.99))}; overhead p50 ${ms(overhead(a, 0.5))}, p99 ${ms(overhead(a, 0.99))}; ` +
          `context p50 ${ms(quantile(a.contextMs, 0.5))}, p99 ${ms(quantile(a.contextMs, 0.99))}; ` +
          `infill/typeDefinitions requests ${a.asked}; prompts with the receiver's class ${a.withType} of ${a.lsp.length}`,
      );
    }
    const [off, on, memory] = arms.map(([, a]) => a) as [Arm, Arm, Arm];
    // The server's own account (context chosen, the wait for the answer in it) is steadier than the end-to-end
    // difference on a loaded machine; both are printed.
    const choosing = (a: Arm, q: number) => quantile(a.contextMs, q) - quantile(off.contextMs, q);
    const more = (a: Arm, q: number) => overhead(a, q) - overhead(off, q);
    console.log(
      `  more than not offered: answered at once p50 ${ms(more(on, 0.5))} / p99 ${ms(more(on, 0.99))} end to end, ` +
        `${ms(choosing(on, 0.5))} / ${ms(choosing(on, 0.99))} choosing the context, of which the question to the client ` +
        `${ms(quantile(on.roundTrips, 0.5))} / ${ms(quantile(on.roundTrips, 0.99))}; ` +
        `from memory p50 ${ms(more(memory, 0.5))} / p99 ${ms(more(memory, 0.99))} end to end, ` +
        `${ms(choosing(memory, 0.5))} / ${ms(choosing(memory, 0.99))} choosing`,
    );
    report(
      "infill/typeDefinitions answered at once: context choice, more than not offered (p50)",
      ms(choosing(on, 0.5)),
      "one round trip to the client",
    );
    report(
      "infill/typeDefinitions from memory (the member typed): overhead more than not offered (p50)",
      ms(more(memory, 0.5)),
      "< 1 ms",
      more(memory, 0.5) < 1,
    );
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
