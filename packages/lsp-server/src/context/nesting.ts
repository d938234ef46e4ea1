// The types around the cursor, read from the lines above it by their indentation: what a language that finds
// names by where they are used (Ruby's constant lookup, an inherited method) needs of the current file. The
// cursor's line is most often unfinished, which a parser's error recovery may read as closing the types around it
// (`Pry::Code.` followed by `end` is a call of `end`); the indentation of the lines above still says where it is.
// Pure.

/** A type declaration around a line, as its line reads: `class Edit < Pry::ClassCommand`. */
export interface NestedType {
  /** The last segment of its name. */
  readonly name: string;
  /** The segments of its name as written: `["Foo", "Bar"]` for `class Foo::Bar` (a namespace path). */
  readonly path: readonly string[];
  /** Its superclass as written (`Pry::ClassCommand`), when its line names one. */
  readonly bases: readonly string[];
}

/** How a language writes the line that opens a type: group 1 the name, group 2 its superclass (both optional). */
export type TypeLine = RegExp;

/** Ruby's `class A::B < C::D` and `module A::B` (not `class << self`). */
export const RUBY_TYPE_LINE: TypeLine =
  /^\s*(?:class|module)\s+((?:::)?[A-Z]\w*(?:::[A-Z]\w*)*)(?:\s*<\s*((?:::)?[A-Z]\w*(?:::[A-Z]\w*)*))?/;

/** Lines read above the cursor at most. */
const MAX_LINES = 2000;

function indentation(line: string): number {
  let i = 0;
  while (i < line.length && (line[i] === " " || line[i] === "\t")) i++;
  return i;
}

function segments(name: string): string[] {
  return name.split("::").filter(Boolean);
}

/**
 * The types around the last of `lines` (the cursor's), outermost first: going up, each line less indented than
 * every line below it (blank lines and comments aside) that opens a type. Stops at the first line at the left
 * margin, or after {@link MAX_LINES}.
 */
export function indentedNesting(lines: readonly string[], typeLine: TypeLine, comment = "#"): NestedType[] {
  const found: NestedType[] = [];
  let below = Number.POSITIVE_INFINITY;
  const last = lines.length - 1;
  for (let i = last; i >= 0 && last - i <= MAX_LINES; i--) {
    const line = lines[i]!;
    const text = line.trim();
    if (text === "" || text.startsWith(comment)) continue;
    const indent = indentation(line);
    if (i === last) {
      below = indent;
      continue;
    }
    if (indent >= below) continue;
    below = indent;
    const m = typeLine.exec(line);
    if (m) {
      const path = segments(m[1]!);
      const base = m[2]?.replace(/^::/, "");
      found.unshift({ name: path.at(-1)!, path, bases: base ? [base] : [] });
    }
    if (indent === 0) break;
  }
  return found;
}
