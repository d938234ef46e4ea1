// PHP: outlines from tree-sitter-php.
import type { Node } from "web-tree-sitter";
import { phpCandidates, phpImplicit } from "../resolve/php.js";
import { findReferences } from "../scan/references.js";
import { hasWord, lastSegment, unquote, wordsBeforeName } from "../syntax/nodes.js";
import { syntaxSupport } from "../syntax/support.js";
import type { LanguageSupport, ModuleImport } from "../types.js";

const QUERY = `
(namespace_use_declaration) @import
(namespace_definition name: (_) @package)
(require_expression) @import
(require_once_expression) @import
(include_expression) @import
(include_once_expression) @import
(class_declaration name: (_) @name) @definition.class
(interface_declaration name: (_) @name) @definition.interface
(trait_declaration name: (_) @name) @definition.trait
(enum_declaration name: (_) @name) @definition.enum
(function_definition name: (_) @name) @definition.function
(method_declaration name: (_) @name) @definition.method
(property_declaration (property_element name: (variable_name (name) @name))) @definition.field
(const_declaration (const_element (name) @name)) @definition.variable
(enum_case name: (_) @name) @definition.field
`;

const WITHOUT_COMMENTS = /\/\/.*$|#.*$|\/\*[\s\S]*?\*\//gm;

/**
 * `use A\B\C;` (binds `C`), `use A\B\C as D;`, `use function A\f;`, `use A\{B, C as D};` (one import each), with
 * the name as written (no leading `\`); `require`/`include` of a literal path (`__DIR__ . '/x.php'` as `./x.php`).
 */
export function phpImports(node: Node): ModuleImport[] {
  const line = node.startPosition.row;
  const text = node.text.replace(WITHOUT_COMMENTS, "");
  if (node.type !== "namespace_use_declaration") {
    const literal = /(__DIR__\s*\.\s*)?(['"])([^'"$]+)\2\s*\)?\s*$/.exec(text);
    if (!literal) return [];
    const path = unquote(`${literal[2]}${literal[3]}${literal[2]}`);
    const specifier = literal[1] ? `.${path.startsWith("/") ? "" : "/"}${path}` : path;
    return [{ specifier, bindings: [{ local: "*", imported: "*" }], line }];
  }
  const body = text
    .replace(/^use\s+(?:function\s+|const\s+)?/, "")
    .replace(/;\s*$/, "")
    .trim();
  const group = /^([^{]*)\{([\s\S]*)\}$/.exec(body);
  const prefix = group ? group[1]!.trim() : "";
  const clauses = (group ? group[2]! : body).split(",");
  const imports: ModuleImport[] = [];
  for (const clause of clauses) {
    const match = /^\s*(?:function\s+|const\s+)?([\\\p{L}\p{N}_]+)(?:\s+as\s+([\p{L}\p{N}_]+))?\s*$/u.exec(
      clause,
    );
    if (!match) continue;
    const specifier = (prefix + match[1]!).replace(/^\\/, "");
    const last = lastSegment(specifier);
    imports.push({ specifier, bindings: [{ local: match[2] ?? last, imported: last }], line });
  }
  return imports;
}

const KEYWORDS = new Set(
  (
    "abstract and array as break callable case catch class clone const continue declare default do echo else " +
    "elseif empty enddeclare endfor endforeach endif endswitch endwhile enum extends final finally fn for foreach " +
    "function global goto if implements include include_once instanceof insteadof interface isset list match " +
    "namespace new or print private protected public readonly require require_once return static switch throw " +
    "trait try unset use var while xor yield self parent true false null $this int string bool float void mixed"
  ).split(" "),
);

/** PHP: `use` names and `require` paths, classes, interfaces, traits, enums, functions; private members hidden. */
export const php: LanguageSupport = syntaxSupport({
  family: "php",
  candidates: phpCandidates,
  implicit: phpImplicit,
  extensions: [".php"],
  grammar: "php",
  query: QUERY,
  rules: {
    packageLine: /^[ \t]*namespace[ \t]+([\p{L}\p{N}_\\]+)[ \t]*[;{]/mu,
    exported: (definition, container) =>
      !container ||
      !(hasWord(wordsBeforeName(definition), "private") || hasWord(wordsBeforeName(definition), "protected")),
    imports: phpImports,
  },
  importHint: /\b(?:use|require|require_once|include|include_once)\b/i,
  references: (lines, preceding) =>
    findReferences(lines, { dialect: "c", keywords: KEYWORDS, paths: true, arrows: true }, preceding),
});
