// Kotlin: outlines from tree-sitter-kotlin.

import { jvmCandidates, jvmEnvironment, jvmImplicit, jvmPackageFile } from "../resolve/jvm.js";
import { findReferences } from "../scan/references.js";
import { hasWord, wordsBeforeName } from "../syntax/nodes.js";
import { syntaxSupport } from "../syntax/support.js";
import type { LanguageSupport, ModuleImport } from "../types.js";

const QUERY = `
(import) @import
(package_header (qualified_identifier) @package)
(class_declaration name: (_) @name) @definition.class
(object_declaration name: (_) @name) @definition.class
(function_declaration name: (_) @name) @definition.function
(property_declaration (variable_declaration (identifier) @name)) @definition.variable
(type_alias type: (identifier) @name) @definition.type
(enum_entry (identifier) @name) @definition.field
`;

/** `import a.b.C` (binds `C`), `import a.b.C as D`, `import a.b.*`: the name as written. */
export function kotlinImport(text: string, line: number): ModuleImport | undefined {
  const match = /^import\s+([\p{L}\p{N}_.`]+?)(\.\*)?(?:\s+as\s+([\p{L}\p{N}_`]+))?\s*;?\s*$/u.exec(
    text.replace(/\/\/.*$|\/\*[\s\S]*?\*\//gm, "").trim(),
  );
  if (!match) return undefined;
  const name = match[1]!;
  if (match[2]) return { specifier: `${name}.*`, bindings: [{ local: "*", imported: "*" }], line };
  const last = name.slice(name.lastIndexOf(".") + 1);
  return { specifier: name, bindings: [{ local: match[3] ?? last, imported: last }], line };
}

const KEYWORDS = new Set(
  (
    "as break class continue do else false for fun if in interface is null object package return super this " +
    "throw true try typealias typeof val var when while by catch constructor delegate dynamic field file finally " +
    "get import init param property receiver set setparam where abstract actual annotation companion const " +
    "crossinline data enum expect external final infix inline inner internal lateinit noinline open operator out " +
    "override private protected public reified sealed suspend tailrec vararg it Int Long String Boolean Double " +
    "Float Unit Any Nothing listOf mapOf setOf println"
  ).split(" "),
);

/** Kotlin: imports as written, classes (interfaces, enums, objects, companions read through), functions, properties. */
export const kotlin: LanguageSupport = syntaxSupport({
  family: "kotlin",
  candidates: jvmCandidates,
  implicit: jvmImplicit,
  packageFile: jvmPackageFile,
  environment: jvmEnvironment,
  extensions: [".kt", ".kts"],
  grammar: "kotlin",
  query: QUERY,
  rules: {
    exported: (definition) =>
      !hasWord(wordsBeforeName(definition), "private") && !hasWord(wordsBeforeName(definition), "protected"),
    imports: (node) => {
      const statement = kotlinImport(node.text, node.startPosition.row);
      return statement ? [statement] : [];
    },
    kindOf: (definition) => {
      const node = definition.node;
      if (node.type !== "class_declaration") return undefined;
      if (node.children.some((child) => child?.type === "interface")) return "interface";
      return hasWord(wordsBeforeName(definition), "enum") ? "enum" : undefined;
    },
  },
  importHint: /\bimport\b/,
  references: (lines, preceding) => findReferences(lines, { dialect: "c", keywords: KEYWORDS }, preceding),
});
