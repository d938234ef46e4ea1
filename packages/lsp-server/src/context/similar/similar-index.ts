import type { Position } from "vscode-languageserver";
import type { OpenDocument } from "../../documents/documents.js";
import { uriToPath, type Workspace } from "../../workspace/workspace.js";
import { type DocumentSource, linesOf, trimBlankLines } from "../document-lines.js";
import { openDocumentTooLarge } from "../files/file-policy.js";
import { familyOf } from "../languages.js";
import type { ContextSnippet } from "../types.js";
import type { RecentEdits } from "./recent-edits.js";
import {
  bestWindows,
  identifierSet,
  indexWindows,
  jaccard,
  WINDOW_LINES,
  type WindowIndex,
} from "./similar.js";

/** Similar-code snippets at most, per file at most, and the least Jaccard similarity worth sending. */
const SIMILAR_MAX = 3;
const SIMILAR_PER_FILE = 2;
const SIMILAR_MIN_SCORE = 0.1;
/** Open documents whose windows are indexed at most (the most recently used ones). */
const INDEXED_DOCUMENTS_MAX = 100;
/** Time allowed for a document's index to be rebuilt after an edit, ms (off the request path). */
const INDEX_DELAY_MS = 300;

/** What {@link SimilarIndex} reads. */
export interface SimilarIndexOptions {
  documents: DocumentSource;
  workspace: Workspace;
  recent: RecentEdits;
  /** Whether a file may be read and sent (the file policy). */
  mayUse(path: string): Promise<boolean>;
  /** Called after a document was indexed, in the same task: what else is done off the request path for it. */
  indexed?(doc: OpenDocument): void;
}

/**
 * Similar code: the windows of the open documents, indexed off the request path (right after a document opens,
 * shortly after it changes), and the best of them for the lines before a cursor, with the regions last edited in
 * documents since closed.
 */
export class SimilarIndex {
  readonly #indexes = new Map<string, { version: number; index: WindowIndex }>();
  readonly #timers = new Map<string, { cancel(): void }>();

  constructor(private readonly options: SimilarIndexOptions) {}

  /**
   * Index a document's windows after `delayMs` (by default a little after the last edit), in a task of its own: a
   * request never waits for another document to be indexed. With no delay it runs before the next message is read
   * (a document just opened is ready for the request that follows).
   */
  schedule(uri: string, delayMs = INDEX_DELAY_MS): void {
    this.#cancel(uri);
    const work = () => {
      this.#timers.delete(uri);
      const doc = this.options.documents.get(uri);
      if (!doc) return;
      // Too large to be context (grown past the limit, maybe): what was indexed of it goes.
      if (openDocumentTooLarge(doc.buffer.length)) this.#indexes.delete(uri);
      else if (this.#indexes.get(uri)?.version !== doc.version) this.#rebuild(doc);
      this.options.indexed?.(doc);
    };
    // vscode-jsonrpc reads one message per `setImmediate`: one queued now runs before the next message.
    if (delayMs <= 0) {
      const immediate = setImmediate(work);
      this.#timers.set(uri, { cancel: () => clearImmediate(immediate) });
    } else {
      const timer = setTimeout(work, delayMs);
      timer.unref?.();
      this.#timers.set(uri, { cancel: () => clearTimeout(timer) });
    }
  }

  /**
   * The best windows of the other open documents and of recently edited regions, by Jaccard similarity to the
   * lines before the cursor; same language first. Adds the files they come from to `sources`.
   */
  async similar(doc: OpenDocument, position: Position, sources: Set<string>): Promise<ContextSnippet[]> {
    const query = identifierSet(
      linesOf(doc, Math.max(0, position.line - WINDOW_LINES + 1), position.line + 1),
    );
    if (query.size === 0) return [];
    const { documents, workspace, recent, mayUse } = this.options;
    const family = familyOf(doc.languageId, doc.uri);
    const found: Array<ContextSnippet & { score: number; same: boolean }> = [];
    for (const other of documents.all()) {
      if (other.uri === doc.uri) continue;
      const path = uriToPath(other.uri);
      if (!path || !(await mayUse(path))) continue;
      const rel = workspace.relative(path);
      if (rel === undefined) continue;
      const same = other.languageId === doc.languageId || familyOf(other.languageId, other.uri) === family;
      const index = this.#indexes.get(other.uri)?.index;
      if (!index) continue;
      for (const { window, score } of bestWindows(index, query, SIMILAR_PER_FILE, SIMILAR_MIN_SCORE)) {
        const end = Math.min(window.end, other.buffer.lineCount - 1);
        if (window.start > end) continue;
        const text = trimBlankLines(linesOf(other, window.start, end + 1));
        found.push({ path: rel, startLine: window.start, endLine: end, text, kind: "similar", score, same });
        sources.add(other.uri);
      }
    }
    for (const region of recent.closed()) {
      if (region.uri === doc.uri || !(await mayUse(region.path))) continue;
      const rel = workspace.relative(region.path);
      if (rel === undefined) continue;
      const score = jaccard(query, identifierSet(region.text));
      if (score < SIMILAR_MIN_SCORE) continue;
      const same = familyOf(undefined, region.path) === family;
      const { startLine, endLine, text } = region;
      found.push({ path: rel, startLine, endLine, text, kind: "similar", score, same });
    }
    // A stable sort: ties keep the order documents were opened in.
    found.sort((a, b) => Number(b.same) - Number(a.same) || b.score - a.score);
    return found.slice(0, SIMILAR_MAX).map(({ score: _score, same: _same, ...snippet }) => snippet);
  }

  /** A document was closed: its index goes. */
  forget(uri: string): void {
    this.#indexes.delete(uri);
    this.#cancel(uri);
  }

  /** Stop the indexing planned (shutdown). */
  dispose(): void {
    for (const uri of [...this.#timers.keys()]) this.#cancel(uri);
  }

  #rebuild(doc: OpenDocument): void {
    const lines: string[] = [];
    for (let line = 0; line < doc.buffer.lineCount; line++) lines.push(doc.buffer.lineAt(line));
    const index = indexWindows(lines);
    this.#indexes.delete(doc.uri);
    this.#indexes.set(doc.uri, { version: doc.version, index });
    // Bounded: the least recently indexed documents go first.
    while (this.#indexes.size > INDEXED_DOCUMENTS_MAX)
      this.#indexes.delete(this.#indexes.keys().next().value!);
  }

  #cancel(uri: string): void {
    this.#timers.get(uri)?.cancel();
    this.#timers.delete(uri);
  }
}
