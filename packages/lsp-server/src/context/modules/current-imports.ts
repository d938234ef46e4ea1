import type { Position } from "vscode-languageserver";
import type { OpenDocument } from "../../documents/documents.js";
import { linesOf } from "../document-lines.js";
import type { LanguageSupport, ParsedModule } from "../types.js";

/** The current document's imports are read from its first lines (and the lines before the cursor). */
const IMPORT_HEAD_LINES = 1000;
const IMPORT_STEP_LINES = 120;
const IMPORT_MARGIN_LINES = 30;
/** Lines before the cursor also parsed for imports (a `require` inside a function). */
export const NEAR_LINES = 40;

/**
 * The imports (and the outline of the head) of the document a request is made in. Modules state their imports at
 * the top, so the head is parsed in growing steps; its parses are kept per document while its text stays the same,
 * so a choice away from the top of a file (most of them) parses only the lines near the cursor.
 */
export class CurrentImports {
  /** The parses of open documents' first lines, by document and line count. */
  readonly #heads = new Map<string, Map<number, { text: string; parsed: Omit<ParsedModule, "path"> }>>();

  /** @param wholeParse the last parse of the whole document, made off the request path (see `OpenModules`). */
  constructor(private readonly wholeParse: (uri: string) => ParsedModule | undefined) {}

  /**
   * The current document's imports: the head in steps (120 lines, then four times more, up to 1000) until its last
   * import lies well before the step's end; the imports of the whole document's parse between the head and the
   * cursor; and those of the lines just before the cursor.
   */
  parse(doc: OpenDocument, position: Position, support: LanguageSupport, path: string): ParsedModule {
    const limit = Math.min(doc.buffer.lineCount, IMPORT_HEAD_LINES);
    let end = Math.min(limit, IMPORT_STEP_LINES);
    let head = this.#head(doc, support, end);
    while (end < limit) {
      const last = Math.max(-1, ...head.imports.map((statement) => statement.line));
      // No import yet (a long header comment or docstring first), or one close to the cut: read on.
      if (last !== -1 && last < end - IMPORT_MARGIN_LINES) break;
      end = Math.min(limit, end * 4);
      head = this.#head(doc, support, end);
    }
    const nearStart = Math.max(end, position.line - NEAR_LINES);
    // Imports between the head and the lines near the cursor (Python's inside a function or an `if __name__`
    // block, Rust's in a `mod tests`): from the whole document's parse, made off the request path after its last
    // edit (a parse of the lines in between would start mid-statement, or inside a string). Those near the cursor
    // too: a slice that starts inside a block (`mod tests {`) hides them from its own parse.
    const between = (this.wholeParse(doc.uri)?.imports ?? []).filter(
      (s) => s.line >= end && s.line <= position.line,
    );
    const nearText = nearStart > position.line ? "" : linesOf(doc, nearStart, position.line + 1);
    // Most lines near the cursor hold no import: parsing them is most of what a choice costs in a grammar's language.
    if (nearText === "" || support.importHint?.test(nearText) === false)
      return { path, imports: [...head.imports, ...between], outline: head.outline };
    const near = support.parse(nearText);
    const known = new Set(between.map((s) => `${s.line}\0${s.specifier}`));
    const shifted = near.imports
      .map((statement) => ({ ...statement, line: statement.line + nearStart }))
      .filter((s) => !known.has(`${s.line}\0${s.specifier}`));
    return { path, imports: [...head.imports, ...between, ...shifted], outline: head.outline };
  }

  /** A document was closed: its kept parses go. */
  forget(uri: string): void {
    this.#heads.delete(uri);
  }

  /** The parse of a document's first `end` lines, kept while their text stays the same. */
  #head(doc: OpenDocument, support: LanguageSupport, end: number): Omit<ParsedModule, "path"> {
    const text = linesOf(doc, 0, end);
    let heads = this.#heads.get(doc.uri);
    const cached = heads?.get(end);
    if (cached?.text === text) return cached.parsed;
    const parsed = support.parse(text);
    if (!heads) {
      heads = new Map();
      this.#heads.set(doc.uri, heads);
    }
    heads.set(end, { text, parsed });
    return parsed;
  }
}

/** The local names a file's imports bind (a dotted Python binding also by its first name), and where they end. */
export function importedNames(module: ParsedModule): { imported: Set<string>; importsEnd: number } {
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
