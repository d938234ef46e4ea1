// C#: outlines from tree-sitter-c-sharp.

import { csharpCandidates, csharpImplicit } from "../resolve/csharp.js";
import { indentedNesting, jvmTypeLine } from "../scan/nesting.js";
import { findReferences } from "../scan/references.js";
import { hasWord, wordsBeforeName } from "../syntax/nodes.js";
import { syntaxSupport } from "../syntax/support.js";
import type { LanguageSupport } from "../types.js";

const QUERY = `
(using_directive) @import
(namespace_declaration name: (_) @package)
(file_scoped_namespace_declaration name: (_) @package)
(base_list [(identifier) (qualified_name)] @base)
(base_list (generic_name (identifier) @base))
(class_declaration name: (_) @name) @definition.class
(struct_declaration name: (_) @name) @definition.struct
(record_declaration name: (_) @name) @definition.class
(interface_declaration name: (_) @name) @definition.interface
(enum_declaration name: (_) @name) @definition.enum
(delegate_declaration name: (_) @name) @definition.type
(method_declaration name: (_) @name) @definition.method
(constructor_declaration name: (_) @name) @definition.method
(property_declaration name: (_) @name) @definition.field
(event_declaration name: (_) @name) @definition.field
(field_declaration (variable_declaration (variable_declarator name: (_) @name))) @definition.field
(event_field_declaration (variable_declaration (variable_declarator name: (_) @name))) @definition.field
(enum_member_declaration name: (_) @name) @definition.field
`;

const KEYWORDS = new Set(
  (
    "abstract as base bool break byte case catch char checked class const continue decimal default delegate do " +
    "double else enum event explicit extern false finally fixed float for foreach goto if implicit in int interface " +
    "internal is lock long namespace new null object operator out override params private protected public " +
    "readonly ref return sbyte sealed short sizeof stackalloc static string struct switch this throw true try " +
    "typeof uint ulong unchecked unsafe ushort using virtual void volatile while var async await record init get " +
    "set value nameof dynamic where yield"
  ).split(" "),
);

/** C#: `using` namespaces as written, types with their members (public, internal, protected ones exported). */
export const csharp: LanguageSupport = syntaxSupport({
  family: "csharp",
  candidates: csharpCandidates,
  implicit: csharpImplicit,
  // The class around the cursor and its bases: a bare call may be a base class's method.
  nesting: (lines) => indentedNesting(lines, jvmTypeLine, "//"),
  extensions: [".cs"],
  grammar: "c_sharp",
  query: QUERY,
  rules: {
    packageLine: /^[ \t]*namespace[ \t]+([\p{L}\p{N}_.]+)/mu,
    exported: (definition, container) => {
      const words = wordsBeforeName(definition);
      if (hasWord(words, "private")) return false;
      // A top-level type is internal by default (the assembly sees it); interface and enum members are public.
      if (!container || container.kind === "interface" || container.kind === "enum") return true;
      return hasWord(words, "public") || hasWord(words, "internal") || hasWord(words, "protected");
    },
    imports: (node) => {
      // `using A.B;`, `using static A.B;` (every name), `using X = A.B;` (binds X), `global using A.B;`.
      const text = node.text.replace(/\/\/.*$|\/\*[\s\S]*?\*\//gm, "");
      const match =
        /^(?:global\s+)?using\s+(?:static\s+)?(?:([\p{L}\p{N}_]+)\s*=\s*)?([^;]+?)\s*;?\s*$/u.exec(text);
      if (!match) return [];
      const specifier = match[2]!.replace(/\s+/g, "");
      const bindings = match[1] ? [{ local: match[1], imported: "*" }] : [{ local: "*", imported: "*" }];
      return [{ specifier, bindings, line: node.startPosition.row }];
    },
  },
  importHint: /\busing\b/,
  references: (lines, preceding) => findReferences(lines, { dialect: "c", keywords: KEYWORDS }, preceding),
});
