import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { type DialectName, startSim } from "@infill/sim";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { FIELDS } from "../../src/settings/settings-schema.js";
import { BIN, RawClient } from "../support/raw-client.js";

let client: RawClient | undefined;
beforeAll(() => {
  if (!existsSync(BIN)) throw new Error(`${BIN} is missing: build first (npx --yes pnpm@10 build)`);
});
afterEach(() => {
  client?.child.kill();
  client = undefined;
});

const initialize = (c: RawClient) => {
  c.send({ id: 1, method: "initialize", params: { processId: null, rootUri: null, capabilities: {} } });
  return c.response(1);
};

describe("infill-lsp over stdio", () => {
  it("answers initialize from the bundled file", async () => {
    client = new RawClient();
    const result = (await initialize(client)).result as { serverInfo: { name: string } };
    expect(result.serverInfo.name).toBe("infill-lsp");
  });

  it("survives a malformed frame and answers the next request", async () => {
    client = new RawClient();
    await initialize(client);
    client.frame("{ this is not json");
    client.send({
      id: 2,
      method: "textDocument/inlineCompletion",
      params: { textDocument: { uri: "file:///x" } },
    });
    client.send({
      id: 3,
      method: "textDocument/inlineCompletion",
      params: { textDocument: { uri: "file:///nope.ts" }, position: { line: 0, character: 0 } },
    });
    const broken = await client.response(2);
    // A request without a position is refused, naming the field; the server goes on.
    expect(broken.error).toMatchObject({ code: -32602, message: expect.stringContaining("position") });
    expect((await client.response(3)).result).toEqual({ items: [] });
    expect(client.child.exitCode).toBeNull();
  });

  it("refuses a second initialize, and keeps the first one's settings", async () => {
    client = new RawClient();
    await initialize(client);
    client.send({
      id: 2,
      method: "initialize",
      params: { processId: null, rootUri: null, capabilities: { general: { positionEncodings: ["utf-8"] } } },
    });
    expect((await client.response(2)).error).toMatchObject({
      code: -32600,
      message: "initialize was already received",
    });
  });

  it("refuses completion params without a position, naming the field", async () => {
    client = new RawClient();
    await initialize(client);
    client.send({
      id: 2,
      method: "textDocument/inlineCompletion",
      params: { textDocument: { uri: "file:///x.ts" } },
    });
    expect((await client.response(2)).error).toMatchObject({
      code: -32602,
      message: "infill: textDocument/inlineCompletion: position: expected an object",
    });
  });

  it("answers an unknown method with MethodNotFound and keeps going", async () => {
    client = new RawClient();
    await initialize(client);
    client.send({ id: 2, method: "infill/doesNotExist", params: {} });
    expect((await client.response(2)).error).toMatchObject({ code: -32601 });
  });

  it("exits 0 after shutdown and exit", async () => {
    client = new RawClient();
    await initialize(client);
    client.send({ id: 2, method: "shutdown" });
    await client.response(2);
    client.send({ method: "exit" });
    expect(await client.exited()).toBe(0);
  });

  /** Run the bin with `args` to its exit: its exit code and stdout. */
  async function runBin(args: string[]): Promise<{ code: number | null; out: string }> {
    const child = spawn(process.execPath, [BIN, ...args]);
    let out = "";
    child.stdout.on("data", (d: Buffer) => {
      out += d.toString();
    });
    const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
    return { code, out };
  }

  it("prints its help with every setting, from the README the bundle carries", async () => {
    const { code, out } = await runBin(["--help"]);
    expect(code).toBe(0);
    expect(out).toMatch(/^infill-lsp \d+\.\d+\.\d+/);
    for (const key of Object.keys(FIELDS)) expect(out).toMatch(new RegExp(`^  ${key}\\b`, "m"));
  });

  it("prints its version", async () => {
    const { code, out } = await runBin(["--version"]);
    expect(code).toBe(0);
    expect(out.trim()).toMatch(/^\d+\.\d+\.\d+/);
  });
});

describe("one LSP round trip per provider through the built server", () => {
  it.each<[string, DialectName, Record<string, unknown>, Record<string, string>]>([
    ["deepseek", "deepseek", {}, { DEEPSEEK_API_KEY: "sk-bin-0123456789" }],
    ["openai-compatible", "openai-compatible", { model: "Qwen/Qwen2.5-Coder-7B" }, {}],
    ["ollama", "ollama", {}, {}],
    ["llamacpp", "llamacpp", {}, {}],
    ["codestral", "codestral", {}, { CODESTRAL_API_KEY: "csk-bin-0123456789" }],
  ])("%s", async (provider, dialect, settings, env) => {
    const key = env.DEEPSEEK_API_KEY ?? env.CODESTRAL_API_KEY;
    const sim = await startSim({ dialect, ...(key ? { apiKey: key } : {}) });
    try {
      client = new RawClient({ INFILL_BASE_URL: sim.url, ...env });
      client.send({
        id: 1,
        method: "initialize",
        params: {
          processId: null,
          rootUri: null,
          capabilities: {},
          initializationOptions: { provider, debounceMs: 0, ...settings },
        },
      });
      await client.response(1);
      client.send({ method: "initialized", params: {} });
      const uri = `file:///${provider}.ts`;
      const text =
        "function add(a: number, b: number) {\n  return a + b;\n}\nfunction sub(a: number, b: number) {\n  \n}\n";
      client.send({
        method: "textDocument/didOpen",
        params: { textDocument: { uri, languageId: "typescript", version: 1, text } },
      });
      client.send({
        id: 2,
        method: "textDocument/inlineCompletion",
        params: { textDocument: { uri }, position: { line: 4, character: 2 }, context: { triggerKind: 1 } },
      });
      const answer = (await client.response(2, 10_000)).result as { items: Array<{ insertText: string }> };
      expect(answer.items[0]?.insertText).toBe("return a + b;");
      expect(sim.requests).toHaveLength(1);
      expect(sim.requests[0]?.status).toBe(200);
    } finally {
      await sim.close();
    }
  });
});
