import type { Position } from "vscode-languageserver";
import type { OpenDocument } from "../../documents/documents.js";
import type { ContextSettings } from "../../settings/settings.js";
import { uriToPath, type Workspace } from "../../workspace/workspace.js";
import { findDeclarations } from "../declarations/find-declarations.js";
import { shows } from "../declarations/outline-lookup.js";
import { type DocumentSource, linesOf } from "../document-lines.js";
import type { SourceCache } from "../files/source-cache.js";
import { type CurrentImports, importedNames, NEAR_LINES } from "../modules/current-imports.js";
import type { OpenModules } from "../modules/open-modules.js";
import { supportOf } from "../modules/parse-file.js";
import type { ProjectEnv } from "../project/project-env.js";
import type { RecentEdits } from "../similar/recent-edits.js";
import type { SimilarIndex } from "../similar/similar-index.js";
import { chainOf, type IndexQuery, indexSteps } from "../symbols/index-queries.js";
import type { WorkspaceSymbols } from "../symbols/workspace-symbols.js";
import type {
  ContextSnippet,
  Family,
  FoundDeclaration,
  LanguageSupport,
  ModuleHost,
  NestedType,
  ParsedModule,
  Reference,
} from "../types.js";
import type { LocatedType } from "../typing/editor-types.js";
import { rulesFor } from "../typing/rules/index.js";
import type { TypingRules } from "../typing/rules.js";
import { locatedTypeSnippets, type TypeAtLine } from "../typing/type-at-line.js";
import { outlineAt, receiverOutlines } from "../typing/type-outlines.js";
import { assembleBlock } from "./block.js";
import { type DocState, referenceKey, settingsKey, typeKey } from "./block-cache.js";
import { cursorReceiver } from "./cursor-receiver.js";
import type { DeclarationMemo } from "./declaration-memo.js";

/**
 * Lines before the searched ones that are read (not searched) to know whether they start inside a comment or a
 * string.
 */
const PRECEDING_LINES = 300;
/** Lines above the searched ones read for the types around the cursor (`LanguageSupport.nesting`). */
const NESTING_LINES = 2000;
/** Names used this close to the cursor are also looked up by name in the other open documents. */
const OPEN_DECLARATION_LINES = 2;
/** References looked up at most per choice, nearest first: more declarations would not fit the budget anyway. */
const MAX_REFERENCES = 24;
/**
 * The file's other imported names looked up after those used near the cursor, at most: their declarations fill
 * what the budget leaves, so that a name typed later is most often in the block already (no new choice, and no
 * prompt-cache miss of the whole window after a changed block).
 */
const MAX_AHEAD = 8;
/** The distance given to the names looked up ahead: after every reference near the cursor. */
const AHEAD_DISTANCE = NEAR_LINES + 1;
/**
 * Names looked up in the workspace symbol index at most per choice, nearest first: those no import resolved (C#
 * always; every family as a fallback for names no import binds).
 */
const MAX_INDEX_NAMES = 6;
/**
 * Families whose files use other files' names of any case without naming them (C's headers, Swift's module,
 * Ruby's and PHP's autoloading, OCaml's modules, Bash's sourced functions): there the index is asked for every
 * name nothing found; elsewhere only for capitalised ones (a class, a type), since a lower-case name no import
 * binds is most often a local variable.
 */
const GLOBAL_NAMES: ReadonlySet<Family> = new Set(["c", "cpp", "swift", "ruby", "php", "ocaml", "bash"]);

/** Lines above the preceding ones searched at most for a line where reading may start (`statementStart`). */
const STATEMENT_SEARCH_LINES = 2000;
/** Lines above the cursor searched for how its receiver is bound (a local, a parameter, the class around). */
const SCOPE_LINES = 400;
/** The share of the block's budget the cursor receiver's member outline may take at most. */
const OUTLINE_SHARE = 0.5;
/** Characters per token of the block's estimate. */
const CHARS_PER_TOKEN = 3.5;

/**
 * The first line of the text read before the searched lines: {@link PRECEDING_LINES} above them, moved up to a
 * line where the language says reading may start (not inside a docstring), or to the top of the file.
 */
function precedingStart(doc: OpenDocument, from: number, support: LanguageSupport): number {
  const start = Math.max(0, from - PRECEDING_LINES);
  if (!support.statementStart || start === 0) return start;
  for (let line = start; line >= 0 && start - line <= STATEMENT_SEARCH_LINES; line--)
    if (support.statementStart(doc.buffer.lineAt(line))) return line;
  return start - STATEMENT_SEARCH_LINES > 0 ? start : 0;
}

/** Where a choice reads from: the other concepts of repository context. */
export interface BlockChooserParts {
  documents: DocumentSource;
  workspace: Workspace;
  sources: SourceCache<ParsedModule>;
  env: ProjectEnv;
  open: OpenModules;
  imports: CurrentImports;
  similar: SimilarIndex;
  symbols: WorkspaceSymbols;
  recent: RecentEdits;
  memo: DeclarationMemo;
  /** What the block shows of a type the editor located, in a language typing/ has no rules for. */
  typeAtLine: TypeAtLine;
}

/**
 * Chooses a document's block: the declarations of the names used near the cursor (resolved through the file's
 * imports, then by name in the other open documents, then in the workspace symbol index), then the names the file
 * imports that are not used yet (looked up ahead, to fill what the budget leaves), then similar code.
 */
export class BlockChooser {
  constructor(private readonly parts: BlockChooserParts) {}

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
      support && path ? await this.#declarations(doc, position, support, path, sources) : undefined;
    const outline =
      support && path && declared
        ? await this.#outline(doc, position, support, path, sources, budget, declared)
        : undefined;
    // What the editor's language server locates wins over what the declarations tell: first.
    const typed = await this.#typeSnippets(doc, located, sources, budget, declared?.near);
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
   * The member outline of the type the cursor's receiver has (`mail` in `await mail.│`), as snippets of the files
   * that declare the type and its bases, within a share of the budget; the receiver's key whether or not its type
   * was found (it is not looked for again in this region). Undefined when the cursor is after no member operator.
   */
  async #outline(
    doc: OpenDocument,
    position: Position,
    support: LanguageSupport,
    path: string,
    sources: Set<string>,
    budget: number,
    declared: { imported: ReadonlySet<string>; near: ReadonlySet<string> },
  ): Promise<{ key: string; snippets: ContextSnippet[] } | undefined> {
    const rules = rulesFor(support.family);
    const receiver = rules && cursorReceiver(doc, position, rules, declared.imported);
    if (!rules || !receiver) return undefined;
    const { workspace, env, open } = this.parts;
    const current = open.parsed(doc.uri) ?? (await open.module(path));
    const text = linesOf(doc, Math.max(0, position.line - SCOPE_LINES), position.line);
    const cursorLine = doc.buffer.lineAt(position.line).slice(0, position.character);
    const outlines = await receiverOutlines(
      {
        support,
        rules,
        host: this.#host(sources),
        env: (file) => env.for(file, support.family),
        ...(current ? { current } : {}),
      },
      receiver,
      path,
      text === "" ? cursorLine : `${text}\n${cursorLine}`,
      {
        maxChars: Math.floor(budget * CHARS_PER_TOKEN * OUTLINE_SHARE),
        prefix: receiver.prefix,
        near: declared.near,
        except: path,
      },
    );
    const snippets: ContextSnippet[] = [];
    for (const o of outlines) {
      const rel = workspace.relative(o.path);
      if (rel === undefined) continue;
      snippets.push({ path: rel, startLine: o.startLine, endLine: o.endLine, text: o.text, kind: "outline" });
    }
    return { key: receiver.key, snippets };
  }

  /** The declarations for a choice, as snippets, with what the choice remembers of how it found them. */
  async #declarations(
    doc: OpenDocument,
    position: Position,
    support: LanguageSupport,
    path: string,
    sources: Set<string>,
  ) {
    const { workspace, env, imports, symbols, memo, sources: files } = this.parts;
    const current = imports.parse(doc, position, support, path);
    const { imported, importsEnd } = importedNames(current);
    const from = Math.max(0, position.line - NEAR_LINES + 1);
    const lines: string[] = [];
    for (let line = from; line < position.line; line++) lines.push(doc.buffer.lineAt(line));
    lines.push(doc.buffer.lineAt(position.line).slice(0, position.character));
    const preceding = linesOf(doc, precedingStart(doc, from, support), from);
    const references = support.references(lines, preceding, imported);
    let nesting: NestedType[] | undefined;
    if (support.nesting) {
      const above: string[] = [];
      for (let line = Math.max(0, from - NESTING_LINES); line < from; line++)
        above.push(doc.buffer.lineAt(line));
      nesting = support.nesting([...above, ...lines]);
    }
    const tried = new Set(references.map(referenceKey));
    const near = new Set(references.map((ref) => ref.name));
    const ahead: Reference[] = [...imported]
      .filter((name) => !near.has(name) && !name.includes("."))
      .slice(0, MAX_AHEAD)
      .map((name) => ({ name, distance: AHEAD_DISTANCE }));
    const projectEnv = await env.for(path, support.family);
    const found: FoundDeclaration[] = await findDeclarations(
      support,
      current,
      [...references.slice(0, MAX_REFERENCES), ...ahead],
      this.#host(sources),
      projectEnv,
      {},
      { line: position.line, ...(nesting ? { nesting } : {}) },
      memo.for(doc.uri, { imports: current.imports, package: current.outline.package }, projectEnv, (file) =>
        files.peek(file),
      ),
    );
    const declaredAhead = new Map(
      found.filter((f) => f.reference.distance === AHEAD_DISTANCE).map((f) => [referenceKey(f.reference), f]),
    );
    found.push(...(await this.#openDeclarations(doc, support, references, imported, found, sources)));
    // What the workspace symbol index finds for the names no import answered. It replaces what imports found for
    // a reference when that was not what the reference names (`Pry` for `Pry.binding_for`, a class reopened in
    // another file).
    symbols.want(support.family, path);
    const indexed = await this.#indexDeclarations(
      support,
      current,
      references,
      imported,
      found,
      sources,
      nesting?.at(-1)?.name,
    );
    const answered = new Set(indexed.map((f) => f.reference));
    const kept = found.filter((f) => !answered.has(f.reference));
    kept.push(...indexed);
    // Nearest use first, whichever way its declaration was found (a stable sort keeps each source's order: imports,
    // open documents, the index).
    kept.sort((a, b) => a.reference.distance - b.reference.distance);
    const snippets: ContextSnippet[] = [];
    for (const { path: declPath, declaration } of kept) {
      const rel = workspace.relative(declPath);
      if (rel === undefined) continue;
      const { startLine, endLine, snippet: text } = declaration;
      snippets.push({ path: rel, startLine, endLine, text, kind: "declaration" });
    }
    // Names used near the cursor as members (`x.deliver`): a member outline shows those first.
    const members = new Set<string>();
    for (const ref of references) for (const name of chainOf(ref).slice(1)) members.add(name);
    return { snippets, tried, ahead: declaredAhead, imported, importsEnd, near: members };
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
    const candidates = await this.#typeSnippets(doc, located, sources, budget);
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

  /**
   * What the block shows of the types the editor located (read through the file rules): the member outline of the
   * type declared there (typing/'s, within the same share of the budget as the receiver's), or its declaration in a
   * language typing/ has no rules for.
   */
  async #typeSnippets(
    doc: OpenDocument,
    located: readonly LocatedType[],
    sources: Set<string>,
    budget: number,
    near: ReadonlySet<string> = new Set(),
  ): Promise<ContextSnippet[]> {
    if (located.length === 0) return [];
    const support = supportOf(doc);
    const path = uriToPath(doc.uri);
    const rules = support && rulesFor(support.family);
    const atLine =
      support && rules && path
        ? await this.#outlineAtLine(doc, support, rules, path, budget, near)
        : this.parts.typeAtLine;
    const { workspace } = this.parts;
    return locatedTypeSnippets(located, this.#host(sources), (file) => workspace.relative(file), atLine);
  }

  /** typing/'s member outline of the type declared at a file's line, for a choice in `doc` (at `path`). */
  async #outlineAtLine(
    doc: OpenDocument,
    support: LanguageSupport,
    rules: TypingRules,
    path: string,
    budget: number,
    near: ReadonlySet<string>,
  ): Promise<TypeAtLine> {
    const { env, open } = this.parts;
    const current = open.parsed(doc.uri) ?? (await open.module(path));
    return async (host, file, line, member) => {
      const outlines = await outlineAt(
        { support, rules, host, env: (f) => env.for(f, support.family), ...(current ? { current } : {}) },
        file,
        line,
        {
          maxChars: Math.floor(budget * CHARS_PER_TOKEN * OUTLINE_SHARE),
          prefix: member,
          near,
          except: path,
        },
      );
      return outlines.map((o) => ({ ...o, kind: "outline" as const }));
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
    for (const other of this.parts.documents.all()) {
      if (other.uri === doc.uri || supportOf(other)?.family !== support.family) continue;
      const path = uriToPath(other.uri);
      if (!path || !(await this.parts.sources.mayUse(path))) continue;
      // Parsed off the request path, like the indexes. A document never parsed (opened just now, or waiting for
      // its grammar, which this request has awaited) is parsed here, once.
      const names = this.parts.open.namesSoFar(other, path);
      for (const [name, ref] of wanted) {
        const declaration = names.get(name);
        if (!declaration) continue;
        // `Type.member`: the member too, first, when the type's snippet does not show it (as resolution gives it).
        const inner =
          name === ref.name && ref.member !== undefined
            ? declaration.members?.find((m) => m.name === ref.member)
            : undefined;
        if (inner && !shows(declaration, inner)) out.push({ path, declaration: inner, reference: ref });
        out.push({ path, declaration, reference: ref });
        sources.add(path);
        wanted.delete(name);
      }
      if (wanted.size === 0) break;
    }
    return out;
  }

  /**
   * Declarations the workspace symbol index finds (nearest files first) for the references near the cursor that
   * nothing answered: every one in C# (whose `using`s name namespaces, not files), and in the other families those
   * no import binds (a Java class of the same package, a C macro, a Ruby constant or inherited method), looked up
   * by the deepest part of their chain first (`index-queries.ts`). A reference counts as answered when a
   * declaration found for it names its last part or has it as a member: `Pry` from another file does not answer
   * `Pry.binding_for` when that file's `Pry` lacks it.
   */
  #indexDeclarations(
    support: LanguageSupport,
    current: ParsedModule,
    references: readonly Reference[],
    imported: ReadonlySet<string>,
    found: readonly FoundDeclaration[],
    sources: Set<string>,
    enclosing: string | undefined,
  ): Promise<FoundDeclaration[]> {
    const answered = new Set<Reference>();
    for (const f of found) {
      const last = chainOf(f.reference).at(-1)!;
      const { declaration } = f;
      if (
        f.reference.member === undefined ||
        declaration.name === last ||
        declaration.members?.some((m) => m.name === last)
      )
        answered.add(f.reference);
    }
    const queries: IndexQuery[] = [];
    for (const ref of references) {
      if (answered.has(ref)) continue;
      if (
        support.family !== "csharp" &&
        (imported.has(ref.name) || !(GLOBAL_NAMES.has(support.family) || /^\p{Lu}/u.test(ref.name)))
      )
        continue;
      queries.push({ reference: ref, steps: indexSteps(ref, support.family, current.outline, enclosing) });
    }
    if (queries.length === 0) return Promise.resolve([]);
    const open = new Set<string>();
    for (const doc of this.parts.documents.all()) {
      const path = uriToPath(doc.uri);
      if (path) open.add(path);
    }
    return this.parts.symbols.declarations(
      queries,
      {
        path: current.path,
        family: support.family,
        ...(current.outline.package !== undefined ? { package: current.outline.package } : {}),
        open,
        recent: this.parts.recent.paths(),
      },
      this.#host(sources),
      MAX_INDEX_NAMES,
    );
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
