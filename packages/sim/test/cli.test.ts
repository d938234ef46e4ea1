import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { parseCliArgs } from "../src/cli-args.js";
import { MODEL, raw, within } from "./helpers.js";

describe("parseCliArgs", () => {
  it.each<[string[], unknown]>([
    [[], { kind: "run", options: {} }],
    [
      [
        "--port",
        "8080",
        "--host",
        "0.0.0.0",
        "--key",
        "sk-x",
        "--latency-ms",
        "250",
        "--token-ms",
        "20",
        "--keep-alive",
      ],
      {
        kind: "run",
        options: {
          port: 8080,
          host: "0.0.0.0",
          apiKey: "sk-x",
          latencyMs: 250,
          tokenMs: 20,
          keepAlive: true,
        },
      },
    ],
    [
      ["--fail", "503x2,reset"],
      { kind: "run", options: { faults: [{ type: "status", status: 503, times: 2 }, { type: "reset" }] } },
    ],
    [["--port=0"], { kind: "run", options: { port: 0 } }],
    [["--dialect", "ollama", "--no-fim"], { kind: "run", options: { dialect: "ollama", fim: false } }],
    [
      ["--connect-delay-ms", "150", "--concurrency-limit", "4"],
      { kind: "run", options: { connectDelayMs: 150, concurrencyLimit: 4 } },
    ],
    [["--tpm-limit", "90000"], { kind: "run", options: { tokensPerMinute: 90_000 } }],
    [["-h"], { kind: "help" }],
    [["--version"], { kind: "version" }],
    [["-v", "--port", "1"], { kind: "version" }],
    [["--help", "--bogus"], { kind: "error", message: "Unknown option '--bogus' (see --help)" }],
  ])("%j", (args, command) => {
    expect(parseCliArgs(args)).toEqual(command);
  });

  it.each([
    [["--bogus"], "Unknown option '--bogus'"],
    [["--port", "http"], '--port expects a whole number up to 65535, got "http"'],
    [["--port", "70000"], "--port expects a whole number up to 65535"],
    [["--latency-ms=-5"], '--latency-ms expects a whole number, got "-5"'],
    [["--latency-ms", "-5"], "Option '--latency-ms' argument is ambiguous (see --help)"],
    [["--token-ms", "1.5"], '--token-ms expects a whole number, got "1.5"'],
    [
      ["--connect-delay-ms", "soon"],
      '--connect-delay-ms expects a whole number up to 2147483647, got "soon"',
    ],
    [["--concurrency-limit", "0"], "--concurrency-limit must be at least 1"],
    [["--tpm-limit", "0"], "--tpm-limit must be at least 1"],
    [["--tpm-limit", "1e5"], '--tpm-limit expects a whole number, got "1e5"'],
    [["--fail", "boom"], 'invalid fault "boom"'],
    [
      ["--dialect", "gpt"],
      '--dialect expects one of deepseek, openai-compatible, ollama, llamacpp, codestral, got "gpt"',
    ],
    [["--port"], "Option '--port <value>' argument missing"],
    [["extra"], "Unexpected argument 'extra'"],
  ])("%j is an error on one line", (args, message) => {
    const command = parseCliArgs(args);
    expect(command.kind).toBe("error");
    if (command.kind !== "error") return;
    expect(command.message).toContain(message);
    expect(command.message).not.toContain("\n");
  });
});

describe("the infill-sim binary", () => {
  const outDir = fileURLToPath(new URL("../.cache/cli-test/", import.meta.url));
  const cli = `${outDir}cli.js`;
  const children: ChildProcess[] = [];

  beforeAll(() => {
    // The CLI runs as a real process, so it runs compiled; the package's own build config, another outDir.
    const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
    const project = fileURLToPath(new URL("../tsconfig.build.json", import.meta.url));
    execFileSync(process.execPath, [
      tsc,
      "-p",
      project,
      "--outDir",
      outDir,
      "--declaration",
      "false",
      "--declarationMap",
      "false",
      "--sourceMap",
      "false",
    ]);
  }, 60_000);

  afterEach(() => {
    for (const child of children.splice(0)) if (child.exitCode === null) child.kill("SIGKILL");
  });

  function run(args: string[]) {
    const child = spawn(process.execPath, [cli, ...args], { stdio: ["ignore", "pipe", "pipe"] });
    children.push(child);
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (text: string) => {
      stdout += text;
    });
    child.stderr.setEncoding("utf8").on("data", (text: string) => {
      stderr += text;
    });
    const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
    const url = new Promise<string>((resolve, reject) => {
      child.stdout.on("data", () => {
        if (stdout.includes("\n")) resolve(stdout.split("\n")[0]!);
      });
      child.once("exit", () => reject(new Error(`exited before printing a URL; stderr: ${stderr}`)));
    });
    // Tests of failing command lines never wait for a URL.
    url.catch(() => {});
    return { child, url, exited, output: () => ({ stdout, stderr }) };
  }

  it("starts with a shebang", () => {
    expect(readFileSync(cli, "utf8").split("\n")[0]).toBe("#!/usr/bin/env node");
  });

  it.each(["SIGTERM", "SIGINT"] as const)(
    "prints its base URL, serves, and exits 0 on %s",
    async (signal) => {
      const proc = run([]);
      const url = await within(proc.url, 10_000, "URL printed");
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/beta$/);
      const res = await raw(`${url}/completions`, JSON.stringify({ model: MODEL, prompt: "a;\nb;\na" }));
      expect(res.status).toBe(200);
      expect(JSON.parse(res.body).object).toBe("text_completion");
      proc.child.kill(signal);
      expect(await within(proc.exited, 10_000, "exit")).toBe(0);
      expect(proc.output()).toEqual({ stdout: `${url}\n`, stderr: "" });
    },
  );

  it("applies --key, --fail and --keep-alive, and never prints the key", async () => {
    const key = "sk-cli-secret-key-4321";
    const proc = run(["--key", key, "--fail", "503", "--latency-ms", "60", "--keep-alive"]);
    const url = await within(proc.url, 10_000, "URL printed");
    const send = (headers: Record<string, string> = {}) =>
      raw(`${url}/completions`, JSON.stringify({ model: MODEL, prompt: "x" }), { headers });
    expect((await send({ authorization: `Bearer ${key}` })).status).toBe(503);
    const refused = await send({ authorization: "Bearer sk-not-the-right-one" });
    expect(refused.status).toBe(401);
    expect(JSON.parse(refused.body).error.message).toContain("****-one");
    const ok = await send({ authorization: `Bearer ${key}` });
    expect(ok.status).toBe(200);
    expect(ok.body.startsWith("\n")).toBe(true);
    proc.child.kill("SIGTERM");
    expect(await within(proc.exited, 10_000, "exit")).toBe(0);
    const { stdout, stderr } = proc.output();
    expect(stdout + stderr).not.toContain(key);
    expect(stdout).toBe(`${url}\n`);
  });

  it.each([
    [["--bogus"], "infill-sim: Unknown option '--bogus' (see --help)\n"],
    [["--port", "x"], 'infill-sim: --port expects a whole number up to 65535, got "x" (see --help)\n'],
    [
      ["--fail", "nope"],
      'infill-sim: invalid fault "nope": expected STATUS, reset, garbage, cut, stream-error or slow (see --help)\n',
    ],
  ])("%j: one line on stderr, exit 2", async (args, message) => {
    const proc = run(args);
    expect(await within(proc.exited, 10_000, "exit")).toBe(2);
    expect(proc.output()).toEqual({ stdout: "", stderr: message });
  });

  it("--help prints the usage and exits 0", async () => {
    const proc = run(["--help"]);
    expect(await within(proc.exited, 10_000, "exit")).toBe(0);
    expect(proc.output().stdout).toMatch(/^Usage: infill-sim \[options\]/);
  });

  it("--version prints the package's version and exits 0", async () => {
    const proc = run(["--version"]);
    expect(await within(proc.exited, 10_000, "exit")).toBe(0);
    const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as {
      version: string;
    };
    expect(proc.output()).toEqual({ stdout: `${pkg.version}\n`, stderr: "" });
  });

  it("exits 1 with a message when the port is taken", async () => {
    const first = run([]);
    const port = new URL(await within(first.url, 10_000, "URL printed")).port;
    const second = run(["--port", port]);
    expect(await within(second.exited, 10_000, "exit")).toBe(1);
    expect(second.output().stderr).toMatch(/^infill-sim: .*EADDRINUSE.*\n$/);
    first.child.kill("SIGTERM");
    expect(await within(first.exited, 10_000, "exit")).toBe(0);
  });
});
