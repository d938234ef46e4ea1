import diff from "fast-diff";
import type { Edit, Parser, Tree } from "web-tree-sitter";

/**
 * The edits that turn `before` into `after`, last first (each one's offsets and points hold in the text the ones
 * before it in the list left: apply them to a tree in this order). One per run of changed text, so that two edits far
 * apart in a document (the cursor jumped) re-parse their two regions, not all that lies between: `fast-diff` finds
 * them (common prefix and suffix, then the long common middle). Offsets and columns in UTF-16 code units, what
 * web-tree-sitter counts in. Empty when the texts are equal.
 */
export function editsBetween(before: string, after: string): Edit[] {
  if (before === after) return [];
  const edits: Edit[] = [];
  // Where the walk is in `before`, and the row and column there.
  let offset = 0;
  let point = { row: 0, column: 0 };
  let pending: { start: number; startPoint: Point; removed: string; inserted: string } | undefined;
  const flush = () => {
    if (!pending) return;
    const { start, startPoint, removed, inserted } = pending;
    edits.push(replacementEdit(start, startPoint, removed, inserted));
    pending = undefined;
  };
  for (const [op, text] of diff(before, after)) {
    if (op === diff.EQUAL) {
      flush();
      offset += text.length;
      point = advance(point, text);
      continue;
    }
    pending ??= { start: offset, startPoint: point, removed: "", inserted: "" };
    if (op === diff.DELETE) {
      pending.removed += text;
      offset += text.length;
      point = advance(point, text);
    } else pending.inserted += text;
  }
  flush();
  return edits.reverse();
}

/** An edit the caller knows, and the text it applies to. */
export interface KnownEdit {
  readonly base: string;
  readonly edit: Edit;
}

interface Point {
  row: number;
  column: number;
}

/**
 * The edit that replaces `removed` at `start` (an offset, at `point`) with `inserted`: what a suggestion inserted at
 * the cursor is, without comparing two whole texts.
 */
export function replacementEdit(start: number, point: Point, removed: string, inserted: string): Edit {
  return {
    startIndex: start,
    oldEndIndex: start + removed.length,
    newEndIndex: start + inserted.length,
    startPosition: point,
    oldEndPosition: advance(point, removed),
    newEndPosition: advance(point, inserted),
  };
}

/** The point after `text`, from `point`. */
function advance(point: Point, text: string): Point {
  const last = text.lastIndexOf("\n");
  if (last === -1) return { row: point.row, column: point.column + text.length };
  let rows = 0;
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) rows++;
  return { row: point.row + rows, column: text.length - last - 1 };
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
      const edits = editsBetween(previous.text, text);
      if (edits.length === 0) {
        this.#trees.set(key, previous);
        return previous.tree;
      }
      for (const edit of edits) previous.tree.edit(edit);
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
  parseVariant(key: string, text: string, parser: Parser, change?: KnownEdit): Tree | undefined {
    const kept = this.#trees.get(key);
    if (!kept) return parser.parse(text) ?? undefined;
    const copy = kept.tree.copy();
    // The caller's edit when it is of the kept text (the same string, most often the same object); else found.
    const edits = change && change.base === kept.text ? [change.edit] : editsBetween(kept.text, text);
    for (const edit of edits) copy.edit(edit);
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

  /** Drop every document's tree (their grammar is let go). */
  forgetAll(): void {
    for (const { tree } of this.#trees.values()) tree.delete();
    this.#trees.clear();
  }

  /** Documents with a tree. */
  get size(): number {
    return this.#trees.size;
  }
}
