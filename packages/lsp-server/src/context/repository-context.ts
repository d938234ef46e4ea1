import { readFile } from "node:fs/promises";
import type { Position } from "vscode-languageserver";
import type { OpenDocument } from "../documents/documents.js";
import type { Logger } from "../log/logger.js";
import type { ContextSettings } from "../settings/settings.js";
import { uriToPath, Workspace } from "../workspace/workspace.js";
import { assembleBlock, type ContextBlock, type ContextSnippet, EMPTY_BLOCK } from "./block.js";
import { MAX_FILE_BYTES } from "./file-policy.js";
import { IgnoreRules } from "./ignore-rules.js";
import { supportFor } from "./lang/index.js";
import { familyOf } from "./languages.js";
import { ProjectEnv } from "./project-env.js";
import { RecentEdits } from "./recent-edits.js";
import { findDeclarations } from "./resolve.js";
import {
  bestWindows,
  identifierSet,
  indexWindows,
  jaccard,
  WINDOW_LINES,
  type WindowIndex,
} from "./similar.js";
import { SourceCache } from "./source-cache.js";
import type {
  Declaration,
  FoundDeclaration,
  LanguageSupport,
  ModuleHost,
  ParsedModule,
  Reference,
} from "./types.js";

/** Lines before the cursor searched for names to declare. */
const REFERENCE_LINES = 40;
/**
 * Lines before the searched ones that are read (not searched) to know whether they start inside a comment or a
 * string: when choosing, and on every request's check of the cursor line.
 */
const PRECEDING_LINES = 300;
const PRECEDING_LINES_CHECK = 50;
/** Names used this close to the cursor are also looked up by name in the other open documents. */
const OPEN_DECLARATION_LINES = 2;
/** A cursor this many lines away from where the block was chosen is in another region: choose again. */
const REGION_LINES = 24;
/** The current document's imports are read from its first lines (and the lines before the cursor). */
const IMPORT_HEAD_LINES = 1000;
const IMPORT_STEP_LINES = 120;
const IMPORT_MARGIN_LINES = 30;
/** An edit this many lines past the start of the last import statement may still be inside it. */
const IMPORT_EDIT_LINES = 10;
/** References looked up at most per choice, nearest first: more declarations would not fit the budget anyway. */
const MAX_REFERENCES = 24;
/**
 * The file's other imported names looked up after those used near the cursor, at most: their declarations fill
 * what the budget leaves, so that a name typed later is most often in the block already (no new choice, and no
 * prompt-cache miss of the whole window after a changed block).
 */
const MAX_AHEAD = 8;
/** The distance given to the names looked up ahead: after every reference near the cursor. */
const AHEAD_DISTANCE = REFERENCE_LINES + 1;
/** Similar-code snippets at most, per file at most, and the least Jaccard similarity worth sending. */
const SIMILAR_MAX = 3;
const SIMILAR_PER_FILE = 2;
const SIMILAR_MIN_SCORE = 0.1;
/** Open documents whose windows are indexed at most (the most recently used ones). */
const INDEXED_DOCUMENTS_MAX = 100;
/** A reused block's files are re-checked on disk at most this often, in ms (the source cache's own period). */
const RECHECK_MS = 2000;
/** Time allowed for a document's index to be rebuilt after an edit, ms (off the request path). */
const INDEX_DELAY_MS = 300;

/** What the open documents look like from here (`Documents` fits). */
export interface DocumentSource {
  get(uri: string): OpenDocument | undefined;
  all(): Iterable<OpenDocument>;
}

/** Options of {@link RepositoryContext}. */
export interface RepositoryContextOptions {
  documents: DocumentSource;
  /** The workspace folders (their owner is the server); a workspace of its own when not given (tests, benches). */
  workspace?: Workspace;
  settings: () => ContextSettings;
  log: Logger;
}

/** The context of one request, and what choosing it cost. */
export interface ContextResult {
  block: ContextBlock;
  /** Time spent choosing, in ms (reads of files not seen before included). */
  ms: number;
  /** Whether the block was chosen anew (false: the document's previous block was reused, byte for byte). */
  recomputed: boolean;
}

/** Why a document's block was chosen anew: kept for the debug log. */
type Reason = "first" | "settings" | "document" | "region" | "imports" | "source" | "name";

interface DocState {
  block: ContextBlock;
  budget: number;
  settingsKey: string;
  anchorLine: number;
  /** Paths this block depends on: the files its snippets come from and the modules its imports resolved to. */
  sources: Set<string>;
  /** Reference keys already looked up (`name` and `name.member`). */
  tried: Set<string>;
  /** Local names bound by the document's imports: a new one typed on the cursor line triggers a new choice. */
  imported: Set<string>;
  /** Last line where an import statement of the document starts: an edit up to a little after may change them. */
  importsEnd: number;
  /** The imports were edited: read them again at the next request, and choose again if they changed. */
  importsEdited: boolean;
  /** When its files were last re-checked on disk (`performance.now()`). */
  checkedAt: number;
  stale: Reason | undefined;
}

/**
 * Repository context for completion requests: the declarations of imported names used near the cursor and similar
 * code from other open documents and recently edited regions, as one block at the start of the prompt.
 *
 * Cache stability: a document's block is chosen once and then reused byte for byte — so DeepSeek's prompt cache
 * keeps hitting — until the cursor moves to another region (24 lines away), another document asks, a file the block
 * depends on is edited, saved or changed on disk, the document's imports change, or a newly typed name on the
 * cursor line is one the imports bind. Never on every keystroke.
 *
 * Reads go through a {@link SourceCache} (workspace only, ignore rules, secrets, sizes; by modification time) and
 * open buffers win over the disk.
 */
export class RepositoryContext {
  readonly workspace: Workspace;
  readonly #ignore: IgnoreRules;
  readonly #sources: SourceCache<ParsedModule>;
  readonly #env: ProjectEnv;
  readonly #recent = new RecentEdits();
  readonly #states = new Map<string, DocState>();
  readonly #pending = new Map<string, Promise<ContextResult>>();
  readonly #parsedOpen = new Map<
    string,
    { version: number; module: ParsedModule | undefined; names?: ReadonlyMap<string, Declaration> }
  >();
  readonly #indexes = new Map<string, { version: number; index: WindowIndex }>();
  readonly #indexTimers = new Map<string, { cancel(): void }>();
  #lastUri: string | undefined;
  readonly #stopWatchingFolders: () => void;
  #exclude: readonly string[] = [];

  constructor(private readonly options: RepositoryContextOptions) {
    this.workspace = options.workspace ?? new Workspace();
    this.#stopWatchingFolders = this.workspace.onDidChange(() => this.foldersChanged());
    this.#ignore = new IgnoreRules((path) => readFile(path, "utf8").catch(() => undefined));
    this.#sources = new SourceCache<ParsedModule>({
      workspace: this.workspace,
      ignore: this.#ignore,
      exclude: () => this.#exclude,
      parse: (path, text) => parseFile(path, text),
      onChange: (path) => this.#sourceChanged(path),
    });
    this.#env = new ProjectEnv(
      this.workspace,
      (path) => this.#sources.readText(path),
      (dir) => this.#sources.subdirectories(dir),
    );
  }

  /**
   * The context block for a request at `position` (UTF-16) in `doc`, within `budgetTokens`. Reuses the document's
   * block unless something it depends on changed. Never rejects: trouble gives an empty block.
   */
  async block(doc: OpenDocument, position: Position, budgetTokens: number): Promise<ContextResult> {
    const started = performance.now();
    const settings = this.options.settings();
    if (!settings.enabled || budgetTokens <= 0) return { block: EMPTY_BLOCK, ms: 0, recomputed: false };
    this.#applyExclude(settings.exclude);
    const pending = this.#pending.get(doc.uri);
    if (pending) return pending;

    const state = this.#states.get(doc.uri);
    const reason = this.#staleness(state, doc, position, budgetTokens, settings);
    this.#lastUri = doc.uri;
    if (!reason && state) {
      this.#recheck(state);
      return { block: state.block, ms: performance.now() - started, recomputed: false };
    }

    // A name typed near the cursor only adds its declaration: the block grows at its end, and what the prompt
    // cache holds of it stays valid.
    const extend = reason === "name" ? state : undefined;
    const computing = this.#choose(doc, position, budgetTokens, settings, extend)
      .then((next) => {
        this.#states.set(doc.uri, next);
        const ms = performance.now() - started;
        this.#logChoice(doc, position, next.block, reason ?? "first", ms);
        return { block: next.block, ms, recomputed: true };
      })
      .catch((error: unknown) => {
        this.options.log.warn(`context: ${error instanceof Error ? error.message : String(error)}`);
        return { block: EMPTY_BLOCK, ms: performance.now() - started, recomputed: true };
      })
      .finally(() => this.#pending.delete(doc.uri));
    this.#pending.set(doc.uri, computing);
    return computing;
  }

  /** A document was opened: index it for similar code and parse its declarations soon. */
  didOpen(uri: string): void {
    this.#recent.reopened(uri);
    this.#sourceChanged(uri);
    this.#scheduleIndex(uri, 0);
    // Its imported files are read and parsed while the user finds their place: the first completion does not pay.
    setImmediate(() => void this.#prefetch(uri));
  }

  /** A document changed from `fromLine` on (0-based): remember the region, and what depends on it is stale. */
  didChange(uri: string, fromLine: number): void {
    const path = uriToPath(uri);
    if (path) this.#recent.touch(uri, path, fromLine);
    const own = this.#states.get(uri);
    // A statement may span a few lines past where it starts (`import {` … `} from "x"`).
    if (own && fromLine <= own.importsEnd + IMPORT_EDIT_LINES) own.importsEdited = true;
    this.#sourceChanged(uri);
    this.#scheduleIndex(uri);
  }

  /** A document was saved: the file on disk changed. */
  didSave(uri: string): void {
    const path = uriToPath(uri);
    if (path) this.#sources.invalidate(path);
    this.#sourceChanged(uri);
  }

  /** A document was closed: keep its recently edited regions' text, forget the rest. */
  didClose(uri: string, doc: OpenDocument | undefined): void {
    if (doc && tooLarge(doc)) this.#recent.forget(uri);
    else if (doc)
      this.#recent.snapshot(uri, (line) =>
        line < doc.buffer.lineCount ? doc.buffer.lineAt(line) : undefined,
      );
    this.#states.delete(uri);
    this.#parsedOpen.delete(uri);
    this.#indexes.delete(uri);
    this.#cancelIndex(uri);
    this.#sourceChanged(uri);
    if (this.#lastUri === uri) this.#lastUri = undefined;
  }

  /** Files changed on disk (`workspace/didChangeWatchedFiles`), as URIs. */
  filesChanged(uris: readonly string[]): void {
    for (const uri of uris) {
      const path = uriToPath(uri);
      if (!path) continue;
      if (IgnoreRules.isIgnoreFile(path)) {
        this.#ignore.invalidate(path);
        this.#sources.clear();
        this.#invalidateAll("source");
        continue;
      }
      this.#env.invalidate(path);
      this.#sources.invalidate(path);
      this.#sourceChanged(uri);
    }
  }

  /** The workspace folders changed: nothing read so far is known to be allowed any more. */
  foldersChanged(): void {
    this.#sources.clear();
    this.#env.invalidate();
    this.#invalidateAll("source");
  }

  /** Stop background work (shutdown). */
  dispose(): void {
    this.#stopWatchingFolders();
    for (const uri of [...this.#indexTimers.keys()]) this.#cancelIndex(uri);
  }

  /**
   * A reused block's files are re-checked on disk in the background (at most every 2 s): without watched-file
   * events (Neovim on Linux, a file another program wrote), a change would otherwise stay unseen while the block
   * lives. A file that changed marks the block stale for the next request.
   */
  #recheck(state: DocState): void {
    const now = performance.now();
    if (now - state.checkedAt < RECHECK_MS) return;
    state.checkedAt = now;
    for (const source of state.sources) this.#sources.peek(source);
  }

  /** Read and parse the files a document imports (the first candidate of each that exists), in the background. */
  async #prefetch(uri: string): Promise<void> {
    const doc = this.options.documents.get(uri);
    const path = uriToPath(uri);
    const support = doc && supportOf(doc);
    if (!doc || !path || !support || !this.options.settings().enabled) return;
    try {
      const { imports } = this.#parseCurrent(doc, { line: 0, character: 0 }, support, path);
      const env = await this.#env.for(path);
      for (const statement of imports) {
        for (const candidate of support.candidates(statement.specifier, path, env)) {
          if (candidate.endsWith("/")) break;
          if (await this.#sources.load(candidate)) break;
        }
      }
    } catch (error) {
      this.options.log.debug(`context prefetch: ${String(error)}`);
    }
  }

  /** Why the document's block must be chosen again, or undefined when it may be reused. */
  #staleness(
    state: DocState | undefined,
    doc: OpenDocument,
    position: Position,
    budget: number,
    settings: ContextSettings,
  ): Reason | undefined {
    if (!state) return "first";
    if (state.stale) return state.stale;
    if (state.budget !== budget || state.settingsKey !== settingsKey(settings)) return "settings";
    if (this.#lastUri !== doc.uri) return "document";
    if (Math.abs(position.line - state.anchorLine) > REGION_LINES) return "region";
    const support = supportOf(doc);
    const path = uriToPath(doc.uri);
    if (state.importsEdited && support && path) {
      // Typing just below the imports edits near them on every keystroke: only a change of what they bind counts.
      const { imported, importsEnd } = importedNames(this.#parseCurrent(doc, position, support, path));
      if (!sameSet(imported, state.imported)) return "imports";
      state.importsEnd = importsEnd;
      state.importsEdited = false;
    }
    if (support && state.imported.size > 0) {
      // Only names typed to their end count: `formatPrice(` does, `formatPr` or `ns.memb` being typed do not
      // (every keystroke would be a new name).
      const line = withoutTypedName(doc.buffer.lineAt(position.line).slice(0, position.character));
      const preceding = linesOf(doc, Math.max(0, position.line - PRECEDING_LINES_CHECK), position.line);
      for (const ref of support.references([line], preceding)) {
        if (state.imported.has(ref.name) && !state.tried.has(referenceKey(ref))) return "name";
      }
    }
    return undefined;
  }

  /** @param extend - the state whose block the new one extends (its snippets kept first, its region kept) */
  async #choose(
    doc: OpenDocument,
    position: Position,
    budget: number,
    settings: ContextSettings,
    extend?: DocState,
  ): Promise<DocState> {
    const path = uriToPath(doc.uri);
    // Outside the workspace (or without one) there is no workspace-relative path to name.
    const currentPath = path === undefined ? undefined : this.workspace.relative(path);
    // The files of kept snippets stay watched for changes.
    const sources = new Set<string>(extend?.sources);
    const tried = new Set<string>();
    let ahead: Reference[] = [];
    let declaredAhead = new Map<string, FoundDeclaration>();
    let imported = new Set<string>();
    let importsEnd = -1;
    const candidates: ContextSnippet[] = [];

    const support = supportOf(doc);
    if (support && path) {
      const current = this.#parseCurrent(doc, position, support, path);
      ({ imported, importsEnd } = importedNames(current));
      const from = Math.max(0, position.line - REFERENCE_LINES + 1);
      const lines: string[] = [];
      for (let line = from; line < position.line; line++) lines.push(doc.buffer.lineAt(line));
      lines.push(doc.buffer.lineAt(position.line).slice(0, position.character));
      const preceding = linesOf(doc, Math.max(0, from - PRECEDING_LINES), from);
      const references = support.references(lines, preceding);
      for (const ref of references) tried.add(referenceKey(ref));
      const near = new Set(references.map((ref) => ref.name));
      ahead = [...imported]
        .filter((name) => !near.has(name) && !name.includes("."))
        .slice(0, MAX_AHEAD)
        .map((name) => ({ name, distance: AHEAD_DISTANCE }));
      const env = await this.#env.for(path);
      const found: FoundDeclaration[] = await findDeclarations(
        support,
        current,
        [...references.slice(0, MAX_REFERENCES), ...ahead],
        this.#host(sources),
        env,
      );
      declaredAhead = new Map(
        found.filter((f) => f.reference.distance === AHEAD_DISTANCE).map((f) => [f.reference.name, f]),
      );
      found.push(...(await this.#openDeclarations(doc, support, references, imported, found, sources)));
      // Nearest use first, whichever way its declaration was found (a stable sort keeps each source's order).
      found.sort((a, b) => a.reference.distance - b.reference.distance);
      for (const { path: declPath, declaration } of found) {
        const rel = this.workspace.relative(declPath);
        if (rel === undefined) continue;
        candidates.push({
          path: rel,
          startLine: declaration.startLine,
          endLine: declaration.endLine,
          text: declaration.snippet,
          kind: "declaration",
        });
      }
    }

    candidates.push(...(await this.#similar(doc, position, sources)));
    const block = assembleBlock({
      languageId: doc.languageId,
      currentPath,
      candidates,
      budgetTokens: budget,
      ...(extend ? { keep: extend.block.snippets } : {}),
    });
    // An imported name looked up ahead counts as tried only when its declaration made it into the block. One that
    // did not fit, or was not found (a package outside the workspace, or the lookup's file budget spent on the
    // nearer names), is looked up again once it is typed: it is then near, and goes first.
    const inBlock = new Set(block.snippets.map((s) => `${s.path}\0${s.startLine}`));
    for (const ref of ahead) {
      const found = declaredAhead.get(ref.name);
      const rel = found && this.workspace.relative(found.path);
      if (found && rel !== undefined && inBlock.has(`${rel}\0${found.declaration.startLine}`))
        tried.add(referenceKey(ref));
    }
    return {
      block,
      budget,
      settingsKey: settingsKey(settings),
      anchorLine: extend?.anchorLine ?? position.line,
      sources,
      tried,
      imported,
      importsEnd,
      importsEdited: false,
      checkedAt: performance.now(),
      stale: undefined,
    };
  }

  /**
   * Declarations, by name, in the other open documents of the same language family, for the names used on the
   * cursor's last lines that import resolution did not reach (a package imported by name, an alias it does not
   * know, a dynamic require): a bare name, or the member of an imported namespace. Exported declarations only.
   */
  async #openDeclarations(
    doc: OpenDocument,
    support: LanguageSupport,
    references: readonly Reference[],
    imported: ReadonlySet<string>,
    found: readonly FoundDeclaration[],
    sources: Set<string>,
  ): Promise<FoundDeclaration[]> {
    const have = new Set(found.map((f) => f.declaration.name));
    const wanted = new Map<string, Reference>();
    for (const ref of references) {
      if (ref.distance > OPEN_DECLARATION_LINES) continue;
      const name = ref.member !== undefined && imported.has(ref.name) ? ref.member : ref.name;
      if (!have.has(name) && !wanted.has(name)) wanted.set(name, ref);
    }
    if (wanted.size === 0) return [];
    const out: FoundDeclaration[] = [];
    for (const other of this.options.documents.all()) {
      if (other.uri === doc.uri || supportOf(other)?.family !== support.family) continue;
      const path = uriToPath(other.uri);
      if (!path || !(await this.#sources.mayUse(path))) continue;
      // Parsed off the request path, like the indexes; a document not parsed yet is skipped.
      const names = this.#parsedOpen.get(other.uri)?.names;
      if (!names) continue;
      for (const [name, ref] of wanted) {
        const declaration = names.get(name);
        if (!declaration) continue;
        out.push({ path, declaration, reference: ref });
        sources.add(path);
        wanted.delete(name);
      }
      if (wanted.size === 0) break;
    }
    return out;
  }

  /** The exported top-level declarations of an open document by name (parsed once per version). */
  #openNames(doc: OpenDocument, path: string): ReadonlyMap<string, Declaration> {
    const cached = this.#parsedOpen.get(doc.uri);
    if (cached?.version === doc.version && cached.names) return cached.names;
    const module =
      cached?.version === doc.version
        ? cached.module
        : parseFile(path, linesOf(doc, 0, doc.buffer.lineCount), doc.languageId);
    const names = new Map<string, Declaration>();
    for (const declaration of module?.outline.declarations ?? []) {
      if (declaration.exported && !names.has(declaration.name)) names.set(declaration.name, declaration);
    }
    this.#parsedOpen.set(doc.uri, { version: doc.version, module, names });
    return names;
  }

  /**
   * The current document's imports. Modules state them at the top, so the head is parsed in growing steps (120
   * lines, then four times more, up to 1000) until its last import lies well before the step's end; the lines just
   * before the cursor are parsed too when they lie beyond the head (a `require` inside a function).
   */
  #parseCurrent(doc: OpenDocument, position: Position, support: LanguageSupport, path: string): ParsedModule {
    const limit = Math.min(doc.buffer.lineCount, IMPORT_HEAD_LINES);
    let end = Math.min(limit, IMPORT_STEP_LINES);
    let head = support.parse(linesOf(doc, 0, end));
    while (end < limit) {
      const last = Math.max(-1, ...head.imports.map((statement) => statement.line));
      // No import yet (a long header comment or docstring first), or one close to the cut: read on.
      if (last !== -1 && last < end - IMPORT_MARGIN_LINES) break;
      end = Math.min(limit, end * 4);
      head = support.parse(linesOf(doc, 0, end));
    }
    const nearStart = Math.max(end, position.line - REFERENCE_LINES);
    if (nearStart > position.line) return { path, ...head };
    const near = support.parse(linesOf(doc, nearStart, position.line + 1));
    const shifted = near.imports.map((statement) => ({ ...statement, line: statement.line + nearStart }));
    return { path, imports: [...head.imports, ...shifted], outline: head.outline };
  }

  /**
   * Similar code: the best windows of the other open documents and of recently edited regions, by Jaccard
   * similarity to the lines before the cursor; same language first.
   */
  async #similar(doc: OpenDocument, position: Position, sources: Set<string>): Promise<ContextSnippet[]> {
    const query = identifierSet(
      linesOf(doc, Math.max(0, position.line - WINDOW_LINES + 1), position.line + 1),
    );
    if (query.size === 0) return [];
    const family = familyOf(doc.languageId, doc.uri);
    const found: Array<ContextSnippet & { score: number; same: boolean }> = [];
    for (const other of this.options.documents.all()) {
      if (other.uri === doc.uri) continue;
      const path = uriToPath(other.uri);
      if (!path || !(await this.#sources.mayUse(path))) continue;
      const rel = this.workspace.relative(path);
      if (rel === undefined) continue;
      const same = other.languageId === doc.languageId || familyOf(other.languageId, other.uri) === family;
      // Indexes are built off the request path (right after a document opens, shortly after it changes).
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
    for (const region of this.#recent.closed()) {
      if (region.uri === doc.uri || !(await this.#sources.mayUse(region.path))) continue;
      const rel = this.workspace.relative(region.path);
      if (rel === undefined) continue;
      const score = jaccard(query, identifierSet(region.text));
      if (score < SIMILAR_MIN_SCORE) continue;
      const same = familyOf(undefined, region.path) === family;
      found.push({
        path: rel,
        startLine: region.startLine,
        endLine: region.endLine,
        text: region.text,
        kind: "similar",
        score,
        same,
      });
    }
    // A stable sort: ties keep the order documents were opened in.
    found.sort((a, b) => Number(b.same) - Number(a.same) || b.score - a.score);
    return found.slice(0, SIMILAR_MAX).map(({ score: _score, same: _same, ...snippet }) => snippet);
  }

  #rebuildIndex(doc: OpenDocument): WindowIndex {
    const lines: string[] = [];
    for (let line = 0; line < doc.buffer.lineCount; line++) lines.push(doc.buffer.lineAt(line));
    const index = indexWindows(lines);
    this.#indexes.delete(doc.uri);
    this.#indexes.set(doc.uri, { version: doc.version, index });
    // Bounded: the least recently indexed documents go first.
    while (this.#indexes.size > INDEXED_DOCUMENTS_MAX)
      this.#indexes.delete(this.#indexes.keys().next().value!);
    return index;
  }

  /**
   * Index a document's windows and parse its declarations after `delayMs` (by default a little after the last edit),
   * in a task of its own: a request never waits for another document to be indexed. With no delay it runs before
   * the next message is read (a document just opened is ready for the request that follows).
   */
  #scheduleIndex(uri: string, delayMs = INDEX_DELAY_MS): void {
    this.#cancelIndex(uri);
    const work = () => {
      this.#indexTimers.delete(uri);
      const doc = this.options.documents.get(uri);
      if (!doc) return;
      if (tooLarge(doc)) {
        // Grown past the limit since it was indexed: what was kept of it goes.
        this.#indexes.delete(uri);
        this.#parsedOpen.delete(uri);
        return;
      }
      if (this.#indexes.get(uri)?.version !== doc.version) this.#rebuildIndex(doc);
      // Its declarations too, so that a request from another document finds them parsed.
      const path = uriToPath(uri);
      if (path && supportOf(doc)) this.#openNames(doc, path);
    };
    // vscode-jsonrpc reads one message per `setImmediate`: one queued now runs before the next message.
    if (delayMs <= 0) {
      const immediate = setImmediate(work);
      this.#indexTimers.set(uri, { cancel: () => clearImmediate(immediate) });
    } else {
      const timer = setTimeout(work, delayMs);
      timer.unref?.();
      this.#indexTimers.set(uri, { cancel: () => clearTimeout(timer) });
    }
  }

  #cancelIndex(uri: string): void {
    this.#indexTimers.get(uri)?.cancel();
    this.#indexTimers.delete(uri);
  }

  /** The module host of one choice: open buffers over the disk; records what it resolved to in `used`. */
  #host(used: Set<string>): ModuleHost {
    return {
      module: (path) => {
        used.add(path);
        const open = this.#openModule(path);
        if (open !== undefined) return open;
        return this.#sources.get(path);
      },
      list: (dir) => this.#sources.list(dir),
    };
  }

  /** The parse of an open buffer at `path` (per version), when it is open and may be used; else undefined. */
  #openModule(path: string): Promise<ParsedModule | undefined> | undefined {
    const uri = this.#uriOfOpen(path);
    if (!uri) return undefined;
    const doc = this.options.documents.get(uri)!;
    return this.#sources.mayUse(path).then((allowed) => {
      if (!allowed || tooLarge(doc)) return undefined;
      const cached = this.#parsedOpen.get(uri);
      if (cached?.version === doc.version) return cached.module;
      const module = parseFile(path, linesOf(doc, 0, doc.buffer.lineCount), doc.languageId);
      this.#parsedOpen.set(uri, { version: doc.version, module });
      return module;
    });
  }

  #uriOfOpen(path: string): string | undefined {
    for (const doc of this.options.documents.all()) if (uriToPath(doc.uri) === path) return doc.uri;
    return undefined;
  }

  /** A file (by URI or path) changed: every block that depends on it is chosen again at its next request. */
  #sourceChanged(uriOrPath: string): void {
    const path = uriOrPath.startsWith("file:") ? uriToPath(uriOrPath) : uriOrPath;
    for (const [uri, state] of this.#states) {
      if (uri === uriOrPath) continue;
      if (state.sources.has(uriOrPath) || (path !== undefined && state.sources.has(path)))
        state.stale ??= "source";
    }
  }

  #invalidateAll(reason: Reason): void {
    for (const state of this.#states.values()) state.stale ??= reason;
  }

  #applyExclude(exclude: readonly string[]): void {
    if (exclude.join("\n") === this.#exclude.join("\n")) return;
    this.#exclude = exclude;
    this.#sources.clear();
    this.#invalidateAll("settings");
  }

  #logChoice(doc: OpenDocument, position: Position, block: ContextBlock, reason: Reason, ms: number): void {
    const where = block.snippets.map((s) => `${s.path}:${s.startLine + 1}-${s.endLine + 1}`).join(", ");
    this.options.log.debug(
      `context for ${doc.uri}:${position.line + 1} (${reason}): ${where || "no snippets"}; ${block.tokens} tokens, ${ms.toFixed(2)} ms`,
    );
  }
}

const NAME_CHAR = /[\p{L}\p{N}_$]/u;

/** A line before the cursor without the identifier being typed at its end (and the `.` or `::` before it). */
export function withoutTypedName(line: string): string {
  let end = line.length;
  while (end > 0 && NAME_CHAR.test(line[end - 1]!)) end--;
  if (end === line.length) return line;
  if (line.endsWith("::", end)) return line.slice(0, end - 2);
  if (line[end - 1] === ".") return line.slice(0, end - 1);
  return line.slice(0, end);
}

/**
 * Whether an open document is over the size limit of files on disk (in UTF-16 code units, never more than its
 * UTF-8 bytes): it is then no context for other documents, as such a file is not. Its window index and its parse
 * would take several times its size (about 100 MB of garbage per version of a 5 MB buffer, and 40 MB kept).
 */
function tooLarge(doc: OpenDocument): boolean {
  return doc.buffer.length > MAX_FILE_BYTES;
}

function supportOf(doc: OpenDocument): LanguageSupport | undefined {
  const family = familyOf(doc.languageId, doc.uri);
  return family ? supportFor(family) : undefined;
}

/** Parse a file of a known family; undefined for the others. */
function parseFile(path: string, text: string, languageId?: string): ParsedModule | undefined {
  const family = familyOf(languageId, path);
  if (!family) return undefined;
  return { path, ...supportFor(family).parse(text) };
}

/** The local names a file's imports bind (a dotted Python binding also by its first name), and where they end. */
function importedNames(module: ParsedModule): { imported: Set<string>; importsEnd: number } {
  const imported = new Set<string>();
  let importsEnd = -1;
  for (const statement of module.imports) {
    for (const binding of statement.bindings) {
      imported.add(binding.local);
      imported.add(binding.local.split(".")[0]!);
    }
    importsEnd = Math.max(importsEnd, statement.line);
  }
  return { imported, importsEnd };
}

function sameSet(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
  if (a.size !== b.size) return false;
  for (const item of a) if (!b.has(item)) return false;
  return true;
}

function referenceKey(ref: Reference): string {
  return ref.member === undefined ? ref.name : `${ref.name}.${ref.member}`;
}

function settingsKey(settings: ContextSettings): string {
  return JSON.stringify([settings.maxTokens, settings.exclude]);
}

/** Lines `from` (inclusive) to `to` (exclusive) of a document, joined with `\n`. */
function linesOf(doc: OpenDocument, from: number, to: number): string {
  const lines: string[] = [];
  for (let line = from; line < to && line < doc.buffer.lineCount; line++) lines.push(doc.buffer.lineAt(line));
  return lines.join("\n");
}

function trimBlankLines(text: string): string {
  return text.replace(/^(?:[ \t]*\n)+/, "").trimEnd();
}
