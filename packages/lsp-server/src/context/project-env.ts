import { basename, dirname, join, relative, sep } from "node:path";
import type { Workspace } from "../workspace/workspace.js";
import { extendsCandidates, mergeTsconfigs, type ParsedTsconfig, parseTsconfig } from "./tsconfig.js";
import type { ResolveEnv } from "./types.js";
import {
  lernaPackages,
  manifestWorkspaces,
  matchesPattern,
  matchesSegment,
  type PackagePattern,
  packagePatterns,
  parseManifest,
  pnpmWorkspacePackages,
  type WorkspacePackage,
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
]);
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
   */
  constructor(
    private readonly workspace: Workspace,
    private readonly readText: (path: string) => Promise<string | undefined>,
    private readonly subdirectories: (dir: string) => Promise<readonly string[]> = async () => [],
  ) {}

  /** The environment of a file (absolute path). Never rejects. */
  for(file: string): Promise<ResolveEnv> {
    const dir = dirname(file);
    let env = this.#byDir.get(dir);
    if (!env) {
      env = this.#compute(dir).catch(() => ({ root: this.workspace.folderOf(dir)?.path ?? dir }));
      this.#byDir.set(dir, env);
    }
    return env;
  }

  /** A file changed on disk: forget everything when it is a project file (or when none is named). */
  invalidate(path?: string): void {
    if (path !== undefined && !PROJECT_FILES.has(basename(path))) return;
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
      if (crateDir === undefined && (await this.#read(join(at, "Cargo.toml"))) !== undefined) crateDir = at;
      if (!packages) {
        const globs = await this.#workspaceGlobs(at);
        if (globs) packages = await this.#packagesOf(at, globs);
      }
      if (at === root || !folder || dirname(at) === at) break;
    }
    return {
      root,
      ...(tsconfig ? { tsconfig } : {}),
      ...(goModule ? { goModule } : {}),
      ...(crateDir !== undefined ? { crateDir } : {}),
      ...(packages && packages.size > 0 ? { packages } : {}),
    };
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
