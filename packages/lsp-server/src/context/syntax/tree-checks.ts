// What the completion pipeline can ask of a syntax tree (syntax-aware endings): whether a text with a suggestion in
// it still parses, and which block holds a position. With `OpenTrees.parseVariant`, a buffer plus a suggestion is
// an incremental re-parse of the buffer's tree.
import type { Node, Tree, TreeCursor } from "web-tree-sitter";

/**
 * The syntax errors in a node: `ERROR` nodes and the tokens the parser had to invent (`MISSING`). A cursor walk that
 * goes down only into nodes with an error (a wide node's children are looked at one by one, none made as a list).
 */
export function countErrors(node: Node): number {
  if (!node.hasError && !node.isMissing) return 0;
  const cursor = node.walk();
  try {
    return countAt(cursor);
  } finally {
    cursor.delete();
  }
}

function countAt(cursor: TreeCursor): number {
  const node = cursor.currentNode;
  if (node.isError || node.isMissing) return 1;
  if (!node.hasError || !cursor.gotoFirstChild()) return 0;
  let count = 0;
  do count += countAt(cursor);
  while (cursor.gotoNextSibling());
  cursor.gotoParent();
  return count;
}

const BLOCK = /block|body|compound_statement|_list$|statement_block|class_body|declaration_list/;

/** The innermost block-like node (a `{…}` body, a class body, a statement list) holding an offset, or the root. */
export function enclosingBlock(root: Node, offset: number): Node {
  let node: Node | null = root.descendantForIndex(offset);
  while (node?.parent && !BLOCK.test(node.type)) node = node.parent;
  return node ?? root;
}

/** A node's kind and extent, to find it again in another tree of the same text. */
interface Shape {
  readonly type: string;
  readonly start: number;
  readonly end: number;
}

const shapeOf = (node: Node): Shape => ({ type: node.type, start: node.startIndex, end: node.endIndex });

/**
 * The errors a change at one place adds to a document, counted where the change can reach instead of over the whole
 * tree: in the smallest node of the document that encloses the change (not an error itself) and, in the tree of the
 * document with the change, the node of the same kind over the same text. When the document has no error outside that
 * node, and the node and every node around it are found again as they were (the same kinds, the same extents, shifted
 * by what the change adds), the text outside it parsed as before, and the difference of the two counts is the
 * difference of the whole trees'. Otherwise (errors elsewhere, whose recovery the change may move; or the change made
 * the structure around it move: a closer the document already has) both whole trees are counted.
 */
export class ChangeErrors {
  readonly #root: Node;
  /** By the change's start and the length it removes: the enclosing node, its errors and its ancestors' shapes. */
  readonly #regions = new Map<string, { region: Shape; errors: number; around: Shape[] } | null>();
  #whole: number | undefined;
  /** Changes judged by their region alone, so far (the rest by the whole trees): what the tests and bench read. */
  regional = 0;

  /** @param root the document's tree, which must stay alive while this is used */
  constructor(root: Node) {
    this.#root = root;
  }

  /** Errors in the whole document (counted once). */
  get whole(): number {
    this.#whole ??= countErrors(this.#root);
    return this.#whole;
  }

  /**
   * How many more errors `changed` (the document with `removed` units at `start` replaced by `inserted` units) has
   * than the document; negative when it has fewer.
   */
  added(changed: Tree, start: number, removed: number, inserted: number): number {
    const region = this.#region(start, removed);
    // Errors elsewhere in the document may be recovered from otherwise once the change is in: only a document whose
    // errors all lie in the region is judged by the region.
    if (region && region.errors === this.whole) {
      const delta = inserted - removed;
      const found = findAgain(changed.rootNode, region.region, region.around, start + removed, delta);
      if (found) {
        this.regional++;
        return countErrors(found) - region.errors;
      }
    }
    return countErrors(changed.rootNode) - this.whole;
  }

  #region(start: number, removed: number) {
    const key = `${start}:${removed}`;
    let region = this.#regions.get(key);
    if (region === undefined) {
      region = null;
      // Strictly around the change: a change at a node's edge may belong to the node beside it.
      let node: Node | null = this.#root.descendantForIndex(Math.max(0, start - 1), start + removed + 1);
      while (
        node &&
        (node.isError || node.isMissing || node.startIndex >= start || node.endIndex <= start + removed)
      )
        node = node.parent;
      if (node?.parent) {
        const around: Shape[] = [];
        for (let up: Node | null = node.parent; up; up = up.parent) around.push(shapeOf(up));
        region = { region: shapeOf(node), errors: countErrors(node), around };
      }
      this.#regions.set(key, region);
    }
    return region;
  }
}

/**
 * The node of `root` with `shape` (its end shifted by `delta`, as the text after `changeEnd` moved), whose ancestors
 * have the shapes of `around` likewise; null when the tree's structure there is not the same.
 */
function findAgain(
  root: Node,
  shape: Shape,
  around: readonly Shape[],
  changeEnd: number,
  delta: number,
): Node | null {
  const shifted = (at: number) => (at >= changeEnd ? at + delta : at);
  const same = (node: Node | null, want: Shape) =>
    node !== null &&
    node.type === want.type &&
    node.startIndex === shifted(want.start) &&
    node.endIndex === shifted(want.end);
  let node: Node | null = root.descendantForIndex(shape.start, shifted(shape.end));
  // The smallest node over that text may be a child spanning all of it: go up to the one of the same kind.
  while (
    node &&
    !same(node, shape) &&
    node.startIndex === shape.start &&
    node.endIndex === shifted(shape.end)
  )
    node = node.parent;
  if (!same(node, shape)) return null;
  let up = node!.parent;
  for (const want of around) {
    if (!same(up, want)) return null;
    up = up!.parent;
  }
  return up === null ? node : null;
}
