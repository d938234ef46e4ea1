// Connections opened ahead of the first request: the client against @infill/sim with a connection set-up delay,
// and WarmConnector against a node:http server whose keep-alive ends quickly.
import { once } from "node:events";
import { createServer, type Server } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { type Sim, startSim } from "@infill/sim";
import { Agent } from "undici";
import { afterEach, describe, expect, it } from "vitest";
import { FimClient } from "../src/index.js";
import { WarmConnector } from "../src/preconnect.js";
import { until } from "./support/local-server.js";

const request = { model: "deepseek-v4-flash", prompt: "a = 1\nb = 2\na", max_tokens: 4 };
const SET_UP_MS = 250;

const closers: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

async function simWithSetUp(): Promise<Sim> {
  const sim = await startSim({ connectDelayMs: SET_UP_MS });
  closers.push(() => sim.close());
  return sim;
}

async function timed(client: FimClient): Promise<number> {
  const t0 = performance.now();
  await client.complete(request);
  return performance.now() - t0;
}

describe("FimClient.preconnect()", () => {
  it("opens the connection ahead, so the first request does not pay its set-up", async () => {
    const cold = new FimClient({ baseURL: (await simWithSetUp()).url, apiKey: "" });
    const warmed = new FimClient({ baseURL: (await simWithSetUp()).url, apiKey: "" });
    expect(await warmed.preconnect()).toBe(true);
    // The pool holds it now: nothing more to open.
    expect(await warmed.preconnect()).toBe(false);
    expect(await timed(cold)).toBeGreaterThanOrEqual(SET_UP_MS);
    expect(await timed(warmed)).toBeLessThan(SET_UP_MS);
    // The connection the request used is kept alive: still nothing to open.
    expect(await warmed.preconnect()).toBe(false);
  });

  it("does nothing with a dispatcher of the caller's, and never rejects when the server is down", async () => {
    const sim = await simWithSetUp();
    const dispatcher = new Agent();
    closers.push(() => dispatcher.close());
    expect(await new FimClient({ baseURL: sim.url, apiKey: "", dispatcher }).preconnect()).toBe(false);
    const down = await startSim();
    const url = down.url;
    await down.close();
    expect(await new FimClient({ baseURL: url, apiKey: "" }).preconnect()).toBe(false);
  });
});

describe("WarmConnector", () => {
  /** A server that closes idle connections after 100 ms, counting the connections it accepted. */
  async function shortKeepAlive(): Promise<{ server: Server; origin: string; sockets: Socket[] }> {
    const sockets: Socket[] = [];
    const server = createServer((req, res) => {
      req.resume();
      res.end("ok");
    });
    server.keepAliveTimeout = 100;
    server.on("connection", (socket: Socket) => sockets.push(socket));
    server.listen(0, "127.0.0.1");
    await once(server, "listening");
    closers.push(async () => {
      server.closeAllConnections();
      server.close();
    });
    return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, sockets };
  }

  it("hands the parked connection to the pool, and opens again once the keep-alive ended it", async () => {
    const { origin, sockets } = await shortKeepAlive();
    const connector = new WarmConnector();
    // undici's default keep-alive is longer than the server's; the server's `Keep-Alive: timeout` hint wins.
    const agent = new Agent({ connect: connector.connect });
    closers.push(() => agent.close());
    expect(await connector.preconnect(origin)).toBe(true);
    await until(() => sockets.length === 1, 2_000, "the server to accept the connection");
    const res = await agent.request({ origin, path: "/", method: "GET" });
    expect(await res.body.text()).toBe("ok");
    expect(sockets).toHaveLength(1);
    expect(await connector.preconnect(origin)).toBe(false);
    // Idle past the keep-alive: the connection is gone, so the next preconnect opens one.
    expect(connector.holds(origin)).toBe(true);
    await until(() => !connector.holds(origin), 2_000, "the idle connection to close");
    expect(await connector.preconnect(origin)).toBe(true);
    await until(() => sockets.length === 2, 2_000, "a second connection");
    connector.close();
  });

  it("gives a request the connection still being opened instead of opening another", async () => {
    const { origin, sockets } = await shortKeepAlive();
    const connector = new WarmConnector();
    const agent = new Agent({ connect: connector.connect });
    closers.push(() => agent.close());
    const opening = connector.preconnect(origin);
    const res = await agent.request({ origin, path: "/", method: "GET" });
    expect(await res.body.text()).toBe("ok");
    expect(await opening).toBe(true);
    expect(sockets).toHaveLength(1);
  });
});
