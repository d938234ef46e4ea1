// Shards of one batch against @infill/sim over real HTTP: runBatch({ shard }) in this process, and
// `infill batch --shard K/N` as child processes, joined by `infill batch merge`.
import { mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type Sim, startSim } from "@infill/sim";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type BatchResult, FimClient, runBatch } from "../src/index.js";
import { type Run, startCli } from "./support/cli-process.js";

const packageDir = fileURLToPath(new URL("..", import.meta.url));
// Built by the project's global setup (test/support/build-cli.ts).
const cliPath = join(packageDir, "dist", "cli.js");
const KEY = "sk-batch-shards-key-1234";

let sim: Sim | undefined;
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "infill-batch-shards-"));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

afterEach(async () => {
  await sim?.close();
  sim = undefined;
});

/**
 * Records with a prompt of their own each (so each id has its own answer), and a few bad ones: no id, not an
 * object, a field out of bounds, and a duplicate id when asked (the CLI refuses a whole input with one).
 */
function dataset(count: number, duplicate: boolean): unknown[] {
  const records: unknown[] = Array.from({ length: count }, (_, i) => ({
    id: i % 3 === 0 ? i : `r${i}`,
    prompt: `def f${i}(a, b):\n    return a + b\n\ndef g${i}(a, b):\n    `,
    suffix: "\n",
    max_tokens: 8,
  }));
  records.splice(5, 0, { prompt: "no id" }, "not an object");
  if (duplicate) records.splice(7, 0, { id: "r1", prompt: "a duplicate" });
  records.push({ id: "too-long", prompt: "x", max_tokens: 99_999 });
  return records;
}

/** Results by id and line (a duplicate's failure has the id of the record it repeats), latency left out. */
function byKey(results: BatchResult[]): Map<string, unknown> {
  const map = new Map<string, unknown>();
  for (const result of results) {
    const key = JSON.stringify([result.id, "line" in result ? result.line : null]);
    expect(map.has(key), `${key} twice`).toBe(false);
    const { latency_ms: _latency, ...rest } = result as BatchResult & { latency_ms?: number };
    map.set(key, rest);
  }
  return map;
}

async function collect(run: AsyncIterable<BatchResult>): Promise<BatchResult[]> {
  const results: BatchResult[] = [];
  for await (const result of run) results.push(result);
  return results;
}

describe("runBatch({ shard })", () => {
  it("4 shards give between them exactly what one run gives, each record once", async () => {
    sim = await startSim({ apiKey: KEY, keepRequests: 0 });
    const client = new FimClient({ apiKey: KEY, baseURL: sim.url });
    const records = dataset(200, true);
    const whole = byKey(await collect(runBatch(records, { client, concurrency: 16 })));
    const shards = await Promise.all(
      [0, 1, 2, 3].map((index) =>
        collect(runBatch(records, { client, concurrency: 4, shard: { index, count: 4 } })),
      ),
    );
    for (const results of shards) expect(results.length).toBeGreaterThan(20);
    const merged = byKey(shards.flat());
    expect(merged.size).toBe(whole.size);
    expect(merged).toEqual(whole);
    // The bad records are failures in exactly one shard, as in the one run.
    expect(whole.get("[null,6]")).toMatchObject({ error: { message: "line 6: the record has no id" } });
    expect(whole.get('["r1",null]')).toMatchObject({ text: expect.any(String) });
    expect([...whole.values()]).toContainEqual(
      expect.objectContaining({
        id: "r1",
        error: expect.objectContaining({ message: expect.stringContaining("duplicate") }),
      }),
    );
  });

  it("refuses a bad shard before anything is sent", () => {
    expect(() =>
      runBatch([], { shard: { index: 2, count: 2 }, client: new FimClient({ apiKey: KEY }) }),
    ).toThrow(/shard\.index must be an integer from 0 to 1/);
  });
});

function infill(args: string[], env: Record<string, string> = {}) {
  return startCli(cliPath, ["batch", ...args, "--base-url", sim!.url], { DEEPSEEK_API_KEY: KEY, ...env });
}

// biome-ignore lint/suspicious/noExplicitAny: records are checked field by field
async function results(path: string): Promise<any[]> {
  const text = await readFile(path, "utf8");
  return text
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line));
}

function withoutLatency(list: Array<Record<string, unknown>>): Array<Record<string, unknown>> {
  return list
    .map(({ latency_ms: _latency, ...rest }) => rest)
    .sort((a, b) => JSON.stringify([a.id, a.line]).localeCompare(JSON.stringify([b.id, b.line])));
}

describe("infill batch --shard", () => {
  it("4 shards, one killed with -9 and run again alone, merge into what one run gives", async () => {
    sim = await startSim({ apiKey: KEY, latencyMs: 5, keepRequests: 0 });
    const lines = dataset(400, false).map((record) => JSON.stringify(record));
    lines.splice(9, 0, "{not json");
    const input = join(dir, "in.jsonl");
    await writeFile(input, `${lines.join("\n")}\n`);
    const common = ["--no-progress", "--concurrency", "4", "--max-concurrency", "4"];

    const single = await infill([input, "-o", join(dir, "single.jsonl"), ...common]).done;
    expect(single.code).toBe(1); // the bad lines are error records

    const outputs = [0, 1, 2, 3].map((k) => join(dir, `shard-${k}.jsonl`));
    // Shard 2 is killed once it has written some of its results, then run again on its own.
    const killed = infill([input, "-o", outputs[2] as string, "--shard", "auto/4", ...common], {
      JOB_COMPLETION_INDEX: "2",
    });
    const deadline = performance.now() + 15_000;
    while ((await stat(outputs[2] as string).catch(() => ({ size: 0 }))).size < 2_000) {
      if (performance.now() > deadline) throw new Error("shard 2 wrote nothing within 15 s");
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    killed.child.kill("SIGKILL");
    expect((await killed.done).code).toBe(null);
    const runs = await Promise.all(
      [0, 1, 3].map((k) => infill([input, "-o", outputs[k] as string, "--shard", `${k}/4`, ...common]).done),
    );
    for (const run of runs) expect(run.stderr).not.toContain("infill:");

    const early = await merge([...outputs, "--input", input]);
    expect(early.code).toBe(1);
    expect(early.stderr).toContain("has no result (its shard has not finished: run it again)");

    const again = await infill([input, "-o", outputs[2] as string, "--shard", "2/4", "--json", ...common])
      .done;
    const summary = JSON.parse(again.stdout);
    expect(summary).toMatchObject({ shard: { index: 2, count: 4 } });
    // It went on from its output rather than from the start.
    expect(summary.skipped).toBeGreaterThan(0);

    const all = join(dir, "all.jsonl");
    const merged = await merge([...outputs, "--input", input, "-o", all]);
    expect(merged.stderr).toContain(`results from 4 files (every record of ${input})`);
    expect(merged.code).toBe(0);
    const one = await results(join(dir, "single.jsonl"));
    expect(withoutLatency(await results(all))).toEqual(withoutLatency(one));
    expect(one.length).toBe(400 + 4);
  });

  it("refuses a bad --shard, naming it, before anything is sent", async () => {
    sim = await startSim({ apiKey: KEY });
    const input = join(dir, "tiny.jsonl");
    await writeFile(input, `${JSON.stringify({ id: 1, prompt: "x" })}\n`);
    const cases: Array<[string[], Record<string, string>, string]> = [
      [["--shard", "4/4"], {}, "infill: --shard 4/4: K must be below N (shards are numbered 0 to 3)\n"],
      [["--shard", "auto/4"], {}, "infill: --shard auto/4: JOB_COMPLETION_INDEX is not set"],
      [["--shard", "2"], {}, "infill: --shard must be K/N"],
    ];
    for (const [args, env, message] of cases) {
      const run: Run = await infill([input, ...args], env).done;
      expect(run.code).toBe(2);
      expect(run.stderr).toContain(message);
    }
    expect(sim.requests).toHaveLength(0);
  });
});

function merge(args: string[]): Promise<Run> {
  return startCli(cliPath, ["batch", "merge", ...args], {}).done;
}
