// The next suggestion after an accept: a replayed session in which the user writes a file by accepting each
// suggestion (whole, or line by line), hot streak and prefetch on vs off, through the built server against a sim
// that writes on at the end of a file. Every figure is measured in this run.
import { startSim } from "@infill/sim";
import { Doc, launch, type Position, quantile, report } from "./harness.js";

/** What the user writes: a module the file already holds once (the sim copies it, as a model that knows it). */
const MODULE = [
  "export function add(a: number, b: number): number {",
  "  return a + b;",
  "}",
  "",
  "export function sub(a: number, b: number): number {",
  "  return a - b;",
  "}",
  "",
  "export function mul(a: number, b: number): number {",
  "  const product = a * b;",
  "  return product;",
  "}",
  "",
  "export function div(a: number, b: number): number {",
  "  if (b === 0) throw new RangeError('division by zero');",
  "  return a / b;",
  "}",
  "",
  "export function mod(a: number, b: number): number {",
  "  return ((a % b) + b) % b;",
  "}",
  "",
  "export function clamp(x: number, lo: number, hi: number): number {",
  "  return Math.min(hi, Math.max(lo, x));",
  "}",
].join("\n");
/** How long the user looks at a suggestion before accepting it, in ms. */
const READING_MS = 300;
/** The first line is typed; the rest is what the suggestions should write. */
const FIRST = `${MODULE.split("\n")[0]!}\n`;
const PREFIX = `${MODULE}\n\n// the same module, written again\n`;

interface SessionFigures {
  /** Suggestions shown right after an accept, and how many of those came from memory. */
  afterAccept: number;
  fromMemory: number;
  /** Accept → next suggestion shown, ms. */
  latencies: number[];
  upstreamRequests: number;
  outputTokens: number;
  acceptedChars: number;
  /** Keys the user typed where no suggestion was right. */
  typed: number;
}

/** What a line-by-line accept takes of a suggestion: up to the end of its first line with something on it. */
function firstLineOf(text: string): string {
  const content = text.search(/\S/);
  const end = content === -1 ? -1 : text.indexOf("\n", content);
  return end === -1 ? text : text.slice(0, end);
}

async function session(on: boolean, mode: "whole" | "line"): Promise<SessionFigures> {
  const sim = await startSim({ writeOn: true, latencyMs: 250, tokenMs: 4, keepRequests: 10_000 });
  const server = await launch(sim, {
    metrics: true,
    context: { enabled: false },
    ...(on ? {} : { hotStreak: { maxTokens: 0 }, prefetch: false }),
  });
  const sources: string[] = [];
  server.rpc.onNotification("$/infill/metrics", (m: { source: string }) => {
    sources.push(m.source);
  });
  const doc = await Doc.open(server, "file:///again.ts", PREFIX);
  let at: Position = { line: PREFIX.split("\n").length - 1, character: 0 };
  at = await doc.insert(at, FIRST);
  let remaining = MODULE.slice(FIRST.length);
  const figures: SessionFigures = {
    afterAccept: 0,
    fromMemory: 0,
    latencies: [],
    upstreamRequests: 0,
    outputTokens: 0,
    acceptedChars: 0,
    typed: 0,
  };
  let justAccepted = false;
  let acceptedAt = 0;
  for (let step = 0; remaining.trim() !== "" && step < 400; step++) {
    const shownBefore = sources.length;
    const list = await doc.inline(at);
    const text = list.items[0]?.insertText;
    if (justAccepted && text) {
      figures.latencies.push(performance.now() - acceptedAt);
      figures.afterAccept++;
      // The metrics of this answer arrive with it (one write per turn).
      await waitFor(() => sources.length > shownBefore);
      if (sources.at(-1) === "memory") figures.fromMemory++;
    }
    justAccepted = false;
    const take = text && (mode === "whole" ? text : firstLineOf(text));
    if (take && remaining.startsWith(take)) {
      // The user reads the suggestion before taking it.
      await pause(READING_MS);
      at = await doc.insert(at, take);
      remaining = remaining.slice(take.length);
      figures.acceptedChars += take.length;
      justAccepted = true;
      acceptedAt = performance.now();
    } else {
      // No suggestion, or not what the user wants: they type the next character.
      at = await doc.insert(at, remaining[0]!);
      remaining = remaining.slice(1);
      figures.typed++;
      await pause(40);
    }
  }
  await server.close();
  figures.upstreamRequests = sim.requests.length;
  figures.outputTokens = sim.requests.reduce((sum, r) => sum + r.outputTokens, 0);
  await sim.close();
  return figures;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function waitFor(condition: () => boolean): Promise<void> {
  const deadline = performance.now() + 2_000;
  while (!condition() && performance.now() < deadline) await pause(1);
}

export async function hotStreakBench(): Promise<void> {
  console.log(
    `  the user writes a 25-line module by accepting each suggestion after reading it for ${READING_MS} ms (250 ms to the first token, 4 ms a token):`,
  );
  for (const mode of ["whole", "line"] as const) {
    const off = await session(false, mode);
    const on = await session(true, mode);
    const row = (name: string, f: SessionFigures) => {
      const share = f.afterAccept === 0 ? 0 : f.fromMemory / f.afterAccept;
      console.log(
        `    ${mode.padEnd(5)} ${name}: ${f.afterAccept} suggestions after an accept, ${(100 * share).toFixed(0)} % from memory; ` +
          `accept → next p50 ${quantile(f.latencies, 0.5).toFixed(1)} ms, p90 ${quantile(f.latencies, 0.9).toFixed(1)} ms; ` +
          `${f.upstreamRequests} upstream requests, ${(f.outputTokens / Math.max(1, f.acceptedChars)).toFixed(3)} output tokens per accepted character ` +
          `(${f.acceptedChars} accepted, ${f.typed} typed)`,
      );
      return share;
    };
    row("off", off);
    const share = row("on ", on);
    const p50 = quantile(on.latencies, 0.5);
    const ratio =
      on.outputTokens / Math.max(1, on.acceptedChars) / (off.outputTokens / Math.max(1, off.acceptedChars));
    report(
      `hot streak (${mode}): next suggestion from memory after an accept`,
      `${(100 * share).toFixed(0)} %`,
      "≥ 50 %",
      share >= 0.5,
    );
    report(`hot streak (${mode}): accept → next suggestion p50`, `${p50.toFixed(1)} ms`, "< 30 ms", p50 < 30);
    report(
      `hot streak (${mode}): output tokens per accepted character, on / off`,
      `${ratio.toFixed(2)}×`,
      "≤ 1.3×",
      ratio <= 1.3,
    );
  }
}
