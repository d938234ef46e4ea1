import type { Position } from "vscode-languageserver";
import type { Tree } from "web-tree-sitter";
import { openDocumentTooLarge } from "../context/files/file-policy.js";
import { familyOf, SYNTAX_FAMILIES } from "../context/languages.js";
import { ChangeErrors } from "../context/syntax/tree-checks.js";
import { loadSyntaxLayer, syntaxLayer, syntaxTrees } from "../context/syntax-layer.js";
import type { DocumentChange, OpenDocument } from "../documents/documents.js";
import type { LineSnapshot } from "../documents/text-buffer.js";
import type { SyntaxDocument } from "./syntax-ending.js";

export { loadSyntaxLayer } from "../context/syntax-layer.js";

/**
 * A document changed: the syntax trees kept of it follow the changes (`tree.edit`, microseconds), so that the next
 * parse re-reads only what they touched. Nothing before the syntax layer is loaded (no tree is kept then).
 */
export function syntaxDocumentChanged(uri: string, changes: readonly DocumentChange[]): void {
  syntaxLayer()?.documentChanged(uri, changes);
}

/**
 * A document opened: when its language is parsed with tree-sitter, the syntax layer and its grammar start loading
 * now (nothing waits for them), so that its first completion finds them in.
 */
export function syntaxDocumentOpened(doc: OpenDocument): void {
  const family = familyOf(doc.languageId, doc.uri);
  if (!family || !SYNTAX_FAMILIES.has(family)) return;
  void loadSyntaxLayer().then(() => syntaxLayer()?.grammarReady(family));
}

/** A document closed or reloaded: the tree kept of it goes. */
export function syntaxDocumentGone(uri: string): void {
  syntaxLayer()?.documentGone(uri);
}

/** Trees of request documents, deleted once nothing holds the document they were parsed for. */
const requestTrees = new FinalizationRegistry<Tree>((tree) => tree.delete());

/**
 * The document of a request as syntax-aware endings read it (`syntax-ending.ts`): its lines as they are when the
 * request is made (a snapshot, whatever is typed meanwhile) and its tree, taken then as a copy of the tree kept with
 * the document (told of every change) and parsed a millisecond later from the snapshot's lines, once the upstream
 * request is written and while it is in flight, so that the answer finds it ready (or on demand, by an answer that
 * comes first); each variant (a suggestion inserted) re-parsed from it with the edit the suggestion is. No text of
 * the document is made. Undefined for a language without a grammar; the function gives undefined while the syntax
 * layer or the grammar is not loaded (asking starts the load: a later request has it, this one never waits) or
 * when the text cannot be parsed; never throws.
 */
export function documentSyntax(
  doc: OpenDocument,
  here: Position,
): (() => SyntaxDocument | undefined) | undefined {
  const family = familyOf(doc.languageId, doc.uri);
  // A text this long is not parsed (the bound of the kept trees).
  if (!family || !SYNTAX_FAMILIES.has(family) || openDocumentTooLarge(doc.buffer.length)) return undefined;
  const trees = syntaxTrees();
  const { buffer, uri } = doc;
  const lines = buffer.snapshot();
  const place = buffer.clampPosition(here);
  if (!place) return undefined;
  const cursor = buffer.offsetAt(place);
  const point = { row: place.line, column: place.character };
  let base = trees?.treeCopy(family, uri);
  let made: SyntaxDocument | undefined;
  let tried = false;
  const syntax = (): SyntaxDocument | undefined => {
    if (made || tried) return made;
    // Until the layer and the grammar are loaded there is none (the request that started their load does not wait
    // for them; an answer that comes after they loaded has it).
    const trees = syntaxLayer();
    if (!trees?.grammarReady(family)) return undefined;
    // One parse, whatever comes of it.
    tried = true;
    const { documentTreeFrom, variantTree } = trees;
    const taken = base;
    base = undefined;
    try {
      const tree = documentTreeFrom(family, uri, lines, taken, buffer.revision === lines.revision);
      if (!tree) return undefined;
      const errors = new ChangeErrors(tree.rootNode);
      made = {
        cursor,
        after: (length) => textAfter(lines, place, length),
        parse: ({ removed, inserted }) =>
          variantTree(family, tree, lines, { offset: cursor, point, removed, inserted }),
        addedErrors: (changed, { removed, inserted }) =>
          errors.added(changed, cursor, removed.length, inserted.length),
      };
      requestTrees.register(made, tree);
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

/** The first `length` characters of the lines (joined with `\n`) from a position on. */
function textAfter(lines: LineSnapshot, from: Position, length: number): string {
  let text = lines.lineAt(from.line).slice(from.character);
  for (let line = from.line + 1; text.length < length && line < lines.lineCount; line++) {
    text += `\n${lines.lineAt(line)}`;
  }
  return text.slice(0, length);
}
