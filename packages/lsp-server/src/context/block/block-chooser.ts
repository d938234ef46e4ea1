import type { Position } from "vscode-languageserver";
import type { OpenDocument } from "../../documents/documents.js";
import type { ContextSettings } from "../../settings/settings.js";
import { uriToPath } from "../../workspace/workspace.js";
import { supportOf } from "../modules/parse-file.js";
import type { SimilarIndex } from "../similar/similar-index.js";
import type { ContextSnippet, ModuleHost } from "../types.js";
import type { LocatedType } from "../typing/editor-types.js";
import type { TypeAtLine } from "../typing/type-at-line.js";
import { assembleBlock } from "./block.js";
import { type DocState, settingsKey, typeKey } from "./block-cache.js";
import { type CursorDeclarationParts, CursorDeclarations } from "./cursor-declarations.js";
import { ReceiverOutlines } from "./receiver-outlines.js";

/** Where a choice reads from: the other concepts of repository context. */
export interface BlockChooserParts extends Omit<CursorDeclarationParts, "host"> {
  similar: SimilarIndex;
  /** What the block shows of a type the editor located, in a language typing/ has no rules for. */
  typeAtLine: TypeAtLine;
}

/**
 * Chooses a document's block, or extends a kept one: the member outlines of the types the editor located and of
 * the cursor's receiver's type ({@link ReceiverOutlines}), the declarations of the names near the cursor and of
 * those the file imports ({@link CursorDeclarations}), then similar code; and what the block's state remembers of
 * the choice (what was tried, the receivers seen, the files read).
 */
export class BlockChooser {
  readonly #outlines: ReceiverOutlines;
  readonly #declarations: CursorDeclarations;

  constructor(private readonly parts: BlockChooserParts) {
    this.#declarations = new CursorDeclarations({ ...parts, host: (sources) => this.#host(sources) });
    this.#outlines = new ReceiverOutlines({
      workspace: parts.workspace,
      env: parts.env,
      open: parts.open,
      imports: parts.imports,
      host: (sources) => this.#host(sources),
      typeAtLine: parts.typeAtLine,
    });
  }

  /**
   * @param extend - the state whose block the new one extends (its snippets kept first, its region kept)
   * @param located - the types the editor located for the receiver at the cursor (`infill/typeDefinitions`): their
   *   member outlines go first
   * @param only - extend it with the member outline of the cursor's receiver only (`"receiver"`: when the outline
   *   does not fit after what is kept, the block is chosen anew with it first), or with the located types' only
   *   (`"types"`): nothing else is added, so that the rest of the block stays as the prompt cache holds it
   */
  async choose(
    doc: OpenDocument,
    position: Position,
    budget: number,
    settings: ContextSettings,
    extend?: DocState,
    located: readonly LocatedType[] = [],
    only?: "receiver" | "types",
  ): Promise<DocState> {
    if (extend && only === "types") return this.#addTypes(doc, extend, located, budget);
    const receiverOnly = only === "receiver";
    const { workspace, similar } = this.parts;
    const path = uriToPath(doc.uri);
    // Outside the workspace (or without one) there is no workspace-relative path to name.
    const currentPath = path === undefined ? undefined : workspace.relative(path);
    // The files of kept snippets stay watched for changes.
    const sources = new Set<string>(extend?.sources);
    const support = supportOf(doc);
    // The first document of a language parsed with a grammar waits for it once (it is loaded when the document
    // opens, so this is most often done already).
    await support?.ready?.();
    const declared =
      support && path ? await this.#declarations.near(doc, position, support, path, sources) : undefined;
    const outline =
      support && path && declared
        ? await this.#outlines.atCursor(doc, position, support, path, sources, budget, declared)
        : undefined;
    // What the editor's language server locates wins over what the declarations tell: first.
    const typed = await this.#outlines.located(doc, located, sources, budget, declared?.near);
    const outlines = [...typed, ...(outline?.snippets ?? [])];
    const candidates: ContextSnippet[] = [...outlines, ...(declared?.snippets ?? [])];
    candidates.push(...(await similar.similar(doc, position, sources)));
    const assemble = (keep: DocState | undefined) =>
      assembleBlock({
        languageId: doc.languageId,
        currentPath,
        candidates: keep && receiverOnly ? outlines : candidates,
        budgetTokens: budget,
        ...(keep ? { keep: keep.block.snippets } : {}),
      });
    let block = assemble(extend);
    let kept = extend;
    // The cursor's receiver's outline matters more than the cache: when what is kept leaves it no room, choose anew.
    if (extend && outlines.length > 0 && !outlines.some((o) => block.snippets.includes(o))) {
      block = assemble(undefined);
      kept = undefined;
    }
    const receivers = new Set(kept?.receivers);
    if (outline?.key !== undefined) receivers.add(outline.key);
    // Tried whether it fits or not: one that does not would otherwise be chosen again at every request.
    const typeKeys = located.map(typeKey);
    if (kept && receiverOnly) {
      const tried = new Set([...kept.tried, ...typeKeys]);
      return {
        ...kept,
        block,
        budget,
        sources,
        receivers,
        tried,
        checkedAt: performance.now(),
        stale: undefined,
      };
    }
    // An imported name looked up ahead counts as tried only when its declaration made it into the block. One that
    // did not fit, or was not found (a package outside the workspace, or the lookup's file budget spent on the
    // nearer names), is looked up again once it is typed: it is then near, and goes first.
    const tried = declared?.tried ?? new Set<string>();
    for (const key of typeKeys) tried.add(key);
    const inBlock = new Set(block.snippets.map((s) => `${s.path}\0${s.startLine}`));
    for (const [name, found] of declared?.ahead ?? []) {
      const rel = workspace.relative(found.path);
      if (rel !== undefined && inBlock.has(`${rel}\0${found.declaration.startLine}`)) tried.add(name);
    }
    return {
      block,
      budget,
      settingsKey: settingsKey(settings),
      anchorLine: kept?.anchorLine ?? position.line,
      sources,
      tried,
      receivers,
      imported: declared?.imported ?? new Set(),
      importsEnd: declared?.importsEnd ?? -1,
      importsEdited: false,
      checkedAt: performance.now(),
      stale: undefined,
    };
  }

  /**
   * The member outline of the type declared at a line (0-based) of a file (absolute path), as snippets of the
   * files that declare it and its bases, within `maxChars` (see {@link ReceiverOutlines.atLine}).
   */
  outlineAt(path: string, line: number, maxChars: number, current?: string): Promise<ContextSnippet[]> {
    return this.#outlines.atLine(path, line, maxChars, current);
  }

  /**
   * The block of `state` with the types the editor located added at its end (its snippets kept as they are, so
   * what the prompt cache holds of it stays valid), without choosing the rest again: a type located after the block
   * was chosen is the only new thing.
   */
  async #addTypes(
    doc: OpenDocument,
    state: DocState,
    located: readonly LocatedType[],
    budget: number,
  ): Promise<DocState> {
    const sources = new Set(state.sources);
    const candidates = await this.#outlines.located(doc, located, sources, budget);
    const path = uriToPath(doc.uri);
    const block = assembleBlock({
      languageId: doc.languageId,
      currentPath: path === undefined ? undefined : this.parts.workspace.relative(path),
      candidates,
      budgetTokens: budget,
      keep: state.block.snippets,
    });
    const tried = new Set(state.tried);
    for (const type of located) tried.add(typeKey(type));
    return { ...state, block, sources, tried };
  }

  /** The module host of one choice: open buffers over the disk; records what it resolved to in `used`. */
  #host(used: Set<string>): ModuleHost {
    const { open, sources } = this.parts;
    return {
      module: (path) => {
        used.add(path);
        return open.module(path) ?? sources.get(path);
      },
      noteRead: (path) => {
        if (!path.endsWith("/")) used.add(path);
      },
      list: (dir) => sources.list(dir),
    };
  }
}
