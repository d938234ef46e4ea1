// C and C++: outlines from tree-sitter-c and tree-sitter-cpp.
import type { Node } from "web-tree-sitter";
import { cFamilyCandidates } from "../resolve/c-family.js";
import { cppTypeLine, indentedNesting } from "../scan/nesting.js";
import { findReferences } from "../scan/references.js";
import { hasWord, unquote, wordsBeforeName } from "../syntax/nodes.js";
import type { Definition, SyntaxRules } from "../syntax/outline.js";
import { lastRow } from "../syntax/outline.js";
import { syntaxSupport } from "../syntax/support.js";
import type { DeclarationKind, LanguageSupport, ModuleImport } from "../types.js";

const C_QUERY = `
(preproc_include path: (_)) @import
(function_definition declarator: (_) @declarator) @definition.function
(declaration declarator: (_) @declarator) @definition.variable
(field_declaration declarator: (_) @declarator) @definition.field
(type_definition declarator: (_) @declarator) @definition.type
(struct_specifier name: (_) @name body: (_)) @definition.struct
(union_specifier name: (_) @name body: (_)) @definition.struct
(enum_specifier name: (_) @name body: (_)) @definition.enum
(enumerator name: (_) @name) @definition.field
(preproc_function_def name: (_) @name) @definition.function
(preproc_def name: (_) @name value: (_)) @definition.variable
`;

// A class behind an export macro (`class API Foo {`, `class API Foo : public Base {`) is read by the grammar as a
// function `Foo` returning `class API`, the base (or the name) in an error node: the patterns below read it.
const CPP_QUERY = `${C_QUERY}
(class_specifier name: (_) @name body: (_)) @definition.class
(alias_declaration name: (_) @name) @definition.type
(concept_definition name: (_) @name) @definition.type
(function_definition type: (class_specifier name: (_) !body) . declarator: (identifier) @name body: (_)) @definition.class
(function_definition type: (struct_specifier name: (_) !body) . declarator: (identifier) @name body: (_)) @definition.struct
(function_definition type: (class_specifier name: (_) !body) . (ERROR (identifier) @name) . declarator: (identifier) @base body: (_)) @definition.class
(function_definition type: (struct_specifier name: (_) !body) . (ERROR (identifier) @name) . declarator: (identifier) @base body: (_)) @definition.struct
(function_definition type: [(class_specifier !body) (struct_specifier !body)] . declarator: (identifier) . (ERROR (identifier) @base))
(base_class_clause [(type_identifier) (qualified_identifier)] @base)
(base_class_clause (template_type name: (_) @base))
`;

/** Declarators that wrap the name (`*p`, `a[3]`, `x = 1`, `&r`): their `declarator` field leads to it. */
const WRAPPERS = new Set([
  "pointer_declarator",
  "reference_declarator",
  "array_declarator",
  "init_declarator",
  "attributed_declarator",
]);

/**
 * The name inside a declarator, and whether it declares a function: `f(…)` and `*f(…)` do, `(*f)(…)` (a pointer to
 * a function) does not.
 */
function declaratorName(declarator: Node): { name: Node; isFunction: boolean } | undefined {
  let node: Node | null = declarator;
  let isFunction = false;
  for (let depth = 0; node && depth < 16; depth++) {
    if (WRAPPERS.has(node.type)) node = node.childForFieldName("declarator") ?? node.namedChild(0);
    else if (node.type === "function_declarator") {
      const inner: Node | null = node.childForFieldName("declarator");
      if (inner?.type !== "parenthesized_declarator") isFunction = true;
      node = inner;
    } else if (node.type === "parenthesized_declarator") node = node.namedChild(0);
    else if (node.type === "qualified_identifier" || node.type === "template_function") {
      // `Foo::bar`, `swap<T>`: named by their last part.
      const name: Node | null = node.childForFieldName("name");
      if (!name) return undefined;
      if (name.type === "qualified_identifier" || name.type === "template_function") node = name;
      else return { name, isFunction };
    } else return { name: node, isFunction };
  }
  return undefined;
}

function declarator(declaration: Node, inner: Node, kind: DeclarationKind): Definition | undefined {
  const found = declaratorName(inner);
  if (!found) return undefined;
  const { name, isFunction } = found;
  if (kind === "function" && !isFunction) return undefined;
  return { node: declaration, name, kind: isFunction ? "function" : kind };
}

type Access = "public" | "private" | "protected";

/** The access labels of each container (`public:` at an offset), read once per container and outline. */
const labelsOf = new WeakMap<Definition, Array<{ readonly at: number; readonly access: Access }>>();

/**
 * A C++ member's access: the last `public:`/`private:`/`protected:` label before it, or the container's default.
 * A class behind an export macro (`class API Foo {…}`), which the grammar reads as a function `Foo` returning
 * `class API`, has its labels as labelled statements of the function's body.
 */
function accessOf(member: Node, container: Definition): Access {
  // A template's class is its last child.
  const kindNode =
    container.node.type === "template_declaration" ? container.node.lastNamedChild : container.node;
  let labels = labelsOf.get(container);
  if (!labels) {
    labels = [];
    for (const child of kindNode?.childForFieldName("body")?.namedChildren ?? []) {
      let word: string | undefined;
      if (child?.type === "access_specifier") word = child.text.replace(/:$/, "").trim();
      else if (child?.type === "labeled_statement") word = child.childForFieldName("label")?.text;
      if (child && (word === "public" || word === "private" || word === "protected"))
        labels.push({ at: child.startIndex, access: word });
    }
    labelsOf.set(container, labels);
  }
  const classNode = kindNode?.type === "function_definition" ? kindNode.childForFieldName("type") : kindNode;
  let access: Access = classNode?.type === "class_specifier" ? "private" : "public";
  for (const label of labels) if (label.at < member.startIndex) access = label.access;
  return access;
}

/** C's rules; `static` keeps a declaration in its file. */
const RULES_C: SyntaxRules = {
  declarator,
  exported: (definition, container) =>
    container !== undefined || !hasWord(wordsBeforeName(definition), "static"),
  imports: (node) => {
    const path = node.childForFieldName("path");
    if (!path) return [];
    // `#include "a/b.h"` names `a/b.h`; `<a/b.h>` keeps its brackets (see `ModuleImport`).
    const specifier = path.type === "string_literal" ? unquote(path.text) : path.text;
    if (specifier === "") return [];
    const statement: ModuleImport = {
      specifier,
      bindings: [{ local: "*", imported: "*" }],
      line: node.startPosition.row,
    };
    return [statement];
  },
};

/** C++'s: C's, members by access, templates with their header, out-of-class definitions named as written. */
const RULES_CPP: SyntaxRules = {
  ...RULES_C,
  // A C++ class's members are private unless a label says otherwise; a struct's are public.
  exported: (definition, container) =>
    container ? accessOf(definition.node, container) === "public" : RULES_C.exported(definition, container),
  outer: (node) => (node.parent?.type === "template_declaration" ? node.parent : node),
  nameOf: (definition) => {
    // An out-of-class definition (`int Foo::run() {…}`) is named as written: it is found through its class.
    if (definition.node.type !== "function_definition" && definition.node.type !== "template_declaration")
      return undefined;
    const qualified = definition.name.parent;
    return qualified?.type === "qualified_identifier" &&
      lastRow(qualified) === definition.name.startPosition.row
      ? qualified.text.replace(/\s+/g, "")
      : undefined;
  },
};

const C_KEYWORDS =
  "auto break case char const continue default do double else enum extern float for goto if inline int long " +
  "register restrict return short signed sizeof static struct switch typedef union unsigned void volatile while " +
  "_Bool _Complex _Alignas _Alignof _Atomic _Generic _Noreturn _Static_assert _Thread_local bool true false NULL " +
  "nullptr size_t int8_t int16_t int32_t int64_t uint8_t uint16_t uint32_t uint64_t defined include define";
const CPP_KEYWORDS =
  `${C_KEYWORDS} alignas alignof and asm catch class co_await co_return co_yield concept consteval constexpr ` +
  "constinit const_cast decltype delete dynamic_cast explicit export friend mutable namespace new noexcept not " +
  "operator or override final private protected public reinterpret_cast requires static_assert static_cast " +
  "template this thread_local throw try typeid typename using virtual std";

const cKeywords = new Set(C_KEYWORDS.split(" "));
const cppKeywords = new Set(CPP_KEYWORDS.split(" "));

/** C: `#include` as written (`"foo.h"`, `<foo.h>`), functions and prototypes, structs, enums, typedefs, macros. */
export const c: LanguageSupport = syntaxSupport({
  family: "c",
  candidates: cFamilyCandidates,
  extensions: [".c"],
  grammar: "c",
  query: C_QUERY,
  rules: RULES_C,
  importHint: /#\s*include\b/,
  references: (lines, preceding) =>
    findReferences(lines, { dialect: "c", keywords: cKeywords, arrows: true }, preceding),
});

/** C++: C's, and classes with their members by access, namespaces (transparent), templates, aliases. */
export const cpp: LanguageSupport = syntaxSupport({
  family: "cpp",
  candidates: cFamilyCandidates,
  extensions: [".cpp", ".cc", ".cxx", ".c++", ".hpp", ".hh", ".hxx", ".h++", ".ipp", ".tpp", ".h"],
  grammar: "cpp",
  query: CPP_QUERY,
  rules: RULES_CPP,
  importHint: /#\s*include\b|\bimport\b/,
  // The class of a method defined out of it (`void Scanner::scan() {`), a class's bases.
  nesting: (lines) => indentedNesting(lines, cppTypeLine, "//"),
  references: (lines, preceding) =>
    findReferences(lines, { dialect: "c", keywords: cppKeywords, paths: true, arrows: true }, preceding),
});
