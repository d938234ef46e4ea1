// Elixir: outlines from tree-sitter-elixir, where every definition is a call (`defmodule`, `def`, `defp`).
import type { Node } from "web-tree-sitter";
import { elixirCandidates } from "../resolve/elixir.js";
import { findReferences } from "../scan/references.js";
import { lastSegment } from "../syntax/nodes.js";
import { syntaxSupport } from "../syntax/support.js";
import type { LanguageSupport, ModuleImport } from "../types.js";

const QUERY = `
(call target: (identifier) @_directive (#any-of? @_directive "alias" "import" "require" "use")) @import
(call target: (identifier) @_def (#any-of? @_def "defmodule" "defprotocol") (arguments (alias) @name)) @definition.module
(call target: (identifier) @_def (#any-of? @_def "def" "defp" "defmacro" "defmacrop" "defguard" "defguardp" "defdelegate")
  (arguments [(call target: (identifier) @name) (identifier) @name (binary_operator left: (call target: (identifier) @name))])) @definition.function
`;

/**
 * `alias A.B` (binds `B`), `alias A.B, as: C`, `require A.B` (binds `B`), `import A.B` and `use A.B` (every name),
 * `alias A.{B, C}` (one import each): the module as written.
 */
function elixirImports(node: Node): ModuleImport[] {
  const directive = node.childForFieldName("target")?.text;
  const args = node.namedChildren.find((n) => n?.type === "arguments");
  const first = args?.firstNamedChild;
  if (!directive || !first) return [];
  const line = node.startPosition.row;
  const text = first.text;
  const group = /^([\p{L}\p{N}_.]+)\.\{([^}]*)\}$/u.exec(text);
  const modules = group
    ? group[2]!.split(",").map((m) => `${group[1]}.${m.trim()}`)
    : /^[\p{Lu}][\p{L}\p{N}_.]*$/u.test(text)
      ? [text]
      : [];
  const as = /as:\s*([\p{Lu}][\p{L}\p{N}_]*)/u.exec(args.text)?.[1];
  return modules.map((specifier) => ({
    specifier,
    bindings:
      directive === "import" || directive === "use"
        ? [{ local: "*", imported: "*" }]
        : [{ local: as ?? lastSegment(specifier), imported: "*" }],
    line,
  }));
}

const KEYWORDS = new Set(
  (
    "after alias and case catch cond def defdelegate defexception defguard defguardp defimpl defmacro defmacrop " +
    "defmodule defoverridable defp defprotocol defstruct do else end false fn for if import in nil not or quote " +
    "raise receive require rescue true try unless unquote use when with __MODULE__ self"
  ).split(" "),
);

/** Elixir: `alias`/`import`/`require`/`use`, modules with their public functions and macros (`defp` hidden). */
export const elixir: LanguageSupport = syntaxSupport({
  family: "elixir",
  candidates: elixirCandidates,
  extensions: [".ex", ".exs"],
  grammar: "elixir",
  query: QUERY,
  rules: {
    exported: (definition) =>
      !/^def(p|macrop|guardp)$/.test(definition.node.childForFieldName("target")?.text ?? ""),
    imports: elixirImports,
    // `defmodule Shop.Cart` is reached as `Cart` once aliased (`Cart.total(…)`).
    nameOf: (definition) => (definition.kind === "module" ? lastSegment(definition.name.text) : undefined),
    isDoc: (node) =>
      node.type === "unary_operator" && /^@(doc|moduledoc|spec|typedoc|impl)\b/.test(node.text),
  },
  importHint: /\b(?:alias|import|require|use)\b/,
  references: (lines, preceding) =>
    findReferences(lines, { dialect: "python", keywords: KEYWORDS }, preceding),
});
