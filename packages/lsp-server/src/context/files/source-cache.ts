import { readdir, readFile, realpath, stat } from "node:fs/promises";
import { dirname, join } from "node:path";
import { LRUCache } from "lru-cache";
import { contains, type Workspace } from "../../workspace/workspace.js";
import { looksBinary, looksMinified, MAX_FILE_BYTES } from "./file-policy.js";
import type { IgnoreRules } from "./ignore-rules.js";

/** Options of {@link SourceCache}. */
export interface SourceCacheOptions<T> {
  workspace: Workspace;
  ignore: IgnoreRules;
  /** The user's `context.exclude` patterns, read on every check (they are a setting). */
  exclude: () => readonly string[];
  /**
   * Turn a readable file's text into what is cached (a parse); undefined when it is of no use. A promise when the
   * parser must load first (a grammar).
   */
  parse: (path: string, text: string) => T | undefined | Promise<T | undefined>;
  /** An entry older than this is re-checked (in the background) before it is trusted again, in ms. Default 2000. */
  revalidateMs?: number;
  /** Files kept at most. Default 4000. */
  maxEntries?: number;
  /**
   * Memory kept at most, in bytes, estimated as each file's size times `memoryPerByte` (a file that may not be read
   * counts as 100 bytes: only its record is kept). Default 64 MiB.
   */
  maxBytes?: number;
  /**
   * Memory an entry holds per byte of its file: its text and what `parse` keeps beside it. Default 4, the
   * repository context's parse (text, line index and outline), as the bench's memory section measures it.
   */
  memoryPerByte?: number;
  /** Told when a cached file turned out to have changed or gone on disk. */
  onChange?: (path: string) => void;
  now?: () => number;
}

/** See {@link SourceCacheOptions.memoryPerByte}. */
export const MEMORY_PER_SOURCE_BYTE = 4;
/** What the record of a file that may not be read costs (its path and version). */
const UNREAD_ENTRY_BYTES = 100;

interface Entry<T> {
  /** Identity of the version read: modification time and size; 0/-1 for a file that cannot be read. */
  readonly mtimeMs: number;
  readonly size: number;
  checkedAt: number;
  readonly value: T | undefined;
}

/**
 * Files of the workspace, read and parsed once per modification time. Only regular files inside a workspace folder
 * (real paths, so a symlink cannot lead out of it), not ignored (`.gitignore`, secrets, `context.exclude`), at most
 * 1 MiB, not binary, not minified. A cached answer is given at once (`peek`); one older than `revalidateMs` is
 * re-checked in the background, so the request path never waits for a disk read it already did. Bounded by an
 * LRU in files and bytes.
 */
export class SourceCache<T> {
  readonly #entries: LRUCache<string, Entry<T>>;
  readonly #loading = new Map<string, Promise<T | undefined>>();
  readonly #dirs: LRUCache<string, { names: readonly string[] | undefined; checkedAt: number }>;
  readonly #realFolders = new Map<string, Promise<string | undefined>>();
  readonly #verdicts = new Map<string, Promise<boolean>>();
  readonly #now: () => number;
  readonly #revalidateMs: number;
  /** Entries peeked past `revalidateMs`, re-checked together once the turn that peeked them is over. */
  readonly #stale = new Map<string, Entry<T>>();

  constructor(private readonly options: SourceCacheOptions<T>) {
    this.#now = options.now ?? Date.now;
    this.#revalidateMs = options.revalidateMs ?? 2000;
    const memoryPerByte = options.memoryPerByte ?? MEMORY_PER_SOURCE_BYTE;
    this.#entries = new LRUCache({
      max: options.maxEntries ?? 4000,
      maxSize: options.maxBytes ?? 64 * 1024 * 1024,
      // What the entry holds, not the file's size: about 4 bytes per byte of source with its parse; and a file that
      // may not be read (a 5 MB log, a binary) holds nothing, and must not push out files that are held.
      sizeCalculation: (entry) =>
        entry.value === undefined ? UNREAD_ENTRY_BYTES : Math.ceil(Math.max(1, entry.size) * memoryPerByte),
    });
    this.#dirs = new LRUCache({ max: 1000 });
  }

  /**
   * The cached value of a file without any I/O: `{ value }` when known (value undefined when it may not be read),
   * undefined when the file was never loaded. A stale entry is returned and re-checked in the background.
   */
  peek(path: string): { value: T | undefined } | undefined {
    const entry = this.#entries.get(path);
    if (!entry) return undefined;
    if (this.#now() - entry.checkedAt > this.#revalidateMs) this.#revalidate(path, entry);
    return { value: entry.value };
  }

  /** The value of a file: cached when fresh, else read (one read for concurrent callers). Never rejects. */
  load(path: string): Promise<T | undefined> {
    const known = this.peek(path);
    if (known) return Promise.resolve(known.value);
    let loading = this.#loading.get(path);
    if (!loading) {
      loading = this.#read(path).finally(() => this.#loading.delete(path));
      this.#loading.set(path, loading);
    }
    return loading;
  }

  /** The cached value when known, else a promise of it: what a `ModuleHost` returns. */
  get(path: string): T | undefined | Promise<T | undefined> {
    const known = this.peek(path);
    return known ? known.value : this.load(path);
  }

  /** Names of the regular files in a workspace directory (cached like files), or undefined. */
  list(dir: string): readonly string[] | undefined | Promise<readonly string[] | undefined> {
    const cached = this.#dirs.get(dir);
    if (cached && this.#now() - cached.checkedAt <= this.#revalidateMs) return cached.names;
    const listing = this.#listDir(dir).then((names) => {
      this.#dirs.set(dir, { names, checkedAt: this.#now() });
      return names;
    });
    return cached ? cached.names : listing;
  }

  /**
   * The subdirectories of a workspace directory that the rules let in (`node_modules`, ignored build output and
   * hidden-by-`.gitignore` ones left out), in name order; empty outside the workspace or when unreadable.
   */
  async subdirectories(dir: string): Promise<readonly string[]> {
    const folder = this.options.workspace.folderOf(dir);
    if (!folder) return [];
    try {
      const entries = await readdir(dir, { withFileTypes: true });
      const names = entries.filter((entry) => entry.isDirectory()).map((entry) => entry.name);
      const exclude = this.options.exclude();
      const ignored = await Promise.all(
        names.map((name) => this.options.ignore.ignoredDir(folder.path, join(dir, name), exclude)),
      );
      return names.filter((_, i) => !ignored[i]).sort();
    } catch {
      return [];
    }
  }

  /** Forget a file (changed or deleted on disk, saved from the editor). */
  invalidate(path: string): void {
    this.#entries.delete(path);
    this.#dirs.delete(dirname(path));
  }

  /** Forget everything (workspace folders or exclusions changed). */
  clear(): void {
    this.#entries.clear();
    this.#dirs.clear();
    this.#realFolders.clear();
    this.#verdicts.clear();
  }

  /**
   * Whether an open buffer's text may be used as context: its path is inside a workspace folder and not ignored
   * (secrets, `.gitignore`, `context.exclude`). It need not exist on disk (a new, unsaved file). Cached per path
   * until `clear`.
   */
  mayUse(path: string): Promise<boolean> {
    let verdict = this.#verdicts.get(path);
    if (!verdict) {
      const folder = this.options.workspace.folderOf(path);
      verdict = folder
        ? this.options.ignore.ignored(folder.path, path, this.options.exclude()).then(
            (ignored) => !ignored,
            () => false,
          )
        : Promise.resolve(false);
      this.#verdicts.set(path, verdict);
    }
    return verdict;
  }

  /** Read a small workspace file as text (configuration: tsconfig, go.mod), under the same rules. */
  async readText(path: string): Promise<string | undefined> {
    const checked = await this.#check(path);
    return checked.readable ? (await this.#readChecked(checked.real))?.text : undefined;
  }

  async #read(path: string): Promise<T | undefined> {
    const checked = await this.#check(path);
    let value: T | undefined;
    if (checked.readable) {
      const read = await this.#readChecked(checked.real);
      if (read) {
        try {
          value = await this.options.parse(path, read.text);
        } catch {
          value = undefined;
        }
      }
    }
    // A file that may not be read is remembered too (with its version, so that it is not re-read until it changes).
    this.#entries.set(path, { mtimeMs: checked.mtimeMs, size: checked.size, checkedAt: this.#now(), value });
    return value;
  }

  async #readChecked(real: string): Promise<{ text: string } | undefined> {
    try {
      const bytes = await readFile(real);
      if (bytes.length > MAX_FILE_BYTES || looksBinary(bytes)) return undefined;
      const text = bytes.toString("utf8");
      return looksMinified(text) ? undefined : { text };
    } catch {
      return undefined;
    }
  }

  /** Whether a path may be read, its real path, and the version of what is there (size -1: nothing). */
  async #check(path: string): Promise<{ readable: boolean; real: string; mtimeMs: number; size: number }> {
    const nothing = { readable: false, real: path, mtimeMs: 0, size: -1 };
    const folder = this.options.workspace.folderOf(path);
    if (!folder) return nothing;
    try {
      const real = await realpath(path);
      const info = await stat(real);
      const found = { readable: false, real, mtimeMs: info.mtimeMs, size: info.size };
      // Where the file really is must be inside a workspace folder too: a symlink may not lead out of them.
      const realFolder = await this.#realFolderOf(real);
      if (!realFolder) return found;
      if (!info.isFile() || info.size > MAX_FILE_BYTES) return found;
      const exclude = this.options.exclude();
      if (await this.options.ignore.ignored(folder.path, path, exclude)) return found;
      // A symlink to elsewhere in the workspace must not dodge the rules that hold there.
      if (real !== path && (await this.options.ignore.ignored(realFolder, real, exclude))) return found;
      return { ...found, readable: true };
    } catch {
      return nothing;
    }
  }

  /** The real path of the innermost workspace folder holding a real path, or undefined. */
  async #realFolderOf(real: string): Promise<string | undefined> {
    let best: string | undefined;
    for (const folder of this.options.workspace.folders) {
      let folderReal = this.#realFolders.get(folder.path);
      if (!folderReal) {
        folderReal = realpath(folder.path).catch(() => undefined);
        this.#realFolders.set(folder.path, folderReal);
      }
      const candidate = await folderReal;
      if (candidate && contains(candidate, real) && (!best || candidate.length > best.length))
        best = candidate;
    }
    return best;
  }

  /**
   * Re-check a stale entry: after the current turn (a request that peeked it is written upstream first), with the
   * others peeked in the same turn.
   */
  #revalidate(path: string, entry: Entry<T>): void {
    entry.checkedAt = this.#now();
    if (this.#stale.size === 0) setTimeout(() => this.#checkStale(), 1).unref?.();
    this.#stale.set(path, entry);
  }

  #checkStale(): void {
    const stale = [...this.#stale];
    this.#stale.clear();
    for (const [path, entry] of stale) {
      void stat(path).then(
        (info) => {
          if (info.mtimeMs !== entry.mtimeMs || info.size !== entry.size) this.#changed(path, entry);
        },
        () => {
          if (entry.size !== -1) this.#changed(path, entry);
        },
      );
    }
  }

  #changed(path: string, entry: Entry<T>): void {
    if (this.#entries.peek(path) === entry) this.#entries.delete(path);
    this.options.onChange?.(path);
  }

  async #listDir(dir: string): Promise<readonly string[] | undefined> {
    const folder = this.options.workspace.folderOf(dir);
    if (!folder) return undefined;
    try {
      const entries = await readdir(dir, { withFileTypes: true });
      return entries.filter((entry) => entry.isFile()).map((entry) => entry.name);
    } catch {
      return undefined;
    }
  }
}
