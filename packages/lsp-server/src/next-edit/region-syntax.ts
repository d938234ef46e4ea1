import type { Position } from "vscode-languageserver";
import type { Node } from "web-tree-sitter";
import { openDocumentTooLarge } from "../context/files/file-policy.js";
import { familyOf, SYNTAX_FAMILIES } from "../context/languages.js";
import { syntaxTrees } from "../context/syntax-layer.js";
import type { OpenDocument } from "../documents/documents.js";
import type { LineSpan, RegionShape } from "./region.js";

/**
 * The structure around the cursor from the document's syntax tree (the one kept for it, re-parsed incrementally):
 * the nodes that hold the cursor's line, innermost first, and their named children. Undefined for a language
 * without a grammar, a grammar or syntax layer not loaded yet (asking starts the load; this request never waits for
 * it), a document too large to parse, or a parse that fails. Read it at once: the tree is the document's, and the
 * next request re-parses it.
 */
export function syntaxShape(doc: OpenDocument, position: Position): RegionShape | undefined {
  const family = familyOf(doc.languageId, doc.uri);
  if (!family || !SYNTAX_FAMILIES.has(family) || openDocumentTooLarge(doc.buffer.length)) return undefined;
  const trees = syntaxTrees();
  if (!trees) return undefined;
  try {
    const tree = trees.documentTree(family, doc.uri, doc.buffer);
    if (!tree) return undefined;
    // The line's first code, so that a cursor in its indentation or past its end still finds the line's statement.
    const text = doc.buffer.lineAt(Math.min(position.line, doc.buffer.lineCount - 1));
    const code = text.search(/\S/);
    const column = code === -1 ? position.character : code;
    const ancestors: LineSpan[] = [];
    const nodes: Node[] = [];
    for (
      let node: Node | null = tree.rootNode.namedDescendantForPosition({ row: position.line, column });
      node;
      node = node.parent
    ) {
      const span = spanOf(node);
      const last = ancestors.at(-1);
      // Nodes on the same lines are one span; its parts are the innermost one's children (a block's statements,
      // not the `while` around it, whose children are its condition and the whole block).
      if (last && last.start === span.start && last.end === span.end) continue;
      ancestors.push(span);
      nodes.push(node);
    }
    return {
      ancestors,
      childrenOf: (i) => nodes[i]!.namedChildren.flatMap((child) => (child ? [spanOf(child)] : [])),
    };
  } catch {
    return undefined;
  }
}

/** The lines a node spans: one ending at the start of a line ends on the line before. */
function spanOf(node: Node): LineSpan {
  const start = node.startPosition.row;
  const { row, column } = node.endPosition;
  return { start, end: column === 0 && row > start ? row - 1 : row };
}
