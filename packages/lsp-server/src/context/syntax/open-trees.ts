import type { Edit, Parser, Point, Tree } from "web-tree-sitter";
import type { DocumentChange } from "../../documents/documents.js";
import { advance } from "../../documents/position-map.js";
import type { LineSource } from "../../documents/text-buffer.js";
import { lineReader, variantReader } from "./line-reader.js";

/**
 * Documents whose tree is kept, at most (the least recently parsed go first): a tree holds WebAssembly memory (that
 * memory never shrinks), and only a document edited again gains from its old tree.
 */
const MAX_TREES = 16;

/** A kept tree: the document's as last parsed, told of every change since (`stale` once it was). */
interface Kept {
  tree: Tree;
  stale: boolean;
}

/**
 * The edit of a syntax tree that a document change is: offsets and columns in UTF-16 units of the text with its lines
 * joined by `\n` (what web-tree-sitter counts in, and what the trees are parsed from). Undefined for a change whose
 * text or replaced text holds a `\r`: a `\r\n` is one unit there and a lone `\r` may fuse with a `\n` beside it, which
 * the change alone does not tell; the tree is then parsed afresh.
 */
export function changeEdit(change: DocumentChange): Edit | undefined {
  const { range, text, replaced, offset } = change;
  if (text.includes("\r") || replaced.includes("\r")) return undefined;
  const newEnd = advance(range.start, text);
  return {
    startIndex: offset,
    oldEndIndex: offset + replaced.length,
    newEndIndex: offset + text.length,
    startPosition: { row: range.start.line, column: range.start.character },
    oldEndPosition: { row: range.end.line, column: range.end.character },
    newEndPosition: { row: newEnd.line, column: newEnd.character },
  };
}

/** The edit that replaces `removed` at `offset` (at `point`) with `inserted`: a suggestion inserted at the cursor. */
export function replacementEdit(offset: number, point: Point, removed: string, inserted: string): Edit {
  const oldEnd = advance({ line: point.row, character: point.column }, removed);
  const newEnd = advance({ line: point.row, character: point.column }, inserted);
  return {
    startIndex: offset,
    oldEndIndex: offset + removed.length,
    newEndIndex: offset + inserted.length,
    startPosition: point,
    oldEndPosition: { row: oldEnd.line, column: oldEnd.character },
    newEndPosition: { row: newEnd.line, column: newEnd.character },
  };
}

/**
 * The syntax trees of open documents, kept up to date from their changes: each `didChange` edits the tree
 * (`tree.edit`, no text compared), and the next parse re-reads only what the edits touched, from the document's own
 * lines (the parser's input callback: no joined text). A tree is made on a document's first parse and is told of
 * every change after; a change it cannot follow drops it (the next parse is a fresh one).
 */
export class OpenTrees {
  readonly #trees = new Map<string, Kept>();

  /** A document changed: its tree, if one is kept, is told of each change, in order. */
  edited(key: string, changes: readonly DocumentChange[]): void {
    const kept = this.#trees.get(key);
    if (!kept) return;
    for (const change of changes) {
      const edit = changeEdit(change);
      if (!edit) {
        this.forget(key);
        return;
      }
      kept.tree.edit(edit);
      kept.stale = true;
    }
  }

  /**
   * The tree of a document's lines as they are now, re-parsed incrementally when it changed since the last parse
   * (from scratch the first time). Owned by the kept trees: the caller must not delete it. Undefined when parsing
   * fails.
   */
  parse(key: string, lines: LineSource, parser: Parser): Tree | undefined {
    const kept = this.#trees.get(key);
    if (kept && !kept.stale) {
      // Most recently used last, for the bound.
      this.#trees.delete(key);
      this.#trees.set(key, kept);
      return kept.tree;
    }
    this.#trees.delete(key);
    const tree = parser.parse(lineReader(lines), kept?.tree ?? null) ?? undefined;
    kept?.tree.delete();
    if (!tree) return undefined;
    this.#trees.set(key, { tree, stale: false });
    while (this.#trees.size > MAX_TREES) this.forget(this.#trees.keys().next().value!);
    return tree;
  }

  /**
   * A copy of a document's tree as it is now (edited since its last parse or not), which later changes leave as it
   * is: to parse the document's lines as they are now at a later time (`parser.parse(lineReader(snapshot), copy)`).
   * The caller deletes it. Undefined when no tree is kept.
   */
  copy(key: string): Tree | undefined {
    return this.#trees.get(key)?.tree.copy();
  }

  /** Drop a document's tree (closed, reloaded). */
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

/** Where a variant of a document differs from it: `removed` at `offset` (at `point`) replaced by `inserted`. */
export interface VariantChange {
  readonly offset: number;
  readonly point: Point;
  readonly removed: string;
  readonly inserted: string;
}

/**
 * The tree of a document's lines with a change in them (a suggestion inserted), parsed incrementally from `base`, a
 * tree of those lines that stays as it was: the caller deletes the result. Reads the lines through the parser's
 * input callback, the change spliced in (no text of the variant is made).
 */
export function parseVariant(
  parser: Parser,
  base: Tree,
  lines: LineSource,
  change: VariantChange,
): Tree | undefined {
  const copy = base.copy();
  try {
    copy.edit(replacementEdit(change.offset, change.point, change.removed, change.inserted));
    return parser.parse(variantReader(lines, change), copy) ?? undefined;
  } finally {
    copy.delete();
  }
}
