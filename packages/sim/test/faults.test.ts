import { describe, expect, it } from "vitest";
import { type Fault, parseFaults } from "../src/index.js";
import { ADD_SUB, complete, MODEL, parseSse, post, raw, rawCompletion, sim, within } from "./helpers.js";

const body = { model: MODEL, prompt: ADD_SUB };

describe("parseFaults", () => {
  it.each<[string, Fault[]]>([
    [
      "503x2,429:retry-after=1,reset,garbage,cut:3",
      [
        { type: "status", status: 503, times: 2 },
        { type: "status", status: 429, retryAfter: "1" },
        { type: "reset" },
        { type: "garbage" },
        { type: "cut", afterChunks: 3 },
      ],
    ],
    ["", []],
    [" 500 , cut ", [{ type: "status", status: 500 }, { type: "cut" }]],
    [
      "resetx3,garbagex2,cutx2:0",
      [
        { type: "reset", times: 3 },
        { type: "garbage", times: 2 },
        { type: "cut", times: 2, afterChunks: 0 },
      ],
    ],
    ["429x2:retry-after=30", [{ type: "status", status: 429, times: 2, retryAfter: "30" }]],
    ["402", [{ type: "status", status: 402 }]],
    [
      "stream-error,stream-errorx2:0",
      [{ type: "stream-error" }, { type: "stream-error", times: 2, afterChunks: 0 }],
    ],
    [
      "slow:800,slowx2:0",
      [
        { type: "slow", latencyMs: 800 },
        { type: "slow", latencyMs: 0, times: 2 },
      ],
    ],
  ])("%j", (spec, faults) => {
    expect(parseFaults(spec)).toEqual(faults);
  });

  it.each([
    ["oops", 'invalid fault "oops"'],
    ["200", "status must be 400–599"],
    ["700", "status must be 400–599"],
    ["503x0", "times must be at least 1"],
    ["503:wait=1", "retry-after=VALUE"],
    ["cut:many", "chunk count"],
    ["reset:1", "reset takes no option"],
    ["slow", "latency in milliseconds"],
    ["slow:soon", "latency in milliseconds"],
    ["503,,bogus", 'invalid fault "bogus"'],
  ])("rejects %j", (spec, message) => {
    expect(() => parseFaults(spec)).toThrow(message);
  });
});

describe("inject", () => {
  it.each<[string, Fault]>([
    ["a status outside 400–599", { type: "status", status: 200 }],
    ["times 0", { type: "reset", times: 0 }],
    ["a negative chunk count", { type: "cut", afterChunks: -1 }],
    ["a slow fault without its latency", { type: "slow" } as unknown as Fault],
    ["an unknown type", { type: "explode" } as unknown as Fault],
  ])("refuses %s", async (_, fault) => {
    const s = await sim();
    expect(() => s.inject(fault)).toThrow(TypeError);
  });

  it("queues nothing when one fault of a batch is malformed", async () => {
    const s = await sim();
    expect(() => s.inject({ type: "garbage" }, { type: "status", status: 99 })).toThrow(TypeError);
    expect((await complete(s, body)).status).toBe(200);
  });
});

describe("status faults", () => {
  it.each([
    [429, "Rate Limit Reached", "rate_limit_error"],
    [500, "Server Error", "server_error"],
    [503, "Server Overloaded", "server_error"],
    [402, "Insufficient Balance", "unknown_error"],
    [401, "Authentication Fails (no such user)", "authentication_error"],
    [400, "Invalid Format", "invalid_request_error"],
    [422, "Invalid Parameters", "invalid_request_error"],
    [502, "Bad Gateway", "unknown_error"],
  ])("%i: DeepSeek's body", async (status, message, type) => {
    const s = await sim({ faults: [{ type: "status", status }] });
    const res = await complete(s, body);
    expect(res.status).toBe(status);
    expect(res.headers.get("content-type")).toBe("application/json");
    expect(res.headers.get("retry-after")).toBeNull();
    expect(res.headers.get("x-ds-trace-id")).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.json).toEqual({ error: { message, type, param: null, code: "invalid_request_error" } });
    expect(s.requests[0]?.status).toBe(status);
  });

  it("sends Retry-After when given", async () => {
    const s = await sim({ faults: [{ type: "status", status: 429, retryAfter: "2" }] });
    const res = await complete(s, body);
    expect(res.status).toBe(429);
    expect(res.headers.get("retry-after")).toBe("2");
  });

  it("plays faults in order, repeats `times`, then answers normally", async () => {
    const s = await sim({ faults: parseFaults("503x2,429,500") });
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await complete(s, body)).status);
    expect(statuses).toEqual([503, 503, 429, 500, 200]);
  });

  it("inject appends to the queue", async () => {
    const s = await sim({ faults: [{ type: "status", status: 503 }] });
    s.inject({ type: "status", status: 429 }, { type: "status", status: 500 });
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await complete(s, body)).status);
    expect(statuses).toEqual([503, 429, 500, 200]);
  });

  it("applies before validation and authentication", async () => {
    const s = await sim({ apiKey: "sk-right-key-0000", faults: [{ type: "status", status: 503 }] });
    expect((await complete(s, { prompt: 1 })).status).toBe(503);
    expect((await complete(s, { prompt: 1 })).status).toBe(401);
  });

  it("is consumed only by /beta/completions", async () => {
    const s = await sim({ faults: [{ type: "status", status: 503 }] });
    expect((await raw(`${s.url}/models`, undefined, { method: "GET" })).status).toBe(404);
    expect((await complete(s, body)).status).toBe(503);
  });
});

describe("reset", () => {
  it("resets the connection before any byte, then serves the next request", async () => {
    const s = await sim({ faults: [{ type: "reset" }] });
    await expect(rawCompletion(s, body)).rejects.toMatchObject({ code: "ECONNRESET" });
    const [record] = s.requests;
    await within(record!.closed, 2000, "reset request closed");
    expect(record).toMatchObject({ status: 0, aborted: false, body });
    expect((await complete(s, body)).status).toBe(200);
  });

  it("fails fetch too", async () => {
    const s = await sim({ faults: [{ type: "reset", times: 2 }] });
    await expect(complete(s, body)).rejects.toThrow(TypeError);
    await expect(complete(s, { ...body, stream: true })).rejects.toThrow(TypeError);
  });
});

describe("garbage", () => {
  it.each([false, true])("answers 200 application/json that is not JSON (stream %s)", async (stream) => {
    const s = await sim({ faults: [{ type: "garbage" }] });
    const res = await rawCompletion(s, { ...body, stream });
    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toBe("application/json");
    expect(res.complete).toBe(true);
    expect(res.body.length).toBeGreaterThan(0);
    expect(() => JSON.parse(res.body)).toThrow(SyntaxError);
    expect(s.requests[0]?.status).toBe(200);
  });
});

describe("cut", () => {
  const streamBody = { ...body, stream: true, stream_options: { include_usage: true } };

  it.each([0, 1, 3])("stream: %i data chunks, no [DONE], connection ended", async (afterChunks) => {
    const s = await sim({ faults: [{ type: "cut", afterChunks }] });
    const res = await rawCompletion(s, streamBody);
    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toBe("text/event-stream; charset=utf-8");
    expect(res.complete).toBe(false);
    const sse = parseSse(res.body);
    expect(sse.events).toHaveLength(afterChunks);
    expect(sse.done).toBe(false);
    if (afterChunks > 0) expect(sse.events[0].choices[0].text).toBe("");
    const [record] = s.requests;
    await within(record!.closed, 2000, "cut request closed");
    expect(record).toMatchObject({ status: 200, aborted: false });
  });

  it("stream: defaults to 2 chunks", async () => {
    const s = await sim({ faults: parseFaults("cut") });
    const res = await rawCompletion(s, streamBody);
    expect(parseSse(res.body).events).toHaveLength(2);
    expect(res.complete).toBe(false);
  });

  it("stream: spaced by tokenMs as well", async () => {
    const s = await sim({ tokenMs: 5, faults: [{ type: "cut", afterChunks: 3 }] });
    const res = await rawCompletion(s, streamBody);
    expect(parseSse(res.body).events).toHaveLength(3);
    expect(res.complete).toBe(false);
  });

  it("non-stream: the body stops mid-JSON and the connection ends", async () => {
    const s = await sim({ faults: [{ type: "cut" }] });
    const cut = await rawCompletion(s, body);
    const whole = await rawCompletion(s, body);
    expect(cut.status).toBe(200);
    expect(cut.complete).toBe(false);
    expect(Number(cut.headers["content-length"])).toBe(Buffer.byteLength(whole.body));
    expect(cut.body.length).toBe(Math.floor(whole.body.length / 2));
    expect(() => JSON.parse(cut.body)).toThrow(SyntaxError);
    // Same bytes as a whole answer up to the cut, but for the id.
    const strip = (text: string) => text.replace(/"id":"[^"]*"/, "").replace(/"created":\d+/, "");
    expect(strip(whole.body).startsWith(strip(cut.body))).toBe(true);
    expect(whole.complete).toBe(true);
  });

  it("non-stream with keep-alive lines: truncated too", async () => {
    const s = await sim({
      latencyMs: 30,
      keepAlive: true,
      keepAliveIntervalMs: 5,
      faults: [{ type: "cut" }],
    });
    const res = await rawCompletion(s, body);
    expect(res.complete).toBe(false);
    expect(res.body.trimStart().startsWith('{"id":')).toBe(true);
    expect(() => JSON.parse(res.body)).toThrow(SyntaxError);
  });

  it("fetch fails reading either body", async () => {
    const s = await sim({ faults: [{ type: "cut", afterChunks: 1, times: 2 }] });
    await expect(complete(s, body)).rejects.toThrow(TypeError);
    const res = await post(s, streamBody);
    expect(res.status).toBe(200);
    await expect(res.text()).rejects.toThrow(TypeError);
  });
});

describe("slow", () => {
  it("answers one request after its own latency, the next after the server's", async () => {
    const s = await sim({ latencyMs: 0, faults: [{ type: "slow", latencyMs: 300 }] });
    const slow = await rawCompletion(s, body);
    expect(slow.status).toBe(200);
    expect(slow.headersAfterMs).toBeGreaterThanOrEqual(295);
    // The fault is spent: the next request gets the server's latency (none), and the same completion.
    const quick = await rawCompletion(s, body);
    expect(quick.status).toBe(200);
    expect(JSON.parse(quick.body).choices).toEqual(JSON.parse(slow.body).choices);
  });
});
