// Throughput of the clients against raw undici request() doing the same POST, both against @infill/sim in this
// process, at concurrency 64: FimClient.complete() against the DeepSeek dialect, and ProviderClient.complete() with
// the Ollama adapter against the Ollama dialect. Run after a build: `pnpm --filter @infill/core bench`.
//
// The two sides alternate in short slices (A B B A …) so that background load on the machine hits both alike.
// Raw side: request() with the default global dispatcher, a JSON string built once, JSON.parse of the body text.
// Client side: complete(), i.e. validation, serialisation, the call scope (timeout), response validation.
//
// Environment: BENCH_SECONDS (per side and pair, default 5), BENCH_CONCURRENCY (default 64), BENCH_SLICE_MS
// (default 250).
import { startSim } from "@infill/sim";
import { request } from "undici";
import { FimClient, ProviderClient, VERSION } from "../dist/index.js";

const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 64);
const sliceMs = Number(process.env.BENCH_SLICE_MS ?? 250);
const KEY = "sk-bench-0000";
const PROMPT = "def add(a, b):\n    return a + b\n\ndef sub(a, b):\n    ";

/** What one pair measures: the sim it runs against, the raw POST, and the client's call. */
const PAIRS = [
  {
    name: "DeepSeek: FimClient.complete()",
    sim: { apiKey: KEY },
    path: "/completions",
    body: { model: "deepseek-v4-flash", prompt: PROMPT, suffix: "\n", max_tokens: 16 },
    check: (json) => json.choices.length === 1,
    client: (url) => {
      const client = new FimClient({ apiKey: KEY, baseURL: url });
      const completion = { model: "deepseek-v4-flash", prompt: PROMPT, suffix: "\n", max_tokens: 16 };
      return async () => {
        const response = await client.complete(completion);
        if (response.choices.length !== 1) throw new Error("client: no choice");
      };
    },
  },
  {
    name: "Ollama: ProviderClient.complete()",
    sim: { dialect: "ollama" },
    path: "/api/generate",
    // What the Ollama adapter sends, byte for byte the same work for the server.
    body: {
      model: "qwen2.5-coder:1.5b-base",
      prompt: PROMPT,
      suffix: "\n",
      stream: false,
      options: { num_predict: 16 },
      keep_alive: "30m",
    },
    check: (json) => json.done === true,
    client: (url) => {
      const client = new ProviderClient({ provider: "ollama", baseURL: url });
      const completion = { model: "qwen2.5-coder:1.5b-base", prompt: PROMPT, suffix: "\n", max_tokens: 16 };
      return async () => {
        const response = await client.complete(completion);
        if (response.text === undefined) throw new Error("client: no text");
      };
    },
  },
];

/** Completed calls of `fn` in `ms` with `concurrency` loops each awaiting its previous call. */
async function slice(fn, ms) {
  let done = 0;
  const end = performance.now() + ms;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < end) {
        await fn();
        done++;
      }
    }),
  );
  return done;
}

async function measure(pair) {
  const sim = await startSim({ ...pair.sim, keepRequests: 0 });
  const url = sim.url + pair.path;
  const body = JSON.stringify(pair.body);
  const headers = {
    "content-type": "application/json",
    accept: "application/json",
    ...(pair.sim.apiKey ? { authorization: `Bearer ${pair.sim.apiKey}` } : {}),
    "user-agent": `infill/${VERSION}`,
  };
  const sides = {
    raw: async () => {
      const response = await request(url, { method: "POST", headers, body });
      const json = JSON.parse(await response.body.text());
      if (response.statusCode !== 200 || !pair.check(json)) throw new Error(`raw: ${response.statusCode}`);
    },
    client: pair.client(sim.url),
  };
  // Warm-up: JIT, connection pools of both sides filled to the concurrency.
  for (let i = 0; i < 4; i++) {
    await slice(sides.raw, 250);
    await slice(sides.client, 250);
  }
  const slices = Math.max(2, Math.round((seconds * 1000) / sliceMs));
  const total = { raw: 0, client: 0 };
  const elapsed = { raw: 0, client: 0 };
  const pairRatios = [];
  for (let i = 0; i < slices; i++) {
    const order = i % 2 === 0 ? ["raw", "client"] : ["client", "raw"];
    const counts = {};
    for (const side of order) {
      const started = performance.now();
      counts[side] = await slice(sides[side], sliceMs);
      elapsed[side] += performance.now() - started;
      total[side] += counts[side];
    }
    pairRatios.push(counts.client / counts.raw);
  }
  await sim.close();
  const rate = (side) => total[side] / (elapsed[side] / 1000);
  const sorted = [...pairRatios].sort((a, b) => a - b);
  return {
    slices,
    total,
    elapsed,
    rate: { raw: rate("raw"), client: rate("client") },
    ratio: rate("client") / rate("raw"),
    median: sorted[Math.floor(sorted.length / 2)],
  };
}

console.log(
  `@infill/core ${VERSION} throughput vs @infill/sim, concurrency ${concurrency}, node ${process.version}`,
);
for (const pair of PAIRS) {
  const result = await measure(pair);
  console.log("");
  console.log(
    `${pair.name}: ${result.slices} alternating slices of ${sliceMs} ms per side ` +
      `(${(result.elapsed.raw / 1000).toFixed(1)} s raw, ${(result.elapsed.client / 1000).toFixed(1)} s client)`,
  );
  console.log("side                      requests      req/s");
  console.log(
    `raw undici request()   ${String(result.total.raw).padStart(11)} ${result.rate.raw.toFixed(0).padStart(10)}`,
  );
  console.log(
    `client.complete()      ${String(result.total.client).padStart(11)} ${result.rate.client.toFixed(0).padStart(10)}`,
  );
  console.log(
    `ratio client/raw: ${result.ratio.toFixed(3)} (median of per-slice ratios ${result.median.toFixed(3)}; goal >= 0.95)`,
  );
}
