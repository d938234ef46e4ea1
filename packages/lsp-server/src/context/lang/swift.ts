// Swift: outlines from tree-sitter-swift.

import { swiftCandidates, swiftImplicit } from "../resolve/swift.js";
import { findReferences } from "../scan/references.js";
import { hasWord, wordsBeforeName } from "../syntax/nodes.js";
import { syntaxSupport } from "../syntax/support.js";
import type { DeclarationKind, LanguageSupport } from "../types.js";

const QUERY = `
(import_declaration) @import
(class_declaration name: [(type_identifier) (user_type)] @name) @definition.class
(protocol_declaration name: (type_identifier) @name) @definition.interface
(function_declaration name: (simple_identifier) @name) @definition.function
(protocol_function_declaration name: (simple_identifier) @name) @definition.method
(init_declaration "init" @name) @definition.method
(property_declaration name: (pattern bound_identifier: (_) @name)) @definition.variable
(protocol_property_declaration name: (pattern bound_identifier: (_) @name)) @definition.field
(typealias_declaration name: (type_identifier) @name) @definition.type
(enum_entry name: (simple_identifier) @name) @definition.field
`;

/** `class`, `struct`, `enum`, `actor` and `extension` are one node kind; an extension is another body of its type. */
const KINDS: Readonly<Record<string, DeclarationKind>> = { struct: "struct", enum: "enum" };

const KEYWORDS = new Set(
  (
    "associatedtype class deinit enum extension fileprivate func import init inout internal let open operator " +
    "private precedencegroup protocol public rethrows static struct subscript typealias var break case catch " +
    "continue default defer do else fallthrough for guard if in repeat return throw switch where while as Any " +
    "false is nil self Self super throws true try await async some any actor Int String Bool Double Float print"
  ).split(" "),
);

/** Swift: imports, classes, structs, enums, protocols, extensions with their members; not private ones. */
export const swift: LanguageSupport = syntaxSupport({
  family: "swift",
  candidates: swiftCandidates,
  implicit: swiftImplicit,
  extensions: [".swift"],
  grammar: "swift",
  query: QUERY,
  rules: {
    // Internal by default: the module sees it.
    exported: (definition) =>
      !hasWord(wordsBeforeName(definition), "private") &&
      !hasWord(wordsBeforeName(definition), "fileprivate"),
    imports: (node) => {
      // `import Foundation` (every name), `import struct Models.User` (binds `User`).
      const match =
        /^import\s+(?:(typealias|struct|class|enum|protocol|let|var|func)\s+)?([\p{L}\p{N}_.]+)/u.exec(
          node.text,
        );
      if (!match) return [];
      const specifier = match[2]!;
      const last = specifier.slice(specifier.lastIndexOf(".") + 1);
      const bindings = match[1] ? [{ local: last, imported: last }] : [{ local: "*", imported: "*" }];
      return [{ specifier, bindings, line: node.startPosition.row }];
    },
    kindOf: (definition) => {
      if (definition.node.type !== "class_declaration") return undefined;
      const kind = definition.node.childForFieldName("declaration_kind")?.text ?? "";
      return KINDS[kind];
    },
  },
  importHint: /\bimport\b/,
  references: (lines, preceding) => findReferences(lines, { dialect: "c", keywords: KEYWORDS }, preceding),
});
