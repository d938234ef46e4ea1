// What the benchmarks share: the built server launched as an editor does, documents edited over LSP, the report.
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { createInterface } from "node:readline";
import { fileURLToPath, pathToFileURL } from "node:url";
import { type SimOptions, startSim } from "@infill/sim";
import { request } from "undici";
import {
  createMessageConnection,
  type MessageConnection,
  StreamMessageReader,
  StreamMessageWriter,
} from "vscode-languageserver-protocol/node";

/** The server the bench runs: the built one, or another build (`BENCH_BIN`, e.g. an earlier commit's, to compare). */
export const BIN = process.env.BENCH_BIN ?? fileURLToPath(new URL("../dist/infill-lsp.js", import.meta.url));
export type Position = { line: number; character: number };
type Row = { name: string; value: string; goal: string; ok: boolean | undefined };
const rows: Row[] = [];

/** Print the summary of every figure reported, with its goal. */
export function printSummary(): void {
  console.log("\nsummary");
  const width = Math.max(...rows.map((r) => r.name.length));
  for (const row of rows) {
    const mark = row.ok === undefined ? " " : row.ok ? "✓" : "✗";
    console.log(`${mark} ${row.name.padEnd(width)}  ${row.value.padStart(10)}   goal ${row.goal}`);
  }
}
/** Record a figure for the summary (and print it now); `ok` says whether it meets its goal. */
export const report = (name: string, value: string, goal: string, ok?: boolean) => {
  rows.push({ name, value, goal, ok });
  console.log(`  ${name}: ${value}`);
};
/** The `q` quantile (0–1) of some values, by the nearest-rank method. */
export const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
};

/** CPU time (user + system) of a process, in ms, from /proc: what it spends, whatever the scheduler does. */
export function cpuOf(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

/**
 * Send one request body straight to a sim, as any client does at least (serialise it, send it, read the whole
 * answer); returns the time it took, in ms.
 */
export async function directCall(url: string, body: unknown): Promise<number> {
  const t = performance.now();
  const res = await request(`${url}/completions`, {
    method: "POST",
    body: JSON.stringify(body),
    headers: { "content-type": "application/json", authorization: "Bearer sk-bench" },
  });
  const text = await res.body.text();
  if (!text.includes('"object":"text_completion"'))
    throw new Error(`unexpected answer: ${text.slice(0, 200)}`);
  return performance.now() - t;
}

/** A server launched by {@link launch}. */
export interface Server {
  rpc: MessageConnection;
  pid: number;
  startMs: number;
  close(): Promise<void>;
}

/**
 * `@infill/sim` in its own process, so that neither side of a comparison shares an event loop with it: `url`,
 * the bodies it received (all, or since last asked), and `close`.
 */
export async function simProcess(options: SimOptions = {}) {
  const child = spawn(
    process.execPath,
    // Relative to the bundle in .bench/, a sibling of bench/ (see run.mjs), not to this source file.
    [fileURLToPath(new URL("./sim-process.mjs", import.meta.url)), JSON.stringify(options)],
    { stdio: ["pipe", "pipe", "inherit"] },
  );
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const next = async () => (await lines.next()).value as string;
  const url = await next();
  return {
    url,
    async bodies(): Promise<unknown[]> {
      child.stdin.write("dump\n");
      return JSON.parse(await next());
    },
    /** The bodies it received since this was last asked. */
    async since(): Promise<unknown[]> {
      child.stdin.write("since\n");
      return JSON.parse(await next());
    },
    close() {
      child.stdin.end();
      return new Promise((resolve) => child.once("exit", resolve));
    },
  };
}

/**
 * Start the built server over stdio against `sim`, initialized with `initializationOptions`, the client
 * `capabilities` (default none) and, when given, a workspace folder (absolute path).
 */
export async function launch(
  sim: { url: string },
  initializationOptions: Record<string, unknown>,
  workspace?: string,
  capabilities: Record<string, unknown> = {},
  /** The server to run: the built one by default (another build's, to compare with). */
  bin: string = BIN,
  /** Node flags to run it with (then its shebang's are not applied); default `BENCH_NODE_ARGS`, or none. */
  nodeArgs: string[] | undefined = process.env.BENCH_NODE_ARGS?.split(" ").filter(Boolean),
): Promise<Server> {
  const t0 = performance.now();
  // Run the file itself, as an editor does, so that the Node flags of its shebang apply.
  const child = spawn(
    nodeArgs ? process.execPath : bin,
    nodeArgs ? [...nodeArgs, bin, "--stdio"] : ["--stdio"],
    {
      env: { PATH: process.env.PATH, DEEPSEEK_API_KEY: "sk-bench", INFILL_BASE_URL: sim.url },
      stdio: ["pipe", "pipe", "inherit"],
    },
  );
  const rpc = createMessageConnection(
    new StreamMessageReader(child.stdout),
    new StreamMessageWriter(child.stdin),
  );
  rpc.onRequest(() => null);
  rpc.listen();
  const folder = workspace === undefined ? undefined : pathToFileURL(workspace).href;
  await rpc.sendRequest("initialize", {
    processId: null,
    rootUri: folder ?? null,
    ...(folder ? { workspaceFolders: [{ uri: folder, name: "bench" }] } : {}),
    capabilities,
    initializationOptions,
  });
  const startMs = performance.now() - t0;
  await rpc.sendNotification("initialized", {});
  return {
    rpc,
    pid: child.pid!,
    startMs,
    async close() {
      await rpc.sendRequest("shutdown");
      await rpc.sendNotification("exit");
      await new Promise((resolve) => child.once("exit", resolve));
      rpc.dispose();
    },
  };
}

/** A document open in a server, edited the way an editor does it. */
export class Doc {
  version = 1;
  constructor(
    readonly server: Server,
    readonly uri: string,
  ) {}
  static async open(server: Server, uri: string, text: string, languageId = "typescript"): Promise<Doc> {
    await server.rpc.sendNotification("textDocument/didOpen", {
      textDocument: { uri, languageId, version: 1, text },
    });
    return new Doc(server, uri);
  }
  /** Replace the text between two positions. */
  async replace(start: Position, end: Position, text: string): Promise<void> {
    this.version++;
    await this.server.rpc.sendNotification("textDocument/didChange", {
      textDocument: { uri: this.uri, version: this.version },
      contentChanges: [{ range: { start, end }, text }],
    });
  }
  async insert(at: Position, text: string): Promise<Position> {
    this.version++;
    await this.server.rpc.sendNotification("textDocument/didChange", {
      textDocument: { uri: this.uri, version: this.version },
      contentChanges: [{ range: { start: at, end: at }, text }],
    });
    const lines = text.split("\n");
    return lines.length === 1
      ? { line: at.line, character: at.character + text.length }
      : { line: at.line + lines.length - 1, character: lines.at(-1)!.length };
  }
  /**
   * Ask for ghost text, as an editor does while the user types (`automatic`) or on a key (`invoked`); `extra`
   * params go along (e.g. `partialResultToken`).
   */
  async inline(
    at: Position,
    trigger: "automatic" | "invoked" = "automatic",
    extra: Record<string, unknown> = {},
  ): Promise<{ items: Array<{ insertText: string }> }> {
    return this.server.rpc.sendRequest("textDocument/inlineCompletion", {
      textDocument: { uri: this.uri },
      position: at,
      context: { triggerKind: trigger === "invoked" ? 1 : 2 },
      ...extra,
    });
  }
}

/**
 * The prompt-cache hit ratio (hit tokens / prompt tokens) of a sequence of requests, as DeepSeek's cache accounts
 * them: replayed in order against a fresh `@infill/sim`.
 */
export async function cacheHitRatio(
  bodies: ReadonlyArray<{ prompt: string; suffix: string }>,
): Promise<number> {
  const sim = await startSim();
  let hit = 0;
  let total = 0;
  try {
    for (const body of bodies) {
      const res = await request(`${sim.url}/completions`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          model: "deepseek-v4-flash",
          prompt: body.prompt,
          suffix: body.suffix,
          max_tokens: 16,
        }),
      });
      const json = (await res.body.json()) as {
        usage: { prompt_tokens: number; prompt_cache_hit_tokens: number };
      };
      hit += json.usage.prompt_cache_hit_tokens;
      total += json.usage.prompt_tokens;
    }
  } finally {
    await sim.close();
  }
  return total === 0 ? 0 : hit / total;
}
