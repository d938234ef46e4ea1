// The shared pool honours HTTP_PROXY / NO_PROXY. Its own file: the pool is created once per module instance, on
// the first request, from the environment at that moment.
import { once } from "node:events";
import { createServer, type Server } from "node:http";
import { type AddressInfo, connect } from "node:net";
import { type Sim, startSim } from "@infill/sim";
import { afterAll, beforeAll, expect, it } from "vitest";
import { FimClient } from "../src/index.js";

const PROXY_VARS = [
  "HTTP_PROXY",
  "http_proxy",
  "HTTPS_PROXY",
  "https_proxy",
  "NO_PROXY",
  "no_proxy",
] as const;
const saved = Object.fromEntries(PROXY_VARS.map((name) => [name, process.env[name]]));
const tunnels: string[] = [];
let proxy: Server;
let sim: Sim;

beforeAll(async () => {
  sim = await startSim();
  // A CONNECT proxy, as undici's ProxyAgent tunnels plain http too.
  proxy = createServer((_req, res) => res.writeHead(501).end());
  proxy.on("connect", (req, client, head) => {
    tunnels.push(req.url ?? "");
    const [host, port] = (req.url ?? "").split(":");
    const upstream = connect(Number(port), host, () => {
      client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
      upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    upstream.on("error", () => client.destroy());
    client.on("error", () => upstream.destroy());
  });
  proxy.listen(0, "127.0.0.1");
  await once(proxy, "listening");
  for (const name of PROXY_VARS) delete process.env[name];
  process.env.HTTP_PROXY = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
});

afterAll(async () => {
  for (const name of PROXY_VARS) {
    if (saved[name] === undefined) delete process.env[name];
    else process.env[name] = saved[name];
  }
  await sim.close();
  proxy.closeAllConnections();
  proxy.close();
});

const request = { model: "deepseek-v4-flash", prompt: "def add(a, b):\n    return a + b\n", max_tokens: 8 };

it("goes through HTTP_PROXY, and around it for hosts in NO_PROXY", async () => {
  const client = new FimClient({ apiKey: "k", baseURL: sim.url });
  await client.complete(request);
  const target = new URL(sim.url).host;
  expect(tunnels).toEqual([target]);
  expect(sim.requests).toHaveLength(1);

  // EnvHttpProxyAgent re-reads NO_PROXY on every request.
  process.env.NO_PROXY = "localhost,127.0.0.1";
  await client.complete(request);
  expect(tunnels).toEqual([target]);
  expect(sim.requests).toHaveLength(2);
});
