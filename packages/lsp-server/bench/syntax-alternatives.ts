// Tree-sitter replacements of the five hand-written parsers (TypeScript/JavaScript, Python, Go, Rust, Lua), for
// bench/parsers.ts to measure side by side with them. They live here, not in src/, because the hand-written parsers
// measured better and stay (see the package README); these are kept so that the comparison can be run again.
import type { Node } from "web-tree-sitter";
import { go } from "../src/context/lang/go.js";
import { lua } from "../src/context/lang/lua.js";
import { python } from "../src/context/lang/python.js";
import { rust } from "../src/context/lang/rust.js";
import { typescript } from "../src/context/lang/typescript.js";
import { hasWord, lastSegment, unquote, wordsBeforeName } from "../src/context/syntax/nodes.js";
import type { ModuleExports } from "../src/context/syntax/outline.js";
import { syntaxSupport } from "../src/context/syntax/support.js";
import type { ImportBinding, LanguageSupport, ModuleImport, ReExport } from "../src/context/types.js";

const TS_QUERY = `
(import_statement source: (string)) @import
(export_statement) @export
(function_declaration name: (_) @name) @definition.function
(generator_function_declaration name: (_) @name) @definition.function
(function_signature name: (_) @name) @definition.function
(class_declaration name: (_) @name) @definition.class
(abstract_class_declaration name: (_) @name) @definition.class
(interface_declaration name: (_) @name) @definition.interface
(type_alias_declaration name: (_) @name) @definition.type
(enum_declaration name: (_) @name) @definition.enum
(internal_module name: (_) @name) @definition.module
(lexical_declaration (variable_declarator name: (identifier) @name)) @definition.variable
(variable_declaration (variable_declarator name: (identifier) @name)) @definition.variable
(method_definition name: (_) @name) @definition.method
(public_field_definition name: (_) @name) @definition.field
(method_signature name: (_) @name) @definition.method
(property_signature name: (_) @name) @definition.field
(enum_assignment name: (_) @name) @definition.field
(enum_body (property_identifier) @name @definition.field)
`;

function tsImports(node: Node): ModuleImport[] {
  const source = node.childForFieldName("source");
  if (!source) return [];
  const bindings: ImportBinding[] = [];
  const clause = node.namedChildren.find((n) => n?.type === "import_clause");
  for (const part of clause?.namedChildren ?? []) {
    if (!part) continue;
    if (part.type === "identifier") bindings.push({ local: part.text, imported: "default" });
    else if (part.type === "namespace_import")
      bindings.push({ local: part.lastNamedChild?.text ?? "*", imported: "*" });
    else if (part.type === "named_imports")
      for (const spec of part.namedChildren) {
        const name = spec?.childForFieldName("name")?.text;
        if (name) bindings.push({ local: spec?.childForFieldName("alias")?.text ?? name, imported: name });
      }
  }
  return [{ specifier: unquote(source.text), bindings, line: node.startPosition.row }];
}

/** `export * from`, `export * as ns from`, `export { a as b } from`, `export { a as b }`, `export default x`. */
function tsExports(node: Node): ModuleExports {
  const source = node.childForFieldName("source");
  const clause = node.namedChildren.find((n) => n?.type === "export_clause");
  const pairs = (clause?.namedChildren ?? []).flatMap((spec) => {
    const name = spec?.childForFieldName("name")?.text;
    return name ? [{ name, alias: spec?.childForFieldName("alias")?.text ?? name }] : [];
  });
  if (source) {
    const specifier = unquote(source.text);
    const ns = node.namedChildren.find((n) => n?.type === "namespace_export")?.firstNamedChild?.text;
    const names: ReExport["names"] = clause
      ? pairs.map(({ name, alias }) => ({ exported: alias, imported: name }))
      : ns === undefined
        ? "*"
        : [{ exported: ns, imported: "*" }];
    return { reexports: [{ specifier, names }] };
  }
  if (clause) {
    const defaultExport = pairs.find((p) => p.alias === "default")?.name;
    const localExports = pairs
      .filter((p) => p.alias !== "default")
      .map(({ name, alias }) => ({ exported: alias, local: name }));
    return defaultExport === undefined ? { localExports } : { localExports, defaultExport };
  }
  if (node.children.some((child) => child?.type === "default")) {
    const value = node.childForFieldName("value");
    const declared = node.childForFieldName("declaration")?.childForFieldName("name");
    const name = value?.type === "identifier" ? value.text : declared?.text;
    return name === undefined ? {} : { defaultExport: name };
  }
  return {};
}

const tsRules = {
  outer: (node: Node) => (node.parent?.type === "export_statement" ? node.parent : node),
  exported: (definition: { node: Node; name: Node }, container: unknown) =>
    container
      ? !hasWord(wordsBeforeName(definition), "private")
      : definition.node.type === "export_statement",
  imports: tsImports,
  exports: tsExports,
};

const PY_QUERY = `
(import_statement) @import
(import_from_statement) @import
(function_definition name: (_) @name) @definition.function
(class_definition name: (_) @name) @definition.class
(module (expression_statement (assignment left: (identifier) @name)) @definition.variable)
`;

function pyImports(node: Node): ModuleImport[] {
  const text = node.text.replace(/\\\n|[()]/g, " ").replace(/#.*$/gm, "");
  const line = node.startPosition.row;
  const from = /^from\s+(\S+)\s+import\s+([\s\S]+)$/.exec(text.trim());
  const pairs = (list: string) =>
    list
      .split(",")
      .map((p) => p.trim().split(/\s+as\s+/))
      .filter(([name]) => name);
  if (from) {
    const bindings = pairs(from[2]!).map(([name, alias]) =>
      name === "*" ? { local: "*", imported: "*" } : { local: alias ?? name!, imported: name! },
    );
    return [{ specifier: from[1]!, bindings, line }];
  }
  return pairs(text.replace(/^import\s+/, "")).map(([name, alias]) => ({
    specifier: name!,
    bindings: [{ local: alias ?? name!, imported: "*" }],
    line,
  }));
}

const GO_QUERY = `
(import_spec) @import
(function_declaration name: (_) @name) @definition.function
(method_declaration name: (_) @name) @definition.method
(type_spec name: (_) @name) @definition.type
(type_spec name: (_) @name type: (struct_type)) @definition.struct
(type_spec name: (_) @name type: (interface_type)) @definition.interface
(type_alias name: (_) @name) @definition.type
(const_spec name: (_) @name) @definition.variable
(var_spec name: (_) @name) @definition.variable
(field_declaration name: (_) @name) @definition.field
(method_elem name: (_) @name) @definition.method
`;

function goImports(node: Node): ModuleImport[] {
  const path = node.childForFieldName("path");
  if (!path) return [];
  const specifier = unquote(path.text);
  const alias = node.childForFieldName("name")?.text;
  const local =
    alias ??
    lastSegment(specifier.replace(/\/v\d+$/, ""))
      .replace(/^go-/, "")
      .replace(/[.-].*$/, "");
  const bindings =
    alias === "_" ? [] : alias === "." ? [{ local: "*", imported: "*" }] : [{ local, imported: "*" }];
  return [{ specifier, bindings, line: node.startPosition.row }];
}

const RUST_QUERY = `
(use_declaration) @import
(function_item name: (_) @name) @definition.function
(function_signature_item name: (_) @name) @definition.function
(struct_item name: (_) @name) @definition.struct
(union_item name: (_) @name) @definition.struct
(enum_item name: (_) @name) @definition.enum
(trait_item name: (_) @name) @definition.trait
(type_item name: (_) @name) @definition.type
(mod_item name: (_) @name) @definition.module
(const_item name: (_) @name) @definition.variable
(static_item name: (_) @name) @definition.variable
(macro_definition name: (_) @name) @definition.function
(field_declaration name: (_) @name) @definition.field
(enum_variant name: (_) @name) @definition.field
`;

function rustImports(node: Node): ModuleImport[] {
  const text = node.text
    .replace(/^pub(\([^)]*\))?\s+/, "")
    .replace(/^use\s+/, "")
    .replace(/;\s*$/, "");
  const group = /^(.*?)::\{([\s\S]*)\}$/.exec(text);
  const line = node.startPosition.row;
  if (!group) {
    const [path, alias] = text.split(/\s+as\s+/);
    const last = lastSegment(path!);
    return [
      { specifier: path!, bindings: [{ local: alias ?? last, imported: last === "*" ? "*" : last }], line },
    ];
  }
  const bindings = group[2]!
    .split(",")
    .map((p) => p.trim().split(/\s+as\s+/))
    .filter(([name]) => name && !name.includes("{"))
    .map(([name, alias]) => ({ local: alias ?? name!, imported: name! }));
  return [{ specifier: group[1]!, bindings, line }];
}

const LUA_QUERY = `
(function_call name: (identifier) @_require arguments: (arguments . (string)) (#eq? @_require "require")) @import
(function_declaration name: (_) @name) @definition.function
(chunk (variable_declaration (assignment_statement (variable_list name: (identifier) @name))) @definition.variable)
(chunk (assignment_statement (variable_list name: (_) @name)) @definition.variable)
`;

function luaImports(node: Node): ModuleImport[] {
  const argument = node.childForFieldName("arguments")?.firstNamedChild;
  if (!argument) return [];
  const statement = node.parent?.parent?.parent;
  const local =
    statement?.type === "variable_declaration"
      ? statement.descendantsOfType("identifier")[0]?.text
      : undefined;
  const bindings = local ? [{ local, imported: "*" }] : [];
  return [{ specifier: unquote(argument.text), bindings, line: node.startPosition.row }];
}

/** The hand-written parser of each of the five, next to its tree-sitter replacement. */
export const ALTERNATIVES: ReadonlyArray<{
  readonly name: string;
  readonly handWritten: LanguageSupport;
  readonly treeSitter: LanguageSupport;
  /** The tree-sitter replacement for a file, when it depends on the extension (TSX). */
  readonly forFile?: (file: string) => LanguageSupport;
}> = (() => {
  const ts = syntaxSupport({
    family: "typescript",
    extensions: typescript.extensions,
    grammar: "typescript",
    query: TS_QUERY,
    rules: tsRules,
    references: typescript.references,
    candidates: typescript.candidates,
  });
  const tsx = syntaxSupport({
    family: "typescript",
    extensions: typescript.extensions,
    grammar: "tsx",
    query: TS_QUERY,
    rules: tsRules,
    references: typescript.references,
    candidates: typescript.candidates,
  });
  return [
    {
      name: "TypeScript/JavaScript",
      handWritten: typescript,
      treeSitter: ts,
      forFile: (file) => (/\.[jt]sx$|\.m?js$/.test(file) ? tsx : ts),
    },
    {
      name: "Python",
      handWritten: python,
      treeSitter: syntaxSupport({
        family: "python",
        extensions: python.extensions,
        grammar: "python",
        query: PY_QUERY,
        rules: {
          outer: (node) => (node.parent?.type === "decorated_definition" ? node.parent : node),
          exported: (definition) => !definition.name.text.startsWith("_"),
          imports: pyImports,
        },
        references: python.references,
        candidates: python.candidates,
        submodule: python.submodule,
      }),
    },
    {
      name: "Go",
      handWritten: go,
      treeSitter: syntaxSupport({
        family: "go",
        extensions: go.extensions,
        grammar: "go",
        query: GO_QUERY,
        rules: { exported: (definition) => /^\p{Lu}/u.test(definition.name.text), imports: goImports },
        references: go.references,
        candidates: go.candidates,
      }),
    },
    {
      name: "Rust",
      handWritten: rust,
      treeSitter: syntaxSupport({
        family: "rust",
        extensions: rust.extensions,
        grammar: "rust",
        query: RUST_QUERY,
        rules: {
          exported: (definition) =>
            definition.node.namedChildren.some((n) => n?.type === "visibility_modifier"),
          imports: rustImports,
        },
        references: rust.references,
        candidates: rust.candidates,
        submodule: rust.submodule,
      }),
    },
    {
      name: "Lua",
      handWritten: lua,
      treeSitter: syntaxSupport({
        family: "lua",
        extensions: lua.extensions,
        grammar: "lua",
        query: LUA_QUERY,
        rules: { exported: () => true, imports: luaImports },
        references: lua.references,
        candidates: lua.candidates,
      }),
    },
  ];
})();
