// The built `infill` CLI (dist/cli.js) as a child process, against @infill/sim.
import { execFile, spawn } from "node:child_process";
import { once } from "node:events";
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { type DialectName, type Sim, startSim } from "@infill/sim";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_MODEL, FimClient, localDay, summarizeUsage, VERSION } from "../src/index.js";
import { formatUsageBreakdown } from "../src/usage-breakdown.js";
import { formatUsageSummary, parseUsageLog } from "../src/usage-report.js";
import { type Run, startCli } from "./support/cli-process.js";

const packageDir = fileURLToPath(new URL("..", import.meta.url));
const cliPath = join(packageDir, "dist", "cli.js");
const KEY = "sk-cli-test-key-4321";
const PROMPT = "def add(a, b):\n    return a + b\n\ndef sub(a, b):\n    ";

let sim: Sim;
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "infill-cli-"));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

afterEach(async () => {
  await sim?.close();
});

/** Runs the CLI without a shell; the sim keeps answering since nothing here blocks the event loop. */
function infill(args: string[], env: Record<string, string | undefined> = {}): Promise<Run> {
  return startCli(cliPath, args, { DEEPSEEK_API_KEY: KEY, ...env }).done;
}

async function expected(prompt: string, suffix?: string): Promise<string> {
  const client = new FimClient({ apiKey: KEY, baseURL: sim.url });
  const response = await client.complete(
    suffix === undefined ? { model: DEFAULT_MODEL, prompt } : { model: DEFAULT_MODEL, prompt, suffix },
  );
  return response.choices[0]?.text ?? "";
}

describe("infill complete", () => {
  it("prints the completion, newline-terminated", async () => {
    sim = await startSim({ apiKey: KEY });
    const run = await infill(["complete", "--prompt", PROMPT, "--suffix", "\n", "--base-url", sim.url]);
    expect(run).toEqual({ code: 0, stdout: `${await expected(PROMPT, "\n")}\n`, stderr: "" });
    expect(sim.requests[0]?.body).toEqual({ model: DEFAULT_MODEL, prompt: PROMPT, suffix: "\n" });
    expect(sim.requests[0]?.headers["user-agent"]).toBe(`infill-cli/${VERSION} infill/${VERSION}`);
  });

  it("--stream prints the same text as it arrives", async () => {
    sim = await startSim({ apiKey: KEY });
    const run = await infill(["complete", "--stream", "--prompt", PROMPT, "--base-url", sim.url]);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(`${await expected(PROMPT)}\n`);
    expect(sim.requests[0]?.body).toMatchObject({ stream: true });
  });

  it("--json prints the response; with --stream one chunk per line", async () => {
    sim = await startSim({ apiKey: KEY });
    const run = await infill(["complete", "--json", "--prompt", PROMPT, "--base-url", sim.url]);
    expect(run.code).toBe(0);
    const response = JSON.parse(run.stdout);
    expect(response.object).toBe("text_completion");
    expect(response.usage.total_tokens).toBeGreaterThan(0);

    const streamed = await infill([
      "complete",
      "--json",
      "--stream",
      "--prompt",
      PROMPT,
      "--base-url",
      sim.url,
    ]);
    const lines = streamed.stdout.trimEnd().split("\n");
    expect(lines.length).toBeGreaterThan(2);
    const chunks = lines.map((line) => JSON.parse(line));
    expect(chunks.map((c) => c.choices[0]?.text ?? "").join("")).toBe(response.choices[0].text);
  });

  it("passes --model, --max-tokens and --temperature", async () => {
    sim = await startSim({ apiKey: KEY });
    const run = await infill([
      "complete",
      "--prompt",
      "x",
      "--model",
      "deepseek-v4-pro",
      "--max-tokens",
      "7",
      "--temperature",
      "0",
      "--base-url",
      sim.url,
    ]);
    expect(run.code).toBe(0);
    expect(sim.requests[0]?.body).toEqual({
      model: "deepseek-v4-pro",
      prompt: "x",
      max_tokens: 7,
      temperature: 0,
    });
  });

  it("--file --line --character splits the file into prompt and suffix", async () => {
    sim = await startSim({ apiKey: KEY });
    const file = join(dir, "add.py");
    await writeFile(file, "def add(a, b):\r\n    return a + b\n\ndef sub(a, b):\n    \n");
    const run = await infill([
      "complete",
      "--file",
      file,
      "--line",
      "4",
      "--character",
      "4",
      "--base-url",
      sim.url,
    ]);
    expect(run.code).toBe(0);
    expect(sim.requests[0]?.body).toEqual({
      model: DEFAULT_MODEL,
      prompt: "def add(a, b):\r\n    return a + b\n\ndef sub(a, b):\n    ",
      suffix: "\n",
    });
  });

  it.each([
    [["--line", "9", "--character", "0"], "line 9 is past the end (the text has 3 lines, 0–2)"],
    [["--line", "0", "--character", "99"], "character 99 is past the end of line 0 (it has 5 characters)"],
    [["--line=-1", "--character", "0"], "--line must be a non-negative integer (0-based), got -1"],
    [["--line", "-1", "--character", "0"], "Option '--line' argument is ambiguous"],
    [["--line", "0"], "--file needs --line and --character"],
  ])("an out-of-range position %j is a usage error", async (position, message) => {
    sim = await startSim({ apiKey: KEY });
    const file = join(dir, "small.txt");
    await writeFile(file, "hello\nworld\n");
    const run = await infill(["complete", "--file", file, ...position, "--base-url", sim.url]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(message);
    expect(run.stderr.startsWith("infill: ")).toBe(true);
    expect(run.stderr.trimEnd().split("\n")).toHaveLength(1);
    expect(run.stdout).toBe("");
    expect(sim.requests).toHaveLength(0);
  });
});

describe("errors", () => {
  it.each([
    [["--max-tokens", "5000"], "infill: --max-tokens must be an integer between 1 and 4096 (got 5000)\n"],
    [["--max-tokens", "many"], "infill: --max-tokens must be an integer between 1 and 4096 (got NaN)\n"],
    [["--temperature", "9"], "infill: --temperature must be a number between 0 and 2 (got 9)\n"],
    [["--model", ""], 'infill: --model must be a non-empty string (e.g. deepseek-v4-flash) (got "")\n'],
  ])("%j is a usage error (exit 2) and sends nothing", async (flags, stderr) => {
    sim = await startSim({ apiKey: KEY });
    const run = await infill(["complete", "--prompt", "x", ...flags, "--base-url", sim.url]);
    expect(run).toEqual({ code: 2, stdout: "", stderr });
    expect(sim.requests).toHaveLength(0);
  });

  it.each([
    [[], "a command is required"],
    [["finish"], "unknown command: finish"],
    [["complete"], "--prompt TEXT or --file FILE is required"],
    [["complete", "--prompt", "x", "--frobnicate"], "Unknown option '--frobnicate'"],
    [["complete", "--prompt", "x", "--file", "f", "--line", "0", "--character", "0"], "cannot be combined"],
    [
      ["complete", "--file", "/nonexistent/file", "--line", "0", "--character", "0"],
      "cannot read /nonexistent/file: ENOENT",
    ],
    [["complete", "--prompt", "x", "--base-url", "http://10.0.0.1"], "--allow-insecure-http"],
    [
      ["complete", "--prompt", "x", "--base-url", "https://api.deepseek.com/beta/completions"],
      "--base-url must be the API base",
    ],
  ])("%j is a usage error", async (args, message) => {
    const run = await infill(args);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(message);
    expect(run.stderr.trimEnd().split("\n")).toHaveLength(1);
  });

  it("a bad INFILL_BASE_URL or DEEPSEEK_API_KEY is named as such (not --base-url), and not quoted", async () => {
    // The two variables swapped: the key lands in INFILL_BASE_URL.
    const swapped = await infill(["complete", "--prompt", "x"], { INFILL_BASE_URL: KEY });
    expect(swapped).toEqual({
      code: 2,
      stdout: "",
      stderr:
        "infill: INFILL_BASE_URL is not a valid URL; pass the API base as an http(s) URL, e.g. https://api.deepseek.com/beta\n",
    });
    const flag = await infill(["complete", "--prompt", "x", "--base-url", KEY]);
    expect(flag.stderr).toMatch(/^infill: --base-url is not a valid URL; pass the API base/);
    expect(flag.stderr).not.toContain(KEY);
    const key = await infill(["complete", "--prompt", "x"], { DEEPSEEK_API_KEY: "sk-with space" });
    expect(key.code).toBe(2);
    expect(key.stderr).toMatch(
      /^infill: DEEPSEEK_API_KEY contains characters that cannot go in an HTTP header/,
    );
  });

  it("a reader that stops early (| head -c 2): exit 0 quietly, not a crash on EPIPE", async () => {
    sim = await startSim({ apiKey: KEY, tokenMs: 50 });
    const child = spawn(
      process.execPath,
      [cliPath, "complete", "--stream", "--prompt", PROMPT, "--base-url", sim.url],
      {
        env: { PATH: process.env.PATH, DEEPSEEK_API_KEY: KEY },
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let stderr = "";
    child.stderr.on("data", (data: Buffer) => {
      stderr += data;
    });
    // Like head: read the first bytes, then close the pipe while the stream still has tokens to write.
    child.stdout.once("data", () => child.stdout.destroy());
    const [code] = await once(child, "close");
    expect({ code, stderr }).toEqual({ code: 0, stderr: "" });
    expect(sim.requests).toHaveLength(1);
  });

  it("a wrong key: one line naming DEEPSEEK_API_KEY, exit 1, the key not shown", async () => {
    sim = await startSim({ apiKey: KEY });
    const wrong = "sk-wrong-cli-key-abcd";
    const run = await infill(["complete", "--prompt", "x", "--base-url", sim.url], {
      DEEPSEEK_API_KEY: wrong,
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(
      /^infill: 401 Authentication Fails, Your api key: \*\*\*\*abcd is invalid \(request id [0-9a-f-]{36}\) — check DEEPSEEK_API_KEY\n$/,
    );
    expect(run.stderr).not.toContain(wrong);
  });

  it("an unreachable server: exit 1 with the base URL", async () => {
    const closed = await startSim();
    const url = closed.url;
    await closed.close();
    const run = await infill(["complete", "--prompt", "x", "--base-url", url]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`ECONNREFUSED`);
    expect(run.stderr).toContain(`(base URL ${url})`);
  }, 20_000);

  it("a stream cut short: exit 1 after what arrived", async () => {
    sim = await startSim({ apiKey: KEY, faults: [{ type: "cut", afterChunks: 2 }] });
    const run = await infill(["complete", "--stream", "--prompt", PROMPT, "--base-url", sim.url]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^infill: stream ended before \[DONE\]/);
  });
});

describe("--provider", () => {
  it.each<[string, string[], Record<string, string>]>([
    ["ollama", [], {}],
    ["llamacpp", [], {}],
    ["codestral", [], { CODESTRAL_API_KEY: "csk-cli" }],
    ["openai-compatible", ["--model", "Qwen/Qwen2.5-Coder-7B"], {}],
  ])("%s: completes and streams against the sim's dialect", async (provider, flags, env) => {
    sim = await startSim({
      dialect: provider as DialectName,
      ...(env.CODESTRAL_API_KEY ? { apiKey: "csk-cli" } : {}),
    });
    const args = [
      "complete",
      "--provider",
      provider,
      "--base-url",
      sim.url,
      "--prompt",
      PROMPT,
      "--suffix",
      "\n",
      ...flags,
    ];
    const whole = await infill(args, env);
    expect(whole).toEqual({ code: 0, stdout: "return a + b\n", stderr: "" });
    const streamed = await infill([...args, "--stream"], env);
    expect(streamed).toEqual({ code: 0, stdout: "return a + b\n", stderr: "" });
    const json = await infill([...args, "--json"], env);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toBeTypeOf("object");
  });

  it("ollama: the provider's default model, and its advice for a model that is not pulled", async () => {
    sim = await startSim({ dialect: "ollama" });
    await infill(["complete", "--provider", "ollama", "--base-url", sim.url, "--prompt", "x"]);
    expect(sim.requests[0]?.body).toMatchObject({ model: "qwen2.5-coder:1.5b-base" });
    const run = await infill([
      "complete",
      "--provider",
      "ollama",
      "--base-url",
      sim.url,
      "--prompt",
      "x",
      "--model",
      "mistral",
    ]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(
      /^infill: 404 model "mistral" not found, try pulling it first .*— run ollama pull mistral\n$/,
    );
  });

  it("llamacpp: a model without FIM tokens gets advice, exit 1", async () => {
    sim = await startSim({ dialect: "llamacpp", fim: false });
    const run = await infill(["complete", "--provider", "llamacpp", "--base-url", sim.url, "--prompt", "x"]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("501 Infill is not supported by this model");
    expect(run.stderr).toContain("— start llama-server with a model that has FIM tokens");
  });

  it("a local server that is not running: exit 1, with the base URL and what to start", async () => {
    const closed = await startSim({ dialect: "ollama" });
    const url = closed.url;
    await closed.close();
    const run = await infill(["complete", "--provider", "ollama", "--base-url", url, "--prompt", "x"]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`(base URL ${url}) — is Ollama (ollama serve) running?`);
  }, 20_000);

  it("codestral: a wrong key names CODESTRAL_API_KEY, or the variable --api-key-env names", async () => {
    sim = await startSim({ dialect: "codestral", apiKey: "csk-right" });
    const base = ["complete", "--provider", "codestral", "--base-url", sim.url, "--prompt", "x"];
    const run = await infill(base, { CODESTRAL_API_KEY: "csk-wrong" });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(
      /^infill: 401 Unauthorized \(request id [0-9a-f-]{36}\) — check CODESTRAL_API_KEY\n$/,
    );
    const named = await infill([...base, "--api-key-env", "MY_KEY"], { MY_KEY: "csk-right" });
    expect(named.code).toBe(0);
  });

  it.each([
    [
      ["--provider", "gpt"],
      "--provider must be one of deepseek, openai-compatible, ollama, llamacpp, codestral",
    ],
    [
      ["--provider", "openai-compatible", "--base-url", "http://127.0.0.1:9/v1"],
      "--model is required for openai-compatible",
    ],
    [
      ["--provider", "ollama", "--base-url", "http://127.0.0.1:11434/api/generate"],
      "--base-url must be the API base",
    ],
    [["--api-key-env", "sk-abc"], "--api-key-env must be the name of an environment variable"],
  ])("%j is a usage error (exit 2)", async (flags, message) => {
    const run = await infill(["complete", "--prompt", "x", ...flags]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(message);
    expect(run.stderr.trimEnd().split("\n")).toHaveLength(1);
  });
});

describe("help and version", () => {
  it("--help prints usage and exits 0", async () => {
    const run = await infill(["--help"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("Usage: infill complete");
    expect(run.stdout).toContain("--max-tokens");
  });

  it("--version prints the version", async () => {
    expect(await infill(["--version"])).toEqual({ code: 0, stdout: `${VERSION}\n`, stderr: "" });
  });
});

describe("infill usage", () => {
  const fixtureLog = (month: string) =>
    fileURLToPath(new URL(`./fixtures/usage/${month}.jsonl`, import.meta.url));
  let state: string;

  beforeAll(async () => {
    state = join(dir, "state");
    await mkdir(join(state, "infill", "usage"), { recursive: true });
    for (const month of ["2026-10", "2026-11"]) {
      await copyFile(fixtureLog(month), join(state, "infill", "usage", `${month}.jsonl`));
    }
  });

  it("prints the month and each model from the log under XDG_STATE_HOME", async () => {
    const run = await infill(["usage", "--month", "2026-10"], { XDG_STATE_HOME: state });
    const file = join(state, "infill", "usage", "2026-10.jsonl");
    const summary = summarizeUsage(
      parseUsageLog(await readFile(file, "utf8")).records,
      "2026-10",
      "2026-11-23",
    );
    expect(run).toEqual({
      code: 0,
      stdout: `infill usage, 2026-10 (${file})\n\n${formatUsageSummary(summary)}3 lines of ${file} could not be read.\n`,
      stderr: "",
    });
    expect(run.stdout).toMatch(/\n2026-10 +122 +397,000 +93 % +4,800 +\$0.006423\* +95 +38 +40 %\n/);
  });

  it("--json prints the same figures as JSON", async () => {
    const run = await infill(["usage", "--month", "2026-10", "--json"], { XDG_STATE_HOME: state });
    expect(run.code).toBe(0);
    const json = JSON.parse(run.stdout) as {
      skippedLines: number;
      total: Record<string, unknown>;
      models: unknown[];
    };
    expect(json.skippedLines).toBe(3);
    expect(json.total).toMatchObject({
      requests: 122,
      shown: 95,
      accepted: 28,
      acceptedPartly: 10,
      acceptanceRate: 0.4,
    });
    expect(json.total.cost).toBeCloseTo(0.00642275, 12);
    expect(json.models).toHaveLength(3);
  });

  it("falls back to ~/.local/state, and says when a month has nothing", async () => {
    const run = await infill(["usage", "--month", "2026-09"], { HOME: join(dir, "home") });
    const file = join(dir, "home", ".local", "state", "infill", "usage", "2026-09.jsonl");
    expect(run).toEqual({ code: 0, stdout: `No usage recorded for 2026-09 (${file}).\n`, stderr: "" });
  });

  it.each([
    [["usage", "--month", "2026-13"], /--month must be a month as YYYY-MM .*got 2026-13/],
    [["usage", "--month", "last"], /--month must be a month/],
    [["usage", "--bogus"], /Unknown option '--bogus'.*see infill usage --help/],
    [["usage", "extra"], /Unexpected argument 'extra'|positional/i],
    [["usage", "--by", "file"], /--by must be one of language, model, context, kind, got file/],
  ])("%j: exit 2 with one line", async (args, message) => {
    const run = await infill(args, { XDG_STATE_HOME: state });
    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr).toMatch(message);
    expect(run.stderr.trimEnd()).not.toContain("\n");
  });

  it("--help explains the command", async () => {
    const run = await infill(["usage", "--help"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(
      "infill usage [--by language|model|context|kind] [--month YYYY-MM] [--json]",
    );
    expect(run.stdout).toContain("--by kind splits\ncompletions at the cursor from next edits");
  });

  it.each(["language", "model", "context", "kind"] as const)(
    "--by %s prints the month split that way, as formatUsageBreakdown does",
    async (by) => {
      // The chart runs up to today: the day before and after the run, in case it spans midnight.
      const days = [localDay()];
      const run = await infill(["usage", "--month", "2026-11", "--by", by], { XDG_STATE_HOME: state });
      days.push(localDay());
      const file = join(state, "infill", "usage", "2026-11.jsonl");
      const records = parseUsageLog(await readFile(file, "utf8")).records;
      const expected = days.map((today) => ({
        code: 0,
        stdout: `infill usage, 2026-11, by ${by} (${file})\n\n${formatUsageBreakdown(summarizeUsage(records, "2026-11", today), by, today)}`,
        stderr: "",
      }));
      expect(expected).toContainEqual(run);
    },
  );

  it("--by context --json adds the groups and the comparison of the arms", async () => {
    const run = await infill(["usage", "--month", "2026-11", "--by", "context", "--json"], {
      XDG_STATE_HOME: state,
    });
    expect(run.code).toBe(0);
    const json = JSON.parse(run.stdout) as {
      by: string;
      groups: Array<{ label: string; figures: { requests: number } }>;
      contextEffect: { with: { requests: number }; heldOut: { requests: number } };
    };
    expect(json.by).toBe("context");
    expect(json.groups.map((g) => [g.label, g.figures.requests])).toEqual([
      ["with context", 132],
      ["held out", 18],
      ["unknown (older lines)", 13],
    ]);
    expect([json.contextEffect.with.requests, json.contextEffect.heldOut.requests]).toEqual([132, 18]);
  });
});

describe("the usage log with several writers", () => {
  it("loses no line when processes append to the same file at once (O_APPEND, one write each)", async () => {
    const file = join(dir, "concurrent", "2026-11.jsonl");
    const writers = 4;
    // Every process waits for the same moment, then appends (two records per append) for the same 400 ms, so the
    // appends really overlap; each prints how many it made.
    const startAt = Date.now() + 5_000;
    const script = `
      import { appendUsageRecords } from ${JSON.stringify(pathToFileURL(join(packageDir, "dist", "usage-log.js")).href)};
      const [file, id, startAt] = process.argv.slice(1);
      const base = { cancelled: 0, superseded: 0, failed: 0, unreported: 0, cacheHitTokens: 0, cacheMissTokens: 0,
        completionTokens: 0, cost: 0.000001, unpricedTokens: 0, shown: 1, accepted: 0, acceptedPartly: 0, acceptedChars: 0,
        acceptedCharsSq: 0, retention: {}, language: "typescript", context: "on" };
      await new Promise((resolve) => setTimeout(resolve, Number(startAt) - Date.now()));
      let appends = 0;
      while (Date.now() < Number(startAt) + 400) {
        appendUsageRecords(file, [
          { ...base, day: "2026-11-02", provider: "deepseek", model: "writer-" + id, requests: 1 },
          { ...base, day: "2026-11-03", provider: "deepseek", model: "writer-" + id, requests: 2 },
        ]);
        appends++;
      }
      process.stdout.write(String(appends));`;
    const counts = await Promise.all(
      Array.from({ length: writers }, async (_, id) => {
        const args = ["--input-type=module", "-e", script, file, String(id), String(startAt)];
        return Number((await promisify(execFile)(process.execPath, args)).stdout);
      }),
    );
    const { records, skipped } = parseUsageLog(await readFile(file, "utf8"));
    expect(skipped).toBe(0);
    const appends = counts.reduce((a, b) => a + b, 0);
    expect(Math.min(...counts)).toBeGreaterThan(10);
    expect(records).toHaveLength(appends * 2);
    const summary = summarizeUsage(records, "2026-11", "2026-11-03");
    expect(summary.total.requests).toBe(appends * 3);
    expect(summary.today?.figures.requests).toBe(appends * 2);
    const byWriter = new Map(summary.models.map((m) => [m.model, m.figures.requests]));
    expect(counts.map((_, id) => byWriter.get(`writer-${id}`))).toEqual(counts.map((n) => n * 3));
  }, 60_000);
});
