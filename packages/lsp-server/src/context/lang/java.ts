// Java: outlines from tree-sitter-java.

import { jvmCandidates, jvmEnvironment, jvmImplicit, jvmPackageFile } from "../resolve/jvm.js";
import { indentedNesting, jvmTypeLine } from "../scan/nesting.js";
import { findReferences } from "../scan/references.js";
import { hasWord, wordsBeforeName } from "../syntax/nodes.js";
import { syntaxSupport } from "../syntax/support.js";
import type { LanguageSupport, ModuleImport } from "../types.js";

const QUERY = `
(import_declaration) @import
(package_declaration [(identifier) (scoped_identifier)] @package)
(superclass [(type_identifier) (scoped_type_identifier)] @base)
(superclass (generic_type [(type_identifier) (scoped_type_identifier)] @base))
(type_list [(type_identifier) (scoped_type_identifier)] @base)
(type_list (generic_type [(type_identifier) (scoped_type_identifier)] @base))
(class_declaration name: (_) @name) @definition.class
(interface_declaration name: (_) @name) @definition.interface
(annotation_type_declaration name: (_) @name) @definition.interface
(enum_declaration name: (_) @name) @definition.enum
(record_declaration name: (_) @name) @definition.class
(method_declaration name: (_) @name) @definition.method
(constructor_declaration name: (_) @name) @definition.method
(field_declaration declarator: (variable_declarator name: (_) @name)) @definition.field
(constant_declaration declarator: (variable_declarator name: (_) @name)) @definition.field
(enum_constant name: (_) @name) @definition.field
`;

/**
 * `import a.b.C;` (binds `C`), `import a.b.*;` (every name of the package), `import static a.b.C.m;` (binds `m`),
 * `import static a.b.C.*;`: the specifier as written, without `import`, `static` and `;`.
 */
export function javaImport(text: string, line: number): ModuleImport | undefined {
  const match = /^import\s+(?:static\s+)?([\p{L}\p{N}_$.\s]+?)(\s*\.\s*\*)?\s*;?\s*$/u.exec(
    text.replace(/\/\/.*$|\/\*[\s\S]*?\*\//gm, ""),
  );
  if (!match) return undefined;
  const name = match[1]!.replace(/\s+/g, "");
  if (match[2]) return { specifier: `${name}.*`, bindings: [{ local: "*", imported: "*" }], line };
  const last = name.slice(name.lastIndexOf(".") + 1);
  return { specifier: name, bindings: [{ local: last, imported: last }], line };
}

const KEYWORDS = new Set(
  (
    "abstract assert boolean break byte case catch char class const continue default do double else enum extends " +
    "final finally float for goto if implements import instanceof int interface long native new package private " +
    "protected public return short static strictfp super switch synchronized this throw throws transient try void " +
    "volatile while var record yield sealed permits non true false null String Object Integer Long Boolean " +
    "Double Override"
  ).split(" "),
);

/** Java: imports as written, classes, interfaces, enums, records with their methods and fields (not private). */
export const java: LanguageSupport = syntaxSupport({
  family: "java",
  candidates: jvmCandidates,
  implicit: jvmImplicit,
  packageFile: jvmPackageFile,
  environment: jvmEnvironment,
  // The class around the cursor and its bases: a bare call may be a superclass's method.
  nesting: (lines) => indentedNesting(lines, jvmTypeLine, "//"),
  extensions: [".java"],
  grammar: "java",
  query: QUERY,
  rules: {
    packageLine: /^[ \t]*package[ \t]+([\p{L}\p{N}_.]+)[ \t]*;/mu,
    // Public, and package-private: visible to the package's other files.
    exported: (definition) => !hasWord(wordsBeforeName(definition), "private"),
    imports: (node) => {
      const statement = javaImport(node.text, node.startPosition.row);
      return statement ? [statement] : [];
    },
  },
  importHint: /\bimport\b/,
  references: (lines, preceding) => findReferences(lines, { dialect: "c", keywords: KEYWORDS }, preceding),
});
