import { Agent, request } from "node:http";
import { describe, expect, it } from "vitest";
import { ADD_SUB, MODEL, rawCompletion, sim, until } from "./helpers.js";

/** POST a completion through `agent` (keep-alive or not) and time it to the end of the body. */
function timed(url: string, agent: Agent): Promise<{ status: number; ms: number }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = request(
      `${url}/completions`,
      { method: "POST", agent, headers: { "content-type": "application/json" } },
      (res) => {
        res.resume();
        res.on("end", () => resolve({ status: res.statusCode ?? 0, ms: performance.now() - started }));
      },
    );
    req.on("error", reject);
    req.end(JSON.stringify({ model: MODEL, prompt: ADD_SUB, max_tokens: 8 }));
  });
}

describe("connectDelayMs", () => {
  it("delays the first request of each new connection, not the next ones on it", async () => {
    const s = await sim({ connectDelayMs: 150 });
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const first = await timed(s.url, agent);
      const second = await timed(s.url, agent);
      expect(first.status).toBe(200);
      expect(first.ms).toBeGreaterThanOrEqual(150);
      expect(second.status).toBe(200);
      // The second went on the first's connection: no new connection, so no delay to pay.
      expect(s.connectionsAccepted).toBe(1);
    } finally {
      agent.destroy();
    }
  });

  it("closes promptly, with connections still waiting for their delay", async () => {
    const s = await sim({ connectDelayMs: 60_000 });
    const pending = rawCompletion(s, { model: MODEL, prompt: ADD_SUB }).catch((error: unknown) => error);
    await until(() => s.connectionsAccepted === 1, 5_000, "the connection");
    // Within the test's timeout, a third of the delay: close does not wait for it.
    await s.close();
    expect(await pending).toBeInstanceOf(Error);
  });

  it("counts the connections it accepted, before their delay", async () => {
    const s = await sim({ connectDelayMs: 60_000 });
    const agent = new Agent({ keepAlive: true, maxSockets: 2 });
    try {
      void timed(s.url, agent).catch(() => {});
      void timed(s.url, agent).catch(() => {});
      await until(() => s.connectionsAccepted === 2, 5_000, "two connections");
    } finally {
      agent.destroy();
    }
  });

  it("refuses a negative delay", async () => {
    await expect(sim({ connectDelayMs: -1 })).rejects.toThrow(/connectDelayMs/);
  });
});

describe("concurrencyLimit and peakConcurrency", () => {
  it("answers 429 at once beyond the limit, and counts the most requests answered together", async () => {
    const s = await sim({ concurrencyLimit: 2, latencyMs: 300 });
    expect(s.peakConcurrency).toBe(0);
    const answers = Promise.all([1, 2, 3].map(() => rawCompletion(s, { model: MODEL, prompt: ADD_SUB })));
    await until(() => s.requests.length === 3, 5_000, "three requests");
    await until(() => s.requests.some((r) => r.status === 429), 5_000, "a 429 before the others end");
    const statuses = (await answers).map((a) => a.status).sort();
    expect(statuses).toEqual([200, 200, 429]);
    expect(JSON.parse((await answers).find((a) => a.status === 429)!.body).error.message).toBe(
      "Rate Limit Reached",
    );
    expect(s.peakConcurrency).toBe(2);
    // Once they are answered, there is room again.
    expect((await rawCompletion(s, { model: MODEL, prompt: ADD_SUB })).status).toBe(200);
  });

  it("refuses a limit below 1", async () => {
    await expect(sim({ concurrencyLimit: 0 })).rejects.toThrow(/concurrencyLimit/);
  });
});

describe("receivedAt", () => {
  it("is when the request arrived, on the epoch clock", async () => {
    const s = await sim({ latencyMs: 100 });
    const before = Date.now();
    await rawCompletion(s, { model: MODEL, prompt: ADD_SUB });
    const after = Date.now();
    const at = s.requests[0]!.receivedAt;
    expect(at).toBeGreaterThanOrEqual(before - 1);
    // Before the answer, which waited 100 ms.
    expect(at).toBeLessThanOrEqual(after - 100 + 1);
  });
});
