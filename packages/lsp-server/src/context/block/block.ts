import { commentLine } from "../languages.js";
import type { ContextSnippet } from "../types.js";

/** The context that goes at the very start of `prompt`. */
export interface ContextBlock {
  /** The snippets, each file's under a comment line naming it, then the current file's path line; or `""`. */
  readonly text: string;
  /** Estimated tokens of `text`. */
  readonly tokens: number;
  /** The snippets in `text`, in the order they appear there. */
  readonly snippets: readonly ContextSnippet[];
  /**
   * The current file's path line that ends `text` (line break included), or `""`: what a provider that takes the
   * snippets in a field of their own (llama.cpp's `input_extra`) still gets before the prompt.
   */
  readonly pathLine: string;
}

/** The block of a request without context. */
export const EMPTY_BLOCK: ContextBlock = { text: "", tokens: 0, snippets: [], pathLine: "" };

/** Input of {@link assembleBlock}. */
export interface AssembleOptions {
  /** LSP language id of the current document: the comment syntax of the path lines. */
  readonly languageId: string;
  /** The current file's path, for its path line; undefined for a buffer that has none. */
  readonly currentPath: string | undefined;
  /** Candidates, most wanted first. */
  readonly candidates: readonly ContextSnippet[];
  /** Most tokens the block may take. */
  readonly budgetTokens: number;
  /** Characters per token of the estimate (the prompt window's). Default 3.5. */
  readonly charsPerToken?: number;
  /** Put every snippet line in a comment instead of raw code. Default false (see the README's "Context"). */
  readonly commented?: boolean;
  /**
   * The snippets of the block this one extends, in their order: taken first and rendered first, byte for byte as
   * before, the new ones after them, so that the prompt cache still holds the start of the block.
   */
  readonly keep?: readonly ContextSnippet[] | undefined;
}

/**
 * Choose and render the context block. Candidates are taken greedily in the order given while they fit the budget
 * (one that does not fit is skipped, a smaller later one may still go in; one overlapping an already chosen snippet
 * of the same file is skipped, unless both are declarations and one lies inside the other: a member its
 * container's snippet leaves out). The rendering does not depend on that order: files sorted by path, each file's
 * snippets by line, so the same choice always gives the same bytes — what the prompt cache needs. Snippets of a
 * block this one extends (`keep`) come first, as they were, and a file may then get a second path line.
 *
 * Shape (DeepSeek-Coder's repository-level format: a comment naming the file, then its code):
 * ```
 * // src/a.ts
 * <snippet>
 *
 * <snippet>
 * // src/b.ts
 * <snippet>
 * // src/current.ts
 * ```
 * The estimate of the result never exceeds `budgetTokens`; when not even the current file's path line fits, the
 * block is empty.
 */
export function assembleBlock(options: AssembleOptions): ContextBlock {
  const { languageId, currentPath, budgetTokens, charsPerToken = 3.5, commented = false } = options;
  const budgetChars = Math.floor(Math.max(0, budgetTokens) * charsPerToken);
  const pathLine = (path: string) => commentLine(languageId, path);
  const tail = currentPath === undefined ? "" : `${pathLine(currentPath)}\n`;
  if (tail.length > budgetChars) return EMPTY_BLOCK;

  const render = (text: string) =>
    commented
      ? text
          .split("\n")
          .map((line) => commentLine(languageId, line).trimEnd())
          .join("\n")
      : text;
  let used = tail.length;
  const chosen: Array<{ snippet: ContextSnippet; text: string }> = [];
  const keep = options.keep ?? [];
  for (const snippet of [...keep, ...options.candidates]) {
    if (snippet.text.trim() === "") continue;
    const sameFile = chosen.filter((c) => c.snippet.path === snippet.path);
    if (sameFile.some((c) => overlaps(c.snippet, snippet))) continue;
    const text = render(snippet.text);
    // A file's first snippet brings its path line; later ones a blank line before them.
    const cost = text.length + 1 + (sameFile.length === 0 ? pathLine(snippet.path).length + 1 : 1);
    if (used + cost > budgetChars) continue;
    used += cost;
    chosen.push({ snippet, text });
  }

  // Kept snippets stay where they were (they were taken first, so they lead `chosen`); the rest by path and line.
  const kept = chosen.filter((c) => keep.includes(c.snippet)).length;
  const added = chosen.slice(kept);
  added.sort(
    (a, b) =>
      compare(a.snippet.path, b.snippet.path) ||
      a.snippet.startLine - b.snippet.startLine ||
      a.snippet.endLine - b.snippet.endLine,
  );
  chosen.splice(kept, added.length, ...added);
  let text = "";
  for (let i = 0; i < chosen.length; i++) {
    const { snippet, text: body } = chosen[i]!;
    text += i > 0 && chosen[i - 1]!.snippet.path === snippet.path ? "\n" : `${pathLine(snippet.path)}\n`;
    text += `${body}\n`;
  }
  text += tail;
  return {
    text,
    tokens: Math.ceil(text.length / charsPerToken),
    snippets: chosen.map((c) => c.snippet),
    pathLine: tail,
  };
}

/**
 * Whether two snippets of a file share lines, so that the second would repeat the first: not a declaration (or a
 * member outline) nested in another one (a member its container's snippet leaves out, a private nested class,
 * comes on its own). A type's outline and its declaration cover the same lines: the first taken stands for both.
 */
function overlaps(a: ContextSnippet, b: ContextSnippet): boolean {
  if (a.startLine > b.endLine || b.startLine > a.endLine) return false;
  if (a.kind === "similar" || b.kind === "similar") return true;
  const nested =
    (a.startLine < b.startLine && b.endLine <= a.endLine) ||
    (b.startLine < a.startLine && a.endLine <= b.endLine);
  return !nested;
}

/** Plain code-unit order: the same everywhere (no locale). */
function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
