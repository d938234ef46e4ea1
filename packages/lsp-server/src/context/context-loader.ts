import type { Position } from "vscode-languageserver";
import type { OpenDocument } from "../documents/documents.js";
import type { Logger } from "../log/logger.js";
import type { ContextSettings } from "../settings/settings.js";
import type { Workspace } from "../workspace/workspace.js";
import { EMPTY_BLOCK } from "./block/block.js";
import type { ContextResult, DocumentSource, RepositoryContext } from "./repository-context.js";
import type { TypeDefinitionAsk } from "./typing/editor-types.js";

/** Where the repository context of a request comes from (`ContextLoader` and `RepositoryContext` fit). */
export interface ContextSource {
  /**
   * The block for a request at `position` (UTF-16), within `budgetTokens`. `quietMs`: how long the request waits
   * anyway (its debounce, while the block is chosen), in ms; an answer from the editor may take that long at no
   * cost. Never rejects.
   */
  block(
    doc: OpenDocument,
    position: Position,
    budgetTokens: number,
    quietMs?: number,
  ): Promise<ContextResult>;
}

/** Options of {@link ContextLoader}. */
export interface ContextLoaderOptions {
  documents: DocumentSource;
  workspace: Workspace;
  settings: () => ContextSettings;
  log: Logger;
  /** How to ask the editor where types are declared; undefined while the client cannot be asked. */
  typeDefinitions?: () => TypeDefinitionAsk | undefined;
}

/**
 * Repository context, loaded on first use (`load()` once `initialize` is answered: it brings the parsers and the
 * file rules, which a cold start need not evaluate). Until it is loaded, document events only matter to the
 * documents themselves: those opened meanwhile are told to it when it loads. Context that cannot be had (its module
 * failed to load) means prompts without it, never no completion.
 */
export class ContextLoader implements ContextSource {
  #loading: Promise<RepositoryContext> | undefined;
  #loaded: RepositoryContext | undefined;
  #broken = false;

  constructor(private readonly options: ContextLoaderOptions) {}

  /** The repository context, once loaded; undefined before. */
  get loaded(): RepositoryContext | undefined {
    return this.#loaded;
  }

  /** Load the repository context now (once). */
  load(): Promise<RepositoryContext> {
    this.#loading ??= import("./repository-context.js").then(({ RepositoryContext }) => {
      const { documents, workspace, settings, log, typeDefinitions } = this.options;
      const context = new RepositoryContext({
        documents,
        workspace,
        settings,
        log,
        ...(typeDefinitions ? { typeDefinitions } : {}),
      });
      // Documents opened while it loaded (an editor restores its tabs right after `initialize`).
      for (const doc of documents.all()) context.didOpen(doc.uri);
      this.#loaded = context;
      return context;
    });
    return this.#loading;
  }

  async block(
    doc: OpenDocument,
    position: Position,
    budgetTokens: number,
    quietMs = 0,
  ): Promise<ContextResult> {
    try {
      return await (await this.load()).block(doc, position, budgetTokens, quietMs);
    } catch (error) {
      if (!this.#broken) this.options.log.error(`repository context is off: ${String(error)}`);
      this.#broken = true;
      return { block: EMPTY_BLOCK, ms: 0, recomputed: false };
    }
  }
}
