import type { OpenDocument } from "../../documents/documents.js";
import { uriToPath } from "../../workspace/workspace.js";
import type { DocumentSource } from "../document-lines.js";
import type { Declaration, ParsedModule } from "../types.js";
import { parseOpenDocument, supportOf } from "./parse-file.js";

/** What {@link OpenModules} asks of the files it may read. */
export interface OpenModulesOptions {
  documents: DocumentSource;
  /** Whether a file may be read and sent (the file policy). */
  mayUse(path: string): Promise<boolean>;
  /** A document's grammar has just loaded: parse it again (its parse before gave nothing). */
  grammarLoaded(uri: string): void;
}

/**
 * The parses of open documents, once per version: their buffers win over the files on disk. A document whose
 * language's grammar is not loaded yet starts the load and is parsed again once it is.
 */
export class OpenModules {
  readonly #parsed = new Map<
    string,
    { version: number; module: ParsedModule | undefined; names?: ReadonlyMap<string, Declaration> }
  >();

  constructor(private readonly options: OpenModulesOptions) {}

  /** The exported top-level declarations of an open document by name. */
  names(doc: OpenDocument, path: string): ReadonlyMap<string, Declaration> {
    const cached = this.#parsed.get(doc.uri);
    if (cached?.version === doc.version && cached.names) return cached.names;
    const loading = supportOf(doc)?.ready?.();
    if (loading) {
      void loading.then(() => this.options.grammarLoaded(doc.uri));
      return new Map();
    }
    const module = cached?.version === doc.version ? cached.module : parseOpenDocument(doc, path);
    const names = new Map<string, Declaration>();
    for (const declaration of module?.outline.declarations ?? []) {
      if (declaration.exported && !names.has(declaration.name)) names.set(declaration.name, declaration);
    }
    this.#parsed.set(doc.uri, { version: doc.version, module, names });
    return names;
  }

  /**
   * The exported declarations of an open document as last parsed (maybe an earlier version: it is parsed again
   * off the request path after each edit), or parsed now when it never was.
   */
  namesSoFar(doc: OpenDocument, path: string): ReadonlyMap<string, Declaration> {
    return this.#parsed.get(doc.uri)?.names ?? this.names(doc, path);
  }

  /** The last parse of an open document (of any version), when there is one. */
  parsed(uri: string): ParsedModule | undefined {
    return this.#parsed.get(uri)?.module;
  }

  /** The parse of the open buffer at `path` (per version), when it is open and may be used; else undefined. */
  module(path: string): Promise<ParsedModule | undefined> | undefined {
    const uri = this.#uriOf(path);
    if (!uri) return undefined;
    const doc = this.options.documents.get(uri)!;
    return this.options.mayUse(path).then(async (allowed) => {
      if (!allowed) return undefined;
      await supportOf(doc)?.ready?.();
      const cached = this.#parsed.get(uri);
      if (cached?.version === doc.version) return cached.module;
      const module = parseOpenDocument(doc, path);
      this.#parsed.set(uri, { version: doc.version, module });
      return module;
    });
  }

  /** A document was closed: its parses (and its language's kept tree of it) go. */
  forget(uri: string, doc: OpenDocument | undefined): void {
    this.#parsed.delete(uri);
    if (doc) supportOf(doc)?.close?.(uri);
  }

  #uriOf(path: string): string | undefined {
    for (const doc of this.options.documents.all()) if (uriToPath(doc.uri) === path) return doc.uri;
    return undefined;
  }
}
