// Small readings of syntax nodes that several languages' rules share.
import type { Node } from "web-tree-sitter";

/**
 * The words of a declaration before its name (`public static final`, `@Deprecated private`, `static inline`),
 * string literals and comments taken out: where modifiers are. Reading the text costs a slice; walking the nodes
 * would cost a WebAssembly call per child.
 */
export function wordsBeforeName(definition: { readonly node: Node; readonly name: Node }): string {
  const { node, name } = definition;
  const length = name.startIndex - node.startIndex;
  if (length <= 0) return "";
  return node.text
    .slice(0, length)
    .replace(/"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|\/\/.*|\/\*[\s\S]*?\*\/|#.*/g, " ");
}

const WORDS = new Map<string, RegExp>();

/** Whether `text` holds `word` as a whole word (`private`, not `privateKey`). */
export function hasWord(text: string, word: string): boolean {
  let pattern = WORDS.get(word);
  if (!pattern) {
    pattern = new RegExp(`(?<![\\p{L}\\p{N}_$])${word}(?![\\p{L}\\p{N}_$])`, "u");
    WORDS.set(word, pattern);
  }
  return pattern.test(text);
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
