import type { Tree } from "web-tree-sitter";
import type { DocumentChange } from "../../documents/documents.js";
import type { LineSource } from "../../documents/text-buffer.js";
import { MAX_FILE_BYTES } from "../files/file-policy.js";
import type { Parsed } from "../scan/parse-result.js";
import type { Family, LanguageSupport } from "../types.js";
import { lineReader } from "./line-reader.js";
import { OpenTrees, parseVariant, type VariantChange } from "./open-trees.js";
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
  /** See `LanguageSupport.constantPath`. */
  readonly constantPath?: LanguageSupport["constantPath"];
  /** See `LanguageSupport.environment`. */
  readonly environment?: LanguageSupport["environment"];
}

/** Each tree-sitter family's grammar and the trees of its open documents. */
const families = new Map<Family, { readonly grammar: GrammarName; readonly trees: OpenTrees }>();

// A grammar let go (idle) takes its trees with it: they are re-parsed from scratch once it is loaded again.
onGrammarRelease((name) => {
  for (const entry of families.values()) if (entry.grammar === name) entry.trees.forgetAll();
});

/**
 * An open document changed: the kept tree of its text, in whichever family it is, is told of each change (no text
 * compared; the next parse re-reads what they touched). Microseconds; nothing when no tree is kept.
 */
export function documentChanged(key: string, changes: readonly DocumentChange[]): void {
  for (const { trees } of families.values()) trees.edited(key, changes);
}

/** An open document closed or reloaded: its kept tree goes. */
export function documentGone(key: string): void {
  for (const { trees } of families.values()) trees.forget(key);
}

/** The family's grammar now, starting its load when it is not loaded (the caller does not wait for it). */
function grammarOf(family: Family): LoadedGrammar | undefined {
  const entry = families.get(family);
  if (!entry) return undefined;
  const grammar = grammarNow(entry.grammar);
  if (grammar === undefined) void loadGrammar(entry.grammar);
  return grammar ?? undefined;
}

/** Whether the family's grammar is loaded; when it is not, this starts its load (the caller does not wait for it). */
export function grammarReady(family: Family): boolean {
  return grammarOf(family) !== undefined;
}

/**
 * The tree of an open document's lines as they are now: its kept tree, re-parsed first if a change came since (from
 * scratch the first time). Owned by the kept trees: read it at once and do not delete it. Undefined for a family not
 * parsed with tree-sitter, a grammar not loaded yet (this starts its load), or a parse that fails.
 */
export function documentTree(family: Family, key: string, lines: LineSource): Tree | undefined {
  try {
    const grammar = grammarOf(family);
    const trees = families.get(family)?.trees;
    if (!grammar || !trees) return undefined;
    return trees.parse(key, lines, grammar.parser);
  } catch {
    return undefined;
  }
}

/**
 * A document's syntax as of now, for a parse later (after the upstream request is written): a copy of its kept tree
 * as it stands, told of every change so far, which later changes leave alone. Undefined when no tree is kept (the
 * later parse is then a fresh one). The caller deletes it (or hands it to {@link documentTreeFrom}).
 */
export function treeCopy(family: Family, key: string): Tree | undefined {
  return families.get(family)?.trees.copy(key);
}

/**
 * The tree of a document's lines (a snapshot taken with `base`): the caller deletes the result. With `current` (the
 * lines are still the document's), a copy of the document's kept tree, re-parsed first if a change came since (so the
 * repository context's parse of the document and this one are one parse, whichever comes first); otherwise parsed
 * incrementally from `base` (a copy from {@link treeCopy}) or from scratch. `base` is deleted either way. Undefined
 * for a family not parsed with tree-sitter, a grammar not loaded yet (this starts its load), or a parse that fails.
 */
export function documentTreeFrom(
  family: Family,
  key: string,
  lines: LineSource,
  base: Tree | undefined,
  current: boolean,
): Tree | undefined {
  try {
    const grammar = grammarOf(family);
    const trees = families.get(family)?.trees;
    if (!grammar || !trees) return undefined;
    if (current) return trees.parse(key, lines, grammar.parser)?.copy();
    // A copy taken before its grammar was let go belongs to another runtime: parse from scratch then.
    const from = base && base.language === grammar.language ? base : null;
    return grammar.parser.parse(lineReader(lines), from) ?? undefined;
  } catch {
    return undefined;
  } finally {
    base?.delete();
  }
}

/**
 * The syntax tree of a document's lines with a change in them (a suggestion inserted), re-parsed incrementally from
 * `base` (a tree of those lines), which stays as it was: what syntax-aware endings ask before they count errors
 * (`countErrors`) or find the enclosing block (`enclosingBlock`). The caller deletes the tree. Undefined for a family
 * not parsed with tree-sitter, a grammar not loaded, or a parse that fails.
 */
export function variantTree(
  family: Family,
  base: Tree,
  lines: LineSource,
  change: VariantChange,
): Tree | undefined {
  const entry = families.get(family);
  const grammar = entry && grammarNow(entry.grammar);
  if (!grammar) return undefined;
  try {
    return parseVariant(grammar.parser, base, lines, change);
  } catch {
    return undefined;
  }
}

/** How many open documents of a family have their tree kept. */
export function keptTrees(family: Family): number {
  return families.get(family)?.trees.size ?? 0;
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
  families.set(language.family, { grammar: language.grammar, trees });
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
    parseOpen(key, text, lines) {
      if (text.length > MAX_PARSE_CHARS) {
        trees.forget(key);
        return EMPTY;
      }
      return guarded((grammar) => {
        const tree = trees.parse(key, lines, grammar.parser);
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
    ...(language.constantPath ? { constantPath: language.constantPath } : {}),
    ...(language.environment ? { environment: language.environment } : {}),
  };
}
