import type { Position } from "vscode-languageserver";
import type { OpenDocument } from "../documents/documents.js";
import type { Logger } from "../log/logger.js";
import type { ContextSettings } from "../settings/settings.js";
import { uriToPath, Workspace } from "../workspace/workspace.js";
import { type ContextBlock, EMPTY_BLOCK } from "./block/block.js";
import { BlockCache, type Reason, typeKey } from "./block/block-cache.js";
import { BlockChooser } from "./block/block-chooser.js";
import { DeclarationMemo } from "./block/declaration-memo.js";
import { ContextFiles } from "./context-files.js";
import type { DocumentSource } from "./document-lines.js";
import { openDocumentTooLarge } from "./files/file-policy.js";
import { CurrentImports } from "./modules/current-imports.js";
import { prefetchImports } from "./modules/import-prefetch.js";
import { OpenModules } from "./modules/open-modules.js";
import { supportOf } from "./modules/parse-file.js";
import { RecentEdits } from "./similar/recent-edits.js";
import { SimilarIndex } from "./similar/similar-index.js";
import { onGrammarFailure } from "./syntax/runtime.js";
import type { ContextSnippet } from "./types.js";
import { EditorTypes, type TypeDefinitionAsk } from "./typing/editor-types.js";
import { declarationAtLine } from "./typing/type-at-line.js";

export { withoutTypedName } from "./block/block-cache.js";
export type { DocumentSource } from "./document-lines.js";

/** Options of {@link RepositoryContext}. */
export interface RepositoryContextOptions {
  documents: DocumentSource;
  /** The workspace folders (their owner is the server); a workspace of its own when not given (tests, benches). */
  workspace?: Workspace;
  settings: () => ContextSettings;
  log: Logger;
  /** How to ask the editor where types are declared; none (or undefined) while the client cannot be asked. */
  typeDefinitions?: () => TypeDefinitionAsk | undefined;
}

/** The context of one request, and what choosing it cost. */
export interface ContextResult {
  block: ContextBlock;
  /** Time spent choosing, in ms (reads of files not seen before included). */
  ms: number;
  /** Whether the block was chosen anew (false: the document's previous block was reused, byte for byte). */
  recomputed: boolean;
}

/**
 * Repository context for completion requests: the declarations of imported names used near the cursor and similar
 * code from other open documents and recently edited regions, as one block at the start of the prompt. The facade
 * the server talks to; the work is its parts':
 *
 * - {@link BlockCache}: each document's block, reused byte for byte until something it depends on changes;
 * - {@link BlockChooser}: choosing a block (declarations through imports, open documents and the symbol index,
 *   names looked up ahead, similar code);
 * - {@link CurrentImports}: the imports of the document a request is made in;
 * - {@link OpenModules}: the parses of open documents, which win over the files on disk;
 * - {@link SimilarIndex}: the windows of open documents, indexed off the request path;
 * - {@link EditorTypes}: what the editor's language servers say of the receiver's type at the cursor;
 * - {@link ContextFiles}: the files that may be read (workspace only, ignore rules, secrets, sizes,
 *   `context.exclude`) and their parses by modification time, the project files, the workspace symbol index;
 * - and the {@link RecentEdits}.
 *
 * Document events come here and go to each part that keeps something about the document, in one place per event.
 */
export class RepositoryContext {
  readonly workspace: Workspace;
  readonly #files: ContextFiles;
  readonly #recent = new RecentEdits();
  readonly #blocks = new BlockCache();
  readonly #memo = new DeclarationMemo();
  readonly #open: OpenModules;
  readonly #imports: CurrentImports;
  readonly #similar: SimilarIndex;
  readonly #chooser: BlockChooser;
  readonly #types: EditorTypes;
  readonly #pending = new Map<string, Promise<ContextResult>>();
  readonly #stopWatchingFolders: () => void;
  readonly #stopGrammarLog: () => void;

  constructor(private readonly options: RepositoryContextOptions) {
    const { documents } = options;
    this.workspace = options.workspace ?? new Workspace();
    this.#stopWatchingFolders = this.workspace.onDidChange(() => this.foldersChanged());
    this.#files = new ContextFiles({
      workspace: this.workspace,
      sourceChanged: (uriOrPath, listed) => this.#sourceChanged(uriOrPath, listed),
      cleared: (reason) => {
        this.#memo.clear();
        this.#blocks.invalidateAll(reason);
      },
    });
    const { sources, env, symbols } = this.#files;
    // A grammar that does not load leaves its language without declarations: say so once, in the log.
    this.#stopGrammarLog = onGrammarFailure((name, error) =>
      this.options.log.warn(
        `context: the ${name} grammar did not load (${error instanceof Error ? error.message : String(error)}); its files give no declarations`,
      ),
    );
    const mayUse = (path: string) => sources.mayUse(path);
    this.#open = new OpenModules({
      documents,
      mayUse,
      grammarLoaded: (uri) => this.#similar.schedule(uri, 0),
    });
    this.#imports = new CurrentImports((uri) => this.#open.parsed(uri));
    this.#similar = new SimilarIndex({
      documents,
      workspace: this.workspace,
      recent: this.#recent,
      mayUse,
      // A document's declarations are parsed with its index, so that a request from another document finds them
      // parsed (and the symbol index sees them).
      indexed: (doc) => {
        const path = uriToPath(doc.uri);
        const support = supportOf(doc);
        if (!path || !support) return;
        this.#open.names(doc, path);
        const module = this.#open.parsed(doc.uri);
        if (module) symbols.parsed(path, support.family, module.outline);
      },
    });
    this.#chooser = new BlockChooser({
      documents,
      workspace: this.workspace,
      sources,
      env,
      open: this.#open,
      imports: this.#imports,
      similar: this.#similar,
      symbols,
      recent: this.#recent,
      memo: this.#memo,
      typeAtLine: declarationAtLine,
    });
    this.#types = new EditorTypes({
      ask: () => options.typeDefinitions?.(),
      budgetMs: () => options.settings().typeDefinitionMs,
      log: options.log,
    });
  }

  /**
   * The context block for a request at `position` (UTF-16) in `doc`, within `budgetTokens`. Reuses the document's
   * block unless something it depends on changed. `quietMs`: how long the request waits anyway (its debounce), in
   * ms: the editor may take that long to locate the receiver's type, if longer than `context.typeDefinitionMs`.
   * Never rejects: trouble gives an empty block.
   */
  async block(
    doc: OpenDocument,
    position: Position,
    budgetTokens: number,
    quietMs = 0,
  ): Promise<ContextResult> {
    const started = performance.now();
    const settings = this.options.settings();
    if (!settings.enabled || budgetTokens <= 0) return { block: EMPTY_BLOCK, ms: 0, recomputed: false };
    this.#files.applyExclude(settings.exclude);
    const types = await this.#types.typesAt(doc, position, supportOf(doc)?.family, quietMs);
    const pending = this.#pending.get(doc.uri);
    if (pending) return pending;

    const support = supportOf(doc);
    const path = uriToPath(doc.uri);
    const reason = this.#blocks.staleness({
      doc,
      position,
      budget: budgetTokens,
      settings,
      support,
      imports: () => (support && path ? this.#imports.parse(doc, position, support, path) : undefined),
      types: types.map(typeKey),
    });
    const state = this.#blocks.get(doc.uri);
    if (!reason && state) {
      this.#blocks.recheck(state, (source) => this.#files.sources.peek(source));
      return { block: state.block, ms: performance.now() - started, recomputed: false };
    }

    // A name typed near the cursor only adds its declaration, a member access on a new receiver its type's member
    // outline, a type the editor located its outline: the block grows at its end, and what the prompt cache holds of
    // it stays valid.
    const extend = reason === "name" || reason === "receiver" || reason === "type" ? state : undefined;
    // The symbol index's build waits while a request chooses (it would otherwise share the CPU and the disk).
    const release = this.#files.symbols.hold();
    const only = reason === "receiver" ? "receiver" : reason === "type" ? "types" : undefined;
    const computing = this.#chooser
      .choose(doc, position, budgetTokens, settings, extend, types, only)
      .then((next) => {
        this.#blocks.set(doc.uri, next);
        const ms = performance.now() - started;
        this.#logChoice(doc, position, next.block, reason ?? "first", ms);
        return { block: next.block, ms, recomputed: true };
      })
      .catch((error: unknown) => {
        this.options.log.warn(`context: ${error instanceof Error ? error.message : String(error)}`);
        return { block: EMPTY_BLOCK, ms: performance.now() - started, recomputed: true };
      })
      .finally(() => {
        release();
        this.#pending.delete(doc.uri);
      });
    this.#pending.set(doc.uri, computing);
    return computing;
  }

  /**
   * The member outline of the type declared at a line (0-based) of a file, by URI or absolute path: its header,
   * members' signatures and bases', as snippets (workspace-relative paths) within `maxTokens` estimated tokens.
   * The entry point for the type definitions an editor's language server returns for the cursor's receiver
   * ("the type declared at F, line L"); `current` is the document the cursor is in. Never rejects: trouble, a file
   * that may not be read, a line without a type, a language without typing rules give none.
   */
  async typeOutline(
    uriOrPath: string,
    line: number,
    maxTokens: number,
    current?: string,
  ): Promise<ContextSnippet[]> {
    const path = uriOrPath.startsWith("file:") ? uriToPath(uriOrPath) : uriOrPath;
    const at = current?.startsWith("file:") ? uriToPath(current) : current;
    if (path === undefined || !this.options.settings().enabled) return [];
    try {
      return await this.#chooser.outlineAt(path, line, Math.floor(maxTokens * 3.5), at);
    } catch (error) {
      this.options.log.debug(`context type outline: ${String(error)}`);
      return [];
    }
  }

  /** A document was opened: index it for similar code and parse its declarations soon. */
  didOpen(uri: string): void {
    // Opened again (a reload): what the editor said of its receivers may not hold.
    this.#types.changed(uri, { line: 0, character: 0 });
    this.#recent.reopened(uri);
    this.#sourceChanged(uri);
    this.#similar.schedule(uri, 0);
    // Its imported files are read and parsed while the user finds their place: the first completion does not pay.
    setImmediate(() => void this.#prefetch(uri));
  }

  /**
   * A document changed from `from` (UTF-16) on, `lineDelta` lines more after it: remember the region, and what
   * depends on it is stale.
   */
  didChange(uri: string, from: Position, lineDelta = 0): void {
    const path = uriToPath(uri);
    if (path) this.#recent.touch(uri, path, from.line);
    this.#blocks.edited(uri, from.line, lineDelta);
    this.#types.changed(uri, from);
    this.#sourceChanged(uri);
    this.#similar.schedule(uri);
  }

  /** A document was saved: the file on disk changed. */
  didSave(uri: string): void {
    const path = uriToPath(uri);
    if (path) this.#files.fileChanged(path);
    this.#sourceChanged(uri);
  }

  /** A document was closed: keep its recently edited regions' text, forget the rest, index the file from disk. */
  didClose(uri: string, doc: OpenDocument | undefined): void {
    if (doc && openDocumentTooLarge(doc.buffer.length)) this.#recent.forget(uri);
    else if (doc)
      this.#recent.snapshot(uri, (line) =>
        line < doc.buffer.lineCount ? doc.buffer.lineAt(line) : undefined,
      );
    this.#blocks.forget(uri);
    this.#types.forget(uri);
    this.#memo.forget(uri);
    this.#open.forget(uri, doc);
    this.#imports.forget(uri);
    this.#similar.forget(uri);
    this.#sourceChanged(uri);
    // The symbol index took the buffer's outline while it was open; closed (saved or not), the file on disk is
    // what the workspace declares again.
    const path = uriToPath(uri);
    if (path) this.#files.symbols.fileChanged(path);
  }

  /** Files changed on disk (`workspace/didChangeWatchedFiles`), as URIs. */
  filesChanged(uris: readonly string[]): void {
    this.#files.filesChanged(uris);
  }

  /**
   * Whether a document's text may be read and sent as context of another request (next edits' history): inside a
   * workspace folder and excluded by nothing (secrets, `.gitignore`, `context.exclude`). Cached per path until the
   * rules change.
   */
  mayUse(uri: string): Promise<boolean> {
    this.#files.applyExclude(this.options.settings().exclude);
    return this.#files.mayUse(uri);
  }

  /**
   * Whether the policy excludes a document from being sent at all: ignored inside its workspace folder, or, outside
   * every folder, named like a secret (`.env`, `*.pem`…) or matched by `context.exclude`. A buffer that is no file
   * (`untitled:`) is not excluded.
   */
  async excludes(uri: string): Promise<boolean> {
    const exclude = this.options.settings().exclude;
    this.#files.applyExclude(exclude);
    return this.#files.excludes(uri, exclude);
  }

  /** The workspace folders changed: nothing read so far is known to be allowed any more. */
  foldersChanged(): void {
    this.#files.foldersChanged();
  }

  /** Stop background work (shutdown). */
  dispose(): void {
    this.#stopWatchingFolders();
    this.#similar.dispose();
    this.#files.dispose();
    this.#stopGrammarLog();
  }

  /**
   * A file (by URI or path) changed: every other document's block that depends on it is chosen again, and the
   * answers read from it are found anew (with `listed`, it may have been created or deleted: those that listed its
   * directory too).
   */
  #sourceChanged(uriOrPath: string, listed = false): void {
    this.#blocks.sourceChanged(uriOrPath);
    const path = uriOrPath.startsWith("file:") ? uriToPath(uriOrPath) : uriOrPath;
    if (path !== undefined) this.#memo.sourceChanged(path, listed);
  }

  /** Read and parse the files a document imports (the first candidate of each that exists), in the background. */
  async #prefetch(uri: string): Promise<void> {
    const doc = this.options.documents.get(uri);
    const path = uriToPath(uri);
    const support = doc && supportOf(doc);
    if (!doc || !path || !support || !this.options.settings().enabled) return;
    const parts = { imports: this.#imports, env: this.#files.env, sources: this.#files.sources };
    await prefetchImports(doc, path, support, parts).catch((error: unknown) =>
      this.options.log.debug(`context prefetch: ${String(error)}`),
    );
  }

  #logChoice(doc: OpenDocument, position: Position, block: ContextBlock, reason: Reason, ms: number): void {
    const where = block.snippets.map((s) => `${s.path}:${s.startLine + 1}-${s.endLine + 1}`).join(", ");
    this.options.log.debug(
      `context for ${doc.uri}:${position.line + 1} (${reason}): ${where || "no snippets"}; ${block.tokens} tokens, ${ms.toFixed(2)} ms`,
    );
  }
}
