// The files one resolution reads, within its file budget, each once, and the modules an import's specifier names.
import { posix as path } from "node:path";
import type { Declaration, LanguageSupport, ModuleHost, ParsedModule, ResolveEnv } from "../types.js";

/** A name's meaning in a module: declarations, or a module itself (a namespace, a Go package's files). */
export type Target =
  | { readonly kind: "declarations"; readonly path: string; readonly declarations: readonly Declaration[] }
  | {
      readonly kind: "module";
      readonly modules: readonly ParsedModule[];
      /** How it was named, to find a submodule of it (Python `pkg.mod`, Rust `a::b`). */
      readonly specifier: string;
      readonly fromFile: string;
    };

/**
 * What one `findDeclarations` call reads through its host: each file and directory at most once, files up to
 * `maxFiles` (the asking file aside), and what was read (and refused) since {@link track} began, so that an answer
 * can be remembered with the files it depends on.
 */
export class ModuleReader {
  private readonly modules = new Map<string, Promise<ParsedModule | undefined>>();
  private readonly lists = new Map<string, Promise<readonly string[] | undefined>>();
  private readonly resolved = new Map<string, Promise<Target | undefined>>();
  private files = 0;
  /** The files and directories (ending in `/`) read since {@link track} began, the file's own left out. */
  private read = new Set<string>();
  /** Whether the file budget refused a file since {@link track} began: an answer that may be partial. */
  private refused = false;
  /** The files the budget refused in this call. */
  private readonly refusedFiles = new Set<string>();

  constructor(
    private readonly support: LanguageSupport,
    private readonly from: ParsedModule,
    private readonly host: ModuleHost,
    private readonly env: ResolveEnv,
    private readonly maxFiles: number,
  ) {}

  /** Start recording what is read (for one reference); returns what was read, and whether the budget refused. */
  track(): () => { read: ReadonlySet<string>; refused: boolean } {
    this.read = new Set();
    this.refused = false;
    return () => ({ read: this.read, refused: this.refused });
  }

  /** The parsed file at a path, once per call; undefined past the file budget or when the host fails. */
  module(file: string): Promise<ParsedModule | undefined> {
    if (file === this.from.path) return Promise.resolve(this.from);
    this.read.add(file);
    if (this.refusedFiles.has(file)) this.refused = true;
    let pending = this.modules.get(file);
    if (!pending) {
      pending = this.load(file);
      this.modules.set(file, pending);
    }
    return pending;
  }

  private async load(file: string): Promise<ParsedModule | undefined> {
    if (this.files >= this.maxFiles) {
      this.refused = true;
      this.refusedFiles.add(file);
      return undefined;
    }
    try {
      const module = await this.host.module(file);
      if (module) this.files++;
      return module ?? undefined;
    } catch {
      return undefined;
    }
  }

  private list(dir: string): Promise<readonly string[] | undefined> {
    this.read.add(dir.endsWith("/") ? dir : `${dir}/`);
    let pending = this.lists.get(dir);
    if (!pending) {
      pending = (async () => {
        try {
          return (await this.host.list(dir)) ?? undefined;
        } catch {
          return undefined;
        }
      })();
      this.lists.set(dir, pending);
    }
    return pending;
  }

  /** Whether a file of a directory target belongs to it (a Go package's tests only for a test). */
  private packageFile(name: string, current: string): boolean {
    const { support } = this;
    if (support.packageFile) return support.packageFile(name, current);
    return support.extensions.some((ext) => name.endsWith(ext));
  }

  /** The files of a directory target (ending in `/`: a Go package, a JVM package), in name order. */
  async packageFiles(dir: string, except: string): Promise<ParsedModule[]> {
    const names = await this.list(dir);
    if (!names) return [];
    const found: ParsedModule[] = [];
    for (const name of [...names].sort()) {
      const file = path.join(dir, name);
      if (file === except || !this.packageFile(name, except)) continue;
      const module = await this.module(file);
      if (module) found.push(module);
    }
    return found;
  }

  /** The module a specifier names from a file: the first candidate that exists (once per call). */
  resolve(specifier: string, fromFile: string): Promise<Target | undefined> {
    const key = `${fromFile}\0${specifier}`;
    let pending = this.resolved.get(key);
    if (!pending) {
      pending = this.firstCandidate(specifier, fromFile);
      this.resolved.set(key, pending);
    }
    return pending;
  }

  private async firstCandidate(specifier: string, fromFile: string): Promise<Target | undefined> {
    let candidates: string[];
    try {
      candidates = this.support.candidates(specifier, fromFile, this.env);
    } catch {
      return undefined;
    }
    for (const candidate of candidates) {
      const modules = candidate.endsWith("/")
        ? await this.packageFiles(candidate, this.from.path)
        : [await this.module(candidate)].filter((m) => m !== undefined);
      if (modules.length > 0) return { kind: "module", modules, specifier, fromFile };
    }
    return undefined;
  }
}
