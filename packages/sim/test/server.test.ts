import { Agent, request } from "node:http";
import { describe, expect, it } from "vitest";
import { baseUrl } from "../src/server.js";
import { ADD_SUB, complete, MODEL, raw, sim } from "./helpers.js";

describe("routing", () => {
  it("serves DeepSeek's base URL", async () => {
    const s = await sim();
    expect(s.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/beta$/);
    expect(Number(new URL(s.url).port)).toBeGreaterThan(0);
  });

  it.each([
    ["POST", "/beta/completions/"],
    ["POST", "/completions"],
    ["POST", "/v1/completions"],
    ["POST", "/chat/completions"],
    ["POST", "/v1/chat/completions"],
    ["GET", "/beta/models"],
    ["GET", "/"],
  ])("%s %s: 404 with a JSON error body", async (method, path) => {
    const s = await sim();
    const res = await raw(new URL(path, s.url).href, method === "POST" ? "{}" : undefined, { method });
    expect(res.status).toBe(404);
    expect(res.headers["content-type"]).toBe("application/json");
    expect(res.headers["x-ds-trace-id"]).toBeDefined();
    expect(JSON.parse(res.body)).toEqual({
      error: {
        message: `Not Found: no route for ${method} ${path}`,
        type: "invalid_request_error",
        param: null,
        code: "invalid_request_error",
      },
    });
    expect(s.requests).toEqual([]);
  });

  it("GET /beta/completions: 405", async () => {
    const s = await sim();
    const res = await raw(`${s.url}/completions`, undefined, { method: "GET" });
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe("POST");
    expect(JSON.parse(res.body).error.message).toContain("POST only");
  });

  it("ignores a query string", async () => {
    const s = await sim();
    expect(
      (await raw(`${s.url}/completions?x=1`, JSON.stringify({ model: MODEL, prompt: "x" }))).status,
    ).toBe(200);
  });

  it("answers 413 to a body over 16 MiB", async () => {
    const s = await sim();
    const res = await raw(`${s.url}/completions`, "x".repeat(16 * 1024 * 1024 + 1));
    expect(res.status).toBe(413);
    expect(JSON.parse(res.body).error.message).toBe("Request body too large");
  });
});

describe("requests", () => {
  it("records every request in arrival order, with headers, body and status", async () => {
    const s = await sim();
    for (const prompt of ["one", "two", "three"]) {
      await complete(s, { model: MODEL, prompt }, { "x-test": prompt });
    }
    expect(s.requests.map((r) => (r.body as { prompt: string }).prompt)).toEqual(["one", "two", "three"]);
    expect(s.requests.map((r) => r.headers["x-test"])).toEqual(["one", "two", "three"]);
    expect(s.requests.map((r) => r.status)).toEqual([200, 200, 200]);
    await Promise.all(s.requests.map((r) => r.closed));
    expect(s.requests.every((r) => !r.aborted)).toBe(true);
  });

  it.each([
    [0, []],
    [2, ["three", "four"]],
  ])("keepRequests %i keeps only the latest", async (keepRequests, kept) => {
    const s = await sim({ keepRequests });
    for (const prompt of ["one", "two", "three", "four"]) await complete(s, { model: MODEL, prompt });
    expect(s.requests.map((r) => (r.body as { prompt: string }).prompt)).toEqual(kept);
  });

  it("serves 64 concurrent requests", async () => {
    const s = await sim({ tokenMs: 1 });
    const results = await Promise.all(
      Array.from({ length: 64 }, (_, i) =>
        complete(s, {
          model: MODEL,
          prompt: `// request ${i}\n${ADD_SUB}`,
          stream: i % 2 === 0 ? undefined : false,
        }),
      ),
    );
    expect(results.every((r) => r.status === 200 && r.json.choices[0].text === "return a + b;")).toBe(true);
    expect(s.requests).toHaveLength(64);
  });

  it("keeps connections alive between requests", async () => {
    const s = await sim();
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const send = () =>
      new Promise<boolean>((resolve, reject) => {
        const req = request(`${s.url}/completions`, { method: "POST", agent }, (res) => {
          res.resume();
          res.on("end", () => resolve(req.reusedSocket));
        });
        req.on("error", reject);
        req.end(JSON.stringify({ model: MODEL, prompt: "x" }));
      });
    expect(await send()).toBe(false);
    expect(await send()).toBe(true);
    agent.destroy();
  });
});

describe("options", () => {
  it("listens on the port and host asked for", async () => {
    const probe = await sim();
    const port = Number(new URL(probe.url).port);
    await probe.close();
    const s = await sim({ port, host: "127.0.0.1" });
    expect(s.url).toBe(`http://127.0.0.1:${port}/beta`);
    expect((await complete(s, { model: MODEL, prompt: "x" })).status).toBe(200);
  });

  it("rejects when the port is taken", async () => {
    const s = await sim();
    await expect(sim({ port: Number(new URL(s.url).port) })).rejects.toMatchObject({ code: "EADDRINUSE" });
  });

  it.each([
    ["127.0.0.1", "http://127.0.0.1:8080/beta"],
    ["localhost", "http://localhost:8080/beta"],
    ["::1", "http://[::1]:8080/beta"],
  ])("base URL for host %s", (host, url) => {
    expect(baseUrl(host, 8080)).toBe(url);
  });
});
