import type { Position } from "vscode-languageserver";
import { wholeText } from "../context/document-lines.js";
import { openDocumentTooLarge } from "../context/files/file-policy.js";
import { familyOf, SYNTAX_FAMILIES } from "../context/languages.js";
import { replacementEdit } from "../context/syntax/open-trees.js";
import { countErrors } from "../context/syntax/tree-checks.js";
import { syntaxTrees } from "../context/syntax-layer.js";
import type { OpenDocument } from "../documents/documents.js";
import type { SyntaxDocument } from "./syntax-ending.js";

export { loadSyntaxLayer } from "../context/syntax-layer.js";

/**
 * The document of a request as syntax-aware endings read it (`syntax-ending.ts`): its text as it is when the request
 * is made (a snapshot of its lines, whatever is typed meanwhile), the document's tree (kept with the document,
 * re-parsed incrementally), each variant re-parsed from it with the edit the suggestion is. Made a millisecond later,
 * once the upstream request is written and while it is in flight, so that the answer finds it ready (or on demand,
 * by an answer that comes first). Undefined for a language without a grammar; the function gives undefined while
 * the syntax layer or the grammar is not loaded (asking starts the load: a later request has it, this one never
 * waits) or when the text cannot be parsed; never throws.
 */
export function documentSyntax(
  doc: OpenDocument,
  here: Position,
): (() => SyntaxDocument | undefined) | undefined {
  const family = familyOf(doc.languageId, doc.uri);
  // A text this long is not parsed (the bound of the kept trees).
  if (!family || !SYNTAX_FAMILIES.has(family) || openDocumentTooLarge(doc.buffer.length)) return undefined;
  const snapshot = doc.buffer.snapshot();
  const uri = doc.uri;
  let made: SyntaxDocument | undefined;
  syntaxTrees();
  const syntax = (): SyntaxDocument | undefined => {
    if (made) return made;
    // Until the layer is loaded there is none (the request that started its load does not wait for it).
    const trees = syntaxTrees();
    if (!trees) return undefined;
    const { documentTree, variantTree } = trees;
    try {
      // Unchanged since: the text the repository context parses (joined once per revision).
      const text = snapshot.revision === doc.buffer.revision ? wholeText(doc) : snapshot.text();
      const tree = documentTree(family, uri, text);
      if (!tree) return undefined;
      const { offset, point } = placeOf(text, here);
      made = {
        before: text.slice(0, offset),
        after: text.slice(offset),
        errors: countErrors(tree.rootNode),
        parse: (variant, change) =>
          variantTree(
            family,
            uri,
            variant,
            change?.start === offset
              ? { base: text, edit: replacementEdit(offset, point, change.removed, change.inserted) }
              : undefined,
          ),
      };
      return made;
    } catch {
      return undefined;
    }
  };
  // After the upstream request is written (the HTTP client writes on a later turn than this one: a parse now would
  // hold the request back); an answer that comes first makes it on demand.
  setTimeout(syntax, 1).unref?.();
  return syntax;
}

/**
 * The offset of a position in a text whose lines are joined with `\n`, and its point (row, column): a position past
 * its line's end is at that end, one past the last line at the text's end.
 */
function placeOf(text: string, at: Position): { offset: number; point: { row: number; column: number } } {
  let start = 0;
  let row = 0;
  for (; row < at.line; row++) {
    const end = text.indexOf("\n", start);
    if (end === -1) break;
    start = end + 1;
  }
  const end = text.indexOf("\n", start);
  // Out of lines before `at.line`: `start` is the last line's, and the place is the text's end.
  const lineEnd = end === -1 ? text.length : end;
  const offset = row < at.line ? text.length : Math.min(start + at.character, lineEnd);
  return { offset, point: { row, column: offset - start } };
}
