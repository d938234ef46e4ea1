import { basename, dirname, join, relative, sep } from "node:path";
import type { Workspace } from "../../workspace/workspace.js";
import { type CargoManifest, parseCargoManifest } from "../resolve/cargo.js";
import type { Family, ResolveEnv, WorkspacePackage } from "../types.js";
import { buildEnv, type Group, groupOf } from "./build-env.js";
import { extendsCandidates, mergeTsconfigs, type ParsedTsconfig, parseTsconfig } from "./tsconfig.js";
import {
  lernaPackages,
  manifestWorkspaces,
  matchesPattern,
  matchesSegment,
  type PackagePattern,
  packagePatterns,
  parseManifest,
  pnpmWorkspacePackages,
} from "./workspace-packages.js";

/** Project files that change how imports resolve. */
const PROJECT_FILES = new Set([
  "tsconfig.json",
  "jsconfig.json",
  "go.mod",
  "Cargo.toml",
  "package.json",
  "pnpm-workspace.yaml",
  "lerna.json",
  "compile_commands.json",
  "compile_flags.txt",
  "pom.xml",
  "build.gradle",
  "build.gradle.kts",
  "build.sbt",
  "composer.json",
  "Gemfile",
  "Package.swift",
  "mix.exs",
  "dune",
  "dune-project",
]);

/** Crates of a Cargo workspace read at most. */
const MAX_CRATES = 500;
/** `extends` chains longer than this are cut (they are cycles or mistakes). */
const MAX_EXTENDS = 8;
/** Bounds of finding a monorepo's packages: directories listed, `**` depth, packages kept. */
const MAX_LISTED = 2_000;
const MAX_GLOBSTAR_DEPTH = 5;
const MAX_PACKAGES = 1_000;

/**
 * What module resolution needs to know about the project around a file: the nearest tsconfig/jsconfig (its
 * `extends` chain followed), `go.mod`, `Cargo.toml` and the monorepo's packages (from the nearest
 * `pnpm-workspace.yaml`, `package.json` `workspaces` or `lerna.json`), looked up from the file's directory to its
 * workspace folder. Cached per directory until a project file changes.
 */
export class ProjectEnv {
  readonly #byDir = new Map<string, Promise<ResolveEnv>>();
  readonly #texts = new Map<string, Promise<string | undefined>>();
  /** The packages of a monorepo, by its root directory. */
  readonly #packages = new Map<string, Promise<ReadonlyMap<string, WorkspacePackage>>>();

  /**
   * @param readText - reads a workspace file under the context's file rules; undefined when absent
   * @param subdirectories - a workspace directory's subdirectories the rules let in, by name
   * @param listFiles - names of a workspace directory's regular files (a gemspec is named after its gem)
   */
  constructor(
    private readonly workspace: Workspace,
    private readonly readText: (path: string) => Promise<string | undefined>,
    private readonly subdirectories: (dir: string) => Promise<readonly string[]> = async () => [],
    private readonly listFiles: (
      dir: string,
    ) => readonly string[] | undefined | Promise<readonly string[] | undefined> = () => undefined,
  ) {}

  /**
   * The environment of a file (absolute path) for a family's resolution (the project files of TypeScript, Go, Rust
   * and the monorepo always; those of the family's own build besides). Never rejects.
   */
  for(file: string, family?: Family): Promise<ResolveEnv> {
    const dir = dirname(file);
    const group = groupOf(family);
    const key = `${group}\0${dir}`;
    let env = this.#byDir.get(key);
    if (!env) {
      const base = group === "base" ? undefined : this.for(file);
      env = (base ? base.then((env) => this.#extend(dir, group, env)) : this.#compute(dir)).catch(() => ({
        root: this.workspace.folderOf(dir)?.path ?? dir,
      }));
      this.#byDir.set(key, env);
    }
    return env;
  }

  /** Whether a file changed on disk is one of the project files resolution reads. */
  static isProjectFile(path: string): boolean {
    const name = basename(path);
    return PROJECT_FILES.has(name) || name.endsWith(".gemspec");
  }

  /** A file changed on disk: forget everything when it is a project file (or when none is named). */
  invalidate(path?: string): void {
    if (path !== undefined && !ProjectEnv.isProjectFile(path)) return;
    this.#byDir.clear();
    this.#texts.clear();
    this.#packages.clear();
  }

  async #compute(dir: string): Promise<ResolveEnv> {
    const folder = this.workspace.folderOf(dir);
    const root = folder?.path ?? dir;
    let tsconfig: ResolveEnv["tsconfig"];
    let goModule: ResolveEnv["goModule"];
    let crateDir: string | undefined;
    let packages: ResolveEnv["packages"];
    const manifests: Array<{ dir: string; manifest: CargoManifest }> = [];
    for (let at = dir; ; at = dirname(at)) {
      if (!tsconfig) {
        for (const name of ["tsconfig.json", "jsconfig.json"]) {
          const found = await this.#tsconfig(join(at, name));
          if (found) {
            tsconfig = found;
            break;
          }
        }
      }
      if (!goModule) {
        const text = await this.#read(join(at, "go.mod"));
        const path = text === undefined ? undefined : /^module\s+("?)([^\s"]+)\1/m.exec(text)?.[2];
        if (path) goModule = { path, dir: at };
      }
      const cargo = await this.#read(join(at, "Cargo.toml"));
      if (cargo !== undefined) {
        crateDir ??= at;
        manifests.push({ dir: at, manifest: parseCargoManifest(cargo, at) });
      }
      if (!packages) {
        const globs = await this.#workspaceGlobs(at);
        if (globs) packages = await this.#packagesOf(at, globs);
      }
      if (at === root || !folder || dirname(at) === at) break;
    }
    const crates = manifests.length > 0 ? await this.#crates(manifests) : undefined;
    const crateRoots = manifests[0]?.manifest.roots;
    return {
      root,
      ...(tsconfig ? { tsconfig } : {}),
      ...(goModule ? { goModule } : {}),
      ...(crateDir !== undefined ? { crateDir } : {}),
      ...(crateRoots && crateRoots.length > 0 ? { crateRoots } : {}),
      ...(packages && packages.size > 0 ? { packages } : {}),
      ...(crates && crates.size > 0 ? { crates } : {}),
    };
  }

  /**
   * The crates the `Cargo.toml`s from the file up name: each one's own package, its `[workspace]` members (globs
   * of `*` segments), and its `path` dependencies; the nearest first wins a name.
   */
  async #crates(
    manifests: ReadonlyArray<{ dir: string; manifest: CargoManifest }>,
  ): Promise<Map<string, { dir: string; root: string }>> {
    const crates = new Map<string, { dir: string; root: string }>();
    const add = (dir: string, manifest: CargoManifest) => {
      if (manifest.crate && !crates.has(manifest.crate.name))
        crates.set(manifest.crate.name, { dir, root: manifest.crate.root });
    };
    const readCrate = async (dir: string) => {
      if (crates.size >= MAX_CRATES) return;
      const text = await this.#read(join(dir, "Cargo.toml"));
      if (text !== undefined) add(dir, parseCargoManifest(text, dir));
    };
    for (const { dir, manifest } of manifests) add(dir, manifest);
    for (const { dir, manifest } of manifests) {
      const excluded = new Set(manifest.exclude.map((e) => join(dir, e)));
      for (const member of manifest.members) {
        for (const memberDir of await this.#expand(
          dir,
          member.split("/").filter((p) => p !== "" && p !== "."),
        ))
          if (!excluded.has(memberDir)) await readCrate(memberDir);
      }
      for (const [name, depDir] of manifest.pathDependencies) {
        if (crates.has(name)) continue;
        const text = await this.#read(join(depDir, "Cargo.toml"));
        const dep = text === undefined ? undefined : parseCargoManifest(text, depDir);
        crates.set(name, { dir: depDir, root: dep?.crate?.root ?? join(depDir, "src", "lib.rs") });
      }
    }
    return crates;
  }

  /** The directories a path of literal and `*`-pattern segments names under `dir` (no `**`). */
  async #expand(dir: string, segments: readonly string[]): Promise<string[]> {
    const [first, ...rest] = segments;
    if (first === undefined) return [dir];
    if (!/[*?[]/.test(first)) return this.#expand(join(dir, first), rest);
    const out: string[] = [];
    for (const name of await this.subdirectories(dir))
      if (matchesSegment(first, name)) out.push(...(await this.#expand(join(dir, name), rest)));
    return out;
  }

  /** The base environment completed with the project files of a family's build (see `build-env.ts`). */
  async #extend(dir: string, group: Group, env: ResolveEnv): Promise<ResolveEnv> {
    const folder = this.workspace.folderOf(dir);
    const levels: string[] = [];
    for (let at = dir; ; at = dirname(at)) {
      levels.push(at);
      if (at === env.root || !folder || dirname(at) === at) break;
    }
    return buildEnv(group, levels, env, {
      read: (path) => this.#read(path),
      list: async (dir) => (await this.listFiles(dir)) ?? [],
      subdirectories: (dir) => this.subdirectories(dir),
    });
  }

  /** The package globs of a monorepo root: pnpm's, else npm's and Yarn's `workspaces`, else Lerna's; else none. */
  async #workspaceGlobs(dir: string): Promise<string[] | undefined> {
    const pnpm = await this.#read(join(dir, "pnpm-workspace.yaml"));
    if (pnpm !== undefined) return pnpmWorkspacePackages(pnpm);
    const manifest = await this.#read(join(dir, "package.json"));
    const workspaces = manifest === undefined ? undefined : manifestWorkspaces(manifest);
    if (workspaces) return workspaces;
    const lerna = await this.#read(join(dir, "lerna.json"));
    return lerna === undefined ? undefined : lernaPackages(lerna);
  }

  #packagesOf(root: string, globs: readonly string[]): Promise<ReadonlyMap<string, WorkspacePackage>> {
    let found = this.#packages.get(root);
    if (!found) {
      found = this.#findPackages(root, packagePatterns(globs)).catch(() => new Map());
      this.#packages.set(root, found);
    }
    return found;
  }

  /** The packages the globs name (the root's own included), by name; the first of a name wins. */
  async #findPackages(
    root: string,
    patterns: readonly PackagePattern[],
  ): Promise<Map<string, WorkspacePackage>> {
    const dirs = new Set<string>();
    let listed = 0;
    const list = async (dir: string) => {
      if (listed >= MAX_LISTED) return [];
      listed++;
      return this.subdirectories(dir);
    };
    const walk = async (dir: string, depth: number, segments: readonly string[]): Promise<void> => {
      if (dirs.size >= MAX_PACKAGES) return;
      const [first, ...rest] = segments;
      if (first === undefined) {
        dirs.add(dir);
        return;
      }
      if (first === "**") {
        await walk(dir, depth, rest);
        if (depth >= MAX_GLOBSTAR_DEPTH) return;
        for (const name of await list(dir)) await walk(join(dir, name), depth + 1, segments);
      } else if (!/[*?]/.test(first)) {
        // A literal name: its package.json is read or not, whether or not the directory exists.
        await walk(join(dir, first), depth, rest);
      } else {
        for (const name of await list(dir)) {
          if (matchesSegment(first, name)) await walk(join(dir, name), depth, rest);
        }
      }
    };
    for (const pattern of patterns) if (!pattern.exclude) await walk(root, 0, pattern.segments);
    const excluded = patterns.filter((pattern) => pattern.exclude);
    const packages = new Map<string, WorkspacePackage>();
    for (const dir of [root, ...[...dirs].sort()]) {
      const parts = relative(root, dir)
        .split(sep)
        .filter((part) => part !== "");
      if (parts.length > 0 && excluded.some((pattern) => matchesPattern(pattern.segments, parts))) continue;
      const text = await this.#read(join(dir, "package.json"));
      const manifest = text === undefined ? undefined : parseManifest(text);
      if (manifest?.name !== undefined && !packages.has(manifest.name)) {
        packages.set(manifest.name, { dir, manifest });
      }
    }
    return packages;
  }

  /** A tsconfig and the configs it extends, merged (nearest first). */
  async #tsconfig(path: string): Promise<ResolveEnv["tsconfig"]> {
    const chain: ParsedTsconfig[] = [];
    const seen = new Set<string>();
    const visit = async (file: string): Promise<boolean> => {
      if (seen.has(file) || seen.size >= MAX_EXTENDS) return false;
      seen.add(file);
      const text = await this.#read(file);
      if (text === undefined) return false;
      const parsed = parseTsconfig(text, dirname(file));
      chain.push(parsed);
      // Only configs the context may read count: inside the workspace, not ignored (node_modules is).
      for (const base of parsed.extends) {
        for (const candidate of extendsCandidates(base, parsed.dir)) if (await visit(candidate)) break;
      }
      return true;
    };
    if (!(await visit(path))) return undefined;
    return mergeTsconfigs(chain);
  }

  #read(path: string): Promise<string | undefined> {
    let text = this.#texts.get(path);
    if (!text) {
      text = this.readText(path);
      this.#texts.set(path, text);
    }
    return text;
  }
}
