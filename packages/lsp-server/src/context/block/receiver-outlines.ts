// The member outline a choice puts in the block: of the cursor's receiver's type, read in the document as typing
// reads it (the declaration around the cursor parsed without its unfinished line), or of the type declared at a
// file's line (one the editor located, or one asked for); as snippets named by their workspace-relative paths.
import type { Position } from "vscode-languageserver";
import type { OpenDocument } from "../../documents/documents.js";
import { uriToPath, type Workspace } from "../../workspace/workspace.js";
import { linesOf, wholeText } from "../document-lines.js";
import { openDocumentTooLarge } from "../files/file-policy.js";
import type { CurrentImports } from "../modules/current-imports.js";
import type { OpenModules } from "../modules/open-modules.js";
import { supportOf, supportOfPath } from "../modules/parse-file.js";
import type { ProjectEnv } from "../project/project-env.js";
import type { ContextSnippet, Declaration, LanguageSupport, ModuleHost, ParsedModule } from "../types.js";
import type { LocatedType } from "../typing/editor-types.js";
import type { TypeOutline } from "../typing/outline.js";
import { rulesFor } from "../typing/rules/index.js";
import type { TypingRules } from "../typing/rules.js";
import { locatedTypeSnippets, type TypeAtLine } from "../typing/type-at-line.js";
import { outlineAt, receiverOutlines } from "../typing/type-outlines.js";
import { cursorReceiver } from "./cursor-receiver.js";

/** Lines above the cursor searched for how its receiver is bound (a local, a parameter, the class around). */
const SCOPE_LINES = 400;
/** Lines above those searched at most for one where reading may start (not inside a Python docstring). */
const STATEMENT_SEARCH_LINES = 2000;
/** The share of the block's budget the cursor receiver's member outline may take at most. */
const OUTLINE_SHARE = 0.5;
/** Characters per token of the block's estimate. */
const CHARS_PER_TOKEN = 3.5;
/** The declaration around the cursor is parsed alone up to this many lines; a longer one with the whole file. */
const MAX_WINDOW_LINES = 4000;
/** A line that starts a top-level statement: at the left margin, a name, a decorator, an attribute. */
const TOP_LEVEL = /^(?:[\p{L}_$@]|#\[)/u;

/** What a choice's outlines read through. */
export interface ReceiverOutlineParts {
  workspace: Workspace;
  env: ProjectEnv;
  open: OpenModules;
  imports: CurrentImports;
  /** The choice's module host, recording what it reads in `sources`. */
  host(sources: Set<string>): ModuleHost;
  /** What the block shows of a type the editor located, in a language typing/ has no rules for. */
  typeAtLine: TypeAtLine;
}

/** Names written after a `.` in a text. */
const USED = /\.\s*([\p{L}_$][\p{L}\p{N}_$]*)/gu;

/** The member outlines of a choice, and the document as typing reads it (kept per version and line). */
export class ReceiverOutlines {
  #typingParse: { uri: string; version: number; line: number; module: ParsedModule } | undefined;

  constructor(private readonly parts: ReceiverOutlineParts) {}

  /**
   * The member outline of the type the cursor's receiver has (`mail` in `await mail.│`), as snippets of the files
   * that declare the type and its bases, within a share of the budget; with the receiver's key whether or not its
   * type was found (it is not looked for again in the region). Undefined when the cursor follows no member operator.
   */
  async atCursor(
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
    const current = this.#withoutCursorLine(doc, position, support, path);
    const cursorLine = doc.buffer.lineAt(position.line).slice(0, position.character);
    const above = linesOf(doc, scopeStart(doc, position.line, support), position.line);
    const used = new Set([...wholeText(doc).matchAll(USED)].map((m) => m[1]!));
    const outlines = await receiverOutlines(
      {
        support,
        rules,
        host: this.parts.host(sources),
        env: (file) => this.parts.env.for(file, support.family),
        ...(current ? { current } : {}),
      },
      receiver,
      path,
      above === "" ? cursorLine : `${above}\n${cursorLine}`,
      {
        maxChars: Math.floor(budget * CHARS_PER_TOKEN * OUTLINE_SHARE),
        prefix: receiver.prefix,
        near: declared.near,
        used,
        except: path,
      },
    );
    return { key: receiver.key, snippets: this.#snippets(outlines) };
  }

  /**
   * The member outline of the type declared at a line (0-based) of a file (absolute path), as snippets of the
   * files that declare it and its bases, within `maxChars`: what an editor's language server names as the type of
   * a position. `current`: the file the cursor is in (its own types get no outline; Go's package decides private
   * members). Empty for a file that may not be read, a line where no type is declared, a language without rules.
   */
  async atLine(path: string, line: number, maxChars: number, current?: string): Promise<ContextSnippet[]> {
    const support = supportOfPath(path);
    const rules = support && rulesFor(support.family);
    if (!support || !rules) return [];
    await support.ready?.();
    const outlines = await outlineAt(
      {
        support,
        rules,
        host: this.parts.host(new Set()),
        env: (file) => this.parts.env.for(file, support.family),
      },
      path,
      line,
      { maxChars, ...(current !== undefined ? { except: current } : {}) },
    );
    return this.#snippets(outlines);
  }

  /**
   * What the block shows of the types the editor located (read through the file rules): the member outline of the
   * type declared there (typing/'s, within the same share of the budget as the receiver's), or its declaration in a
   * language typing/ has no rules for.
   */
  async located(
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
    return locatedTypeSnippets(located, this.parts.host(sources), (file) => workspace.relative(file), atLine);
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

  #snippets(outlines: readonly TypeOutline[]): ContextSnippet[] {
    const snippets: ContextSnippet[] = [];
    for (const o of outlines) {
      const rel = this.parts.workspace.relative(o.path);
      if (rel !== undefined)
        snippets.push({
          path: rel,
          startLine: o.startLine,
          endLine: o.endLine,
          text: o.text,
          kind: "outline",
        });
    }
    return snippets;
  }

  /**
   * The document as typing reads it: the top-level declaration around the cursor parsed with the cursor's line left
   * blank (the line being typed is most often unfinished, an unclosed `(`, and would hide the class `this` is), the
   * file's other declarations from its last parse, its imports as the choice read them. Parsing the declaration
   * alone keeps the cost a region's, not the file's.
   */
  #withoutCursorLine(
    doc: OpenDocument,
    position: Position,
    support: LanguageSupport,
    path: string,
  ): ParsedModule | undefined {
    const { line } = position;
    if (openDocumentTooLarge(doc.buffer.length)) return undefined;
    const kept = this.#typingParse;
    if (kept?.uri === doc.uri && kept.version === doc.version && kept.line === line) return kept.module;
    const count = doc.buffer.lineCount;
    let from = line;
    while (from > 0 && !TOP_LEVEL.test(doc.buffer.lineAt(from))) from--;
    let to = line + 1;
    while (to < count && !TOP_LEVEL.test(doc.buffer.lineAt(to))) to++;
    const last = this.parts.open.parsed(doc.uri);
    let module: ParsedModule;
    if (to - from > MAX_WINDOW_LINES || !last) module = parsedWithout(doc, line, 0, count, support, path);
    else {
      // The window's declarations are at their own lines (0 is `from`): their text comes with them.
      const window = parsedWithout(doc, line, from, to, support, path);
      const inWindow = new Set(window.outline.declarations.map((d) => d.name));
      const others = last.outline.declarations.filter(
        (d: Declaration) => !inWindow.has(d.name) && (d.endLine < from || d.startLine >= to),
      );
      const head = this.parts.imports.parse(doc, position, support, path);
      module = {
        path,
        imports: head.imports,
        outline: { ...last.outline, declarations: [...window.outline.declarations, ...others] },
      };
    }
    this.#typingParse = { uri: doc.uri, version: doc.version, line, module };
    return module;
  }
}

/** Lines `[from, to)` of a document parsed with line `blank` left blank. */
function parsedWithout(
  doc: OpenDocument,
  blank: number,
  from: number,
  to: number,
  support: LanguageSupport,
  path: string,
): ParsedModule {
  const lines: string[] = [];
  for (let at = from; at < to; at++) lines.push(at === blank ? "" : doc.buffer.lineAt(at));
  return { path, ...support.parse(lines.join("\n")) };
}

/**
 * Where the code typing searches above the cursor starts: {@link SCOPE_LINES} above it, moved up to a line where
 * reading may start (not inside a Python docstring), so that it is masked right.
 */
function scopeStart(doc: OpenDocument, line: number, support: LanguageSupport): number {
  const from = Math.max(0, line - SCOPE_LINES);
  if (!support.statementStart || from === 0) return from;
  for (let at = from; at >= 0 && from - at <= STATEMENT_SEARCH_LINES; at--)
    if (support.statementStart(doc.buffer.lineAt(at))) return at;
  return from;
}
