import { mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type Sim, startSim } from "@infill/sim";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type Run, startCli } from "./support/cli-process.js";
import { until } from "./support/local-server.js";

const packageDir = fileURLToPath(new URL("..", import.meta.url));
// Built by the project's global setup (test/support/build-cli.ts).
const cliPath = join(packageDir, "dist", "cli.js");
const KEY = "sk-batch-cli-key-9876";
const PROMPT = "def add(a, b):\n    return a + b\n\ndef sub(a, b):\n    ";

let sim: Sim | undefined;
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "infill-batch-cli-"));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

afterEach(async () => {
  await sim?.close();
  sim = undefined;
});

/** Starts `infill batch ARGS` with the sim's URL and key; `stdin` is written to its standard input. */
function start(args: string[], stdin?: string) {
  return startCli(cliPath, ["batch", ...args, "--base-url", sim!.url], { DEEPSEEK_API_KEY: KEY }, stdin);
}

function infill(args: string[], stdin?: string): Promise<Run> {
  return start(args, stdin).done;
}

function lines(count: number, from = 0): string {
  return Array.from({ length: count }, (_, i) =>
    JSON.stringify({ id: `t${from + i}`, prompt: PROMPT, suffix: "\n", max_tokens: 8 }),
  )
    .map((line) => `${line}\n`)
    .join("");
}

async function file(name: string, content: string): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, content);
  return path;
}

// biome-ignore lint/suspicious/noExplicitAny: records are checked field by field
async function records(path: string): Promise<any[]> {
  const text = await readFile(path, "utf8");
  return text
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line));
}

const ids = (list: Array<{ id: unknown }>) => list.map((r) => r.id).sort();
const expectedIds = (count: number) => Array.from({ length: count }, (_, i) => `t${i}`).sort();

describe("infill batch", () => {
  it("reads stdin and writes a result a line to stdout", async () => {
    sim = await startSim({ apiKey: KEY });
    const run = await infill(["--no-progress"], lines(5));
    expect(run.code).toBe(0);
    const results = run.stdout
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(ids(results)).toEqual(expectedIds(5));
    expect(results[0]).toEqual({
      id: expect.any(String),
      text: "return a + b",
      finish_reason: "stop",
      usage: expect.objectContaining({ prompt_tokens: expect.any(Number), completion_tokens: 5 }),
      latency_ms: expect.any(Number),
    });
    expect(run.stderr).toMatch(/^infill batch: 5 answered, 0 errors in/);
    expect(sim.requests[0]?.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(run.stdout + run.stderr).not.toContain(KEY);
  });

  it("turns malformed lines into error records naming their line, and sends the rest", async () => {
    sim = await startSim({ apiKey: KEY });
    const input = await file(
      "malformed.jsonl",
      `${lines(1)}{"id": "x", "prompt":\n\n[1, 2]\n{"id": "y", "prompt": "p", "top_k": 3}\n${lines(1, 1)}`,
    );
    const output = join(dir, "malformed.out.jsonl");
    const run = await infill([input, "-o", output, "--no-progress"]);
    expect(run.code).toBe(1);
    const errors = (await records(output)).filter((r) => r.error);
    expect(errors).toEqual([
      {
        id: null,
        line: 2,
        error: { status: null, type: "invalid_request", message: expect.stringMatching(/^line 2: not JSON/) },
      },
      {
        id: null,
        line: 4,
        error: expect.objectContaining({
          message: "line 4: a record must be a JSON object with an id and a prompt",
        }),
      },
      {
        id: "y",
        line: 5,
        error: expect.objectContaining({ message: expect.stringMatching(/^line 5: unknown field top_k/) }),
      },
    ]);
    expect(sim.requests).toHaveLength(2);
    expect(run.stderr).toContain("3 errors (3 bad input lines)");
  });

  it("refuses duplicate ids before anything is sent", async () => {
    sim = await startSim({ apiKey: KEY });
    const input = await file("dup.jsonl", `${lines(3)}${lines(1, 1)}${lines(1)}`);
    const output = join(dir, "dup.out.jsonl");
    const run = await infill([input, "-o", output]);
    expect(run).toMatchObject({ code: 2, stdout: "" });
    expect(run.stderr).toBe('infill: duplicate ids, nothing sent: "t1" on lines 2, 4; "t0" on lines 1, 5\n');
    expect(sim.requests).toHaveLength(0);
    await expect(stat(output)).rejects.toThrow(/ENOENT/);
  });

  it("resumes from OUT: skips the ids it answers, cuts a torn last line, writes every id once", async () => {
    sim = await startSim({ apiKey: KEY });
    const input = await file("resume.jsonl", lines(6));
    const first = await infill(["--no-progress"], lines(2));
    const torn = JSON.stringify({ id: "t2", text: "ret", finish_reason: "stop" }).slice(0, 20);
    const output = await file("resume.out.jsonl", `${first.stdout}${torn}`);
    sim.requests.length = 0;
    const run = await infill([input, "-o", output, "--no-progress"]);
    expect(run.code).toBe(0);
    expect(ids(await records(output))).toEqual(expectedIds(6));
    expect(sim.requests.map((r) => (r.body as { prompt: string }).prompt)).toHaveLength(4);
    expect(run.stderr).toContain("4 answered, 0 errors, 2 already answered");
  });

  it("leaves error records alone on a re-run, and sends their requests again with --retry-errors", async () => {
    sim = await startSim({ apiKey: KEY, faults: [{ type: "status", status: 402 }] });
    const input = await file("retry.jsonl", lines(3));
    const output = join(dir, "retry.out.jsonl");
    const failed = await infill([input, "-o", output, "--no-progress", "--concurrency", "1"]);
    expect(failed.code).toBe(1);
    expect((await records(output)).filter((r) => r.error)).toEqual([
      { id: "t0", error: { status: 402, type: "unknown_error", message: "402 Insufficient Balance" } },
    ]);
    const again = await infill([input, "-o", output, "--no-progress"]);
    expect(again.code).toBe(0);
    expect(sim.requests).toHaveLength(3);
    const retried = await infill([input, "-o", output, "--no-progress", "--retry-errors"]);
    expect(retried.code).toBe(0);
    expect(sim.requests).toHaveLength(4);
    const final = await records(output);
    expect(ids(final)).toEqual(expectedIds(3));
    expect(final.filter((r) => r.error)).toEqual([]);
  });

  it("--dry-run counts tokens and prints the cost range, sending nothing", async () => {
    sim = await startSim({ apiKey: KEY });
    const input = await file(
      "dry.jsonl",
      `${lines(4)}{"id": "p", "prompt": "x", "model": "deepseek-v4-pro"}\n`,
    );
    const run = await infill([input, "--dry-run"]);
    expect(run.code).toBe(0);
    expect(sim.requests).toHaveLength(0);
    expect(run.stdout).toContain("infill batch --dry-run: 5 requests to send");
    expect(run.stdout).toMatch(/deepseek-v4-flash: 4 requests, about 61 prompt tokens \(49–67\)/);
    expect(run.stdout).toMatch(/prompts: \$0\.\d+ with no cache hits, \$0\.\d+ with all from the cache/);
    expect(run.stdout).toContain("deepseek-v4-pro: 1 request, about 1 prompt tokens");
    expect(run.stdout).toContain("1 without max_tokens count 4,096");
    const json = await infill([input, "--dry-run", "--json"]);
    const report = JSON.parse(json.stdout);
    expect(report).toMatchObject({ to_send: 5, skipped: 0, invalid: 0 });
    expect(report.models[0]).toMatchObject({
      model: "deepseek-v4-flash",
      requests: 4,
      promptTokens: 61,
      maxOutputTokens: 32,
      cost: { promptNoCacheHits: expect.any(Number), promptAllCacheHits: expect.any(Number) },
    });
    expect(report.models[0].cost.promptAllCacheHits).toBeLessThan(report.models[0].cost.promptNoCacheHits);
  });

  it("--max-cost stops before the estimate would pass it; a re-run with more goes on", async () => {
    sim = await startSim({ apiKey: KEY });
    const input = await file("cost.jsonl", lines(30));
    const output = join(dir, "cost.out.jsonl");
    const run = await infill([input, "-o", output, "--max-cost", "0.00004", "--json", "--concurrency", "2"]);
    expect(run.code).toBe(1);
    const summary = JSON.parse(run.stdout);
    expect(summary.stopped).toBe("max-cost");
    expect(summary.cost_usd).toBeLessThanOrEqual(0.00004);
    expect(summary.answered).toBeGreaterThan(0);
    expect(summary.answered + summary.not_sent).toBe(30);
    const rest = await infill([input, "-o", output, "--max-cost", "1", "--json"]);
    expect(rest.code).toBe(0);
    expect(JSON.parse(rest.stdout)).toMatchObject({ skipped: summary.answered, stopped: null });
    expect(ids(await records(output))).toEqual(expectedIds(30));
  });

  it("stops when requests in a row fail alike, and says why", async () => {
    sim = await startSim({ apiKey: "sk-another-key-0000" });
    const input = await file("auth.jsonl", lines(40));
    const run = await infill([input, "--no-progress", "--concurrency", "1"]);
    expect(run.code).toBe(1);
    expect(sim.requests).toHaveLength(10);
    expect(run.stderr).toContain("10 errors, 30 not sent");
    expect(run.stderr).toMatch(
      /stopped: requests in a row failed alike, the last with: 401 Authentication Fails/,
    );
    expect(run.stderr).not.toContain(KEY);
  });

  it("--json prints a machine-readable summary", async () => {
    sim = await startSim({ apiKey: KEY });
    const input = await file("json.jsonl", lines(4));
    const run = await infill([input, "-o", join(dir, "json.out.jsonl"), "--json"]);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({
      skipped: 0,
      total: 4,
      sent: 4,
      answered: 4,
      failed: 0,
      not_sent: 0,
      prompt_tokens: expect.any(Number),
      cost_usd: expect.any(Number),
      concurrency: { initial: 8 },
      stopped: null,
      peak_rss_bytes: expect.any(Number),
      cpu_ms: expect.any(Number),
      shard: null,
    });
  });

  it("after kill -9 in the middle, the same command again gives every id exactly once", async () => {
    sim = await startSim({ apiKey: KEY, latencyMs: 20, keepRequests: 0 });
    const input = await file("kill.jsonl", lines(400));
    const output = join(dir, "kill.out.jsonl");
    const args = [input, "-o", output, "--no-progress", "--concurrency", "8", "--max-concurrency", "8"];
    const first = start(args);
    // Some groups of results written, most requests still to go.
    const deadline = performance.now() + 15_000;
    while ((await stat(output).catch(() => ({ size: 0 }))).size < 20_000) {
      if (performance.now() > deadline) throw new Error("no results written within 15 s");
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    first.child.kill("SIGKILL");
    expect((await first.done).code).toBe(null);
    const partial = (await readFile(output, "utf8")).split("\n").length - 1;
    expect(partial).toBeLessThan(400);
    const second = await infill(args);
    expect(second.code).toBe(0);
    const all = await records(output);
    expect(all).toHaveLength(400);
    expect(new Set(all.map((r) => r.id)).size).toBe(400);
  });

  it("Ctrl-C aborts the requests in flight, writes none twice, prints a summary and exits 130", async () => {
    sim = await startSim({ apiKey: KEY, latencyMs: 60_000 });
    const input = await file("sigint.jsonl", lines(20));
    const output = join(dir, "sigint.out.jsonl");
    const run = start([input, "-o", output, "--no-progress", "--concurrency", "4"]);
    await until(() => sim!.requests.length >= 4, 10_000, "four requests in flight");
    run.child.kill("SIGINT");
    const result = await run.done;
    expect(result.code).toBe(130);
    expect(result.stderr).toContain("stopped: interrupted; run the same command again to go on");
    await Promise.all(sim.requests.map((r) => r.closed));
    expect(sim.requests.every((r) => r.aborted)).toBe(true);
    expect(await records(output)).toEqual([]);
  });

  it("has --help, and infill --help mentions it", async () => {
    sim = await startSim();
    const help = await infill(["--help"]);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^Usage: infill batch \[IN\.jsonl\] \[-o OUT\.jsonl\]/);
    expect(help.stdout).toContain("--retry-errors");
    const main = await startCli(cliPath, ["--help"], {}).done;
    expect(main.stdout).toContain("infill batch [IN.jsonl] [-o OUT.jsonl]");
  });
});
