import type { Parser } from "web-tree-sitter";
import type { SyntaxDocument } from "../../src/completion/syntax-ending.js";
import { countErrors } from "../../src/context/syntax/tree-checks.js";

/**
 * The syntax of a document given as the text before and after its cursor, every tree parsed from scratch with a real
 * grammar (the server re-parses its document's lines incrementally; the cuts read the trees the same).
 */
export function textSyntax(parser: Parser, before: string, after: string): SyntaxDocument {
  const tree = parser.parse(before + after)!;
  const errors = countErrors(tree.rootNode);
  tree.delete();
  return {
    cursor: before.length,
    addedErrors: (changed) => countErrors(changed.rootNode) - errors,
    after: (length) => after.slice(0, length),
    parse: ({ removed, inserted }) => {
      if (!after.startsWith(removed))
        throw new Error(`removed ${JSON.stringify(removed)} is not after the cursor`);
      return parser.parse(before + inserted + after.slice(removed.length)) ?? undefined;
    },
  };
}
