// The corpora, pinned, and how each becomes a workspace folder of its own, as an editor would open it.
import { execFile } from "node:child_process";
import { cpSync, mkdirSync, readdirSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { isCorpusSource } from "./holes.js";
import { type PinnedPackage, packageFiles } from "./npm-package.js";

const run = promisify(execFile);

/** A corpus laid out in a workspace folder. */
export interface Corpus {
  /** Name and version, as printed: `zod 4.6.7`, `infill @ 1a2b3c4d5e6f` (a commit). */
  readonly name: string;
  /** `held out` corpora are never tuned on; `tuning` is what the context was developed against. */
  readonly role: "held out" | "tuning";
  /** Where the files came from, one line. */
  readonly origin: string;
  /** The workspace folder (absolute). */
  readonly root: string;
  /** Workspace-relative paths of its source files, `/`-separated, sorted. */
  readonly files: readonly string[];
  /**
   * For a monorepo: each package name (and exported subpath) and its source file, workspace-relative, as tsconfig
   * `paths`; the oracle's own statement of where imports across packages lead, independent of the server's.
   */
  readonly packagePaths?: Readonly<Record<string, readonly string[]>>;
}

/**
 * Where this repository's packages' entries are in source: what `exports` names, compiled from. Written out by
 * hand for the oracle (an export this map misses only gives fewer holes, never a wrong one).
 */
const REPOSITORY_PACKAGES: Readonly<Record<string, readonly string[]>> = {
  "@infill/core": ["packages/core/src/index.ts"],
  "@infill/core/provider-info": ["packages/core/src/providers/info.ts"],
  "@infill/core/usage": ["packages/core/src/usage.ts"],
  "@infill/core/failure": ["packages/core/src/failure.ts"],
  "@infill/sim": ["packages/sim/src/index.ts"],
  "@infill/lsp-server/status": ["packages/lsp-server/src/status.ts"],
};

/** A package from the npm registry and the folder of it that is the corpus. */
export interface PackageCorpus extends PinnedPackage {
  /** The folder inside the package, e.g. `src`. */
  readonly sources: string;
}

/**
 * The held-out corpora: real multi-file TypeScript packages that ship their sources. zod's `src/` mixes named,
 * namespace (`import * as core`) and default imports with `.js` specifiers; rxjs's `src/` is 250 files of named
 * imports with extensionless specifiers.
 */
export const HELD_OUT: readonly PackageCorpus[] = [
  {
    name: "zod",
    version: "4.6.7",
    integrity:
      "sha512-g8W2D2kU6a8untc053fX1uVBKzM7yqAxW/3zwk83+6RyF2+SKOuV+c0wBDhUwzV1PaGapmZH+rmcUzPf+3CGwg==",
    sources: "src",
  },
  {
    name: "rxjs",
    version: "7.8.2",
    integrity:
      "sha512-dhKf903U/PQZY6boNNtAGdWbG85WAbjT/1xYoZIC7FAY0yWapOBQVsVrDl58W86//e1VpMNBtRV4MaXfdMySFA==",
    sources: "src",
  },
];

/** A pinned package's sources as a workspace `<scratch>/<name>-<version>/<sources>/…`. */
export async function packageCorpus(spec: PackageCorpus, repoRoot: string, scratch: string): Promise<Corpus> {
  const { dir, from } = await packageFiles(spec, repoRoot, scratch);
  const root = path.join(scratch, `${spec.name.replace("/", "-")}-${spec.version}`);
  const files = copySources(path.join(dir, spec.sources), root, spec.sources);
  return {
    name: `${spec.name} ${spec.version}`,
    role: "held out",
    origin: `npm ${spec.name}@${spec.version} ${spec.integrity.slice(0, 19)}… (${from === "lockfile" ? "this repository's install" : "packed from the registry"}), ${spec.sources}/`,
    root,
    files,
  };
}

/** This repository's `packages/*\/src` as committed at HEAD (not the working tree), the tuning set. */
export async function repositoryCorpus(repoRoot: string, scratch: string): Promise<Corpus> {
  const git = (...args: string[]) => run("git", ["-C", repoRoot, ...args], { maxBuffer: 64 * 1024 * 1024 });
  const commit = (await git("rev-parse", "--short=12", "HEAD")).stdout.trim();
  const root = path.join(scratch, "infill");
  const archive = path.join(scratch, "infill.tar");
  // The sources, and what makes them a pnpm workspace whose packages import each other by name.
  await git(
    "archive",
    "--format=tar",
    `--output=${archive}`,
    "HEAD",
    "--",
    ":(glob)packages/*/src/**",
    ":(glob)packages/*/package.json",
    "pnpm-workspace.yaml",
  );
  mkdirSync(root, { recursive: true });
  await run("tar", ["-xf", archive, "-C", root]);
  return {
    name: `infill @ ${commit}`,
    role: "tuning",
    origin: `this repository's packages/*/src as committed at HEAD ${commit}, a pnpm workspace`,
    root,
    files: listSources(root),
    packagePaths: REPOSITORY_PACKAGES,
  };
}

/** A folder of sources copied as it is into `<scratch>/<name>` (the smoke test's fixture). */
export function folderCorpus(name: string, dir: string, scratch: string): Corpus {
  const root = path.join(scratch, name);
  return { name, role: "tuning", origin: dir, root, files: copySources(dir, root, ".") };
}

/** Copy the corpus source files under `from` to `root/into`; returns them workspace-relative, sorted. */
function copySources(from: string, root: string, into: string): string[] {
  for (const file of listSources(from)) cpSync(path.join(from, file), path.join(root, into, file));
  return listSources(root);
}

function listSources(dir: string): string[] {
  return (readdirSync(dir, { recursive: true, encoding: "utf8" }) as string[])
    .map((file) => file.split(path.sep).join("/"))
    .filter(isCorpusSource)
    .sort();
}
