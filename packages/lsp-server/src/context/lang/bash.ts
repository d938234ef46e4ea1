// Bash: outlines from tree-sitter-bash.
import type { Node } from "web-tree-sitter";
import { bashCandidates } from "../resolve/bash.js";
import { findReferences } from "../scan/references.js";
import { unquote } from "../syntax/nodes.js";
import { syntaxSupport } from "../syntax/support.js";
import type { LanguageSupport, ModuleImport } from "../types.js";

const QUERY = `
(command name: (command_name) @_name (#match? @_name "^(source|\\\\.)$")) @import
(function_definition name: (_) @name) @definition.function
(program (variable_assignment name: (_) @name) @definition.variable)
(program (declaration_command (variable_assignment name: (_) @name)) @definition.variable)
`;

/** `source x.sh` and `. x.sh` with a literal path, as written. */
function sourced(node: Node): ModuleImport[] {
  const argument =
    node.childForFieldName("argument") ?? node.namedChildren.find((n) => n?.type !== "command_name");
  if (!argument || !/^(word|string|raw_string)$/.test(argument.type)) return [];
  const specifier = unquote(argument.text);
  if (specifier === "" || specifier.includes("$")) return [];
  return [{ specifier, bindings: [{ local: "*", imported: "*" }], line: node.startPosition.row }];
}

const KEYWORDS = new Set(
  (
    "if then else elif fi case esac for select while until do done in function time coproc return exit local " +
    "export readonly declare typeset unset echo printf set shift true false test source eval exec cd"
  ).split(" "),
);

/** Bash: `source`d files, functions and top-level variables, all visible to a script that sources the file. */
export const bash: LanguageSupport = syntaxSupport({
  family: "bash",
  candidates: bashCandidates,
  extensions: [".sh", ".bash"],
  grammar: "bash",
  query: QUERY,
  rules: { exported: () => true, imports: sourced },
  importHint: /\bsource\b|(?:^|[\s;&|(])\.\s/m,
  references: (lines, preceding) =>
    findReferences(lines, { dialect: "python", keywords: KEYWORDS }, preceding),
});
