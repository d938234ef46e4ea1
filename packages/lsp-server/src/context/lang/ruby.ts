// Ruby: outlines from tree-sitter-ruby.
import type { Node } from "web-tree-sitter";
import { rubyCandidates, rubyImplicit } from "../resolve/ruby.js";
import { rubyConstantPath } from "../scan/constant-path.js";
import { indentedNesting, rubyMixinLine, rubyTypeLine } from "../scan/nesting.js";
import { findReferences } from "../scan/references.js";
import { lastSegment, unquote } from "../syntax/nodes.js";
import { syntaxSupport } from "../syntax/support.js";
import type { LanguageSupport, ModuleImport } from "../types.js";

const QUERY = `
(call method: (identifier) @_method arguments: (argument_list . (string)) (#match? @_method "^(require|require_relative|load)$")) @import
(class name: (_) @name) @definition.class
(module name: (_) @name) @definition.module
(method name: (_) @name) @definition.function
(singleton_method name: (_) @name) @definition.function
(assignment left: (constant) @name) @definition.variable
(assignment left: (scope_resolution name: (constant) @name)) @definition.variable
(class superclass: (superclass (_) @base))
(call method: (identifier) @_mixin arguments: (argument_list (_) @base) (#match? @_mixin "^(include|extend|prepend)$"))
(assignment left: [(constant) (scope_resolution)] right: (call receiver: (_) @base method: (identifier) @_new (#eq? @_new "new")))
`;

/**
 * `require "x"` as `x`; `require_relative "x"` as `./x` (Ruby resolves it against the requiring file's directory,
 * what a `./` path means elsewhere); `load "x.rb"` as written. Only a literal string names a file.
 */
function rubyImport(node: Node): ModuleImport[] {
  const method = node.childForFieldName("method")?.text;
  const argument = node.childForFieldName("arguments")?.firstNamedChild;
  if (!method || argument?.type !== "string" || argument.namedChildCount > 1) return [];
  const value = unquote(argument.text);
  if (value === "" || value.includes("#{")) return [];
  const specifier = method === "require_relative" && !/^\.{1,2}\//.test(value) ? `./${value}` : value;
  return [{ specifier, bindings: [{ local: "*", imported: "*" }], line: node.startPosition.row }];
}

const KEYWORDS = new Set(
  (
    "BEGIN END alias and begin break case class def defined defined? do else elsif end ensure false for if in module next " +
    "nil not or redo rescue retry return self super then true undef unless until when while yield require " +
    "require_relative attr_reader attr_writer attr_accessor private protected public puts raise lambda proc new"
  ).split(" "),
);

/** Ruby: `require`/`require_relative`, classes and modules with their methods and constants; all exported. */
export const ruby: LanguageSupport = syntaxSupport({
  family: "ruby",
  candidates: rubyCandidates,
  implicit: rubyImplicit,
  nesting: (lines) => indentedNesting(lines, rubyTypeLine, "#", rubyMixinLine),
  constantPath: rubyConstantPath,
  extensions: [".rb", ".rake", ".gemspec"],
  grammar: "ruby",
  query: QUERY,
  rules: {
    exported: () => true,
    // Classes are namespaces too: `class Pry; class Indent` declares `Indent`, named so or `Pry::Indent`.
    namespaces: new Set(["module", "class"]),
    imports: rubyImport,
    // `class Foo::Bar` is `Bar`, reached through `Foo`.
    nameOf: (definition) =>
      definition.name.type === "scope_resolution" ? lastSegment(definition.name.text) : undefined,
  },
  importHint: /\b(?:require|require_relative|load)\b/,
  references: (lines, preceding) =>
    findReferences(
      lines,
      { dialect: "python", keywords: KEYWORDS, paths: true, chains: true, suffixes: "?!" },
      preceding,
    ),
});
