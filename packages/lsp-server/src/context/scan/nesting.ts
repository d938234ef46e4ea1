import type { NestedType } from "../types.js";

// The types around the cursor, read from the lines above it by their indentation: what a language that finds
// names by where they are used (Ruby's constant lookup, an inherited method, a C++ method defined out of its class)
// needs of the current file. The cursor's line is most often unfinished, which a parser's error recovery may read
// as closing the types around it (Ruby's `Pry::Code.` followed by `end` is a call of `end`), and the current file's
// parse covers its head only; the indentation of the lines above still says where the cursor is. Pure.

/** How a language writes the line that opens a type (or a method of one): what it declares, or undefined. */
export type TypeLine = (line: string) => NestedType | undefined;

const PATH = /(?:::)?[A-Za-z_]\w*(?:::[A-Za-z_]\w*)*/;

function segments(name: string): string[] {
  return name.split("::").filter(Boolean);
}

/** A list of types as written (`public A, private ns::B<T>`, `Foo, Bar<X>`): their names, arguments left out. */
function typeList(text: string): string[] {
  let depth = 0;
  let plain = "";
  for (const c of text) {
    if (c === "<") depth++;
    else if (c === ">") depth = Math.max(0, depth - 1);
    else if (depth === 0) plain += c;
  }
  return plain
    .split(",")
    .map((part) => part.replace(/\b(?:public|private|protected|virtual)\b/g, "").trim())
    .filter((part) => /^[A-Za-z_][\w.]*(?:::[A-Za-z_]\w*)*$/.test(part))
    .map((part) => part.replace(/^::/, ""));
}

/** Ruby's `class A::B < C::D` and `module A::B` (not `class << self`). */
export const rubyTypeLine: TypeLine = (line) => {
  const m = new RegExp(`^\\s*(?:class|module)\\s+(${PATH.source})(?:\\s*<\\s*(${PATH.source}))?`).exec(line);
  if (!m) return undefined;
  const path = segments(m[1]!);
  const base = m[2]?.replace(/^::/, "");
  return { name: path.at(-1)!, path, bases: base ? [base] : [] };
};

/**
 * C++'s `class Foo : public Base {` (an export macro before the name allowed: `class API Foo`) and, at the left
 * margin, a function defined out of its class: `void Scanner::scan(…) {`, `Node<T>::~Node()`, or a GoogleTest
 * test of a fixture (`TEST_F(ParserTest, Empty) {`, a method of a class derived from `ParserTest`).
 */
export const cppTypeLine: TypeLine = (line) => {
  const type =
    /^\s*(?:template\s*<.*>\s*)?(?:class|struct)\s+(?:[A-Z][A-Z0-9_]*\s+)?([A-Za-z_]\w*)\s*(?:final\s*)?(?::([^{;]*))?\{?\s*$/.exec(
      line,
    );
  if (type) return { name: type[1]!, path: [type[1]!], bases: type[2] ? typeList(type[2]) : [] };
  if (/^\s/.test(line) || /^(?:#|\/\/|\/\*|\*)/.test(line)) return undefined;
  // GoogleTest's `TEST_F(Fixture, Name) {` is a method of a class derived from the fixture.
  const test = /^(?:TEST_F|TEST_P|TYPED_TEST|TYPED_TEST_P)\s*\(\s*([A-Za-z_]\w*)\s*,/.exec(line);
  if (test) return { name: test[1]!, path: [test[1]!], bases: [], external: true };
  const method = /((?:[A-Za-z_]\w*(?:<[^()]*?>)?::)+)~?[A-Za-z_]\w*\s*\(/.exec(line);
  if (!method) return undefined;
  const path = segments(method[1]!.replace(/<[^()]*?>/g, ""));
  if (path.length === 0 || path[0] === "std") return undefined;
  return { name: path.at(-1)!, path, bases: [], external: true };
};

/**
 * Java's, C#'s and Kotlin's `class Foo<T> extends Base implements A, B {`, `interface I extends J`, `enum E`,
 * `record R(…)`, C#'s `class Foo : Base, IBar`, modifiers and annotations before.
 */
export const jvmTypeLine: TypeLine = (line) => {
  const m =
    /^\s*(?:(?:@\w+(?:\([^)]*\))?|public|protected|private|internal|static|final|abstract|sealed|partial|open|data|inner|strictfp|non-sealed|readonly|unsafe|new)\s+)*(?:class|interface|enum|record|struct|object)\s+([A-Za-z_]\w*)(.*)$/.exec(
      line,
    );
  if (!m) return undefined;
  let rest = m[2]!;
  // Type parameters, then a record's components, are not bases.
  if (rest.startsWith("<")) {
    let depth = 0;
    let i = 0;
    for (; i < rest.length; i++) {
      if (rest[i] === "<") depth++;
      else if (rest[i] === ">" && --depth === 0) break;
    }
    rest = rest.slice(i + 1);
  }
  rest = rest.replace(/^\s*\([^)]*\)/, "").replace(/\{.*$/, "");
  const bases: string[] = [];
  const clause = /\b(?:extends|implements)\b([^{]*?)(?=\bimplements\b|$)/g;
  for (const c of rest.matchAll(clause)) bases.push(...typeList(c[1]!));
  const colon = /^\s*:\s*(.*)$/.exec(rest);
  if (colon) bases.push(...typeList(colon[1]!.replace(/\bwhere\b.*$/, "").replace(/\([^)]*\)/g, "")));
  return { name: m[1]!, path: [m[1]!], bases };
};

/** Lines read above the cursor at most. */
const MAX_LINES = 2000;

function indentation(line: string): number {
  let i = 0;
  while (i < line.length && (line[i] === " " || line[i] === "\t")) i++;
  return i;
}

/** Whether a line is only a comment or a bracket, which says nothing of where it stands. */
function insignificant(text: string, comment: string): boolean {
  return (
    text === "" ||
    text.startsWith(comment) ||
    text.startsWith("*") ||
    text.startsWith("/*") ||
    /^[{}()\];,]+$/.test(text)
  );
}

/**
 * How a language writes a line of a type's body that adds a base (Ruby's `include Helpers::Text`): the bases it
 * names, or undefined.
 */
export type BaseLine = (line: string) => readonly string[] | undefined;

const MIXIN = new RegExp(
  `^\\s*(?:include|extend|prepend)\\s+(${PATH.source}(?:\\s*,\\s*${PATH.source})*)\\s*$`,
);

/** Ruby's `include A::B`, `extend C, D`, `prepend E` in a class or module body. */
export const rubyMixinLine: BaseLine = (line) => {
  const named = MIXIN.exec(line)?.[1];
  return (
    named
      ?.split(",")
      .map((part) => part.trim().replace(/^::/, ""))
      // `extend self` adds no other module.
      .filter((name) => /^[A-Z]/.test(name))
  );
};

/**
 * The types around the last of `lines` (the cursor's), outermost first: going up, each line less indented than
 * every line below it (blank lines, comments and lone brackets aside) that opens a type, as `typeLine` reads it.
 * Stops at the first such line at the left margin, or after {@link MAX_LINES}. With `baseLine`, the innermost
 * type's bases also hold those its body adds above the cursor, at the body's own indentation (Ruby's mixins: the
 * outline of a file being edited may lack them).
 */
export function indentedNesting(
  lines: readonly string[],
  typeLine: TypeLine,
  comment = "#",
  baseLine?: BaseLine,
): NestedType[] {
  const found: NestedType[] = [];
  let innermostAt = -1;
  let below = Number.POSITIVE_INFINITY;
  const last = lines.length - 1;
  for (let i = last; i >= 0 && last - i <= MAX_LINES; i--) {
    const line = lines[i]!;
    const text = line.trim();
    if (insignificant(text, comment)) continue;
    const indent = indentation(line);
    if (i === last) {
      below = indent;
      continue;
    }
    if (indent >= below) continue;
    below = indent;
    const type = typeLine(line);
    if (type) {
      found.unshift(type);
      if (innermostAt === -1) innermostAt = i;
    }
    if (indent === 0) break;
  }
  if (baseLine && innermostAt !== -1) {
    const added = bodyBases(lines, innermostAt, baseLine, comment);
    const innermost = found.at(-1)!;
    const bases = [...new Set([...innermost.bases, ...added])];
    if (bases.length > innermost.bases.length) found[found.length - 1] = { ...innermost, bases };
  }
  return found;
}

/** The bases a type's body adds between its opening line (`at`) and the cursor's line, at the body's indentation. */
function bodyBases(lines: readonly string[], at: number, baseLine: BaseLine, comment: string): string[] {
  let body: number | undefined;
  const bases: string[] = [];
  for (let i = at + 1; i < lines.length - 1; i++) {
    const line = lines[i]!;
    if (insignificant(line.trim(), comment)) continue;
    const indent = indentation(line);
    body ??= indent;
    if (indent !== body) continue;
    const named = baseLine(line);
    if (named) bases.push(...named);
  }
  return bases;
}
