// Zig: outlines from tree-sitter-zig.
import type { Node } from "web-tree-sitter";
import { zigCandidates } from "../resolve/zig.js";
import { findReferences } from "../scan/references.js";
import { unquote } from "../syntax/nodes.js";
import { syntaxSupport } from "../syntax/support.js";
import type { LanguageSupport, ModuleImport } from "../types.js";

const QUERY = `
(variable_declaration (identifier) (builtin_function (builtin_identifier) @_import (#eq? @_import "@import"))) @import
(variable_declaration (identifier) @name (struct_declaration)) @definition.struct
(variable_declaration (identifier) @name (union_declaration)) @definition.struct
(variable_declaration (identifier) @name (enum_declaration)) @definition.enum
(variable_declaration (identifier) @name (opaque_declaration)) @definition.type
(variable_declaration (identifier) @name) @definition.variable
(function_declaration name: (_) @name) @definition.function
(container_field name: (_) @name) @definition.field
`;

const CONTAINERS = /^(struct|union|enum|opaque)_declaration$/;

/** The `@import("…")` a declaration's value is, if it is one. */
function importCall(node: Node): Node | undefined {
  const call = node.namedChildren.find((n) => n?.type === "builtin_function");
  return call?.firstNamedChild?.text === "@import" ? call : undefined;
}

/** `const std = @import("std");`: the path as written, bound to the constant's name. */
function zigImports(node: Node): ModuleImport[] {
  const name = node.namedChildren.find((n) => n?.type === "identifier")?.text;
  const argument =
    importCall(node)?.childForFieldName("arguments")?.firstNamedChild ??
    importCall(node)?.namedChildren.find((n) => n?.type === "arguments")?.firstNamedChild;
  if (!name || !argument) return [];
  return [
    {
      specifier: unquote(argument.text),
      bindings: [{ local: name, imported: "*" }],
      line: node.startPosition.row,
    },
  ];
}

const KEYWORDS = new Set(
  (
    "addrspace align allowzero and anyframe anytype asm async await break callconv catch comptime const continue " +
    "defer else enum errdefer error export extern fn for if inline linksection noalias noinline nosuspend opaque " +
    "or orelse packed pub resume return struct suspend switch test threadlocal try union unreachable usingnamespace " +
    "var volatile while true false null undefined void bool u8 u16 u32 u64 usize i8 i16 i32 i64 isize f32 f64 type " +
    "anyerror self"
  ).split(" "),
);

/** Zig: `@import`s, functions, `const` containers (structs, enums, unions) with their fields and functions. */
export const zig: LanguageSupport = syntaxSupport({
  family: "zig",
  candidates: zigCandidates,
  extensions: [".zig"],
  grammar: "zig",
  query: QUERY,
  rules: {
    // `pub` makes a declaration visible to importers; a container's fields are always reachable.
    exported: (definition, container) => (container ? true : definition.node.firstChild?.type === "pub"),
    imports: zigImports,
    kindOf: (definition) =>
      definition.node.type === "variable_declaration" && importCall(definition.node) ? null : undefined,
    body: (node) => node.namedChildren.find((n) => n !== null && CONTAINERS.test(n.type)) ?? undefined,
  },
  importHint: /@import\b/,
  references: (lines, preceding) => findReferences(lines, { dialect: "c", keywords: KEYWORDS }, preceding),
});
