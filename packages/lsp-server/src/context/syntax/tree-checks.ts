// What the completion pipeline can ask of a syntax tree (syntax-aware endings): whether a text with a suggestion in
// it still parses, and which block holds a position. With `OpenTrees.parseVariant`, a buffer plus a suggestion is
// an incremental re-parse of the buffer's tree.
import type { Node } from "web-tree-sitter";

/** The syntax errors in a node: `ERROR` nodes and the tokens the parser had to invent (`MISSING`). */
export function countErrors(node: Node): number {
  if (!node.hasError && !node.isMissing) return 0;
  if (node.isError || node.isMissing) return 1;
  let count = 0;
  for (const child of node.children) if (child) count += countErrors(child);
  return count;
}

const BLOCK = /block|body|compound_statement|_list$|statement_block|class_body|declaration_list/;

/** The innermost block-like node (a `{…}` body, a class body, a statement list) holding an offset, or the root. */
export function enclosingBlock(root: Node, offset: number): Node {
  let node: Node | null = root.descendantForIndex(offset);
  while (node?.parent && !BLOCK.test(node.type)) node = node.parent;
  return node ?? root;
}
