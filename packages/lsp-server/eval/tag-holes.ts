// The ctags oracle: CrossCodeEval-style holes in any language ctags reads, from its definitions and a scan of each
// file's code (comments and literals blanked). Shares no code with the server's parsers. Pure.
import type { Tag } from "./ctags.js";
import type { DeclarationLine, Hole, HolePattern } from "./hole.js";
import { LANGUAGES, type Language, type LanguageSpec, type TagKinds } from "./languages.js";
import { type CorpusView, ReachIndex } from "./reach.js";
import { blankNonCode } from "./source-lexer.js";

/** Names shorter than this are too common to be a hole (`id`, `ok`, `T`). */
const MIN_NAME = 3;

/**
 * Names too common to be a hole whatever the corpus defines: constructors and entry points, and methods every
 * standard library has (collections, strings, streams, iterators), which a call on an object of a library type
 * means far more often than the corpus's own.
 */
export const TOO_COMMON: ReadonlySet<string> = new Set(
  [
    "new init __init__ initialize __construct constructor main",
    "add get set put size len length count append extend insert remove erase clear empty isEmpty contains",
    "keys values items first second last begin end find index update push pop join split trim sort reverse",
    "copy clone equals hashCode hash toString compareTo valueOf format parse data str c_str name type value",
    "open close read write flush send print start stop run call apply accept test lock unlock reset swap",
    "iterator next hasNext iter into_iter collect map filter fold reduce sum all any zip chain enumerate",
    "skip take rev position min max unwrap expect into from as_ref borrow deref default each String Error",
  ]
    .join(" ")
    .split(" "),
);

/**
 * Every hole of a corpus, sorted by file and position.
 *
 * A hole is a use of an identifier X in file F directly followed by `(` (a call; `new X(` where the language has
 * `new`), `.`, `::` or `->` (where the language has them) and an identifier, outside comments and literals, such
 * that: ctags finds X defined (as an entity: function, method, type, macro, constant, global; fields only count
 * against uniqueness) in exactly one file D of the corpus, D is not F; F has no tag named X at all (no definition,
 * prototype, local or parameter: a local `ctx` shadows another file's global `ctx`); X is not too common (shorter
 * than 3 characters or in {@link TOO_COMMON}); and F's text does not contain one of X's declaration lines. The
 * cursor goes right after the operator; the rest of the line is removed when the hole is run.
 *
 * X's declaration lines are those of its definitions in D, then of its other declarations (C prototypes in
 * headers), trimmed; a request holding any of them recalls the hole. The stratum is how F reaches them by the
 * language's import rule (`reach.ts`).
 *
 * @param read - a workspace file's text by workspace-relative path (sources, and `go.mod`/`Cargo.toml` for the
 *   import rules); undefined when there is no such file
 */
export function findTagHoles(
  language: Language,
  files: readonly string[],
  read: (file: string) => string | undefined,
  tags: readonly Tag[],
): Hole[] {
  const spec = LANGUAGES[language];
  if (!spec.kinds) throw new Error(`${language} has no ctags kinds: its holes come from another oracle`);
  const corpus = new Set(files);
  const index = indexTags(
    tags.filter((t) => corpus.has(t.file)),
    spec.kinds,
  );
  const commentFree = new Map<string, string>();
  const view: CorpusView = {
    files,
    text(file) {
      if (!corpus.has(file)) return read(file);
      let text = commentFree.get(file);
      if (text === undefined) {
        text = blankNonCode(read(file) ?? "", spec.syntax, false);
        commentFree.set(file, text);
      }
      return text;
    },
  };
  const reach = new ReachIndex(language, view);
  const declarationText = trimmedLines(read);
  const declarationsOf = new Map<string, DeclarationLine[]>();
  const declarationLines = (name: string): DeclarationLine[] => {
    let found = declarationsOf.get(name);
    if (!found) {
      const seen = new Set<string>();
      found = [];
      for (const tag of [...(index.definitions.get(name) ?? []), ...(index.declarations.get(name) ?? [])]) {
        const text = declarationText(tag.file, tag.line);
        const key = `${tag.file}:${tag.line}`;
        if (text === "" || seen.has(key)) continue;
        seen.add(key);
        found.push({ file: tag.file, line: tag.line - 1, text });
      }
      declarationsOf.set(name, found);
    }
    return found;
  };

  const holes: Hole[] = [];
  for (const file of [...files].sort()) {
    const text = read(file);
    if (text === undefined) continue;
    const code = blankNonCode(text, spec.syntax);
    const declaredHere = new Set(index.namesIn.get(file));
    for (const name of spec.localNames?.(code) ?? []) declaredHere.add(name);
    const lineStarts = lineStartsOf(text);
    const holeName = new Map<string, boolean>();
    for (const use of uses(code, spec)) {
      const { name } = use;
      let ok = holeName.get(name);
      if (ok === undefined) {
        const defining = index.definingFile.get(name);
        const declarations = defining === undefined ? [] : declarationLines(name);
        ok =
          name.length >= MIN_NAME &&
          !TOO_COMMON.has(name) &&
          !declaredHere.has(name) &&
          defining !== file &&
          declarations.length > 0 &&
          !declarations.some((d) => text.includes(d.text));
        holeName.set(name, ok);
      }
      if (!ok) continue;
      const defining = index.definingFile.get(name)!;
      if (use.qualifier && !isStaticQualifier(use.qualifier, spec, index, reach.modules(file), reach.roots()))
        continue;
      if (use.qualifier && !scopeFits(use.qualifier, index.definitions.get(name)!)) continue;
      if (reach.visible(file, name, use.qualifier?.path.at(-1), defining) === false) continue;
      const definitions = index.definitions.get(name)!;
      // A private member of another file's class is not what this file names (Java's, C#'s).
      if (spec.privateMembers && definitions.every((t) => t.access === "private")) continue;
      const allowed = spec.kinds.patterns?.[use.pattern];
      if (allowed && !definitions.some((t) => allowed.includes(t.kind))) continue;
      if (!use.qualifier && !spec.implicitReceiver && definitions.every(isMember)) continue;
      const declarations = declarationLines(name);
      const line = lineAt(lineStarts, use.cursor);
      const character = use.cursor - lineStarts[line]!;
      const declaring = [defining, ...new Set(declarations.map((d) => d.file).filter((f) => f !== defining))];
      holes.push({
        id: `${file}:${line + 1}:${character + 1}`,
        file,
        line,
        character,
        offset: use.cursor,
        name,
        stratum: reach.reach(file, declaring),
        pattern: use.pattern,
        declarations,
        imports: reach.imports(file),
        crossPackage: false,
      });
    }
  }
  return holes;
}

/**
 * Whether X in `Q::X`, `Q.X` or `Q->X` is reached by name, as an imported name is, rather than as a member of a
 * value, whose declaration only the value's type would tell (`table.add_row(` may be the corpus's `add_row` or
 * a library's). Reached by name: through a `::` path whose first name the corpus declares (a type, namespace or
 * module; `crate::`, `self::`, `super::`; not `std::`); through `.` from a module or package the file imports from
 * the corpus (Go's `prometheus.`, Python's `box.`), or, where `Type.member` is how a type's static members are
 * reached (`typeDot`), from a capitalized type the corpus declares (`Validate.`, `Pry::Commands.`; not Ruby's
 * `File.`, C#'s `Debug.`, nor a Go struct's field `req.Header.`).
 */
function isStaticQualifier(
  qualifier: Qualifier,
  spec: LanguageSpec,
  index: TagIndex,
  modules: ReadonlySet<string>,
  roots: ReadonlySet<string>,
): boolean {
  const { path, operator } = qualifier;
  const name = path.at(-1);
  if (name === undefined) return false;
  if (operator === "::") return roots.has(path[0]!) || index.allNames.has(path[0]!);
  if (operator === "->") return false;
  // Capitalized: docutils' lowercase classes (`document`) are also its variables' names.
  return modules.has(name) || (spec.typeDot && /^[A-Z]/.test(name) && index.typeNames.has(name));
}

/**
 * Whether `Q::X` can name X's definition by its scope: when ctags gives every definition of X a scope (`Pry.Slop`
 * for Ruby's `class Pry; class Slop; class Commands`, `YAML::detail` in C++), Q must be its innermost part.
 * `Pry::Commands` names a constant `Commands` of `Pry`, not `Pry::Slop::Commands` (which ctags may know as the
 * one `Commands`). A definition without a scope (Rust's items of a module, a top-level class) is not checked.
 */
function scopeFits(qualifier: Qualifier, definitions: readonly Tag[]): boolean {
  const outer = qualifier.path.at(-1);
  if (qualifier.operator !== "::" || outer === undefined) return true;
  // Type arguments are no part of the name (Rust's `impl<T> Foo<T>` scope `Foo<T>`).
  const innermost = (scope: string) => scope.replace(/<.*>/g, "").split(/\.|::/).at(-1)?.trim();
  return definitions.some((t) => t.scope === undefined || innermost(t.scope) === outer);
}

/** Kinds of tags that name a type, a namespace or a module, in any language. */
const TYPE_KINDS: ReadonlySet<string> = new Set([
  "class",
  "struct",
  "interface",
  "enum",
  "union",
  "typedef",
  "trait",
  "type",
  "talias",
  "annotation",
  "module",
  "namespace",
  "package",
]);

/** Kinds of scope whose functions are methods (Go's and PHP's functions are ctags `func`/`function` in them). */
const TYPE_SCOPES: ReadonlySet<string> = new Set([
  "class",
  "struct",
  "interface",
  "trait",
  "implementation",
  "enum",
  "union",
  "type",
]);

/** Whether a definition is a member of a type (a method, a field), which a bare name cannot reach everywhere. */
function isMember(tag: Tag): boolean {
  return tag.scopeKind !== undefined && TYPE_SCOPES.has(tag.scopeKind);
}

/** The tags of a corpus, by name. */
interface TagIndex {
  /** Entity and field definitions. */
  readonly definitions: ReadonlyMap<string, readonly Tag[]>;
  /** Declarations that are not definitions (prototypes). */
  readonly declarations: ReadonlyMap<string, readonly Tag[]>;
  /** A name's one defining file, for names defined (as an entity at least once) in exactly one file. */
  readonly definingFile: ReadonlyMap<string, string>;
  /** Per file, every name it has a tag of (any kind the oracle reads). */
  readonly namesIn: ReadonlyMap<string, ReadonlySet<string>>;
  /** Every name the corpus has a tag of, of any kind (namespaces and packages too). */
  readonly allNames: ReadonlySet<string>;
  /** The names of the corpus's types, namespaces and modules. */
  readonly typeNames: ReadonlySet<string>;
}

function indexTags(tags: readonly Tag[], kinds: TagKinds): TagIndex {
  const entity = new Set(kinds.entity);
  const field = new Set(kinds.field);
  const declaration = new Set(kinds.declaration);
  const local = new Set(kinds.local);
  const definitions = new Map<string, Tag[]>();
  const declarations = new Map<string, Tag[]>();
  const namesIn = new Map<string, Set<string>>();
  const push = <T>(map: Map<string, T[]>, key: string, value: T) => {
    const list = map.get(key);
    if (list) list.push(value);
    else map.set(key, [value]);
  };
  const allNames = new Set(tags.map((t) => t.name));
  const typeNames = new Set(tags.filter((t) => TYPE_KINDS.has(t.kind)).map((t) => t.name));
  for (const tag of tags) {
    const isDefinition = entity.has(tag.kind) || field.has(tag.kind);
    if (!isDefinition && !declaration.has(tag.kind) && !local.has(tag.kind)) continue;
    if (isDefinition) push(definitions, tag.name, tag);
    else if (declaration.has(tag.kind)) push(declarations, tag.name, tag);
    const names = namesIn.get(tag.file) ?? new Set<string>();
    namesIn.set(tag.file, names);
    names.add(tag.name);
  }
  const definingFile = new Map<string, string>();
  for (const [name, list] of definitions) {
    const files = new Set(list.map((t) => t.file));
    if (files.size === 1 && list.some((t) => entity.has(t.kind))) definingFile.set(name, list[0]!.file);
  }
  for (const list of definitions.values()) list.sort((a, b) => a.line - b.line);
  for (const list of declarations.values())
    list.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : a.line - b.line));
  return { definitions, declarations, definingFile, namesIn, allNames, typeNames };
}

/**
 * What X follows in `Q::X`, `Q.X`, `Q->X`: the operator, and the names before it: `[Q]`, or the whole path of
 * `a::b::Q::X`; empty when Q is no name (`f().X`, `a[0].X`, `Vec<T>::X`).
 */
export interface Qualifier {
  readonly path: readonly string[];
  readonly operator: "." | "::" | "->";
}

/** A use of an identifier followed by a hole's operator, in code with comments and literals blanked. */
interface Use {
  readonly name: string;
  readonly pattern: HolePattern;
  /** Right after the operator. */
  readonly cursor: number;
  /** What X follows, when X follows an operator. */
  readonly qualifier?: Qualifier;
}

const IDENTIFIER_START = /[A-Za-z_]/;
const IDENTIFIER_CHAR = /[A-Za-z0-9_$]/;

/** A line that imports or declares a module: its names are paths, not uses (`from a.b import c`, `use a::b`). */
const IMPORT_LINE =
  /^[ \t]*(?:import|from|package|using|namespace|(?:pub(?:\([^)]*\))?[ \t]+)?(?:use|mod)|require(?:_relative)?|#[ \t]*include)[ \t]+(?!\()/;

/** What precedes X in `new X(`, with the qualifiers X may have. */
const NEW_BEFORE = /\bnew\s+\\?(?:[A-Za-z_]\w*\s*(?:\.|::|\\)\s*)*$/;

function* uses(code: string, spec: LanguageSpec): Generator<Use> {
  const identifier = new RegExp(spec.identifier.source, "g");
  for (const m of code.matchAll(identifier)) {
    const start = m.index;
    const lineStart = code.lastIndexOf("\n", start - 1) + 1;
    if (IMPORT_LINE.test(code.slice(lineStart, start))) continue;
    const end = start + m[0].length;
    // Not the tail of a longer token (`0xff`, `$var`), nor another name by its sigil (Ruby's `@var`).
    if (start > 0 && (IDENTIFIER_CHAR.test(code[start - 1]!) || spec.sigils?.includes(code[start - 1]!)))
      continue;
    const followedByName = (at: number) => IDENTIFIER_START.test(code[at] ?? "");
    let pattern: HolePattern | undefined;
    let cursor = end + 1;
    if (code[end] === "(") {
      // `new X(`, also `new Outer.X(`, `new ns::X(`, PHP's `new \Ns\X(`.
      const before = code.slice(Math.max(0, start - 80), start);
      pattern = spec.newOperator && NEW_BEFORE.test(before) ? "new" : "call";
    } else if (spec.member && code[end] === "." && followedByName(end + 1)) {
      pattern = "member";
    } else if (spec.scope && code.startsWith("::", end) && followedByName(end + 2)) {
      pattern = "scope";
      cursor = end + 2;
    } else if (spec.arrow && code.startsWith("->", end) && followedByName(end + 2)) {
      pattern = "arrow";
      cursor = end + 2;
    }
    if (pattern) {
      const qualifier = qualifierOf(code, start);
      yield { name: m[0], pattern, cursor, ...(qualifier ? { qualifier } : {}) };
    }
  }
}

function qualifierOf(code: string, start: number): Qualifier | undefined {
  const before = code.slice(Math.max(0, start - 160), start);
  const m = /(?:([A-Za-z_][A-Za-z0-9_]*)\s*)?(\.|::|->)\s*$/.exec(before);
  if (!m) return undefined;
  const operator = m[2] as Qualifier["operator"];
  // `..` (a range) and `?.` are no qualifiers of a name.
  if (operator === "." && /[.?]\s*\.\s*$/.test(before)) return { path: [], operator };
  if (m[1] === undefined) {
    // A leading `::` (`::std::x`, Ruby's `::Foo`) is the root: X is then bare.
    return operator === "::" && !/[\w)\]>]\s*::\s*$/.test(before) ? undefined : { path: [], operator };
  }
  if (operator !== "::") return { path: [m[1]], operator };
  const chain = /(?:[A-Za-z_$][A-Za-z0-9_]*\s*::\s*)+$/.exec(before)![0];
  return {
    path: chain
      .split("::")
      .map((s) => s.trim())
      .filter(Boolean),
    operator,
  };
}

// Line arithmetic of the oracle's own (the server's TextLines is alike): the oracle imports nothing of the server's
// context code, which is what it measures.

/**
 * A reader of corpus files' lines by ctags' 1-based line number, trimmed ("" past the end), each file read and
 * split once.
 */
export function trimmedLines(
  read: (file: string) => string | undefined,
): (file: string, line: number) => string {
  const split = new Map<string, string[]>();
  return (file, line) => {
    let lines = split.get(file);
    if (!lines) {
      lines = (read(file) ?? "").split("\n");
      split.set(file, lines);
    }
    return (lines[line - 1] ?? "").trim();
  };
}

/** The offset of each line's start (lines split at `\n`, as ctags counts them). */
export function lineStartsOf(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) starts.push(i + 1);
  return starts;
}

/** The 0-based line holding an offset. */
export function lineAt(starts: readonly number[], offset: number): number {
  let low = 0;
  let high = starts.length - 1;
  while (low < high) {
    const mid = (low + high + 1) >> 1;
    if (starts[mid]! <= offset) low = mid;
    else high = mid - 1;
  }
  return low;
}
