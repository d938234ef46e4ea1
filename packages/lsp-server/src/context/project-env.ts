import { basename, dirname, join } from "node:path";
import { extendsCandidates, mergeTsconfigs, type ParsedTsconfig, parseTsconfig } from "./tsconfig.js";
import type { ResolveEnv } from "./types.js";
import type { Workspace } from "./workspace.js";

/** Project files that change how imports resolve. */
const PROJECT_FILES = new Set(["tsconfig.json", "jsconfig.json", "go.mod", "Cargo.toml"]);
/** `extends` chains longer than this are cut (they are cycles or mistakes). */
const MAX_EXTENDS = 8;

/**
 * What module resolution needs to know about the project around a file: the nearest tsconfig/jsconfig (its
 * `extends` chain followed), `go.mod` and `Cargo.toml`, looked up from the file's directory to its workspace folder.
 * Cached per directory until a project file changes.
 */
export class ProjectEnv {
  readonly #byDir = new Map<string, Promise<ResolveEnv>>();
  readonly #texts = new Map<string, Promise<string | undefined>>();

  /** @param readText - reads a workspace file under the context's file rules; undefined when absent */
  constructor(
    private readonly workspace: Workspace,
    private readonly readText: (path: string) => Promise<string | undefined>,
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
  }

  async #compute(dir: string): Promise<ResolveEnv> {
    const folder = this.workspace.folderOf(dir);
    const root = folder?.path ?? dir;
    let tsconfig: ResolveEnv["tsconfig"];
    let goModule: ResolveEnv["goModule"];
    let crateDir: string | undefined;
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
      if (at === root || !folder || dirname(at) === at) break;
    }
    return {
      root,
      ...(tsconfig ? { tsconfig } : {}),
      ...(goModule ? { goModule } : {}),
      ...(crateDir !== undefined ? { crateDir } : {}),
    };
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
