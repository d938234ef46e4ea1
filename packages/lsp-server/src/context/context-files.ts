// The files repository context may read, and what changes them: the workspace's source cache under the ignore
// rules, secrets and `context.exclude`, the project files' environment and the workspace symbol index over them.
import { readFile } from "node:fs/promises";
import { basename } from "node:path";
import { uriToPath, type Workspace } from "../workspace/workspace.js";
import type { Reason } from "./block/block-cache.js";
import { IgnoreRules } from "./files/ignore-rules.js";
import { SourceCache } from "./files/source-cache.js";
import { supportFor } from "./lang/index.js";
import { parseFile, supportOfFile, supportOfPath } from "./modules/parse-file.js";
import { ProjectEnv } from "./project/project-env.js";
import { WorkspaceSymbols } from "./symbols/workspace-symbols.js";
import type { ParsedModule } from "./types.js";

/** Options of {@link ContextFiles}. */
export interface ContextFilesOptions {
  workspace: Workspace;
  /**
   * A file (by URI or absolute path) changed on disk, or was created or deleted (`listed`): what depends on it is
   * stale.
   */
  sourceChanged(uriOrPath: string, listed: boolean): void;
  /** What may be read changed: every file read was forgotten, and what was chosen from them must be too. */
  cleared(reason: Reason): void;
}

/**
 * The files of repository context: what may be read ({@link IgnoreRules}, the file policy, `context.exclude`), the
 * {@link SourceCache} of their parses, the {@link ProjectEnv} their project files make and the
 * {@link WorkspaceSymbols} index over them; forgotten when a file changes on disk or the rules change.
 */
export class ContextFiles {
  readonly sources: SourceCache<ParsedModule>;
  readonly env: ProjectEnv;
  readonly symbols: WorkspaceSymbols;
  readonly #ignore: IgnoreRules;
  #exclude: readonly string[] = [];

  constructor(private readonly options: ContextFilesOptions) {
    const { workspace } = options;
    this.#ignore = new IgnoreRules((path) => readFile(path, "utf8").catch(() => undefined));
    this.sources = new SourceCache<ParsedModule>({
      workspace,
      ignore: this.#ignore,
      exclude: () => this.#exclude,
      parse: async (path, text) => {
        // A language parsed with a grammar loads it the first time one of its files is read.
        await supportOfFile(path, text)?.ready?.();
        return parseFile(path, text);
      },
      onChange: (path) => options.sourceChanged(path, true),
    });
    this.env = new ProjectEnv(
      workspace,
      (path) => this.sources.readText(path),
      (dir) => this.sources.subdirectories(dir),
      (dir) => this.sources.list(dir),
    );
    this.symbols = new WorkspaceSymbols({
      workspace,
      files: this.sources,
      outline: (path, text) => {
        const support = supportOfFile(path, text);
        // A C++ header read before the C++ grammar loaded: its load starts; this header is indexed with C's.
        const ready = support?.parserReady?.() !== false;
        if (!ready) void support?.ready?.();
        const parsed = ready ? support : supportOfPath(path);
        return parsed ? { family: parsed.family, outline: parsed.parse(text).outline } : undefined;
      },
      indexable: (path) => supportOfPath(path) !== undefined,
      // A C or C++ file waits for its grammar until a C or C++ lookup asks the index.
      waiting: (path) => {
        const support = supportOfPath(path);
        return support?.parserReady?.() === false ? support.family : undefined;
      },
      load: async (family) => {
        await supportFor(family)?.ready?.();
      },
    });
  }

  /** `context.exclude` as the settings say now: when it changed, nothing read so far is known to be allowed. */
  applyExclude(exclude: readonly string[]): void {
    if (exclude.join("\n") === this.#exclude.join("\n")) return;
    this.#exclude = exclude;
    this.clear("settings");
  }

  /** Whether a document (URI) may be read: inside a workspace folder and excluded by nothing. */
  mayUse(uri: string): Promise<boolean> {
    const path = uriToPath(uri);
    return path === undefined ? Promise.resolve(false) : this.sources.mayUse(path);
  }

  /**
   * Whether the policy excludes a document (URI) from being sent at all: ignored inside its workspace folder, or,
   * outside every folder, named like a secret or matched by `exclude`. A buffer that is no file is not excluded.
   */
  async excludes(uri: string, exclude: readonly string[]): Promise<boolean> {
    const path = uriToPath(uri);
    if (path === undefined) return false;
    if (this.options.workspace.folderOf(path)) return !(await this.sources.mayUse(path));
    return this.#ignore.nameExcluded(basename(path), exclude);
  }

  /**
   * Files changed on disk, as URIs: an ignore file's change clears everything; any other file is read again when
   * needed, and `sourceChanged` is told.
   */
  filesChanged(uris: readonly string[]): void {
    for (const uri of uris) {
      const path = uriToPath(uri);
      if (!path) continue;
      if (IgnoreRules.isIgnoreFile(path)) {
        this.#ignore.invalidate(path);
        this.clear("source");
        continue;
      }
      this.env.invalidate(path);
      this.fileChanged(path);
      this.options.sourceChanged(uri, true);
    }
  }

  /** A file on disk changed: read it again when it is needed. */
  fileChanged(path: string): void {
    this.sources.invalidate(path);
    this.symbols.fileChanged(path);
  }

  /** The workspace folders changed: nothing read so far is known to be allowed any more. */
  foldersChanged(): void {
    this.env.invalidate();
    this.clear("source");
  }

  /** What may be read changed (ignore rules, folders, exclusions): forget every file read. */
  clear(reason: Reason): void {
    this.sources.clear();
    this.symbols.clear();
    this.options.cleared(reason);
  }

  /** Stop the symbol index's background work. */
  dispose(): void {
    this.symbols.dispose();
  }
}
