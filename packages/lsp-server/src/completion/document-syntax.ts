import type { Position } from "vscode-languageserver";
import { MAX_FILE_BYTES } from "../context/file-policy.js";
import { SYNTAX_SUPPORTS } from "../context/lang/index.js";
import { familyOf } from "../context/languages.js";
import { documentTree, variantTree } from "../context/syntax/support.js";
import { countErrors } from "../context/syntax/tree-checks.js";
import type { OpenDocument } from "../documents/documents.js";
import type { SyntaxDocument } from "./syntax-ending.js";

/** The families whose documents have a syntax tree (a tree-sitter grammar); the others keep the plain rules. */
const SYNTAX_FAMILIES: ReadonlySet<string> = new Set(Object.keys(SYNTAX_SUPPORTS));

/**
 * The document of a request as syntax-aware endings read it (`syntax-ending.ts`): its text is taken now, when the
 * request is made (what the suggestion is for, whatever is typed meanwhile), and parsed only when first asked, at
 * the answer: the document's tree, kept with the document and re-parsed incrementally, and each variant re-parsed
 * incrementally from it. Undefined for a language without a grammar. The function gives undefined while the grammar
 * is not loaded (asking starts its load: a later request has it, this one never waits) or when the text cannot be
 * parsed; never throws.
 */
export function documentSyntax(
  doc: OpenDocument,
  here: Position,
): (() => SyntaxDocument | undefined) | undefined {
  const family = familyOf(doc.languageId, doc.uri);
  if (!family || !SYNTAX_FAMILIES.has(family)) return undefined;
  // The text as the repository context parses an open document (lines joined with "\n"), so that the kept tree is
  // the same one.
  const lines: string[] = [];
  let offset = 0;
  let length = 0;
  for (let line = 0; line < doc.buffer.lineCount; line++) {
    const text = doc.buffer.lineAt(line);
    if (line < here.line) offset += text.length + 1;
    else if (line === here.line) offset += Math.min(here.character, text.length);
    lines.push(text);
    // A text this long is not parsed (the bound of the kept trees): not worth copying either.
    length += text.length + 1;
    if (length > MAX_FILE_BYTES) return undefined;
  }
  const text = lines.join("\n");
  const uri = doc.uri;
  let made: SyntaxDocument | undefined;
  return () => {
    if (made) return made;
    try {
      const tree = documentTree(family, uri, text);
      if (!tree) return undefined;
      made = {
        before: text.slice(0, offset),
        after: text.slice(offset),
        errors: countErrors(tree.rootNode),
        parse: (variant) => variantTree(family, uri, variant),
      };
      return made;
    } catch {
      return undefined;
    }
  };
}
