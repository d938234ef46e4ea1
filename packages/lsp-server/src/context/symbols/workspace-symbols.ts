// The workspace symbol index's edge: built in the background after the first request that wants it, in small
// slices that yield to the event loop, kept up to date on file changes and open-buffer edits, every read behind
// the context's file policy. Answers names no import resolved with declarations from the nearest files.
import { dirname, join } from "node:path";
import type { Workspace } from "../../workspace/workspace.js";
import { shows } from "../declarations/outline-lookup.js";
import type { Declaration, Family, FoundDeclaration, ModuleHost, ModuleOutline } from "../types.js";
import type { IndexQuery, IndexStep } from "./index-queries.js";
import { indexGroup, type Nearness, SymbolIndex, type SymbolIndexLimits } from "./symbol-index.js";

/**
 * The index's bounds. 20,000 files covers the source of a large monorepo (this repository has 300, rxjs 250);
 * 300,000 declarations bound the memory to about 55 MiB (`pnpm bench` measured 50 MiB for 280,000 declarations of
 * 20,000 files: 187 bytes each, names and paths included); 256 MiB read bounds the build's I/O however big the
 * workspace; 2,000 declarations per file keep one generated file from filling it.
 */
export const INDEX_LIMITS: SymbolIndexLimits = { maxFiles: 20_000, maxEntries: 300_000, maxPerFile: 2_000 };
/** Bytes read at most by one build, in bytes (256 MiB). */
export const MAX_INDEX_BYTES = 256 * 1024 * 1024;
/** Folders listed at most by one build. */
const MAX_INDEX_DIRS = 20_000;
/** Folders listed or files read per slice of the build, between two yields to the event loop. */
const SLICE_ITEMS = 8;

/** What the index reads through: the context's source cache (`SourceCache` fits), its file policy applied. */
export interface IndexFiles {
  /** Subfolders the rules let in (ignored ones and `node_modules` left out). */
  subdirectories(dir: string): Promise<readonly string[]>;
  /** Names of a folder's regular files. */
  list(dir: string): readonly string[] | undefined | Promise<readonly string[] | undefined>;
  /** A file's text when the policy lets it be read (workspace, `.gitignore`, secrets, size, binary, minified). */
  readText(path: string): Promise<string | undefined>;
  /** Whether an open buffer at a path may be used (the same rules). */
  mayUse(path: string): Promise<boolean>;
}

/** Options of {@link WorkspaceSymbols}. */
export interface WorkspaceSymbolsOptions {
  workspace: Workspace;
  files: IndexFiles;
  /** A file's family and outline, or undefined when it is of no indexed family. */
  outline(path: string, text: string): { family: Family; outline: ModuleOutline } | undefined;
  /** Whether a file name may be of an indexed family (by extension), to skip reading the others. */
  indexable(path: string): boolean;
  /**
   * The family of a file whose parser cannot run yet (its grammar is not loaded), else undefined: such files wait,
   * unread, until a lookup from their family group loads the parser (`load`), so that a grammar loads for the
   * languages in use only, and no file is indexed empty. Default: every parser is ready.
   */
  waiting?(path: string): Family | undefined;
  /** Loads a family's parser (resolves, never rejects, once `waiting` no longer names it). */
  load?(family: Family): Promise<void>;
  /** Runs the next slice of the build. Default `setImmediate` (after pending I/O and messages). */
  defer?: (work: () => void) => void;
  limits?: SymbolIndexLimits;
  maxBytes?: number;
}

/** Where the index is: never started, building, or built (until cleared). */
export type IndexState = "idle" | "building" | "built";

/**
 * The workspace symbol index (see `symbol-index.ts`), built on demand: `want()` starts the build (the first
 * completion request calls it; nothing is scanned at start-up), which lists the workspace folders and reads their
 * files of indexed families a few per turn of the event loop. A request never waits for it: until built, a lookup
 * answers from what is indexed so far.
 */
export class WorkspaceSymbols {
  readonly index: SymbolIndex;
  #state: IndexState = "idle";
  /** Bumped by `clear` and `dispose`: a build of an older generation stops at its next slice. */
  #generation = 0;
  #built: Promise<void> = Promise.resolve();
  #bytes = 0;
  /** Requests choosing their context now: the build waits for none to be left. */
  #holds = 0;
  readonly #resume: Array<() => void> = [];
  readonly #defer: (work: () => void) => void;
  /** Files waiting for their family's parser (see `waiting`), by family; a family's files go once it loads. */
  readonly #waiting = new Map<Family, string[]>();
  /** Family groups whose lookups the index has served (`want(family)`): their waiting files load. */
  readonly #inUse = new Set<string>();

  constructor(private readonly options: WorkspaceSymbolsOptions) {
    this.index = new SymbolIndex(options.limits ?? INDEX_LIMITS);
    this.#defer = options.defer ?? ((work) => void setImmediate(work));
  }

  get state(): IndexState {
    return this.#state;
  }

  /** Bytes read by the current build. */
  get bytesRead(): number {
    return this.#bytes;
  }

  /**
   * Start the build if it has not started. `family`: the language of the request that wants it; the files of its
   * group that wait for their parser (see `waiting`) are indexed once it loads. `near`: the file of that request:
   * the build starts at its folder and goes up to the workspace folder before the rest (lookups rank the nearest
   * files first, and those are what the first requests need).
   */
  want(family?: Family, near?: string): void {
    if (family !== undefined && !this.#inUse.has(indexGroup(family))) {
      this.#inUse.add(indexGroup(family));
      this.#loadWaiting();
    }
    if (this.#state !== "idle") return;
    this.#state = "building";
    const generation = this.#generation;
    this.#built = this.#build(generation, near).catch(() => {
      // A failed build leaves what it indexed.
    });
  }

  /**
   * A request is choosing its context: the build pauses at its next step (a file read and parsed, a folder
   * listed) until every hold is released, so that it never shares the CPU or the disk with a request. Returns the
   * release (idempotent).
   */
  hold(): () => void {
    this.#holds++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      if (--this.#holds > 0) return;
      for (const resume of this.#resume.splice(0)) resume();
    };
  }

  /** Resolves when no request holds the build. */
  #unheld(): Promise<void> | undefined {
    return this.#holds === 0 ? undefined : new Promise((resolve) => this.#resume.push(resolve));
  }

  /** Resolves when the current build has finished (or stopped); at once when none runs. */
  whenBuilt(): Promise<void> {
    return this.#built;
  }

  /** A file changed, was created or deleted on disk, or was saved: index it again (once the index exists). */
  fileChanged(path: string): void {
    if (this.#state === "idle" || !this.options.indexable(path)) return;
    if (!this.options.workspace.folderOf(path)) return;
    if (this.#wait(path)) return;
    const generation = this.#generation;
    void this.options.files.readText(path).then(
      (text) => {
        if (generation !== this.#generation) return;
        const parsed = text === undefined ? undefined : this.options.outline(path, text);
        if (parsed) this.index.set(path, parsed.family, parsed.outline);
        else this.index.remove(path);
      },
      () => this.index.remove(path),
    );
  }

  /** An open buffer was parsed (after an edit): its outline replaces the file's, when the rules let it in. */
  parsed(path: string, family: Family, outline: ModuleOutline): void {
    if (this.#state === "idle") return;
    const generation = this.#generation;
    void this.options.files.mayUse(path).then((allowed) => {
      if (generation !== this.#generation) return;
      if (allowed) this.index.set(path, family, outline);
      else this.index.remove(path);
    });
  }

  /** Forget everything (folders, ignore files or exclusions changed); the next `want()` builds anew. */
  clear(): void {
    this.#generation++;
    this.#waiting.clear();
    this.#inUse.clear();
    this.index.clear();
    this.#bytes = 0;
    this.#state = "idle";
  }

  /** Stop the build (shutdown). */
  dispose(): void {
    this.#generation++;
  }

  /**
   * Declarations for references no import resolved, nearest first: for each query (in order, each reference once,
   * at most `maxNames`), its steps in order until one finds a declaration in the family group, the nearest one,
   * read through `host` (which applies the file rules and serves open buffers). The asking file is never a result.
   */
  async declarations(
    queries: readonly IndexQuery[],
    near: Nearness,
    host: ModuleHost,
    maxNames: number,
  ): Promise<FoundDeclaration[]> {
    const out: FoundDeclaration[] = [];
    let asked = 0;
    for (const { reference, steps } of queries) {
      if (asked >= maxNames) break;
      if (steps.length === 0) continue;
      asked++;
      for (const step of steps) {
        const found = await this.#step(step, near, host);
        if (found.length === 0) continue;
        for (const [path, declaration] of found) out.push({ path, declaration, reference });
        break;
      }
    }
    return out;
  }

  /** The declarations one lookup finds: the nearest hit's, read from its file; none when it cannot be read. */
  async #step(step: IndexStep, near: Nearness, host: ModuleHost): Promise<Array<[string, Declaration]>> {
    const [hit] =
      step.kind === "top"
        ? this.index.lookup(step.name, near, 1)
        : this.index.lookupMember(step.name, near, 1, step.kind === "member" ? step.owner : undefined);
    if (!hit) return [];
    let declarations: readonly Declaration[] | undefined;
    try {
      declarations = (await host.module(hit.path))?.outline.declarations;
    } catch {
      declarations = undefined;
    }
    if (!declarations) return [];
    if (hit.owner !== undefined) {
      const owners = declarations.filter((d) => d.name === hit.owner);
      const members = owners.flatMap((d) => d.members?.filter((m) => m.name === hit.name) ?? []);
      const found = members.find((m) => m.nameLine === hit.nameLine) ?? members[0];
      return found ? [[hit.path, found]] : [];
    }
    const named = declarations.filter((d) => d.name === hit.name);
    const declaration = named.find((d) => d.nameLine === hit.nameLine) ?? named[0];
    if (!declaration) return [];
    const inner =
      step.kind === "top" && step.member !== undefined
        ? declaration.members?.find((m) => m.name === step.member)
        : undefined;
    // A member its container's snippet does not show first: it is what was named.
    return inner && !shows(declaration, inner)
      ? [
          [hit.path, inner],
          [hit.path, declaration],
        ]
      : [[hit.path, declaration]];
  }

  /** Reads, outlines and indexes one file (within the build's byte bound). */
  async #indexFile(file: string, generation: number): Promise<void> {
    const text = await this.options.files.readText(file);
    if (generation !== this.#generation || text === undefined) return;
    this.#bytes += text.length;
    const parsed = this.options.outline(file, text);
    if (parsed) this.index.set(file, parsed.family, parsed.outline);
  }

  /** Whether a file waits for its family's parser (and is now listed as waiting). */
  #wait(file: string): boolean {
    const family = this.options.waiting?.(file);
    if (family === undefined) return false;
    const list = this.#waiting.get(family);
    if (list) {
      if (!list.includes(file)) list.push(file);
    } else this.#waiting.set(family, [file]);
    if (this.#inUse.has(indexGroup(family))) this.#loadWaiting();
    return true;
  }

  /**
   * The waiting files of the groups in use are indexed once their parser loads, in slices like the build's
   * (lookups meanwhile answer from what is indexed).
   */
  #loadWaiting(): void {
    const generation = this.#generation;
    for (const [waiting, files] of this.#waiting) {
      if (!this.#inUse.has(indexGroup(waiting)) || !this.options.load) continue;
      this.#waiting.delete(waiting);
      void this.options.load(waiting).then(async () => {
        const maxBytes = this.options.maxBytes ?? MAX_INDEX_BYTES;
        for (let i = 0; i < files.length; i++) {
          if (i > 0 && i % SLICE_ITEMS === 0) await new Promise<void>((resolve) => this.#defer(resolve));
          await this.#unheld();
          if (generation !== this.#generation) return;
          const file = files[i]!;
          if (this.index.files >= this.index.limits.maxFiles || this.#bytes >= maxBytes) return;
          if (!this.index.has(file)) await this.#indexFile(file, generation);
        }
      });
    }
  }

  async #build(generation: number, near?: string): Promise<void> {
    const { files, workspace } = this.options;
    const maxBytes = this.options.maxBytes ?? MAX_INDEX_BYTES;
    const dirs: string[] = [];
    const home = near === undefined ? undefined : workspace.folderOf(near)?.path;
    if (near !== undefined && home !== undefined) {
      for (let dir = dirname(near); dir.startsWith(home) && dir.length > home.length; dir = dirname(dir))
        dirs.push(dir);
    }
    dirs.push(...workspace.folders.map((folder) => folder.path));
    const done = new Set<string>();
    const pending: string[] = [];
    let listed = 0;
    while (dirs.length > 0 || pending.length > 0) {
      for (let item = 0; item < SLICE_ITEMS; item++) {
        await this.#unheld();
        if (generation !== this.#generation) return;
        const file = pending.shift();
        if (file !== undefined) {
          if (this.index.files >= this.index.limits.maxFiles || this.#bytes >= maxBytes) {
            pending.length = 0;
            dirs.length = 0;
            break;
          }
          if (this.index.has(file) || this.#wait(file)) continue;
          await this.#indexFile(file, generation);
          continue;
        }
        const dir = dirs.shift();
        if (dir === undefined || listed >= MAX_INDEX_DIRS) {
          dirs.length = 0;
          continue;
        }
        if (done.has(dir)) continue;
        done.add(dir);
        listed++;
        const names = (await files.list(dir)) ?? [];
        for (const name of [...names].sort()) {
          const path = join(dir, name);
          if (this.options.indexable(path)) pending.push(path);
        }
        for (const sub of await files.subdirectories(dir)) dirs.push(join(dir, sub));
      }
      await new Promise<void>((resolve) => this.#defer(resolve));
    }
    if (generation === this.#generation) this.#state = "built";
  }
}
