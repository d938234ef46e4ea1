// `infill batch` and runBatch() against @infill/sim, each figure next to what it is compared with, from one run.
// Run after a build: `pnpm --filter @infill/core bench` (it runs throughput.mjs first).
//
// The sims run as child processes (the infill-sim CLI), so that the server's work does not share the event loop
// of the side being measured; the sides alternate (A B A B …) so that background load on the machine hits both.
//
// 1. Throughput at the account's concurrency: raw undici request() at concurrency C against runBatch() with its
//    concurrency fixed at C (--concurrency C --max-concurrency C), in alternating runs of the same requests, on a
//    sim with no limit and no latency (the clients' own cost is what is measured), with the CPU time of each side;
//    then the `infill batch` CLI, reading IN and writing OUT with its fsyncs, as a child process.
// 2. A sim limited to 8 requests at once, with latency: FimClient with 8 loops (a client that knew the limit)
//    against runBatch() finding it, started at its default (8), at 1 and at 64; time ratios and failed requests.
// 3. Memory: the CLI over 10,000 requests of 4 KB prompts (streamed from a 40 MB file), its peak RSS.
// 4. Shards: the same records by one `infill batch` and by 4 at once (`--shard K/4`, 4 processes), against a sim
//    limited to the account's concurrency (64 at once, 20 ms a request): the 4 given a quarter of the limit each,
//    and the 4 finding it on their own (AIMD from 16); wall time, the CPU time of the processes together (each
//    shard reads the whole input, twice), 429s, and each id once in the merged outputs (`infill batch merge
//    --input`). On one machine the 4 share its cores; on 4 machines each has its own.
//
// Environment: BENCH_SLICE (requests per run of part 1, default 1000), BENCH_PAIRS (default 12), BENCH_N (requests
// per CLI run of part 1, default 5000), BENCH_CONCURRENCY (default 64), BENCH_ROUNDS (default 3), BENCH_LIMITED_N
// (requests per run of part 2, default 2000), BENCH_RSS_N (default 10000), BENCH_SHARD_N (requests per run of part 4,
// default 10000), BENCH_PARTS (the parts to run, e.g. `1,4`; default all).
import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { request } from "undici";
import { FimClient, runBatch, VERSION } from "../dist/index.js";

const n = Number(process.env.BENCH_N ?? 5000);
const slice = Number(process.env.BENCH_SLICE ?? 1000);
const pairs = Number(process.env.BENCH_PAIRS ?? 12);
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 64);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const limitedN = Number(process.env.BENCH_LIMITED_N ?? 2000);
const rssN = Number(process.env.BENCH_RSS_N ?? 10_000);
const shardN = Number(process.env.BENCH_SHARD_N ?? 10_000);
const parts = new Set((process.env.BENCH_PARTS ?? "1,1b,2,3,4").split(","));
const KEY = "sk-bench-0000";
const MODEL = "deepseek-v4-flash";
const PROMPT = "def add(a, b):\n    return a + b\n\ndef sub(a, b):\n    ";
const cliPath = fileURLToPath(new URL("../dist/cli.js", import.meta.url));
const simCli = join(
  dirname(createRequire(import.meta.url).resolve("@infill/sim/package.json")),
  "dist",
  "cli.js",
);

/** Starts infill-sim with `args`; resolves its base URL and a stop function. */
async function startSimProcess(args) {
  const child = spawn(process.execPath, [simCli, "--key", KEY, ...args], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  let text = "";
  for await (const chunk of child.stdout) {
    text += chunk;
    if (text.includes("\n")) break;
  }
  return {
    url: text.trim(),
    async stop() {
      child.kill("SIGINT");
      await once(child, "exit");
    },
  };
}

function records(count, prompt = () => PROMPT) {
  return Array.from({ length: count }, (_, i) => ({
    id: i,
    prompt: prompt(i),
    suffix: "\n",
    max_tokens: 16,
  }));
}

/**
 * `count` calls of `send(i)` with `width` of them at once, each loop sending its next as soon as its last came back.
 * `send` resolves true for an answer. Returns ms and failures.
 */
async function loops(count, width, send) {
  let next = 0;
  let failed = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < count) {
        if (!(await send(next++))) failed++;
      }
    }),
  );
  return { ms: performance.now() - started, failed };
}

/** Raw undici: `count` requests at `width` at once, each body serialised up front. Returns ms and failures. */
function rawRun(url, count, width) {
  const headers = {
    "content-type": "application/json",
    accept: "application/json",
    authorization: `Bearer ${KEY}`,
    "user-agent": `infill/${VERSION}`,
  };
  const bodies = records(count).map(({ id: _id, ...rest }) => JSON.stringify({ model: MODEL, ...rest }));
  return loops(count, width, async (i) => {
    const response = await request(`${url}/completions`, { method: "POST", headers, body: bodies[i] });
    const json = JSON.parse(await response.body.text());
    return response.statusCode === 200 && json.choices.length === 1;
  });
}

/** runBatch over `count` records; every result consumed. Returns ms, failures and 429s. */
async function batchRun(url, count, options) {
  const client = new FimClient({ apiKey: KEY, baseURL: url });
  const started = performance.now();
  const run = runBatch(records(count), { client, ...options });
  let failed = 0;
  let answered = 0;
  for await (const result of run) {
    if ("error" in result) failed++;
    else answered++;
  }
  if (answered + failed !== count) throw new Error(`batch: ${answered + failed} results of ${count}`);
  return { ms: performance.now() - started, failed, rateLimited: run.progress().rateLimited };
}

/** FimClient with `width` loops, as a client that knows the limit. */
function fixedRun(url, count, width) {
  const client = new FimClient({ apiKey: KEY, baseURL: url });
  const request = { model: MODEL, prompt: PROMPT, suffix: "\n", max_tokens: 16 };
  return loops(count, width, () =>
    client.complete(request).then(
      () => true,
      () => false,
    ),
  );
}

/** The CLI as a child process: `infill batch IN -o OUT --json`; resolves its summary and wall time. */
async function cliRun(url, input, output, args = []) {
  const started = performance.now();
  const child = spawn(
    process.execPath,
    [cliPath, "batch", input, "-o", output, "--json", "--no-progress", "--base-url", url, ...args],
    { env: { PATH: process.env.PATH, DEEPSEEK_API_KEY: KEY }, stdio: ["ignore", "pipe", "inherit"] },
  );
  let text = "";
  child.stdout.on("data", (chunk) => {
    text += chunk;
  });
  const [code] = await once(child, "exit");
  if (code !== 0) throw new Error(`infill batch exited ${code}`);
  return { ms: performance.now() - started, summary: JSON.parse(text) };
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const rate = (count, ms) => (count * 1000) / ms;
const pad = (text, width) => String(text).padStart(width);

const dir = await mkdtemp(join(tmpdir(), "infill-batch-bench-"));
try {
  console.log(
    `@infill/core ${VERSION} batch bench vs @infill/sim (child processes), node ${process.version}`,
  );

  // 1. Throughput at the account's concurrency: alternating slices (A B B A …), each side's total rate and the
  // median of the per-pair ratios; the CPU time each side spends on a request; then the CLI's whole runs.
  if (parts.has("1")) {
    const sim = await startSimProcess([]);
    const fixed = { concurrency, maxConcurrency: concurrency };
    // Warm-up: JIT, and the connection pools filled.
    for (let i = 0; i < 2; i++) {
      await rawRun(sim.url, slice, concurrency);
      await batchRun(sim.url, slice, fixed);
    }
    const total = { raw: { ms: 0, cpu: 0 }, batch: { ms: 0, cpu: 0 } };
    const ratios = [];
    const sides = {
      raw: () => rawRun(sim.url, slice, concurrency),
      batch: () => batchRun(sim.url, slice, fixed),
    };
    for (let i = 0; i < pairs; i++) {
      const rates = {};
      for (const side of i % 2 === 0 ? ["raw", "batch"] : ["batch", "raw"]) {
        const cpu = process.cpuUsage();
        const { ms } = await sides[side]();
        const used = process.cpuUsage(cpu);
        total[side].ms += ms;
        total[side].cpu += used.user + used.system;
        rates[side] = rate(slice, ms);
      }
      ratios.push(rates.batch / rates.raw);
    }
    const input = join(dir, "throughput.jsonl");
    await writeFile(
      input,
      records(n)
        .map((r) => `${JSON.stringify(r)}\n`)
        .join(""),
    );
    const cli = [];
    const cliRaw = [];
    for (let i = 0; i < rounds; i++) {
      const flags = ["--concurrency", String(concurrency), "--max-concurrency", String(concurrency)];
      // The process's whole life: start-up, the first pass over IN, the requests, OUT written and synced.
      cli.push(rate(n, (await cliRun(sim.url, input, join(dir, `throughput-${i}.out.jsonl`), flags)).ms));
      cliRaw.push(rate(n, (await rawRun(sim.url, n, concurrency)).ms));
    }
    await sim.stop();
    const requests = slice * pairs;
    const rawRate = rate(requests, total.raw.ms);
    const batchRate = rate(requests, total.batch.ms);
    console.log("");
    console.log(
      `1. throughput at concurrency ${concurrency}: ${pairs} alternating pairs of ${slice}-request runs per side`,
    );
    console.log("side                        req/s   CPU µs a request");
    console.log(
      `raw undici request()     ${pad(rawRate.toFixed(0), 8)}   ${pad((total.raw.cpu / requests).toFixed(1), 8)}`,
    );
    console.log(
      `runBatch(), fixed at ${concurrency}  ${pad(batchRate.toFixed(0), 8)}   ${pad((total.batch.cpu / requests).toFixed(1), 8)}`,
    );
    console.log(
      `ratio runBatch/raw: ${(batchRate / rawRate).toFixed(3)} (median of per-pair ratios ${median(ratios).toFixed(3)}; goal >= 0.95)`,
    );
    console.log(
      `infill batch (CLI, whole runs of ${n}, start-up and first pass included): median ${median(cli).toFixed(0)} req/s ` +
        `against raw's ${median(cliRaw).toFixed(0)} in the same rounds, ratio ${(median(cli) / median(cliRaw)).toFixed(3)}`,
    );
  }

  // 1b. The same at the account's concurrency in the shape of a real API: a sim limited to 64 at once, 20 ms a
  // request, where the clients' cost hides behind the latency as it does against DeepSeek.
  if (parts.has("1b")) {
    const sim = await startSimProcess(["--concurrency-limit", String(concurrency), "--latency-ms", "20"]);
    const fixed = { concurrency, maxConcurrency: concurrency };
    await rawRun(sim.url, 2 * concurrency, concurrency);
    await batchRun(sim.url, 2 * concurrency, fixed);
    const raw = [];
    const batch = [];
    for (let i = 0; i < 2 * rounds - 1; i++) {
      if (i % 2 === 0) raw.push(await rawRun(sim.url, n, concurrency));
      batch.push(await batchRun(sim.url, n, fixed));
      if (i % 2 === 1) raw.push(await rawRun(sim.url, n, concurrency));
    }
    await sim.stop();
    const rawRate = rate(n, median(raw.map((r) => r.ms)));
    const batchRate = rate(n, median(batch.map((r) => r.ms)));
    const failed = (runs) => runs.reduce((sum, r) => sum + r.failed, 0);
    console.log("");
    console.log(
      `1b. a sim limited to ${concurrency} at once, 20 ms a request, ${n} requests a run, median of ${2 * rounds - 1} ` +
        "alternating runs",
    );
    console.log(
      `raw undici request() at ${concurrency}    ${pad(rawRate.toFixed(0), 7)} req/s, ${failed(raw)} failed`,
    );
    console.log(
      `runBatch(), fixed at ${concurrency}       ${pad(batchRate.toFixed(0), 7)} req/s, ${failed(batch)} failed, ` +
        `ratio ${(batchRate / rawRate).toFixed(3)} (goal >= 0.95)`,
    );
  }

  // 2. A sim limited to 8 at once.
  if (parts.has("2")) {
    const sim = await startSimProcess(["--concurrency-limit", "8", "--latency-ms", "20"]);
    await fixedRun(sim.url, 64, 8);
    const fixed = [];
    const starts = [
      { label: "runBatch(), default start (8)", options: {} },
      { label: "runBatch(), started at 1", options: { concurrency: 1 } },
      { label: "runBatch(), started at 64", options: { concurrency: 64 } },
    ];
    const adaptive = starts.map(() => []);
    for (let i = 0; i < rounds; i++) {
      fixed.push(await fixedRun(sim.url, limitedN, 8));
      for (const [j, start] of starts.entries())
        adaptive[j].push(await batchRun(sim.url, limitedN, start.options));
    }
    await sim.stop();
    const fixedMs = median(fixed.map((r) => r.ms));
    console.log("");
    console.log(
      `2. a sim limited to 8 requests at once (20 ms each), ${limitedN} requests a run, median of ${rounds} runs`,
    );
    console.log("side                               time (s)  ratio  failed  429s");
    console.log(
      `FimClient, 8 loops (knows the limit) ${pad((fixedMs / 1000).toFixed(2), 7)}  1.000 ${pad(
        fixed.reduce((s, r) => s + r.failed, 0),
        7,
      )}     –`,
    );
    for (const [j, start] of starts.entries()) {
      const runs = adaptive[j];
      const ms = median(runs.map((r) => r.ms));
      const failed = runs.reduce((sum, r) => sum + r.failed, 0);
      const limited = median(runs.map((r) => r.rateLimited));
      console.log(
        `${start.label.padEnd(36)} ${pad((ms / 1000).toFixed(2), 7)} ${pad((ms / fixedMs).toFixed(3), 6)} ${pad(failed, 7)} ${pad(limited, 5)}`,
      );
    }
    console.log("goal: ratio <= 1.2, no failed request (failed counts every run)");
  }

  // 3. Memory over 10,000 requests.
  if (parts.has("3")) {
    const sim = await startSimProcess([]);
    const input = join(dir, "rss.jsonl");
    const file = PROMPT.repeat(Math.ceil(4096 / PROMPT.length)).slice(0, 4096);
    const lines = records(rssN, (i) => `# request ${i}\n${file}`).map((r) => `${JSON.stringify(r)}\n`);
    await writeFile(input, lines.join(""));
    const { ms, summary } = await cliRun(sim.url, input, join(dir, "rss.out.jsonl"));
    await sim.stop();
    console.log("");
    console.log(
      `3. infill batch over ${summary.answered} requests of 4 KB prompts (${((rssN * 4.1) / 1024).toFixed(0)} MB of input) ` +
        `in ${(ms / 1000).toFixed(1)} s: peak RSS ${(summary.peak_rss_bytes / 1024 / 1024).toFixed(1)} MB (goal < 150 MB)`,
    );
  }

  // 4. Shards: one run against 4 at once, alternating, on a sim with the account's limit.
  if (parts.has("4")) {
    const sim = await startSimProcess(["--concurrency-limit", String(concurrency), "--latency-ms", "20"]);
    const input = join(dir, "shards.jsonl");
    await writeFile(
      input,
      records(shardN, (i) => `# request ${i}\n${PROMPT}`)
        .map((r) => `${JSON.stringify(r)}\n`)
        .join(""),
    );
    const share = Math.floor(concurrency / 4);
    const flags = (start, most) => ["--concurrency", String(start), "--max-concurrency", String(most)];
    /** 4 processes at once, shard K writing shard-K.jsonl; wall time, 429s, and the merge's check. */
    const shardRun = async (name, start, most) => {
      const outputs = [0, 1, 2, 3].map((k) => join(dir, `${name}-${k}.jsonl`));
      const started = performance.now();
      const runs = await Promise.all(
        outputs.map((output, k) =>
          cliRun(sim.url, input, output, ["--shard", `${k}/4`, ...flags(start, most)]),
        ),
      );
      const ms = performance.now() - started;
      const merged = join(dir, `${name}.merged.jsonl`);
      await merge([...outputs, "--input", input, "-o", merged]);
      const ids = await idsOnce(merged, shardN);
      await Promise.all([...outputs, merged].map((file) => rm(file, { force: true })));
      const sum = (field) => runs.reduce((total, run) => total + run.summary[field], 0);
      return { ms, cpuMs: sum("cpu_ms"), rateLimited: sum("rate_limited"), ids };
    };
    const single = [];
    const shared = [];
    const found = [];
    await cliRun(sim.url, input, join(dir, "shards-warm.jsonl"), flags(concurrency, concurrency));
    for (let i = 0; i < rounds; i++) {
      const output = join(dir, `single-${i}.jsonl`);
      const one = await cliRun(sim.url, input, output, flags(concurrency, concurrency));
      single.push({
        ms: one.ms,
        cpuMs: one.summary.cpu_ms,
        rateLimited: one.summary.rate_limited,
        ids: await idsOnce(output, shardN),
      });
      await rm(output, { force: true });
      shared.push(await shardRun(`shared-${i}`, share, share));
      found.push(await shardRun(`found-${i}`, share, 128));
    }
    await sim.stop();
    const singleMs = median(single.map((r) => r.ms));
    const row = (label, runs) => {
      const ms = median(runs.map((r) => r.ms));
      const cpu = median(runs.map((r) => r.cpuMs));
      const limited = median(runs.map((r) => r.rateLimited));
      const ids = runs.every((r) => r.ids) ? "yes" : "NO";
      return `${label.padEnd(44)} ${pad((ms / 1000).toFixed(2), 7)} ${pad((ms / singleMs).toFixed(3), 6)} ${pad((cpu / 1000).toFixed(2), 8)} ${pad(limited, 6)}   ${ids}`;
    };
    console.log("");
    console.log(
      `4. ${shardN} requests by one infill batch and by 4 shards at once (4 processes), a sim limited to ${concurrency} ` +
        `at once (20 ms a request), median of ${rounds} alternating runs`,
    );
    console.log(
      "side                                         wall (s)  ratio  CPU (s)   429s   each id once",
    );
    console.log(row(`one run, concurrency ${concurrency}`, single));
    console.log(row(`4 shards, ${share} each (--max-concurrency ${share})`, shared));
    console.log(row(`4 shards finding the limit (from ${share}, max 128)`, found));
  }
} finally {
  await rm(dir, { recursive: true, force: true });
}

/** `infill batch merge ARGS`; throws when it does not exit 0. */
async function merge(args) {
  const child = spawn(process.execPath, [cliPath, "batch", "merge", ...args], {
    stdio: ["ignore", "ignore", "pipe"],
  });
  let text = "";
  child.stderr.on("data", (chunk) => {
    text += chunk;
  });
  const [code] = await once(child, "exit");
  if (code !== 0) throw new Error(`infill batch merge exited ${code}: ${text}`);
}

/** Whether a results file has `count` lines, each id once. */
async function idsOnce(path, count) {
  const lines = (await readFile(path, "utf8")).split("\n").filter((line) => line !== "");
  return lines.length === count && new Set(lines.map((line) => JSON.parse(line).id)).size === count;
}
