import type { Position } from "vscode-languageserver";
import type { OpenDocument } from "../../documents/documents.js";
import type { ContextSettings } from "../../settings/settings.js";
import { uriToPath } from "../../workspace/workspace.js";
import { linesOf } from "../document-lines.js";
import { importedNames } from "../modules/current-imports.js";
import type { LanguageSupport, ParsedModule, Reference } from "../types.js";
import { rulesFor } from "../typing/rules/index.js";
import type { ContextBlock } from "./block.js";
import { cursorReceiver } from "./cursor-receiver.js";

/** A cursor this many lines away from where the block was chosen is in another region: choose again. */
const REGION_LINES = 24;
/** An edit this many lines past the start of the last import statement may still be inside it. */
const IMPORT_EDIT_LINES = 10;
/** Lines before the cursor line read to know whether it starts inside a comment or a string. */
const PRECEDING_LINES_CHECK = 50;
/**
 * Blocks of other regions of a document kept besides the current one, at most: the cursor going back to a region it
 * was in finds that region's block again (the same bytes: the prompt cache still holds them) instead of a new choice.
 */
const REGIONS_KEPT = 8;
/** A reused block's files are re-checked on disk at most this often, in ms (the source cache's own period). */
const RECHECK_MS = 2000;

/** Why a document's block is chosen anew: kept for the debug log. */
export type Reason =
  | "first"
  | "settings"
  | "document"
  | "region"
  | "imports"
  | "source"
  | "name"
  | "receiver"
  | "type";

/** A document's block, and what it depends on. */
export interface DocState {
  block: ContextBlock;
  budget: number;
  settingsKey: string;
  anchorLine: number;
  /** Paths this block depends on: the files its snippets come from and the modules its imports resolved to. */
  sources: Set<string>;
  /** Reference keys already looked up (`name` and `name.member`). */
  tried: Set<string>;
  /** Receivers whose type's member outline was looked for (`mail`, `this.transport`), found or not. */
  receivers: Set<string>;
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

/** How the cache sees the document a request is made in. */
export interface Current {
  doc: OpenDocument;
  position: Position;
  budget: number;
  settings: ContextSettings;
  support: LanguageSupport | undefined;
  /** The document's imports now (parsed on demand: only when they may have changed). */
  imports: () => ParsedModule | undefined;
  /** The keys ({@link typeKey}) of the types the editor says the receiver at the cursor has. */
  types: readonly string[];
}

/**
 * The blocks of the documents, and when each must be chosen again. Cache stability: a block is reused byte for
 * byte — so the prompt cache keeps hitting — until the cursor moves to another region (24 lines away), another
 * document asks, a file the block depends on is edited, saved or changed on disk, the document's imports change,
 * a newly typed name on the cursor line is one the imports bind, the cursor is after a member operator on a
 * receiver whose type was not looked for yet, or the editor locates a type the block has not tried (the receiver's
 * at the cursor). Never on every keystroke. Its invalidation is all here.
 */
export class BlockCache {
  readonly #states = new Map<string, DocState>();
  /** By document, the blocks of the regions the cursor was in before, the most recent last. */
  readonly #regions = new Map<string, DocState[]>();
  /** The document the last request came from: a request from another one chooses anew. */
  #lastUri: string | undefined;

  get(uri: string): DocState | undefined {
    return this.#states.get(uri);
  }

  /** The document's block is `state`: the one before it is kept as its region's, if that is another region. */
  set(uri: string, state: DocState): void {
    const before = this.#states.get(uri);
    this.#states.set(uri, state);
    if (before && before !== state) this.#keep(uri, before);
  }

  /** Why the document's block must be chosen again, or undefined when it may be reused; remembers who asked. */
  staleness(current: Current): Reason | undefined {
    const reason = this.#staleness(current);
    this.#lastUri = current.doc.uri;
    return reason;
  }

  /**
   * A reused block's files are re-checked on disk in the background (at most every 2 s) through `peek`: without
   * watched-file events (Neovim on Linux, a file another program wrote), a change would otherwise stay unseen while
   * the block lives. A file that changed marks the block stale for the next request.
   */
  recheck(state: DocState, peek: (path: string) => void): void {
    const now = performance.now();
    if (now - state.checkedAt < RECHECK_MS) return;
    state.checkedAt = now;
    for (const source of state.sources) peek(source);
  }

  /**
   * The document changed from `fromLine` on, `lineDelta` lines more after it (negative: fewer): near its imports (a
   * statement may span a few lines) they are read again; the regions below move with their lines.
   */
  edited(uri: string, fromLine: number, lineDelta = 0): void {
    for (const state of this.#statesOf(uri)) {
      if (fromLine <= state.importsEnd + IMPORT_EDIT_LINES) state.importsEdited = true;
      if (state.anchorLine > fromLine) state.anchorLine = Math.max(fromLine, state.anchorLine + lineDelta);
    }
  }

  /** A file (by URI or path) changed: every other document's block that depends on it is chosen again. */
  sourceChanged(uriOrPath: string): void {
    const path = uriOrPath.startsWith("file:") ? uriToPath(uriOrPath) : uriOrPath;
    for (const [uri, state] of this.#states) {
      if (uri === uriOrPath) continue;
      if (state.sources.has(uriOrPath) || (path !== undefined && state.sources.has(path)))
        state.stale ??= "source";
    }
    for (const [uri, kept] of this.#regions) {
      if (uri === uriOrPath) continue;
      const fresh = kept.filter(
        (state) => !state.sources.has(uriOrPath) && !(path && state.sources.has(path)),
      );
      if (fresh.length < kept.length) this.#regions.set(uri, fresh);
    }
  }

  /** Every block is chosen again at its next request. */
  invalidateAll(reason: Reason): void {
    for (const state of this.#states.values()) state.stale ??= reason;
    this.#regions.clear();
  }

  /** A document was closed. */
  forget(uri: string): void {
    this.#states.delete(uri);
    this.#regions.delete(uri);
    if (this.#lastUri === uri) this.#lastUri = undefined;
  }

  #staleness({ doc, position, budget, settings, support, imports, types }: Current): Reason | undefined {
    const state = this.#states.get(doc.uri);
    if (!state) return "first";
    if (state.stale) return state.stale;
    if (state.budget !== budget || state.settingsKey !== settingsKey(settings)) return "settings";
    if (this.#lastUri !== doc.uri) return "document";
    return this.#regionStaleness(this.#here(doc.uri, state, position.line, budget, settings), {
      doc,
      position,
      budget,
      settings,
      support,
      imports,
      types,
    });
  }

  /**
   * The block for the cursor's region: the current one when the cursor is in its region, else the one kept for the
   * region the cursor went back to (made current), else none.
   */
  #here(uri: string, state: DocState, line: number, budget: number, settings: ContextSettings) {
    if (Math.abs(line - state.anchorLine) <= REGION_LINES) return state;
    const kept = this.#regions.get(uri) ?? [];
    const key = settingsKey(settings);
    const at = kept.findLastIndex(
      (old) =>
        Math.abs(line - old.anchorLine) <= REGION_LINES &&
        !old.stale &&
        old.budget === budget &&
        old.settingsKey === key,
    );
    if (at === -1) return undefined;
    const [back] = kept.splice(at, 1);
    this.set(uri, back!);
    return back!;
  }

  #regionStaleness(
    state: DocState | undefined,
    { doc, position, support, imports, types }: Current,
  ): Reason | undefined {
    if (!state) return "region";
    if (state.importsEdited) {
      // Typing just below the imports edits near them on every keystroke: only a change of what they bind counts.
      const module = imports();
      if (module) {
        const { imported, importsEnd } = importedNames(module);
        if (!sameSet(imported, state.imported)) return "imports";
        state.importsEnd = importsEnd;
        state.importsEdited = false;
      }
    }
    // The editor told where the receiver's type is declared (maybe after the block was chosen): it joins the block.
    if (types.some((key) => !state.tried.has(key))) return "type";
    if (support && state.imported.size > 0) {
      // Only names typed to their end count: `formatPrice(` does, `formatPr` or `ns.memb` being typed do not
      // (every keystroke would be a new name).
      const typed = doc.buffer.lineAt(position.line).slice(0, position.character);
      const line = withoutTypedName(typed);
      const preceding = linesOf(doc, Math.max(0, position.line - PRECEDING_LINES_CHECK), position.line);
      for (const ref of support.references([line], preceding, state.imported)) {
        if (state.imported.has(ref.name) && !state.tried.has(referenceKey(ref))) return "name";
      }
      // The word at the cursor once it spells a whole imported name (`ctx = RenderContext`, the `(` not typed
      // yet): a prefix on the way (`Render`) binds nothing, so this fires once per name, not per keystroke.
      const word = typed.slice(line.length);
      if (/^[\p{L}_$][\p{L}\p{N}_$]*$/u.test(word) && state.imported.has(word) && !state.tried.has(word))
        return "name";
    }
    // A member access on a receiver not tried yet: its type's outline is looked for once (the typed prefix after
    // the operator does not count: every keystroke would be a new receiver).
    const rules = support && rulesFor(support.family);
    const receiver = rules && cursorReceiver(doc, position, rules, state.imported);
    if (receiver && !state.receivers.has(receiver.key)) return "receiver";
    return undefined;
  }

  /** Keep `state` as its region's block, unless it is stale or the current block's region is the same. */
  #keep(uri: string, state: DocState): void {
    const current = this.#states.get(uri)!;
    if (state.stale || Math.abs(state.anchorLine - current.anchorLine) <= REGION_LINES) return;
    const kept = (this.#regions.get(uri) ?? []).filter(
      (old) => Math.abs(old.anchorLine - state.anchorLine) > REGION_LINES,
    );
    kept.push(state);
    this.#regions.set(uri, kept.slice(-REGIONS_KEPT));
  }

  /** The document's current block and the ones kept for its other regions. */
  #statesOf(uri: string): DocState[] {
    const current = this.#states.get(uri);
    return [...(current ? [current] : []), ...(this.#regions.get(uri) ?? [])];
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

/** The key a reference is tried under: `name`, or `name.member`. */
export function referenceKey(ref: Reference): string {
  return ref.member === undefined ? ref.name : `${ref.name}.${ref.member}`;
}

/** The key a type the editor located is tried under. */
export function typeKey(location: { uri: string; line: number }): string {
  return `type ${location.uri}:${location.line}`;
}

/** What of the settings a block depends on. */
export function settingsKey(settings: ContextSettings): string {
  return JSON.stringify([settings.maxTokens, settings.exclude]);
}

function sameSet(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
  if (a.size !== b.size) return false;
  for (const item of a) if (!b.has(item)) return false;
  return true;
}
