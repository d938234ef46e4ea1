// Where a name is in one parsed module's outline: the types around a line, declarations by name. Pure.
import type { Declaration, ParsedModule } from "../types.js";

/** Kinds of declarations that hold other types (Ruby's nested classes and modules, a C# namespace's classes). */
const NAMESPACE_KINDS: ReadonlySet<Declaration["kind"]> = new Set([
  "class",
  "module",
  "struct",
  "interface",
  "trait",
  "enum",
]);

/**
 * The top-level types of a file whose lines hold `line`, outermost first: the lexical nesting of a use where the
 * language lists nested types at the top level (Ruby's `class Pry; class Code`: `["Pry", "Code"]`).
 */
export function nestingAt(module: ParsedModule, line: number | undefined): string[] {
  if (line === undefined) return [];
  return module.outline.declarations
    .filter((d) => NAMESPACE_KINDS.has(d.kind) && d.startLine <= line && line <= d.endLine)
    .sort((a, b) => a.startLine - b.startLine || b.endLine - a.endLine)
    .map((d) => d.name);
}

/** The innermost top-level type of a file whose lines hold `line`. */
export function enclosingType(module: ParsedModule, line: number | undefined): Declaration | undefined {
  if (line === undefined) return undefined;
  let found: Declaration | undefined;
  for (const d of module.outline.declarations) {
    if (!NAMESPACE_KINDS.has(d.kind) || d.startLine > line || line > d.endLine) continue;
    if (!found || d.startLine >= found.startLine) found = d;
  }
  return found;
}

/** The innermost top-level declaration of a file whose lines hold `line`, whatever its kind. */
export function innermostAt(module: ParsedModule, line: number | undefined): Declaration | undefined {
  if (line === undefined) return undefined;
  let found: Declaration | undefined;
  for (const d of module.outline.declarations) {
    if (d.startLine > line || line > d.endLine) continue;
    if (!found || d.startLine >= found.startLine) found = d;
  }
  return found;
}

/** Whether a name is written like a type or a constant (upper case first): where a qualified path may lead. */
export function typeLike(name: string): boolean {
  return /^\p{Lu}/u.test(name);
}

/** Declarations by name, per parsed module: built once for each module the host keeps. */
const indexes = new WeakMap<ParsedModule, Map<string, Declaration[]>>();

/** The declarations of a module with this name, if any. */
export function declarationsNamed(module: ParsedModule, name: string): Declaration[] | undefined {
  let index = indexes.get(module);
  if (!index) {
    index = new Map();
    for (const d of module.outline.declarations) {
      const list = index.get(d.name);
      if (list) list.push(d);
      else index.set(d.name, [d]);
    }
    indexes.set(module, index);
  }
  return index.get(name);
}

/** Whether a container's snippet shows a member (its name line), so that the member need not come on its own. */
export function shows(container: Declaration, member: Declaration): boolean {
  const lines = member.snippet.split("\n");
  const at = lines[member.nameLine - member.startLine];
  const line = at?.includes(member.name) ? at : lines.find((l) => l.includes(member.name));
  return line !== undefined && container.snippet.includes(line);
}
