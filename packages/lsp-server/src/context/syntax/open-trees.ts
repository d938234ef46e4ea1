import type { Edit, Parser, Tree } from "web-tree-sitter";

/**
 * The one edit that turns `before` into `after`: their common prefix and suffix kept, the middle replaced. Offsets
 * and columns in UTF-16 code units, what web-tree-sitter counts in. Undefined when the texts are equal.
 */
export function editBetween(before: string, after: string): Edit | undefined {
  if (before === after) return undefined;
  const shorter = Math.min(before.length, after.length);
  let start = 0;
  while (start < shorter && before.charCodeAt(start) === after.charCodeAt(start)) start++;
  let suffix = 0;
  while (
    suffix < shorter - start &&
    before.charCodeAt(before.length - 1 - suffix) === after.charCodeAt(after.length - 1 - suffix)
  )
    suffix++;
  const oldEnd = before.length - suffix;
  const newEnd = after.length - suffix;
  return {
    startIndex: start,
    oldEndIndex: oldEnd,
    newEndIndex: newEnd,
    startPosition: pointAt(before, start),
    oldEndPosition: pointAt(before, oldEnd),
    newEndPosition: pointAt(after, newEnd),
  };
}

/** The row and column (UTF-16) of an offset. */
function pointAt(text: string, offset: number): { row: number; column: number } {
  let row = 0;
  let lineStart = 0;
  for (let i = text.indexOf("\n"); i !== -1 && i < offset; i = text.indexOf("\n", i + 1)) {
    row++;
    lineStart = i + 1;
  }
  return { row, column: offset - lineStart };
}

/**
 * Documents whose tree is kept, at most (the least recently parsed go first): a tree holds WebAssembly memory (that
 * memory never shrinks), and only a document edited again gains from its old tree.
 */
const MAX_TREES = 16;

/**
 * The syntax trees of open documents, re-parsed incrementally: the next version's text is compared with the last
 * one's, the tree is told of the edit between them, and the parser reuses every subtree the edit did not touch.
 * Called off the request path (the repository context parses open documents in a scheduled task).
 */
export class OpenTrees {
  readonly #trees = new Map<string, { text: string; tree: Tree }>();

  /** The tree of a document's text, from its previous tree when there is one; undefined when parsing fails. */
  parse(key: string, text: string, parser: Parser): Tree | undefined {
    const previous = this.#trees.get(key);
    this.#trees.delete(key);
    let tree: Tree | null = null;
    if (previous) {
      const edit = editBetween(previous.text, text);
      if (!edit) {
        this.#trees.set(key, previous);
        return previous.tree;
      }
      previous.tree.edit(edit);
      tree = parser.parse(text, previous.tree);
      previous.tree.delete();
    } else tree = parser.parse(text);
    if (!tree) return undefined;
    this.#trees.set(key, { text, tree });
    while (this.#trees.size > MAX_TREES) this.forget(this.#trees.keys().next().value!);
    return tree;
  }

  /**
   * The tree of a variant of a document's text (the buffer with a suggestion inserted), parsed incrementally from
   * the document's tree, which stays as it was: the caller owns the result and deletes it. From scratch when the
   * document has no tree.
   */
  parseVariant(key: string, text: string, parser: Parser): Tree | undefined {
    const kept = this.#trees.get(key);
    if (!kept) return parser.parse(text) ?? undefined;
    const edit = editBetween(kept.text, text);
    const copy = kept.tree.copy();
    if (edit) copy.edit(edit);
    try {
      return parser.parse(text, copy) ?? undefined;
    } finally {
      copy.delete();
    }
  }

  /** Drop a document's tree (closed). */
  forget(key: string): void {
    const entry = this.#trees.get(key);
    if (!entry) return;
    entry.tree.delete();
    this.#trees.delete(key);
  }

  /** Documents with a tree. */
  get size(): number {
    return this.#trees.size;
  }
}
