// Throughput of FimClient.complete() against raw undici request() doing the same POST, both against @infill/sim
// in this process, at concurrency 64. Run after a build: `pnpm --filter @infill/core bench`.
//
// The two sides alternate in short slices (A B B A …) so that background load on the machine hits both alike.
// Raw side: request() with the default global dispatcher, a JSON string built once, JSON.parse of the body text.
// Client side: complete(), i.e. validation, serialisation, the call scope (timeout), response validation.
//
// Environment: BENCH_SECONDS (per side, default 5), BENCH_CONCURRENCY (default 64), BENCH_SLICE_MS (default 250).
import { startSim } from "@infill/sim";
import { request } from "undici";
import { FimClient, VERSION } from "../dist/index.js";

const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 64);
const sliceMs = Number(process.env.BENCH_SLICE_MS ?? 250);
const KEY = "sk-bench-0000";

const sim = await startSim({ apiKey: KEY });
const completion = {
  model: "deepseek-v4-flash",
  prompt: "def add(a, b):\n    return a + b\n\ndef sub(a, b):\n    ",
  suffix: "\n",
  max_tokens: 16,
};
const body = JSON.stringify(completion);
const url = `${sim.url}/completions`;
const headers = {
  "content-type": "application/json",
  accept: "application/json",
  authorization: `Bearer ${KEY}`,
  "user-agent": `infill/${VERSION}`,
};
const client = new FimClient({ apiKey: KEY, baseURL: sim.url });

const sides = {
  raw: async () => {
    const response = await request(url, { method: "POST", headers, body });
    const json = JSON.parse(await response.body.text());
    if (response.statusCode !== 200 || json.choices.length !== 1)
      throw new Error(`raw: ${response.statusCode}`);
  },
  client: async () => {
    const response = await client.complete(completion);
    if (response.choices.length !== 1) throw new Error("client: no choice");
  },
};

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
  const pair = {};
  for (const side of order) {
    const started = performance.now();
    pair[side] = await slice(sides[side], sliceMs);
    elapsed[side] += performance.now() - started;
    total[side] += pair[side];
  }
  pairRatios.push(pair.client / pair.raw);
}
await sim.close();

const rate = (side) => total[side] / (elapsed[side] / 1000);
const sorted = [...pairRatios].sort((a, b) => a - b);
const median = sorted[Math.floor(sorted.length / 2)];
const ratio = rate("client") / rate("raw");
console.log(
  `@infill/core ${VERSION} throughput vs @infill/sim, concurrency ${concurrency}, node ${process.version}`,
);
console.log(
  `${slices} alternating slices of ${sliceMs} ms per side (${(elapsed.raw / 1000).toFixed(1)} s raw, ${(elapsed.client / 1000).toFixed(1)} s client)`,
);
console.log("");
console.log("side                      requests      req/s");
console.log(
  `raw undici request()   ${String(total.raw).padStart(11)} ${rate("raw").toFixed(0).padStart(10)}`,
);
console.log(
  `client.complete()      ${String(total.client).padStart(11)} ${rate("client").toFixed(0).padStart(10)}`,
);
console.log("");
console.log(
  `ratio client/raw: ${ratio.toFixed(3)} (median of per-slice ratios ${median.toFixed(3)}; goal >= 0.95)`,
);
