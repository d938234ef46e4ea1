import { type ChildProcessWithoutNullStreams, execFile, spawn } from "node:child_process";
import { createRequire } from "node:module";
import { promisify } from "node:util";

/** What a finished CLI process printed, and its exit status (null when a signal ended it). */
export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Builds the package's source with tsc into `outDir` (tsconfig.build.json's own, dist/, when not given). */
export async function buildCli(packageDir: string, outDir?: string): Promise<void> {
  const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
  const out = outDir === undefined ? [] : ["--outDir", outDir];
  await promisify(execFile)(process.execPath, [tsc, "-p", "tsconfig.build.json", ...out], {
    cwd: packageDir,
  });
}

/**
 * Starts `node SCRIPT ARGS` without a shell, with only `env` (and PATH) in its environment, and `stdin` (none when
 * undefined: the child's standard input is closed at once) written to it.
 */
export function startCli(
  script: string,
  args: string[],
  env: Record<string, string | undefined>,
  stdin?: string,
): { child: ChildProcessWithoutNullStreams; done: Promise<Run> } {
  const child = spawn(process.execPath, [script, ...args], {
    env: { PATH: process.env.PATH, ...env },
    stdio: ["pipe", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (data: Buffer) => {
    stdout += data;
  });
  child.stderr.on("data", (data: Buffer) => {
    stderr += data;
  });
  child.stdin.on("error", () => {});
  child.stdin.end(stdin ?? "");
  const done = new Promise<Run>((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
  return { child, done };
}
