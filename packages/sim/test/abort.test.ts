import { request } from "node:http";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ADD_SUB, complete, MODEL, post, sim, until, within } from "./helpers.js";

const body = { model: MODEL, prompt: `${ADD_SUB}return a - b;\n}\nfunction mul(a, b) {` };

afterEach(() => {
  vi.restoreAllMocks();
});

/** Counts the simulator's timers of the given delays that were started and not yet cleared. */
function trackTimers(delays: number[]): () => number {
  const spies = {
    setTimeout: vi.spyOn(globalThis, "setTimeout"),
    setInterval: vi.spyOn(globalThis, "setInterval"),
    clearTimeout: vi.spyOn(globalThis, "clearTimeout"),
    clearInterval: vi.spyOn(globalThis, "clearInterval"),
  };
  return () => {
    const started = [spies.setTimeout, spies.setInterval].flatMap((spy) =>
      spy.mock.calls.flatMap((call, i) =>
        delays.includes(call[1] as number) ? [spy.mock.results[i]?.value] : [],
      ),
    );
    const cleared = new Set(
      [...spies.clearTimeout.mock.calls, ...spies.clearInterval.mock.calls].map((call) => call[0]),
    );
    return started.filter((timer) => !cleared.has(timer)).length;
  };
}

describe("a client that goes away", () => {
  it("mid-stream: the server sees it, stops, and settles closed", async () => {
    const s = await sim({ tokenMs: 60_000 });
    const controller = new AbortController();
    const res = await post(s, { ...body, stream: true }, { signal: controller.signal });
    const reader = res.body!.getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    expect(first).toContain('"text":""');
    controller.abort();
    const [record] = s.requests;
    await within(record!.closed, 2000, "closed after abort");
    expect(record).toMatchObject({ aborted: true, status: 200 });
    // Still serving (an answer that generates nothing, so tokenMs does not apply).
    expect((await complete(s, { model: MODEL })).status).toBe(422);
  });

  it("during latency with keep-alive lines", async () => {
    const s = await sim({ latencyMs: 60_000, keepAlive: true, keepAliveIntervalMs: 10 });
    const controller = new AbortController();
    const res = await post(s, body, { signal: controller.signal });
    expect(res.status).toBe(200);
    controller.abort();
    await within(s.requests[0]!.closed, 2000, "closed after abort");
    expect(s.requests[0]!.aborted).toBe(true);
  });

  it("during latency before any byte", async () => {
    const pending = trackTimers([60_000]);
    const s = await sim({ latencyMs: 60_000 });
    const req = request(`${s.url}/completions`, { method: "POST", agent: false });
    req.on("error", () => {});
    req.end(JSON.stringify(body));
    await until(() => s.requests[0]?.body !== undefined, 2000, "request received");
    expect(pending()).toBe(1);
    req.destroy();
    await within(s.requests[0]!.closed, 2000, "closed after abort");
    expect(s.requests[0]).toMatchObject({ aborted: true, status: 0 });
    // The latency timer went with the request.
    expect(pending()).toBe(0);
  });

  it("mid-body: closed settles and nothing is answered", async () => {
    const s = await sim();
    const req = request(`${s.url}/completions`, {
      method: "POST",
      agent: false,
      headers: { "content-length": "1000" },
    });
    req.on("error", () => {});
    req.write('{"model":');
    await until(() => s.requests.length === 1, 2000, "request arrived");
    req.destroy();
    await within(s.requests[0]!.closed, 2000, "closed after abort");
    expect(s.requests[0]).toMatchObject({ aborted: true, status: 0, body: undefined });
  });

  it("many aborts in a row do not disturb the simulator", async () => {
    const s = await sim({ tokenMs: 10_000 });
    await Promise.all(
      Array.from({ length: 20 }, async () => {
        const controller = new AbortController();
        const res = await post(s, { ...body, stream: true }, { signal: controller.signal });
        await res.body!.getReader().read();
        controller.abort();
      }),
    );
    await within(Promise.all(s.requests.map((r) => r.closed)), 2000, "all closed");
    expect(s.requests.every((r) => r.aborted)).toBe(true);
    // Still serving: an answer without tokens, so tokenMs does not apply.
    const after = await complete(s, { model: MODEL, prompt: ADD_SUB, stop: "return" });
    expect(after.json.choices[0]).toMatchObject({ text: "", finish_reason: "stop" });
  });
});

describe("close()", () => {
  it("ends requests in flight and their timers, without calling them aborted", async () => {
    const pending = trackTimers([60_000, 10]);
    const s = await sim({ latencyMs: 60_000, keepAlive: true, keepAliveIntervalMs: 10 });
    const res = await post(s, { ...body, stream: true });
    expect(res.status).toBe(200);
    expect(pending()).toBe(2); // the latency and the keep-alive interval
    const reading = res.text().then(
      () => "ended",
      () => "failed",
    );
    await within(s.close(), 2000, "close");
    await within(s.requests[0]!.closed, 2000, "request closed");
    expect(s.requests[0]!.aborted).toBe(false);
    expect(await within(reading, 2000, "client saw the end")).toBe("failed");
    expect(pending()).toBe(0);
  });

  it("closes idle keep-alive connections and is idempotent", async () => {
    const s = await sim();
    const { Agent } = await import("node:http");
    const agent = new Agent({ keepAlive: true });
    const socketClosed = new Promise<void>((resolve, reject) => {
      const req = request(`${s.url}/completions`, { method: "POST", agent }, (res) => {
        res.resume();
        res.on("end", () => {
          // The socket now idles in the agent's pool.
          const socket = req.socket;
          if (socket === null) reject(new Error("no socket"));
          else socket.once("close", () => resolve());
        });
      });
      req.on("error", reject);
      req.end(JSON.stringify({ model: MODEL, prompt: "x" }));
    });
    await until(() => s.requests[0]?.status === 200, 2000, "answered");
    await within(Promise.all([s.close(), s.close()]), 2000, "close");
    await within(socketClosed, 2000, "idle socket closed");
    agent.destroy();
    await expect(fetch(`${s.url}/completions`, { method: "POST", body: "{}" })).rejects.toThrow(TypeError);
  });
});
