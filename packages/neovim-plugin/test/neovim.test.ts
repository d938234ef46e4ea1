import { execFile, spawn } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { createRequire } from "node:module";
import { homedir, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { type Sim, startSim } from "@infill/sim";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CONTEXT_PROJECTS, type ContextProject, openFile } from "./context-projects.js";
import { MAIL_CLIENT_MEMBERS, TYPE_DEFINITIONS_PROJECT } from "./type-definitions-project.js";

// Runs the Lua specs under test/spec (unit), test/e2e (the plugin launching the built infill-lsp against
// @infill/sim) and test/install (the README's lazy.nvim spec installing from a clone of this repository) in real
// headless Neovim 0.10 and 0.12, each spec file in its own Neovim with isolated XDG dirs.

const pluginRoot = fileURLToPath(new URL("..", import.meta.url));
const repoRoot = join(pluginRoot, "..", "..");
const serverJs = join(repoRoot, "packages", "lsp-server", "dist", "infill-lsp.js");
const VERSIONS = ["nvim-0.10", "nvim-0.12"] as const;
/** Upper bound of one spec file's Neovim, in ms. */
const RUN_TIMEOUT_MS = 60_000;
/** Upper bound of an install spec's Neovim (it may clone the repository and build the server), in ms. */
const INSTALL_TIMEOUT_MS = 300_000;

const specs = (dir: string) =>
  readdirSync(join(pluginRoot, "test", dir))
    .filter((name) => name.endsWith("_spec.lua"))
    .sort()
    .map((name) => `test/${dir}/${name}`);
/** The e2e spec whose project the test writes and whose request to the sim it checks (repository context). */
const CONTEXT_SPEC = "test/e2e/context_spec.lua";
/** The e2e spec that runs with typescript-language-server beside infill (types from the editor). */
const TYPE_DEFINITIONS_SPEC = "test/e2e/type_definitions_spec.lua";
const unitSpecs = specs("spec");
const e2eSpecs = specs("e2e").filter((spec) => spec !== CONTEXT_SPEC && spec !== TYPE_DEFINITIONS_SPEC);
const installSpecs = specs("install");

/** Only Lua cases whose name contains this run (for debugging); then a spec file may run none. */
const filter = process.env.INFILL_TEST_FILTER ?? "";

/** Spec files that run without an API key (everything else gets `DEEPSEEK_API_KEY=sk-test`). */
const WITHOUT_KEY = new Set(["test/e2e/missing_key_spec.lua"]);

/** The spec that runs against a sim taking 20 ms a token, so that a block streams line by line. */
const STREAM_SPEC = "test/e2e/stream_spec.lua";

/** The spec that walks through a rename with next edits (the sim's edit model answers the chat requests). */
const NEXT_EDIT_SPEC = "test/e2e/next_edit_spec.lua";

/** The sim's chat requests (next edits; completions are FIM requests with a `prompt`). */
const chatRequests = (log: Sim | undefined) =>
  log?.requests.filter((r) => Array.isArray((r.body as { messages?: unknown } | undefined)?.messages))
    .length ?? 0;

interface CaseResult {
  name: string;
  status: "pass" | "fail" | "skip";
  ms?: number;
  error?: string;
  reason?: string;
}

interface RunResult {
  done: boolean;
  nvim: string;
  results: CaseResult[];
}

/** Write a context project under `dir`, the open file without its cursor marker; returns its path. */
function writeContextProject(dir: string, project: ContextProject): string {
  for (const [rel, text] of Object.entries(project.files)) {
    mkdirSync(dirname(join(dir, rel)), { recursive: true });
    writeFileSync(join(dir, rel), rel === project.open ? openFile(project).text : text);
  }
  return dir;
}

/**
 * The context block's text by the file it comes from: each path line (`// lib/pricing.ts`, in the language's
 * comment) of one of `paths` starts a section, which runs to the next one. The block starts with one.
 */
function blockSections(block: string, comment: string, paths: string[]): Map<string, string> {
  const heads = new Map(paths.map((path) => [`${comment} ${path}`, path]));
  const sections = new Map<string, string>();
  let current: string | undefined;
  for (const line of block.split("\n").slice(0, -1)) {
    const path = heads.get(line);
    if (path !== undefined) {
      current = path;
      sections.set(path, sections.get(path) ?? "");
    } else if (current === undefined) {
      throw new Error(`the block does not start with a path line: ${JSON.stringify(block.slice(0, 200))}`);
    } else {
      sections.set(current, `${sections.get(current)}${line}\n`);
    }
  }
  return sections;
}

let binDir = "";
let sim: Sim | undefined;
/** An Ollama look-alike, for the specs that use another provider. */
let ollama: Sim | undefined;
let slowSim: Sim | undefined;
let scratch = "";

beforeAll(async () => {
  // Provision before anything isolates HOME: the editors are cached under the real ~/.cache.
  const provision = join(repoRoot, "scripts", "provision-editors.sh");
  const { stdout } = await promisify(execFile)(provision, ["--print-bin", ...VERSIONS], {
    timeout: 15 * 60_000,
  });
  binDir = stdout.trim().split("\n").pop() ?? "";
  sim = await startSim();
  ollama = await startSim({ dialect: "ollama" });
  slowSim = await startSim({ tokenMs: 20 });
  scratch = mkdtempSync(join(tmpdir(), "infill-nvim-"));
}, 15 * 60_000);

afterAll(async () => {
  await sim?.close();
  await ollama?.close();
  await slowSim?.close();
  if (scratch) rmSync(scratch, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
});

let runs = 0;

/**
 * The environment of the install specs: no plugin on the runtimepath, the repository's committed state as a URL to
 * clone (one clone for every version), and the user's npm cache and pnpm store, which a real install would use
 * (the isolated HOME and XDG dirs would otherwise make the build download everything again).
 */
async function installEnv(): Promise<NodeJS.ProcessEnv> {
  const { stdout } = await promisify(execFile)("npx", ["--yes", "pnpm@10", "store", "path"], {
    cwd: repoRoot,
  });
  return {
    INFILL_TEST_BARE: "1",
    INFILL_TEST_REPO_URL: pathToFileURL(repoRoot).href,
    INFILL_TEST_CLONE: join(scratch, "lazy-clone"),
    INFILL_TEST_TIMEOUT: String(INSTALL_TIMEOUT_MS),
    npm_config_cache: process.env.npm_config_cache || join(homedir(), ".npm"),
    // `pnpm store path` names the versioned folder inside the store.
    npm_config_store_dir: stdout.trim().replace(/[/\\]v\d+$/, ""),
  };
}

/** Run one spec file in a fresh headless Neovim and return what its runner wrote. */
async function runSpec(
  version: string,
  spec: string,
  extraEnv: NodeJS.ProcessEnv = {},
  timeoutMs = RUN_TIMEOUT_MS,
): Promise<RunResult> {
  const home = join(scratch, `run-${++runs}`);
  const dirs = ["config", "data", "state", "cache", "config-dirs", "data-dirs", "tmp"];
  for (const dir of dirs) mkdirSync(join(home, dir), { recursive: true });
  const resultsFile = join(home, "results.json");
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: home,
    TMPDIR: join(home, "tmp"),
    XDG_CONFIG_HOME: join(home, "config"),
    XDG_DATA_HOME: join(home, "data"),
    XDG_STATE_HOME: join(home, "state"),
    XDG_CACHE_HOME: join(home, "cache"),
    // Keep the system's /etc/xdg/nvim and /usr/share/nvim/site off the runtimepath.
    XDG_CONFIG_DIRS: join(home, "config-dirs"),
    XDG_DATA_DIRS: join(home, "data-dirs"),
    INFILL_TEST_SPEC: spec,
    INFILL_TEST_RESULTS: resultsFile,
    INFILL_BASE_URL: spec === STREAM_SPEC ? slowSim?.url : sim?.url,
    INFILL_TEST_OLLAMA_URL: ollama?.url,
    INFILL_TEST_FILTER: filter,
    ...(WITHOUT_KEY.has(spec) ? {} : { DEEPSEEK_API_KEY: "sk-test" }),
    ...extraEnv,
  };
  const nvim = join(binDir, version);
  const child = spawn(nvim, ["--headless", "-u", "test/init.lua", "-i", "NONE", "-n"], {
    cwd: pluginRoot,
    env,
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
  });
  const exit = await new Promise<{ code: number | null; signal: NodeJS.Signals | null; timedOut: boolean }>(
    (resolve) => {
      const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
      let timedOut = false;
      timer.unref();
      child.on("close", (code, signal) => {
        clearTimeout(timer);
        timedOut = signal === "SIGKILL";
        resolve({ code, signal, timedOut });
      });
    },
  );
  if (!existsSync(resultsFile)) {
    throw new Error(
      `${version} ${spec}: no results (exit ${exit.code ?? exit.signal}${exit.timedOut ? `, killed after ${timeoutMs} ms` : ""})\n${stderr}`,
    );
  }
  return JSON.parse(readFileSync(resultsFile, "utf8")) as RunResult;
}

/** Every case passed (or was skipped for a stated reason), and at least one ran. */
function expectPassed(run: RunResult, spec: string) {
  const failures = run.results
    .filter((r) => r.status === "fail")
    .map((r) => `✗ ${r.name}\n${r.error ?? ""}`)
    .join("\n\n");
  expect(failures, `${spec} in Neovim ${run.nvim}`).toBe("");
  expect(run.done).toBe(true);
  if (!filter) {
    expect(
      run.results.filter((r) => r.status === "pass").length,
      `${spec}: cases that passed`,
    ).toBeGreaterThan(0);
  }
}

describe.each(VERSIONS)("%s", (version) => {
  it(
    "is the Neovim it claims to be",
    async () => {
      const run = await runSpec(version, "test/spec/version_spec.lua");
      expectPassed(run, "version_spec");
      expect(run.nvim.startsWith(version.replace("nvim-", ""))).toBe(true);
    },
    RUN_TIMEOUT_MS + 5_000,
  );

  it.each(unitSpecs.filter((spec) => !spec.endsWith("version_spec.lua")))(
    "unit: %s",
    async (spec) => {
      expectPassed(await runSpec(version, spec), spec);
    },
    RUN_TIMEOUT_MS + 5_000,
  );

  it.each(e2eSpecs)(
    "e2e: %s",
    async (spec) => {
      if (!existsSync(serverJs)) {
        throw new Error(
          `${serverJs} is missing: build the server first (\`npx pnpm@10 build\`; \`pnpm test\` does).`,
        );
      }
      const aborted = () => slowSim?.requests.filter((r) => r.aborted).length ?? 0;
      const abortedBefore = aborted();
      const chatBefore = chatRequests(sim);
      expectPassed(await runSpec(version, spec), spec);
      // The rename's other two sites came from one upstream answer (after the first accept the server served the
      // second from memory), one more asks for more once the rename is finished, and one after the spec's undo:
      // without the memory there would be four.
      if (spec === NEXT_EDIT_SPEC && !filter) expect(chatRequests(sim) - chatBefore).toBeLessThanOrEqual(3);
      // Typing on and dismissing stopped the sim's streams, as the spec saw the server say.
      if (spec === STREAM_SPEC && !filter) expect(aborted() - abortedBefore).toBeGreaterThanOrEqual(2);
    },
    RUN_TIMEOUT_MS + 5_000,
  );

  // Repository context, one project per language family (test/context-projects.ts), each in its own Neovim.
  it.for(CONTEXT_PROJECTS)(
    `e2e: ${CONTEXT_SPEC}: $family: a declaration from a file that is not open reaches the request`,
    { timeout: RUN_TIMEOUT_MS + 5_000 },
    async (project) => {
      const dir = writeContextProject(
        join(scratch, `context-${version}-${project.family.replace(/\W/g, "_")}`),
        project,
      );
      const { before, line } = openFile(project);
      const from = sim?.requests.length ?? 0;
      expectPassed(
        await runSpec(version, CONTEXT_SPEC, {
          INFILL_TEST_PROJECT: dir,
          INFILL_TEST_OPEN: project.open,
          INFILL_TEST_LINE: String(line),
          INFILL_TEST_TYPED: project.typed,
          INFILL_TEST_FILETYPE: project.filetype,
        }),
        CONTEXT_SPEC,
      );
      const prompts = (sim?.requests.slice(from) ?? [])
        .map((request) => (request.body as { prompt?: string }).prompt ?? "")
        .filter((prompt) => prompt.endsWith(`${before}${project.typed}`));
      expect(prompts.length, `requests with the cursor after \`${project.typed}\``).toBeGreaterThan(0);
      const comment = project.comment ?? "//";
      for (const prompt of prompts) {
        // The context block, then the current file's path line, then the file.
        const [block = "", file] = prompt.split(`${comment} ${project.open}\n`);
        expect(file).toBe(`${before}${project.typed}`);
        const sections = blockSections(block, comment, Object.keys(project.files));
        for (const declaration of project.declarations) {
          expect([...sections.keys()], "the files of the block").toContain(declaration.path);
          expect(sections.get(declaration.path), `the block under ${declaration.path}`).toContain(
            `${declaration.lines}\n`,
          );
        }
      }
    },
  );

  // Types from the editor (issue 24), in 0.10 and 0.12: a real second language server, typescript-language-server over
  // tsserver, both from this package's devDependencies.
  it.for([TYPE_DEFINITIONS_SPEC])(
    "e2e: %s: tsserver locates `mail`'s type through infill/typeDefinitions, and MailClient reaches the request",
    { timeout: RUN_TIMEOUT_MS + 5_000 },
    async (spec) => {
      const dir = join(scratch, `type-definitions-${version}`);
      for (const [rel, text] of Object.entries(TYPE_DEFINITIONS_PROJECT)) {
        mkdirSync(dirname(join(dir, rel)), { recursive: true });
        writeFileSync(join(dir, rel), text);
      }
      const resolve = createRequire(join(pluginRoot, "package.json")).resolve;
      const from = sim?.requests.length ?? 0;
      expectPassed(
        await runSpec(version, spec, {
          INFILL_TEST_PROJECT: dir,
          INFILL_TEST_TSLS: join(
            dirname(resolve("typescript-language-server/package.json")),
            "lib",
            "cli.mjs",
          ),
          INFILL_TEST_TSSERVER: resolve("typescript/lib/tsserver.js"),
          // tsserver loads the project (and TypeScript's own lib files) on its first request: seconds on a busy
          // machine.
          INFILL_TEST_TIMEOUT: String(RUN_TIMEOUT_MS - 5_000),
        }),
        spec,
      );
      const prompts = (sim?.requests.slice(from) ?? [])
        .map((request) => (request.body as { prompt?: string }).prompt ?? "")
        .filter((prompt) => prompt.endsWith("  await mail."));
      expect(prompts.length, "requests with the cursor after `mail.`").toBeGreaterThan(0);
      const [block = ""] = prompts.at(-1)!.split("// src/app.ts\n");
      expect(block).toContain("// src/client.ts\n");
      for (const member of MAIL_CLIENT_MEMBERS) expect(block).toContain(member);
      const { typeDefinitionsMs } = JSON.parse(readFileSync(join(dir, "figures.json"), "utf8")) as {
        typeDefinitionsMs: number;
      };
      console.log(
        `infill/typeDefinitions through Neovim ${version} to tsserver and back: ${typeDefinitionsMs.toFixed(1)} ms`,
      );
    },
  );

  it.for(installSpecs)("install: %s", { timeout: INSTALL_TIMEOUT_MS + 10_000 }, async (spec, { skip }) => {
    if (spec.endsWith("vim_pack_spec.lua") && version === "nvim-0.10") skip("vim.pack came with Neovim 0.12");
    expectPassed(await runSpec(version, spec, await installEnv(), INSTALL_TIMEOUT_MS), spec);
  });
});
