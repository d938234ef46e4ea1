// Streaming ghost text: when the first line of a block reaches the editor, and when the whole block does, with
// partial results on and off, against a sim that takes 20 ms a token; next to a client streaming the same request
// straight from the sim (the first line's own generation time).
import { type CompletionRequest, FimClient } from "@infill/core";
import { cpuOf, Doc, launch, type Position, quantile, report, type Server, simProcess } from "./harness.js";

const TOKEN_MS = 20;
const ROUNDS = Number(process.env.BENCH_PARTIAL_ROUNDS ?? 9);
const PARTIALS = { experimental: { infill: { partialResults: true } } };

// `add`'s body, which @infill/sim copies into `sub` after its opening brace: a block of 10 lines with the closer.
const BODY = Array.from(
  { length: 8 },
  (_, i) => `  const s${i + 1} = ${i === 0 ? "a + b" : `s${i} * ${i + 1}`};`,
);
const HEADER = "function sub(a: number, b: number): number {";
const TEXT = `function add(a: number, b: number): number {\n${BODY.join("\n")}\n  return s8;\n}\n\n${HEADER}\n`;
const BLOCK = `\n${BODY.join("\n")}\n  return s8;\n}`;
const CURSOR: Position = { line: BODY.length + 4, character: HEADER.length };

interface Timing {
  /** ms from the request to its first line with something on it. */
  first: number;
  /** ms from the request to the whole block. */
  whole: number;
}

/** One request through a server: its first line comes with a partial result (when `token` asks) or the answer. */
async function throughServer(server: Server, round: number, token?: string): Promise<Timing> {
  const doc = await Doc.open(server, `file:///partials-${round}-${token ?? "off"}.ts`, TEXT);
  let first: number | undefined;
  const t0 = performance.now();
  const listening = server.rpc.onNotification(
    "$/infill/partial",
    (p: { token: string; items: Array<{ insertText: string }> }) => {
      if (p.token === token && first === undefined && /\S/.test(p.items[0]?.insertText ?? "")) {
        first = performance.now() - t0;
      }
    },
  );
  const answer = await doc.inline(
    CURSOR,
    "automatic",
    token === undefined ? {} : { partialResultToken: token },
  );
  const whole = performance.now() - t0;
  listening.dispose();
  if (answer.items[0]?.insertText !== BLOCK) {
    throw new Error(`unexpected suggestion: ${JSON.stringify(answer.items[0]?.insertText)}`);
  }
  if (token !== undefined && first === undefined) throw new Error("no partial result arrived");
  return { first: first ?? whole, whole };
}

/** The same upstream request streamed straight from the sim: when its first line, then all of it, arrived. */
async function direct(client: FimClient, body: CompletionRequest): Promise<Timing> {
  let text = "";
  let first: number | undefined;
  const t0 = performance.now();
  for await (const chunk of client.stream(body)) {
    text += chunk.choices[0]?.text ?? "";
    if (first === undefined && /\S[^\n]*\n/.test(text)) first = performance.now() - t0;
  }
  return { first: first ?? Number.NaN, whole: performance.now() - t0 };
}

/** Partial results on vs off, side by side: each round runs both servers and the direct stream at once. */
export async function partialsBench(): Promise<void> {
  const sim = await simProcess({ tokenMs: TOKEN_MS });
  // Context off: every request is then the very same, whatever else the servers have open.
  const settings = { debounceMs: 0, context: { enabled: false } };
  const on = await launch(sim, settings, undefined, PARTIALS);
  const off = await launch(sim, settings);
  const client = new FimClient({ baseURL: sim.url, apiKey: "sk-bench" });
  // A first round loads each server's HTTP client; it also gives the request every round repeats.
  await Promise.all([throughServer(on, -1, "warm-up"), throughServer(off, -1)]);
  const body = (await sim.bodies())[0] as CompletionRequest;
  await direct(client, body);

  // At once, so that the three see the same sim, token for token (its timers fire together).
  const timings = { on: [] as Timing[], off: [] as Timing[], direct: [] as Timing[] };
  const cpu0 = { on: cpuOf(on.pid), off: cpuOf(off.pid) };
  for (let round = 0; round < ROUNDS; round++) {
    const [a, b, c] = await Promise.all([
      throughServer(on, round, `r${round}`),
      throughServer(off, round),
      direct(client, body),
    ]);
    timings.on.push(a);
    timings.off.push(b);
    timings.direct.push(c);
  }
  const cpu = { on: (cpuOf(on.pid) - cpu0.on) / ROUNDS, off: (cpuOf(off.pid) - cpu0.off) / ROUNDS };
  const bodies = (await sim.bodies()) as CompletionRequest[];
  if (bodies.some((b) => JSON.stringify(b) !== JSON.stringify(body))) {
    throw new Error("the servers sent different requests: the comparison would not hold");
  }
  await Promise.all([on.close(), off.close()]);
  await sim.close();

  const p50 = (values: number[]) => quantile(values, 0.5);
  const ms = (value: number) => `${value.toFixed(0)} ms`;
  const column = (list: Timing[], key: keyof Timing) => ms(p50(list.map((t) => t[key])));
  const row = (name: string, list: Timing[]) =>
    `    ${name.padEnd(28)}${column(list, "first").padStart(10)}   ${column(list, "whole").padStart(11)}`;
  const lines = BLOCK.split("\n").filter((line) => line.trim() !== "").length;
  console.log(
    [
      `  a ${lines}-line block, ${TOKEN_MS} ms a token; p50 of ${ROUNDS} rounds, each running the three at once:`,
      `    ${"".padEnd(28)}first line   whole block`,
      row("through infill, partials on", timings.on),
      row("through infill, partials off", timings.off),
      row("the sim, streamed directly", timings.direct),
      `  server CPU per block: partials on ${cpu.on.toFixed(1)} ms, off ${cpu.off.toFixed(1)} ms`,
    ].join("\n"),
  );
  // Per round: how long after its own generation (the direct stream's) the first line reached the editor.
  const lag = Math.max(...timings.on.map((t, i) => t.first - timings.direct[i]!.first));
  report("first line of a block, after it was generated (worst round)", ms(lag), "≤ 50 ms", lag <= 50);
  const firstOn = p50(timings.on.map((t) => t.first));
  const firstOff = p50(timings.off.map((t) => t.first));
  report(
    "first line of a block, partials on vs off (p50)",
    `${ms(firstOn)} vs ${ms(firstOff)}`,
    "earlier with partials",
    firstOn < firstOff,
  );
  // Paired by round; finer than a token the sim's timers do not resolve.
  const later = p50(timings.on.map((t, i) => t.whole - timings.off[i]!.whole));
  report(
    "whole block, partials on minus off (p50 of rounds)",
    `${Math.round(later) > 0 ? "+" : ""}${Math.round(later)} ms`,
    `≤ 0 (± ${TOKEN_MS} ms, a token)`,
    later <= TOKEN_MS,
  );
}
