// Small readings of syntax nodes that several languages' rules share.
import type { Node } from "web-tree-sitter";

/** Whether one of a node's direct children (or their children: a `modifiers` list) is the keyword `word`. */
export function hasModifier(
  node: Node,
  word: string,
  types: RegExp = /modifier|specifier|^modifiers$/,
): boolean {
  for (const child of node.children) {
    if (!child) continue;
    if (child.type === word) return true;
    if (!types.test(child.type)) continue;
    if (child.text === word) return true;
    for (const inner of child.children) if (inner?.text === word) return true;
  }
  return false;
}

/** The text of a string literal node without its quotes (and a prefix such as `@` or `b`). */
export function unquote(text: string): string {
  const match = /^[A-Za-z@$]*(["'`])([\s\S]*)\1$/.exec(text.trim());
  return match ? match[2]! : text.trim();
}

/** The last segment of a qualified name: `C` of `a.b.C`, `a::b::C`, `A\B\C`. */
export function lastSegment(name: string): string {
  const parts = name.split(/::|\.|\\/);
  return parts[parts.length - 1] ?? name;
}
