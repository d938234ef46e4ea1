// Scala: outlines from tree-sitter-scala.
import type { Node } from "web-tree-sitter";
import { jvmCandidates, jvmEnvironment, jvmImplicit, jvmPackageFile } from "../resolve/jvm.js";
import { findReferences } from "../scan/references.js";
import { hasWord, wordsBeforeName } from "../syntax/nodes.js";
import { syntaxSupport } from "../syntax/support.js";
import type { LanguageSupport, ModuleImport } from "../types.js";

const QUERY = `
(import_declaration) @import
(package_clause name: (_) @package)
(class_definition name: (_) @name) @definition.class
(object_definition name: (_) @name) @definition.class
(trait_definition name: (_) @name) @definition.trait
(enum_definition name: (_) @name) @definition.enum
(function_definition name: (_) @name) @definition.function
(function_declaration name: (_) @name) @definition.function
(val_definition pattern: (identifier) @name) @definition.variable
(var_definition pattern: (identifier) @name) @definition.variable
(type_definition name: (_) @name) @definition.type
(simple_enum_case name: (_) @name) @definition.field
(full_enum_case name: (_) @name) @definition.field
`;

/**
 * `import a.b.C` (binds `C`), `import a.b.{C, D => E}` (one import, each name), `import a.b._` and `a.b.*` (every
 * name): the path as written.
 */
function scalaImports(node: Node): ModuleImport[] {
  const line = node.startPosition.row;
  const text = node.text
    .replace(/\/\/.*$|\/\*[\s\S]*?\*\//gm, "")
    .replace(/^import\s+/, "")
    .trim();
  const imports: ModuleImport[] = [];
  // `import a.B, c.D` imports two paths.
  for (const clause of text.split(/,(?![^{]*\})/)) {
    const part = clause.trim();
    const group = /^([\p{L}\p{N}_.`]+)\.\{([^}]*)\}$/u.exec(part);
    if (group) {
      const bindings = group[2]!
        .split(",")
        .map((s) => s.trim().split(/\s*(?:=>|\bas\b)\s*/))
        .filter(([name]) => name)
        .map(([name, alias]) =>
          name === "_" || name === "*"
            ? { local: "*", imported: "*" }
            : { local: alias ?? name!, imported: name! },
        );
      imports.push({ specifier: group[1]!, bindings, line });
      continue;
    }
    if (/[._]$|\.\*$/.test(part) && /\.(_|\*)$/.test(part)) {
      imports.push({ specifier: part, bindings: [{ local: "*", imported: "*" }], line });
      continue;
    }
    const last = part.slice(part.lastIndexOf(".") + 1);
    if (last) imports.push({ specifier: part, bindings: [{ local: last, imported: last }], line });
  }
  return imports;
}

const KEYWORDS = new Set(
  (
    "abstract case catch class def do else enum export extends false final finally for forSome given if implicit " +
    "import lazy match new null object override package private protected return sealed super this throw trait try " +
    "true type val var while with yield then end Int String Boolean Double Unit Any Nothing List Map Seq Option " +
    "Some None println"
  ).split(" "),
);

/** Scala: imports as written, classes, objects, traits, enums with their members (not private ones). */
export const scala: LanguageSupport = syntaxSupport({
  family: "scala",
  candidates: jvmCandidates,
  implicit: jvmImplicit,
  packageFile: jvmPackageFile,
  environment: jvmEnvironment,
  extensions: [".scala", ".sc"],
  grammar: "scala",
  query: QUERY,
  rules: {
    exported: (definition) =>
      !hasWord(wordsBeforeName(definition), "private") && !hasWord(wordsBeforeName(definition), "protected"),
    imports: scalaImports,
  },
  importHint: /\bimport\b/,
  references: (lines, preceding) => findReferences(lines, { dialect: "c", keywords: KEYWORDS }, preceding),
});
