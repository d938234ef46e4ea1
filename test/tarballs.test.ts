import { type ChildProcessWithoutNullStreams, execFile, spawn } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join, posix, relative } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Manifest, publishedPackages, root, type WorkspacePackage } from "./packages.js";

// The user's path, for real: every published package packed with `pnpm pack` (what `changeset publish` uploads),
// installed with plain npm into a new project and into a new global prefix, then used the way its README says.
// The registry is needed for the packages' own dependencies (undici, zod, eventsource-parser, @types/node).

const run = promisify(execFile);

/** Upper bound of one command (pack, npm install, tsc), in ms: generous for a loaded 2-core machine. */
const COMMAND_TIMEOUT_MS = 120_000;
/** Upper bound of a step that waits on a process the test talks to, in ms. */
const STEP_TIMEOUT_MS = 20_000;
/**
 * Most bytes `@infill/lsp-server` may unpack to: one bundled file and its lazy chunks, no maps (about 1.8 MB), and
 * the tree-sitter runtime with its grammars, brotli-compressed (about 1.9 MB for twelve languages).
 */
const SERVER_UNPACKED_BUDGET = 5_000_000;

/** The environment for npm and the installed programs: no npm_* settings inherited from the pnpm running us. */
function cleanEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!/^(npm_|pnpm_)/i.test(key)) env[key] = value;
  }
  return { ...env, NO_UPDATE_NOTIFIER: "1", ...extra };
}

/** Run a command to its end; a failure throws with its output. */
async function sh(file: string, args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}) {
  try {
    return await run(file, args, {
      cwd: options.cwd ?? root,
      env: options.env ?? cleanEnv(),
      timeout: COMMAND_TIMEOUT_MS,
      maxBuffer: 16 * 1024 * 1024,
    });
  } catch (error) {
    const { stdout = "", stderr = "" } = error as { stdout?: string; stderr?: string };
    throw new Error(`${file} ${args.join(" ")} failed: ${(error as Error).message}\n${stdout}\n${stderr}`);
  }
}

/** Every file below `dir`, as POSIX paths relative to it. */
function filesBelow(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)).split("\\").join("/"))
    .sort();
}

interface Packed {
  pkg: WorkspacePackage;
  manifest: Manifest;
  tarball: string;
  /** Where the tarball was extracted (its `package/` folder). */
  extracted: string;
  files: string[];
  unpackedBytes: number;
}

let work = "";
const packed = new Map<string, Packed>();
let consumer = "";
let prefix = "";
const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");

/** The packed package named `name`. */
function get(name: string): Packed {
  const found = packed.get(name);
  if (!found) throw new Error(`${name} was not packed`);
  return found;
}

/** A command installed in the global prefix. */
const bin = (name: string) => join(prefix, "bin", name);

beforeAll(async () => {
  const packages = publishedPackages();
  for (const pkg of packages) {
    if (!existsSync(join(pkg.path, "dist"))) {
      throw new Error(
        `${pkg.manifest.name} is not built: run \`npx --yes pnpm@10 build\` first (\`pnpm test\` does)`,
      );
    }
  }
  work = mkdtempSync(join(tmpdir(), "infill-publish-"));
  const tarballs = join(work, "tarballs");
  // One pnpm for all: it packs as `changeset publish` will (workspace: ranges resolved).
  await sh(
    "npx",
    [
      "--yes",
      "pnpm@10",
      ...packages.flatMap((pkg) => ["--filter", pkg.manifest.name]),
      "pack",
      "--pack-destination",
      tarballs,
    ],
    { env: process.env },
  );
  for (const pkg of packages) {
    const file = `${pkg.manifest.name.replace(/^@/, "").replace("/", "-")}-${pkg.manifest.version}.tgz`;
    const tarball = join(tarballs, file);
    const extracted = join(work, "extracted", pkg.dir);
    mkdirSync(extracted, { recursive: true });
    await sh("tar", ["-xzf", tarball, "-C", extracted]);
    const packageDir = join(extracted, "package");
    const files = filesBelow(packageDir);
    packed.set(pkg.manifest.name, {
      pkg,
      manifest: JSON.parse(readFileSync(join(packageDir, "package.json"), "utf8")) as Manifest,
      tarball,
      extracted: packageDir,
      files,
      unpackedBytes: files.reduce((sum, file) => sum + statSync(join(packageDir, file)).size, 0),
    });
  }

  consumer = join(work, "consumer");
  prefix = join(work, "global");
  mkdirSync(consumer);
  writeFileSync(join(consumer, "package.json"), JSON.stringify({ name: "consumer", private: true }));
  const npmInstall = ["install", "--no-audit", "--no-fund", "--prefer-offline", "--loglevel=error"];
  // The server's package too, for its one library entry: `@infill/lsp-server/status`.
  const libraries = [
    get("@infill/core").tarball,
    get("@infill/sim").tarball,
    get("@infill/lsp-server").tarball,
  ];
  await Promise.all([
    sh("npm", [...npmInstall, ...libraries, "@types/node@^20.19.0"], { cwd: consumer }),
    sh(
      "npm",
      [...npmInstall, "--global", "--prefix", prefix, ...[...packed.values()].map((p) => p.tarball)],
      {
        cwd: work,
      },
    ),
  ]);
}, 4 * COMMAND_TIMEOUT_MS);

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

describe.each(publishedPackages().map((pkg) => pkg.manifest.name))("the %s tarball", (name) => {
  it("holds LICENSE, README.md and package.json, and no tests, benchmarks or build files", () => {
    const { files, extracted } = get(name);
    expect(files).toEqual(expect.arrayContaining(["LICENSE", "README.md", "package.json"]));
    expect(readFileSync(join(extracted, "LICENSE"), "utf8")).toBe(
      readFileSync(join(root, "LICENSE"), "utf8"),
    );
    const stray = files.filter((file) =>
      /(^|\/)(test|tests|__tests__|bench|demo|build|node_modules)\/|\.test\.[cm]?[jt]s$|\.tsbuildinfo$|^build\.mjs$|^tsconfig/.test(
        file,
      ),
    );
    expect(stray).toEqual([]);
  });

  it("has source maps that resolve: every map's sources are shipped, every sourceMappingURL names a shipped map", () => {
    const { files, extracted } = get(name);
    const shipped = new Set(files);
    const missing: string[] = [];
    for (const file of files) {
      if (file.endsWith(".map")) {
        const map = JSON.parse(readFileSync(join(extracted, file), "utf8")) as {
          sourceRoot?: string;
          sources: string[];
          sourcesContent?: Array<string | null>;
        };
        map.sources.forEach((source, i) => {
          const target = posix.normalize(posix.join(posix.dirname(file), map.sourceRoot ?? "", source));
          if (!shipped.has(target) && typeof map.sourcesContent?.[i] !== "string") {
            missing.push(`${file} → ${source}`);
          }
        });
      } else if (/\.(c|m)?js$|\.d\.(c|m)?ts$/.test(file)) {
        const url = /\/\/# sourceMappingURL=(\S+)\s*$/.exec(readFileSync(join(extracted, file), "utf8"))?.[1];
        if (url && !url.startsWith("data:")) {
          const target = posix.normalize(posix.join(posix.dirname(file), url));
          if (!shipped.has(target)) missing.push(`${file} → ${url}`);
        }
      }
    }
    expect(missing).toEqual([]);
  });

  it(
    "has a package.json npm publishes as it is (`npm pkg fix` changes nothing)",
    async () => {
      const { extracted } = get(name);
      const before = readFileSync(join(extracted, "package.json"), "utf8");
      await sh("npm", ["pkg", "fix"], { cwd: extracted });
      expect(JSON.parse(readFileSync(join(extracted, "package.json"), "utf8"))).toEqual(JSON.parse(before));
    },
    COMMAND_TIMEOUT_MS,
  );
});

describe("@infill/lsp-server as installed", () => {
  it(`has no dependencies and unpacks to under ${SERVER_UNPACKED_BUDGET / 1e6} MB`, () => {
    const { manifest, unpackedBytes } = get("@infill/lsp-server");
    expect(manifest.dependencies ?? {}).toEqual({});
    expect(manifest.optionalDependencies ?? {}).toEqual({});
    expect(manifest.peerDependencies ?? {}).toEqual({});
    expect(existsSync(join(prefix, "lib", "node_modules", "@infill", "lsp-server", "node_modules"))).toBe(
      false,
    );
    expect(unpackedBytes).toBeLessThan(SERVER_UNPACKED_BUDGET);
  });

  it("ships the tree-sitter runtime and the grammars it parses with, compressed", () => {
    const { files } = get("@infill/lsp-server");
    expect(files).toContain("dist/grammars/tree-sitter.wasm.br");
    expect(files).toContain("dist/grammars/tree-sitter-c.wasm.br");
    expect(files).toContain("dist/grammars/tree-sitter-java.wasm.br");
  });

  it(
    "answers an inline completion over stdio with the embedded sim",
    async () => {
      const server = new StdioClient(bin("infill-lsp"), ["--stdio"]);
      try {
        const init = (await server.request("initialize", {
          processId: process.pid,
          rootUri: null,
          // It says when it shows a suggestion (as the Neovim plugin does), so the count does not wait for a timer.
          capabilities: { experimental: { infill: { reportsShown: true } } },
          initializationOptions: { provider: "sim", debounceMs: 0 },
        })) as { serverInfo?: { name: string; version: string } };
        expect(init.serverInfo).toEqual({
          name: "infill-lsp",
          version: get("@infill/lsp-server").manifest.version,
        });
        server.notify("initialized", {});
        const uri = "file:///consumer/add.ts";
        const text = "function add(a, b) {\n  return a + b;\n}\n\nfunction sub(a, b) {\n  \n}\n";
        server.notify("textDocument/didOpen", {
          textDocument: { uri, languageId: "typescript", version: 1, text },
        });
        const answer = (await server.request("textDocument/inlineCompletion", {
          textDocument: { uri },
          position: { line: 5, character: 2 },
          context: { triggerKind: 2 },
        })) as { items: Array<{ insertText: string; command?: { arguments?: Array<{ id: string }> } }> };
        expect(answer.items[0]?.insertText).toMatch(/\S/);
        const id = answer.items[0]?.command?.arguments?.[0]?.id;
        expect(id).toMatch(/^s\d+$/);
        await server.request("workspace/executeCommand", { command: "infill.shown", arguments: [{ id }] });
        // The usage figures, checked by the schema the package exports, loaded the way a tool would load it.
        const status = await server.request("workspace/executeCommand", {
          command: "infill.status",
          arguments: [{ message: false }],
        });
        writeFileSync(join(consumer, "status.json"), JSON.stringify(status));
        writeFileSync(
          join(consumer, "status.mjs"),
          `import { readFileSync } from "node:fs";
import { StatusSchema } from "@infill/lsp-server/status";
const status = StatusSchema.parse(JSON.parse(readFileSync("status.json", "utf8")));
const broken = StatusSchema.safeParse({ ...status, total: { ...status.total, requests: -1 } });
console.log(JSON.stringify({ requests: status.total.requests, shown: status.total.shown, broken: broken.success }));
`,
        );
        const checked = await sh(process.execPath, ["status.mjs"], { cwd: consumer });
        expect(JSON.parse(checked.stdout)).toEqual({ requests: 1, shown: 1, broken: false });
        await server.request("shutdown", null);
        server.notify("exit", null);
        expect(await server.exitCode()).toBe(0);
      } finally {
        server.kill();
      }
    },
    4 * STEP_TIMEOUT_MS,
  );
});

describe("the installed commands", () => {
  it.each([
    ["infill", "@infill/core"],
    ["infill-sim", "@infill/sim"],
    ["infill-lsp", "@infill/lsp-server"],
  ])(
    "%s --version prints the version of %s",
    async (command, pkg) => {
      const { stdout } = await sh(bin(command), ["--version"], { cwd: work });
      expect(stdout).toBe(`${get(pkg).manifest.version}\n`);
    },
    STEP_TIMEOUT_MS,
  );

  it(
    "infill completes against infill-sim",
    async () => {
      const sim = spawn(bin("infill-sim"), [], { env: cleanEnv(), stdio: ["ignore", "pipe", "pipe"] });
      try {
        const url = await firstLine(sim);
        expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/beta$/);
        const { stdout } = await sh(
          bin("infill"),
          [
            "complete",
            "--base-url",
            url,
            "--prompt",
            "const one = 1;\nconst two = 2;\nconst one",
            "--max-tokens",
            "16",
          ],
          { cwd: work, env: cleanEnv({ DEEPSEEK_API_KEY: "sk-test" }) },
        );
        expect(stdout).toMatch(/\S/);
        sim.kill("SIGTERM");
        expect(await new Promise((resolve) => sim.once("exit", resolve))).toBe(0);
      } finally {
        sim.kill("SIGKILL");
      }
    },
    COMMAND_TIMEOUT_MS,
  );
});

describe("the libraries in a new project", () => {
  // The same program as an ES module and as CommonJS: start the sim, complete through the client.
  const program = (load: string) => `${load}
async function main() {
  const sim = await startSim();
  try {
    const client = new FimClient({ baseURL: sim.url, apiKey: "sk-test" });
    const response = await client.complete({ model: DEFAULT_MODEL, prompt: "let a = 1;\\nlet b = 2;\\nlet a", max_tokens: 16 });
    console.log(JSON.stringify({ text: response.choices[0].text, exports: Object.keys(core).sort() }));
  } finally {
    await sim.close();
  }
}
main().catch((error) => { console.error(error); process.exitCode = 1; });
`;

  it(
    "import (ESM) and require() (CommonJS) load the same package and complete against the sim",
    async () => {
      writeFileSync(
        join(consumer, "esm.mjs"),
        program(
          'import * as core from "@infill/core";\nimport { startSim } from "@infill/sim";\nconst { FimClient, DEFAULT_MODEL } = core;',
        ),
      );
      writeFileSync(
        join(consumer, "cjs.cjs"),
        program(
          'const core = require("@infill/core");\nconst { startSim } = require("@infill/sim");\nconst { FimClient, DEFAULT_MODEL } = core;',
        ),
      );
      const [esm, cjs] = await Promise.all([
        sh(process.execPath, ["esm.mjs"], { cwd: consumer }),
        sh(process.execPath, ["cjs.cjs"], { cwd: consumer }),
      ]);
      const fromImport = JSON.parse(esm.stdout) as { text: string; exports: string[] };
      expect(fromImport.text).toMatch(/\S/);
      expect(fromImport.exports).toContain("FimClient");
      expect(JSON.parse(cjs.stdout)).toEqual(fromImport);
      expect(cjs.stderr).toBe("");
    },
    COMMAND_TIMEOUT_MS,
  );

  it(
    "type-checks a consumer with NodeNext (ESM and CommonJS) and with Bundler resolution",
    async () => {
      const use = `
const client = new FimClient({ apiKey: "sk-test", timeoutMs: 1000 });
const request: CompletionRequest = { model: DEFAULT_MODEL, prompt: "def f():" };
export async function complete(): Promise<string | undefined> {
  const sim: Sim = await startSim({ latencyMs: 0 });
  try {
    return (await client.complete(request)).choices[0]?.text;
  } catch (error) {
    if (error instanceof ApiError) return String(error.status);
    throw error;
  } finally {
    await sim.close();
  }
}
// Types that resolved to \`any\` would accept this, and the unused directive would fail the check.
// @ts-expect-error prompt is a string
export const wrong: CompletionRequest = { model: DEFAULT_MODEL, prompt: 1 };
`;
      const esmImports = `import { ApiError, type CompletionRequest, DEFAULT_MODEL, FimClient } from "@infill/core";
import { type Sim, startSim } from "@infill/sim";
import { type Status, StatusSchema } from "@infill/lsp-server/status";
`;
      // The status schema's entry is an ES module: used from the ES module consumers.
      const useStatus = `
export function requests(json: unknown): number {
  const status: Status = StatusSchema.parse(json);
  return status.total.requests + (status.total.latency.endToEnd.p50 ?? 0);
}
// @ts-expect-error the cost is a number
export const notACost: Status["total"]["cost"] = "free";
`;
      writeFileSync(join(consumer, "consumer.mts"), esmImports + use + useStatus);
      writeFileSync(join(consumer, "bundler.ts"), esmImports + use + useStatus);
      writeFileSync(
        join(consumer, "consumer.cts"),
        `import core = require("@infill/core");
import sim = require("@infill/sim");
const { ApiError, DEFAULT_MODEL, FimClient } = core;
const { startSim } = sim;
type CompletionRequest = core.CompletionRequest;
type Sim = sim.Sim;
${use.replace("export async function", "async function").replace("export const", "const")}
module.exports = { complete, wrong };
`,
      );
      const options = { strict: true, noEmit: true, target: "es2022", types: ["node"] };
      writeFileSync(
        join(consumer, "tsconfig.nodenext.json"),
        JSON.stringify({
          // Declaration files checked too, once: an import in our .d.ts that does not resolve for a consumer
          // (a devDependency's type) would otherwise pass as `any`.
          compilerOptions: {
            ...options,
            skipLibCheck: false,
            module: "nodenext",
            moduleResolution: "nodenext",
          },
          files: ["consumer.mts", "consumer.cts"],
        }),
      );
      writeFileSync(
        join(consumer, "tsconfig.bundler.json"),
        JSON.stringify({
          compilerOptions: {
            ...options,
            skipLibCheck: true,
            module: "preserve",
            moduleResolution: "bundler",
          },
          files: ["bundler.ts"],
        }),
      );
      await Promise.all([
        sh(process.execPath, [tsc, "-p", "tsconfig.nodenext.json"], { cwd: consumer }),
        sh(process.execPath, [tsc, "-p", "tsconfig.bundler.json"], { cwd: consumer }),
      ]);
    },
    COMMAND_TIMEOUT_MS,
  );
});

/** The first line a process prints on stdout (within STEP_TIMEOUT_MS). */
function firstLine(child: ChildProcessWithoutNullStreams | ReturnType<typeof spawn>): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = "";
    let err = "";
    const timer = setTimeout(
      () => reject(new Error(`no output line within ${STEP_TIMEOUT_MS} ms: ${err}`)),
      STEP_TIMEOUT_MS,
    );
    child.stderr?.on("data", (chunk: Buffer) => {
      err += chunk.toString();
    });
    child.stdout?.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes("\n")) {
        clearTimeout(timer);
        resolve(out.split("\n")[0]!);
      }
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`exited (${code}) before printing a line: ${err}`));
    });
  });
}

/** The smallest LSP client: Content-Length framing over a child's stdio, requests matched by id. */
class StdioClient {
  readonly #child: ChildProcessWithoutNullStreams;
  #buffer = Buffer.alloc(0);
  #nextId = 1;
  readonly #pending = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
  #stderr = "";
  readonly #exited: Promise<number | null>;

  constructor(command: string, args: string[]) {
    this.#child = spawn(command, args, { env: cleanEnv({ DEEPSEEK_API_KEY: "" }) });
    this.#child.stderr.on("data", (chunk: Buffer) => {
      this.#stderr += chunk.toString();
    });
    this.#child.stdout.on("data", (chunk: Buffer) => this.#read(chunk));
    this.#exited = new Promise((resolve) => this.#child.once("exit", resolve));
    void this.#exited.then((code) => {
      for (const { reject } of this.#pending.values()) {
        reject(new Error(`infill-lsp exited (${code}): ${this.#stderr}`));
      }
    });
  }

  #read(chunk: Buffer): void {
    this.#buffer = Buffer.concat([this.#buffer, chunk]);
    for (;;) {
      const end = this.#buffer.indexOf("\r\n\r\n");
      if (end === -1) return;
      const length = Number(/Content-Length: (\d+)/i.exec(this.#buffer.subarray(0, end).toString())?.[1]);
      if (this.#buffer.length < end + 4 + length) return;
      const message = JSON.parse(this.#buffer.subarray(end + 4, end + 4 + length).toString()) as {
        id?: number;
        method?: string;
        result?: unknown;
        error?: { message: string };
      };
      this.#buffer = this.#buffer.subarray(end + 4 + length);
      if (message.method !== undefined && message.id !== undefined) {
        // A request from the server (workspace/configuration, window/workDoneProgress/create): answer it.
        this.#send({
          jsonrpc: "2.0",
          id: message.id,
          result: message.method === "workspace/configuration" ? [null] : null,
        });
      } else if (message.id !== undefined) {
        const waiter = this.#pending.get(message.id);
        this.#pending.delete(message.id);
        if (message.error) waiter?.reject(new Error(message.error.message));
        else waiter?.resolve(message.result);
      }
    }
  }

  #send(message: unknown): void {
    const body = JSON.stringify(message);
    this.#child.stdin.write(`Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
  }

  request(method: string, params: unknown): Promise<unknown> {
    const id = this.#nextId++;
    this.#send({ jsonrpc: "2.0", id, method, params });
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`${method}: no answer within ${STEP_TIMEOUT_MS} ms`)),
        STEP_TIMEOUT_MS,
      );
      this.#pending.set(id, {
        resolve: (value) => {
          clearTimeout(timer);
          resolve(value);
        },
        reject: (error) => {
          clearTimeout(timer);
          reject(error);
        },
      });
    });
  }

  notify(method: string, params: unknown): void {
    this.#send({ jsonrpc: "2.0", method, params });
  }

  exitCode(): Promise<number | null> {
    return this.#exited;
  }

  kill(): void {
    if (this.#child.exitCode === null) this.#child.kill("SIGKILL");
  }
}
