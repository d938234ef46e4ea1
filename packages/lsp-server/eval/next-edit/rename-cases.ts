// Renames: a local variable or parameter renamed at its declaration, its other uses still to do. Pure.
import type { Language } from "../languages.js";
import { declaresHere } from "./declaration-rules.js";
import type { EditCase } from "./edit-case.js";
import type { SourceText } from "./source-text.js";

/** The most lines a change's sites span (first to last): a region of 40 lines (the default) can hold them. */
export const SPAN_LINES = 30;
/** Sites of a rename at most, declaration included: a rename, not a rewrite of the function. */
const MAX_SITES = 9;

/** Names that are no local to rename. */
const RESERVED = new Set(["self", "this", "cls", "super", "_", "$this", "it", "nil", "null"]);

/** The names a line of code may declare: identifiers, or PHP's `$variables`. */
function namesIn(codeLine: string, language: Language): IterableIterator<RegExpMatchArray> {
  return codeLine.matchAll(language === "PHP" ? /\$[A-Za-z_]\w*/g : /(?<![\w$])[A-Za-z_]\w*/g);
}

/**
 * A use the rename cannot be sure of: a member of something (`x.name`, `x?.name`, `x->name`, `X::name`), a key or
 * a label (`key: name`), a Ruby symbol, instance variable or `name?` method.
 */
function ambiguousUse(source: SourceText, offset: number, name: string): boolean {
  const line = source.lineOf(offset);
  const before = source.code.slice(source.lineStart(line), offset);
  const after = source.code.slice(offset + name.length, offset + name.length + 2);
  if (/(?:\.|->|::|@|:|\$)\s*$/.test(before)) return true;
  return source.language === "Ruby" && /^[?!](?!=)/.test(after);
}

/** The new name, in the language's style: `total` → `newTotal` (or `new_total`), `$total` → `$newTotal`. */
export function renamed(name: string, language: Language): string {
  const sigil = name.startsWith("$") ? "$" : "";
  const bare = name.slice(sigil.length);
  const snake = language === "Python" || language === "Ruby" || language === "Rust" || language === "C";
  return snake ? `${sigil}new_${bare}` : `${sigil}new${bare[0]!.toUpperCase()}${bare.slice(1)}`;
}

/**
 * Every rename case of a file: a name declared as a local or parameter (declaration-rules.ts) whose every
 * occurrence in the file, comments and literals included, is that declaration and 2 to 8 uses in code, none a
 * member of something else, all within {@link SPAN_LINES} lines of it; so that the finished change is plain (every
 * occurrence renamed) and a region around the declaration can hold it. The user deletes the name at the declaration
 * and types the new one; the other occurrences are the remaining sites.
 */
export function renameCases(source: SourceText): EditCase[] {
  const cases: EditCase[] = [];
  const seen = new Set<string>();
  source.codeLines.forEach((codeLine, line) => {
    for (const match of namesIn(codeLine, source.language)) {
      const name = match[0];
      if (seen.has(name) || name.length < 2 || RESERVED.has(name)) continue;
      seen.add(name);
      if (!declaresHere(codeLine, match.index!, name, source.language)) continue;
      const found = renameOf(source, name, source.lineStart(line) + match.index!);
      if (found) cases.push(found);
    }
  });
  return cases;
}

function renameOf(source: SourceText, name: string, declaration: number): EditCase | undefined {
  const all = source.occurrences(name);
  if (all.length < 3 || all.length > MAX_SITES || all[0]!.offset !== declaration) return undefined;
  if (all.some((use) => !use.inCode || ambiguousUse(source, use.offset, name))) return undefined;
  // Declared once: a second declaration is another variable (another scope, another branch's assignment).
  const declaredAgain = all.slice(1).some((use) => {
    const lineStart = source.lineStart(use.line);
    return declaresHere(source.codeLines[use.line]!, use.offset - lineStart, name, source.language);
  });
  if (declaredAgain) return undefined;
  if (all.at(-1)!.line - all[0]!.line > SPAN_LINES) return undefined;
  const to = renamed(name, source.language);
  if (source.occurrences(to).length > 0) return undefined;
  const [first, ...rest] = all.map((use) => ({ start: use.offset, end: use.offset + name.length, text: to }));
  return {
    id: `${source.file}:${all[0]!.line + 1}:rename:${name}`,
    kind: "rename",
    file: source.file,
    first: first!,
    rest,
    what: `${name} → ${to} (${rest.length} more)`,
  };
}
