// The declarations a choice puts in the block: of the names used near the cursor (resolved through the file's
// imports, then by name in the other open documents, then in the workspace symbol index), and of the names the file
// imports that are not used yet (looked up ahead, to fill what the budget leaves).
import type { Position } from "vscode-languageserver";
import type { OpenDocument } from "../../documents/documents.js";
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
import { referenceKey } from "./block-cache.js";
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

/** Where the declarations are looked up. */
export interface CursorDeclarationParts {
  documents: DocumentSource;
  workspace: Workspace;
  sources: SourceCache<ParsedModule>;
  env: ProjectEnv;
  open: OpenModules;
  imports: CurrentImports;
  symbols: WorkspaceSymbols;
  recent: RecentEdits;
  memo: DeclarationMemo;
  /** The choice's module host, recording what it reads in `sources`. */
  host(sources: Set<string>): ModuleHost;
}

/** The declarations of a choice, and what it remembers of how it found them. */
export interface CursorDeclared {
  /** The declarations as snippets, nearest use first. */
  readonly snippets: ContextSnippet[];
  /** The keys of the references looked up (`referenceKey`). */
  readonly tried: Set<string>;
  /** The imported names looked up ahead that were found, by reference key. */
  readonly ahead: ReadonlyMap<string, FoundDeclaration>;
  /** The names the file's imports bind, and the line where its imports end (-1: none). */
  readonly imported: Set<string>;
  readonly importsEnd: number;
  /** Names used near the cursor as members (`x.deliver`): a member outline shows those first. */
  readonly near: ReadonlySet<string>;
}

/** Looks up the declarations of the names near the cursor, for a choice. */
export class CursorDeclarations {
  constructor(private readonly parts: CursorDeclarationParts) {}

  /**
   * The declarations of the names used near the cursor and of the file's imported names looked up ahead, as
   * snippets (nearest use first), with what the choice remembers of how it found them; the files read go in
   * `sources`.
   */
  async near(
    doc: OpenDocument,
    position: Position,
    support: LanguageSupport,
    path: string,
    sources: Set<string>,
  ): Promise<CursorDeclared> {
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
      this.parts.host(sources),
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
      this.parts.host(sources),
      MAX_INDEX_NAMES,
    );
  }
}
