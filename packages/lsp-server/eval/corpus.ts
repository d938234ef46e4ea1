// The corpora, pinned, and how each becomes a workspace folder of its own, as an editor would open it.
import { execFile } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { debianFile, unpack } from "./debian-archive.js";
import type { DebianCorpus } from "./debian-corpora.js";
import { isSourceOf, type Language } from "./languages.js";
import { type PinnedPackage, packageFiles } from "./npm-package.js";

const run = promisify(execFile);

/** A corpus laid out in a workspace folder. */
export interface Corpus {
  /** Name and version, as printed: `zod 4.6.7`, `infill @ 1a2b3c4d5e6f` (a commit). */
  readonly name: string;
  /** Its language: TypeScript corpora have the compiler as their oracle, the others ctags. */
  readonly language: Language;
  /** `held out` corpora are never tuned on; `tuning` is what the context was developed against. */
  readonly role: "held out" | "tuning";
  /** Where the files came from, one line. */
  readonly origin: string;
  /** The workspace folder (absolute). */
  readonly root: string;
  /** Workspace-relative paths of its source files (of its language), `/`-separated, sorted. */
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
  const files = copySources(path.join(dir, spec.sources), root, spec.sources, "TypeScript");
  return {
    name: `${spec.name} ${spec.version}`,
    language: "TypeScript",
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
    language: "TypeScript",
    role: "tuning",
    origin: `this repository's packages/*/src as committed at HEAD ${commit}, a pnpm workspace`,
    root,
    files: listSources(root, "TypeScript"),
    packagePaths: REPOSITORY_PACKAGES,
  };
}

/**
 * A pinned file of Debian's archive, unpacked, its `layout` folders moved into the workspace
 * `<scratch>/<name>-<version>` (the whole project: sources, build files, docs, as a developer opens it).
 */
export async function debianCorpus(spec: DebianCorpus, scratch: string): Promise<Corpus> {
  const archive = await debianFile(spec.file);
  const unpacked = mkdtempSync(path.join(scratch, "unpacked-"));
  await unpack(archive, unpacked);
  const root = path.join(scratch, `${spec.name.replace(/\W+/g, "-")}-${spec.version}`);
  for (const [from, to] of Object.entries(spec.layout)) {
    const target = path.join(root, to);
    mkdirSync(path.dirname(target), { recursive: true });
    renameSync(path.join(unpacked, from), target);
  }
  rmSync(unpacked, { recursive: true, force: true });
  return {
    name: `${spec.name} ${spec.version}`,
    language: spec.language,
    role: spec.role,
    origin: `Debian ${spec.debian}, ${path.posix.basename(spec.file.pool)} sha256 ${spec.file.sha256.slice(0, 12)}…: ${spec.why}`,
    root,
    files: listSources(root, spec.language),
  };
}

/** A folder copied as it is into `<scratch>/<name>` (the smoke test's fixtures); its sources are the corpus. */
export function folderCorpus(
  name: string,
  dir: string,
  scratch: string,
  language: Language = "TypeScript",
): Corpus {
  const root = path.join(scratch, name);
  cpSync(dir, root, { recursive: true });
  return { name, language, role: "tuning", origin: dir, root, files: listSources(root, language) };
}

/** Copy the corpus source files under `from` to `root/into`; returns them workspace-relative, sorted. */
function copySources(from: string, root: string, into: string, language: Language): string[] {
  for (const file of listSources(from, language)) cpSync(path.join(from, file), path.join(root, into, file));
  return listSources(root, language);
}

/** The regular files (not symbolic links) of the language under `dir`, relative, `/`-separated, sorted. */
function listSources(dir: string, language: Language): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)).split(path.sep).join("/"))
    .filter((file) => isSourceOf(language, file))
    .sort();
}
