import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { chmod, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

const run = promisify(execFile);

/** The repository root. */
export const REPO = fileURLToPath(new URL("../../", import.meta.url));
/** The built language server, one file. */
export const SERVER_JS = join(REPO, "packages/lsp-server/dist/infill-lsp.js");
/** The shipped editor configurations. */
export const EDITORS = join(REPO, "editors");

/** Cold provisioning downloads from Debian's archive: allow for a slow mirror. */
export const PROVISION_TIMEOUT_MS = 170_000;

/** Fail early, and say what to do, when the server has not been built. */
export function requireBuiltServer(): void {
  if (!existsSync(SERVER_JS)) {
    throw new Error(
      `${SERVER_JS} is missing: build it first (npx pnpm@10 build, or npx pnpm@10 test which builds before testing)`,
    );
  }
}

/**
 * Provision real editors (cached under ~/.cache/infill/editors) and return the directory of their wrappers.
 * Runs with the caller's own HOME: call it before isolating anything.
 */
export async function provisionEditors(...targets: string[]): Promise<string> {
  const script = join(REPO, "scripts/provision-editors.sh");
  try {
    const { stdout } = await run(script, ["--print-bin", ...targets], { timeout: PROVISION_TIMEOUT_MS });
    const bin = stdout.trim();
    if (!bin) throw new Error("it printed no directory");
    return bin;
  } catch (error) {
    const stderr = (error as { stderr?: string }).stderr?.trim();
    throw new Error(`provisioning ${targets.join(", ")} failed${stderr ? `: ${stderr}` : ""}`, {
      cause: error,
    });
  }
}

/** An isolated home for one editor run: its own HOME and XDG dirs, and `infill-lsp` on PATH. */
export interface Sandbox {
  /** Root of the sandbox. */
  dir: string;
  /** A project directory to open files in. */
  project: string;
  /** `XDG_CONFIG_HOME`. */
  config: string;
  /** `XDG_CACHE_HOME`. */
  cache: string;
  /** The complete environment for the editor: nothing is inherited from the test's environment. */
  env: NodeJS.ProcessEnv;
  /** Remove everything. */
  remove(): Promise<void>;
}

/** Quote for a POSIX shell. */
export function shellQuote(value: string): string {
  return `'${value.replaceAll("'", `'\\''`)}'`;
}

/**
 * Create a sandbox whose PATH starts with a directory holding an `infill-lsp` shim that runs the built server,
 * so the shipped configurations, which launch `infill-lsp` from PATH, are used unchanged. The server is pointed
 * at `simUrl` with a test key. Nothing else comes from the caller's environment (no proxies, no user config).
 */
export async function createSandbox(name: string, simUrl: string): Promise<Sandbox> {
  const dir = await mkdtemp(join(tmpdir(), `infill-${name}-`));
  const paths = {
    home: join(dir, "home"),
    config: join(dir, "config"),
    cache: join(dir, "cache"),
    data: join(dir, "data"),
    state: join(dir, "state"),
    tmp: join(dir, "tmp"),
    bin: join(dir, "bin"),
    project: join(dir, "project"),
  };
  await Promise.all(Object.values(paths).map((path) => mkdir(path, { recursive: true })));
  const shim = join(paths.bin, "infill-lsp");
  await writeFile(shim, `#!/bin/sh\nexec ${shellQuote(process.execPath)} ${shellQuote(SERVER_JS)} "$@"\n`);
  await chmod(shim, 0o755);
  const env: NodeJS.ProcessEnv = {
    HOME: paths.home,
    XDG_CONFIG_HOME: paths.config,
    XDG_CACHE_HOME: paths.cache,
    XDG_DATA_HOME: paths.data,
    XDG_STATE_HOME: paths.state,
    TMPDIR: paths.tmp,
    TMUX_TMPDIR: paths.tmp,
    PATH: `${paths.bin}:/usr/bin:/bin`,
    LANG: "C.UTF-8",
    TERM: "xterm-256color",
    DEEPSEEK_API_KEY: "sk-test",
    INFILL_BASE_URL: simUrl,
  };
  return {
    dir,
    project: paths.project,
    config: paths.config,
    cache: paths.cache,
    env,
    // The editor's infill-lsp may still be writing (its usage log, on exit) when the editor is gone: retry on
    // ENOTEMPTY/EBUSY rather than fail the suite over a temp directory.
    remove: () => rm(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 }),
  };
}
