import type { Tree } from "web-tree-sitter";
import { MAX_FILE_BYTES } from "../files/file-policy.js";
import type { Parsed } from "../scan/parse-result.js";
import type { Family, LanguageSupport } from "../types.js";
import { type KnownEdit, OpenTrees } from "./open-trees.js";
import { outlineFromMatches, type SyntaxRules } from "./outline.js";
import {
  type GrammarName,
  grammarLoaded,
  grammarNow,
  type LoadedGrammar,
  loadGrammar,
  onGrammarRelease,
} from "./runtime.js";

/** A language analysed with a tree-sitter grammar and a tags-style query. */
export interface SyntaxLanguage {
  readonly family: Family;
  readonly extensions: readonly string[];
  readonly grammar: GrammarName;
  /**
   * The query: `@definition.<kind>` on each declaration with `@name` on its name (or `@declarator`, see
   * {@link SyntaxRules.declarator}), `@import` on each import statement.
   */
  readonly query: string;
  readonly rules: SyntaxRules;
  /** See `LanguageSupport.importHint`. */
  readonly importHint?: RegExp;
  readonly references: LanguageSupport["references"];
  /** Where an import's specifier may lead (see `LanguageSupport.candidates`). Default: nowhere. */
  readonly candidates?: LanguageSupport["candidates"];
  /** See `LanguageSupport.submodule`. */
  readonly submodule?: LanguageSupport["submodule"];
  /** See `LanguageSupport.implicit`. */
  readonly implicit?: LanguageSupport["implicit"];
  /** See `LanguageSupport.packageFile`. */
  readonly packageFile?: LanguageSupport["packageFile"];
  /** See `LanguageSupport.nesting`. */
  readonly nesting?: LanguageSupport["nesting"];
  /** See `LanguageSupport.environment`. */
  readonly environment?: LanguageSupport["environment"];
}

/** Each tree-sitter family's grammar and open documents' trees, for {@link variantTree}. */
const variants = new Map<Family, { readonly grammar: GrammarName; readonly trees: OpenTrees }>();

// A grammar let go (idle) takes its trees with it: they are re-parsed from scratch once it is loaded again.
onGrammarRelease((name) => {
  for (const entry of variants.values()) if (entry.grammar === name) entry.trees.forgetAll();
});

/**
 * The syntax tree of an open document's text with a change in it (a suggestion inserted), re-parsed incrementally
 * from the document's tree, which stays as it was: what syntax-aware endings ask before they count errors
 * (`countErrors`) or find the enclosing block (`enclosingBlock`). The caller deletes the tree. Undefined for a
 * family not parsed with tree-sitter, a grammar not loaded yet, or a text over 1 MiB. `change`: the edit from the
 * document's text, when the caller knows it.
 */
export function variantTree(family: Family, key: string, text: string, change?: KnownEdit): Tree | undefined {
  const entry = variants.get(family);
  const grammar = entry && grammarNow(entry.grammar);
  if (!entry || !grammar || text.length > MAX_PARSE_CHARS) return undefined;
  try {
    return entry.trees.parseVariant(key, text, grammar.parser, change);
  } catch {
    return undefined;
  }
}

/**
 * The syntax tree of an open document's text, kept as the document's tree (so that {@link variantTree} re-parses
 * from it): the kept tree itself when it is of this text, else re-parsed incrementally from it. Owned by the kept
 * trees: the caller must not delete it. Undefined for a family not parsed with tree-sitter, a text over 1 MiB, or a
 * grammar not loaded yet, whose load this starts without waiting for it (the next call may find it).
 */
export function documentTree(family: Family, key: string, text: string): Tree | undefined {
  const entry = variants.get(family);
  if (!entry || text.length > MAX_PARSE_CHARS) return undefined;
  const grammar = grammarNow(entry.grammar);
  if (grammar === undefined) void loadGrammar(entry.grammar);
  if (!grammar) return undefined;
  try {
    return entry.trees.parse(key, text, grammar.parser);
  } catch {
    return undefined;
  }
}

/** How many open documents of a family have their tree kept. */
export function keptTrees(family: Family): number {
  return variants.get(family)?.trees.size ?? 0;
}

const EMPTY: Parsed = { imports: [], outline: { declarations: [], reexports: [] } };

/**
 * Text longer than this is not parsed (UTF-16 units): the file policy's bound, which open buffers do not pass
 * through. Tree-sitter parses about as fast as the hand-written scanners, but a 5 MB buffer would hold the event
 * loop for a second.
 */
const MAX_PARSE_CHARS = MAX_FILE_BYTES;

/** The `{ imports, outline }` of a tree. */
function fromTree(language: SyntaxLanguage, grammar: LoadedGrammar, tree: Tree, text: string): Parsed {
  const matches = grammar.query(language.query).matches(tree.rootNode);
  return outlineFromMatches(text, matches, language.rules);
}

/**
 * The {@link LanguageSupport} of a tree-sitter language. `parse` is synchronous like every parser's: until the
 * grammar is loaded it finds nothing, so the callers await `ready()` first (the source cache before it parses a
 * file, the repository context before it parses an open document); the first call of `ready()` starts the load.
 */
export function syntaxSupport(language: SyntaxLanguage): LanguageSupport {
  const trees = new OpenTrees();
  variants.set(language.family, { grammar: language.grammar, trees });
  const loaded = (): LoadedGrammar | undefined => grammarNow(language.grammar) ?? undefined;
  const guarded = (run: (grammar: LoadedGrammar) => Parsed): Parsed => {
    const grammar = loaded();
    if (!grammar) return EMPTY;
    try {
      return run(grammar);
    } catch {
      return EMPTY;
    }
  };
  return {
    family: language.family,
    extensions: language.extensions,
    ready() {
      return grammarLoaded(language.grammar) === false
        ? loadGrammar(language.grammar).then(() => {})
        : undefined;
    },
    parserReady: () => grammarLoaded(language.grammar) !== false,
    parse(text) {
      if (text.length > MAX_PARSE_CHARS) return EMPTY;
      return guarded((grammar) => {
        const tree = grammar.parser.parse(text);
        if (!tree) return EMPTY;
        try {
          return fromTree(language, grammar, tree, text);
        } finally {
          tree.delete();
        }
      });
    },
    parseOpen(key, text) {
      if (text.length > MAX_PARSE_CHARS) {
        trees.forget(key);
        return EMPTY;
      }
      return guarded((grammar) => {
        const tree = trees.parse(key, text, grammar.parser);
        return tree ? fromTree(language, grammar, tree, text) : EMPTY;
      });
    },
    close(key) {
      trees.forget(key);
    },
    references: language.references,
    ...(language.importHint ? { importHint: language.importHint } : {}),
    candidates: language.candidates ?? (() => []),
    ...(language.submodule ? { submodule: language.submodule } : {}),
    ...(language.implicit ? { implicit: language.implicit } : {}),
    ...(language.packageFile ? { packageFile: language.packageFile } : {}),
    ...(language.nesting ? { nesting: language.nesting } : {}),
    ...(language.environment ? { environment: language.environment } : {}),
  };
}
