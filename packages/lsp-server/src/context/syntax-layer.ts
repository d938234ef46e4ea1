// The syntax layer (tree-sitter, the grammars, every language's queries), loaded on the first document that asks:
// never at start-up, which would parse and compile every language's module before the server answers `initialize`.
// Completion's syntax-aware endings and next-edit's regions reach the kept trees of open documents through it.

/** The syntax layer's kept trees (with the grammars and every language's queries behind them). */
export type SyntaxTrees = Pick<
  typeof import("./syntax/support.js"),
  | "documentTree"
  | "treeCopy"
  | "documentTreeFrom"
  | "variantTree"
  | "documentChanged"
  | "documentGone"
  | "grammarReady"
>;

let trees: SyntaxTrees | undefined;
let loading: Promise<void> | undefined;

/** Load the syntax layer, once. Resolves when it is loaded; never rejects. */
export function loadSyntaxLayer(): Promise<void> {
  // The languages' modules register their grammars with the kept trees as they load.
  loading ??= Promise.all([import("./lang/index.js"), import("./syntax/support.js")]).then(
    ([, support]) => {
      trees = support;
    },
    () => {},
  );
  return loading;
}

/** The kept trees if the layer is loaded, without starting its load (nothing is kept before it is). */
export function syntaxLayer(): SyntaxTrees | undefined {
  return trees;
}

/** The kept trees, once the layer is loaded; undefined before (asking starts the load, and never waits for it). */
export function syntaxTrees(): SyntaxTrees | undefined {
  if (!trees) void loadSyntaxLayer();
  return trees;
}
