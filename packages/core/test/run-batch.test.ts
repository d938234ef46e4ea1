// runBatch against @infill/sim over real HTTP.
import { type Sim, startSim } from "@infill/sim";
import { afterEach, describe, expect, it } from "vitest";
import {
  type BatchFailure,
  type BatchProgress,
  type BatchResult,
  FimClient,
  type LimitChange,
  ProviderClient,
  runBatch,
} from "../src/index.js";

const KEY = "sk-batch-test-key-0000";
const PROMPT = "def add(a, b):\n    return a + b\n\ndef sub(a, b):\n    ";

let sim: Sim | undefined;
afterEach(async () => {
  await sim?.close();
  sim = undefined;
});

async function setup(options: Parameters<typeof startSim>[0] = {}): Promise<{ sim: Sim; client: FimClient }> {
  sim = await startSim({ apiKey: KEY, ...options });
  return { sim, client: new FimClient({ apiKey: KEY, baseURL: sim.url }) };
}

function requests(count: number, extra: Record<string, unknown> = {}): Array<Record<string, unknown>> {
  return Array.from({ length: count }, (_, i) => ({
    id: `r${i}`,
    prompt: PROMPT,
    suffix: "\n",
    max_tokens: 8,
    ...extra,
  }));
}

async function collect(run: AsyncIterable<BatchResult>): Promise<BatchResult[]> {
  const results: BatchResult[] = [];
  for await (const result of run) results.push(result);
  return results;
}

const failures = (results: BatchResult[]) => results.filter((r): r is BatchFailure => "error" in r);

describe("runBatch", () => {
  it("answers every request once, with text, finish_reason, usage and latency", async () => {
    const { client } = await setup();
    const results = await collect(runBatch(requests(40), { client }));
    expect(results.map((r) => r.id).sort()).toEqual(
      requests(40)
        .map((r) => r.id)
        .sort(),
    );
    const expected = await client.complete({
      model: "deepseek-v4-flash",
      prompt: PROMPT,
      suffix: "\n",
      max_tokens: 8,
    });
    for (const result of results) {
      expect(result).toMatchObject({
        text: expected.choices[0]?.text,
        finish_reason: expected.choices[0]?.finish_reason,
        usage: { prompt_tokens: expected.usage.prompt_tokens },
      });
      expect((result as { latency_ms: number }).latency_ms).toBeGreaterThanOrEqual(0);
    }
  });

  it("fills in the model, and sends DeepSeek's optional fields through FimClient", async () => {
    const { sim, client } = await setup();
    const results = await collect(
      runBatch([{ id: 1, prompt: PROMPT, logprobs: 2, top_p: 0.5 }], { client, model: "deepseek-v4-pro" }),
    );
    expect(sim.requests[0]?.body).toMatchObject({ model: "deepseek-v4-pro", logprobs: 2, top_p: 0.5 });
    expect(results[0]).toMatchObject({ id: 1, logprobs: { tokens: expect.any(Array) } });
  });

  it("turns bad records into failures naming their position, and sends nothing for them", async () => {
    const { sim, client } = await setup();
    const results = await collect(
      runBatch(
        [
          { id: "a", prompt: PROMPT },
          "not an object",
          { prompt: PROMPT },
          { id: "b", prompt: PROMPT, max_tokens: 99_999 },
          { id: "a", prompt: PROMPT },
          { id: "c", prompt: PROMPT, stream: true },
        ],
        { client },
      ),
    );
    const byLine = failures(results).sort((a, b) => (a.line ?? 0) - (b.line ?? 0));
    expect(byLine.map((f) => [f.id, f.line, f.error.type, f.error.message])).toEqual([
      [null, 2, "invalid_request", "line 2: a record must be a JSON object with an id and a prompt"],
      [null, 3, "invalid_request", "line 3: the record has no id"],
      [
        "b",
        4,
        "invalid_request",
        expect.stringMatching(/^line 4: max_tokens must be an integer between 1 and 4096/),
      ],
      ["a", 5, "invalid_request", 'line 5: duplicate id "a" (first on line 1)'],
      ["c", 6, "invalid_request", expect.stringMatching(/^line 6: stream must not be true/)],
    ]);
    expect(sim.requests).toHaveLength(1);
  });

  it("finds the sim's concurrency limit: no request fails, the peak stays near it", async () => {
    const { sim, client } = await setup({ concurrencyLimit: 4, latencyMs: 20 });
    const run = runBatch(requests(120), { client, concurrency: 16 });
    const changes: LimitChange[] = [];
    run.on("concurrency", (change) => changes.push(change));
    const results = await collect(run);
    expect(failures(results)).toEqual([]);
    expect(results).toHaveLength(120);
    expect(sim.peakConcurrency).toBe(4);
    // Down to about the requests the sim was holding when the first 429 came back (4, give or take a 429 that
    // overtook another on its way back). An answer may come back before the first 429 (sockets still connecting).
    const first = changes.find((change) => change.reason === "rate-limited");
    expect(first?.from).toBeGreaterThanOrEqual(16);
    expect(first?.to).toBeLessThanOrEqual(6);
    expect(run.progress().rateLimited).toBeGreaterThan(0);
    expect(run.progress()).toMatchObject({ sent: 120, answered: 120, failed: 0, inFlight: 0 });
  });

  it("waits out Retry-After before sending anything else", async () => {
    const { sim, client } = await setup({ faults: [{ type: "status", status: 429, retryAfter: "0.3" }] });
    const run = runBatch(requests(3), { client, concurrency: 1 });
    const pauses: unknown[] = [];
    run.on("pause", (pause) => pauses.push(pause));
    const results = await collect(run);
    expect(failures(results)).toEqual([]);
    expect(pauses).toEqual([{ ms: 300, reason: "retry-after" }]);
    const [first, second] = sim.requests;
    expect(second!.receivedAt - first!.receivedAt).toBeGreaterThanOrEqual(295);
  });

  it("honours the Retry-After of a tokens-per-minute limit: no request fails", async () => {
    // 150 tokens a second, about 5 requests' worth: 20 requests need about four windows.
    const { sim, client } = await setup({ tokensPerMinute: 150, tokenWindowMs: 1_000 });
    const run = runBatch(requests(20), { client, concurrency: 4 });
    const pauses: string[] = [];
    run.on("pause", (pause) => pauses.push(pause.reason));
    const results = await collect(run);
    expect(failures(results)).toEqual([]);
    expect(results).toHaveLength(20);
    expect(pauses).toContain("retry-after");
    expect(sim.requests.filter((r) => r.status === 429).length).toBe(run.progress().rateLimited);
  });

  it("gives up on a request after maxRateLimitRetries 429s", async () => {
    const { client } = await setup({ faults: [{ type: "status", status: 429, retryAfter: "0", times: 3 }] });
    const results = await collect(runBatch(requests(1), { client, maxRateLimitRetries: 2 }));
    expect(results).toEqual([
      { id: "r0", error: { status: 429, type: "rate_limit_error", message: "429 Rate Limit Reached" } },
    ]);
  });

  it("reports an API error as a failure record and goes on", async () => {
    const { client } = await setup({ faults: [{ type: "status", status: 402 }] });
    const results = await collect(runBatch(requests(3), { client, concurrency: 1 }));
    expect(failures(results)).toEqual([
      { id: "r0", error: { status: 402, type: "unknown_error", message: "402 Insufficient Balance" } },
    ]);
    expect(results).toHaveLength(3);
  });

  it("stops before maxCost could be passed", async () => {
    const { sim, client } = await setup();
    // Each request's worst case: ~16 prompt tokens at $0.14/M and 8 generated at $0.28/M, about $0.0000045.
    const run = runBatch(requests(50), { client, maxCost: 0.00002, concurrency: 1 });
    const results = await collect(run);
    const progress = run.progress();
    expect(progress.stopped).toBe("max-cost");
    expect(progress.cost).toBeLessThanOrEqual(0.00002);
    expect(results.length).toBe(sim.requests.length);
    expect(results.length).toBeGreaterThan(2);
    expect(results.length).toBeLessThan(50);
  });

  it("keeps under a tokens-per-minute cap", async () => {
    const { sim, client } = await setup();
    // 60,000 a minute: 1,000 a second, a second's worth at once and then 1 a millisecond.
    const run = runBatch(requests(100, { max_tokens: 1 }), { client, tokensPerMinute: 60_000 });
    const pauses: string[] = [];
    run.on("pause", (pause) => pauses.push(pause.reason));
    const results = await collect(run);
    expect(failures(results)).toEqual([]);
    // Pauses, unless the machine is slow enough to keep under the cap by itself.
    expect(pauses.every((reason) => reason === "tokens-per-minute")).toBe(true);
    const used = results.reduce((sum, r) => sum + ("usage" in r ? (r.usage?.total_tokens ?? 0) : 0), 0);
    const span = sim.requests.at(-1)!.receivedAt - sim.requests[0]!.receivedAt;
    // What went beyond the first second's worth took at least as many milliseconds, less what the estimates of the
    // requests in flight were short of their usage (a few tokens each).
    expect(used).toBeGreaterThan(2_000);
    expect(span).toBeGreaterThanOrEqual(used - 1_000 - 200);
  });

  it("aborts requests in flight on abort(), gives no result for them, and ends", async () => {
    const { sim, client } = await setup({ latencyMs: 5_000 });
    const run = runBatch(requests(10), { client, concurrency: 4 });
    const progress: BatchProgress[] = [];
    run.on("progress", (p) => progress.push(p));
    const iteration = collect(run);
    while (sim.requests.length < 4) await new Promise((resolve) => setImmediate(resolve));
    run.abort();
    expect(await iteration).toEqual([]);
    expect(run.progress()).toMatchObject({ stopped: "aborted", inFlight: 0, sent: 4 });
    await Promise.all(sim.requests.map((r) => r.closed));
    expect(sim.requests.every((r) => r.aborted)).toBe(true);
  });

  it("stops sending while the reader is 128 results behind, and goes on once it catches up", async () => {
    // A client answering at once, counting what it is sent (check() is what prepare() calls).
    let sent = 0;
    const client = {
      model: "m",
      check() {},
      complete: async () => {
        sent += 1;
        return { text: "x", finish_reason: "stop", usage: undefined };
      },
    } as unknown as ProviderClient;
    const run = runBatch(requests(1000), { client, concurrency: 4, maxConcurrency: 4 });
    const iterator = run[Symbol.asyncIterator]();
    expect((await iterator.next()).done).toBe(false);
    // Turns of the event loop, no time: every answer lands in one.
    for (let turn = 0; turn < 50; turn++) await new Promise((resolve) => setImmediate(resolve));
    // 128 results waiting (2 × max(limit, 64)), the one read, and at most the limit in flight.
    expect(sent).toBeGreaterThanOrEqual(129);
    expect(sent).toBeLessThanOrEqual(129 + 4);
    let read = 1;
    while (!(await iterator.next()).done) read += 1;
    expect(read).toBe(1000);
    expect(sent).toBe(1000);
  });

  it("works with ProviderClient", async () => {
    sim = await startSim({ dialect: "ollama" });
    const client = new ProviderClient({ provider: "ollama", baseURL: sim.url });
    const results = await collect(runBatch(requests(5), { client }));
    expect(failures(results)).toEqual([]);
    expect(sim.requests[0]?.body).toMatchObject({
      model: "qwen2.5-coder:1.5b-base",
      options: { num_predict: 8 },
    });
  });
});
