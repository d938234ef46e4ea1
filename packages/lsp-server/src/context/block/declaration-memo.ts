import { posix } from "node:path";
import type { Reached, ReferenceMemo } from "../declarations/reference-memo.js";
import type { ModuleImport, ResolveEnv } from "../types.js";

interface Entry {
  readonly uri: string;
  readonly chain: string;
  readonly reached: Reached;
  readonly read: ReadonlySet<string>;
  checkedAt: number;
}

interface DocMemo {
  /** The document's imports and package when its entries were made: other imports, other meanings. */
  readonly key: string;
  /** The project environment they were resolved in (a new object once a project file changed). */
  readonly env: ResolveEnv;
  readonly entries: Map<string, Entry>;
}

/** References remembered per document at most; the oldest go first. */
const MAX_ENTRIES = 2_000;
/** A remembered answer's files are re-checked on disk at most this often, in ms (the source cache's period). */
const RECHECK_MS = 2_000;

/**
 * The declarations each reference of a document reached, kept across choices: a cursor that jumps around a file
 * meets the same names again, and resolving one anew (its import's candidates, the files on disk, re-exports)
 * costs far more than the rest of a choice. An answer is dropped when a file or directory it read changes (an
 * edit of an open document, a save, a change on disk), and a document's whole memo when its imports, its package
 * or the project environment change.
 */
export class DeclarationMemo {
  readonly #docs = new Map<string, DocMemo>();
  /** Entries by the files and directories they read. */
  readonly #byPath = new Map<string, Set<Entry>>();

  /**
   * The memo of a document for one choice.
   *
   * @param imports - the document's imports now, and its package
   * @param recheck - asks the file cache whether a file changed on disk (answers in the background, by
   *   {@link sourceChanged}); called for an answer's files at most every 2 s
   */
  for(
    uri: string,
    imports: { imports: readonly ModuleImport[]; package?: string | undefined },
    env: ResolveEnv,
    recheck: (path: string) => void,
  ): ReferenceMemo {
    const key = importsKey(imports);
    let doc = this.#docs.get(uri);
    if (!doc || doc.key !== key || doc.env !== env) {
      this.forget(uri);
      doc = { key, env, entries: new Map() };
      this.#docs.set(uri, doc);
    }
    const { entries } = doc;
    return {
      get: (chain) => {
        const entry = entries.get(chain);
        if (!entry) return undefined;
        const now = performance.now();
        if (now - entry.checkedAt >= RECHECK_MS) {
          entry.checkedAt = now;
          for (const path of entry.read) recheck(path);
        }
        return entry;
      },
      set: (chain, reached, read) => {
        this.#drop(entries.get(chain));
        if (entries.size >= MAX_ENTRIES) this.#drop(entries.values().next().value);
        const entry: Entry = { uri, chain, reached, read, checkedAt: performance.now() };
        entries.set(chain, entry);
        for (const path of read) {
          let set = this.#byPath.get(path);
          if (!set) {
            set = new Set();
            this.#byPath.set(path, set);
          }
          set.add(entry);
        }
      },
    };
  }

  /**
   * A file changed (absolute path): the answers that read it are found anew, and with `listed` (it may have been
   * created or deleted) those that listed its directory too.
   */
  sourceChanged(path: string, listed: boolean): void {
    for (const at of listed ? [path, `${posix.dirname(path)}/`] : [path]) {
      const entries = this.#byPath.get(at);
      if (entries) for (const entry of [...entries]) this.#drop(entry);
    }
  }

  /** A document was closed: its memo goes. */
  forget(uri: string): void {
    const doc = this.#docs.get(uri);
    if (!doc) return;
    for (const entry of [...doc.entries.values()]) this.#drop(entry);
    this.#docs.delete(uri);
  }

  /** What may be read changed (folders, ignore rules, exclusions): every answer goes. */
  clear(): void {
    this.#docs.clear();
    this.#byPath.clear();
  }

  #drop(entry: Entry | undefined): void {
    if (!entry) return;
    const doc = this.#docs.get(entry.uri);
    if (doc?.entries.get(entry.chain) === entry) doc.entries.delete(entry.chain);
    for (const path of entry.read) {
      const set = this.#byPath.get(path);
      set?.delete(entry);
      if (set?.size === 0) this.#byPath.delete(path);
    }
  }
}

/** What of a document's imports resolution depends on: specifiers and bindings, not the lines they are on. */
function importsKey(module: { imports: readonly ModuleImport[]; package?: string | undefined }): string {
  let key = module.package ?? "";
  for (const statement of module.imports) {
    key += `\n${statement.specifier}`;
    for (const binding of statement.bindings) key += `\0${binding.local}\0${binding.imported}`;
  }
  return key;
}
