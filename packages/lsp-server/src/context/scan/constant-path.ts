import type { Declaration, ParsedModule } from "../types.js";
import { rubyTypeLine } from "./nesting.js";

// The full path of a constant as a Ruby file declares it: `class Pry; class Command::Cat` declares
// `Pry::Command::Cat`, `Pry::Shortcuts = …` declares `Pry::Shortcuts`. The outline lists a nested class at the
// top level by its last name (`Cat`), which is how code inside the namespace names it; Ruby's constant lookup needs
// the whole path, read here from the lines the declarations start with (their snippets keep them verbatim). Pure.

/** Kinds that open a namespace in a Ruby outline. */
const NAMESPACES: ReadonlySet<Declaration["kind"]> = new Set(["class", "module"]);

/** `Pry::Shortcuts = …`, `VERSION ||= …`: a constant assigned, with the path it is written with. */
const CONSTANT_LINE = /^\s*((?:::)?[A-Z]\w*(?:::[A-Z]\w*)*)\s*(?:\|\||&&)?=(?!=)/;

/** The line holding a declaration's name, from its snippet; undefined when the snippet does not keep it. */
function nameLineOf(declaration: Declaration): string | undefined {
  return declaration.snippet.split("\n")[declaration.nameLine - declaration.startLine];
}

/** The segments a declaration's own line writes: `["Command", "Cat"]` for `class Command::Cat < Base`. */
function writtenPath(declaration: Declaration): string[] {
  const line = nameLineOf(declaration);
  const segments =
    line === undefined
      ? undefined
      : NAMESPACES.has(declaration.kind)
        ? rubyTypeLine(line)?.path
        : CONSTANT_LINE.exec(line)?.[1]?.split("::").filter(Boolean);
  // A line that does not read as expected (a heredoc, a generated name): the name alone.
  return segments && segments.at(-1) === declaration.name ? [...segments] : [declaration.name];
}

/**
 * The full constant path of a top-level declaration of a Ruby module (or a member of one: `container`), outermost
 * first: the paths written by the classes and modules whose lines hold it, then its own. A path written from the
 * root (`class ::Foo`) is the root's: the namespaces around it do not count.
 */
export function rubyConstantPath(
  module: ParsedModule,
  declaration: Declaration,
  container?: Declaration,
): string[] {
  const own = container ? [...rubyConstantPath(module, container), declaration.name] : undefined;
  if (own) return own;
  const line = nameLineOf(declaration);
  if (line !== undefined && /^\s*(?:class|module)\s+::|^\s*::/.test(line)) return writtenPath(declaration);
  const around = module.outline.declarations
    .filter(
      (d) =>
        d !== declaration &&
        NAMESPACES.has(d.kind) &&
        d.startLine <= declaration.startLine &&
        declaration.endLine <= d.endLine &&
        (d.startLine < declaration.startLine || d.endLine > declaration.endLine),
    )
    .sort((a, b) => a.startLine - b.startLine || b.endLine - a.endLine);
  return [...around.flatMap(writtenPath), ...writtenPath(declaration)];
}
