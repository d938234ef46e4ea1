#!/usr/bin/env node
// `pnpm lint`'s size check: no class over 300 lines and no function over 120 in the packages' sources (issue 25, and
// the conventions' "a file you cannot summarise in a sentence is two files"). Counts lines from a declaration's first
// to its last, comments inside included, with TypeScript's own parser.
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

const MAX_CLASS_LINES = 300;
const MAX_FUNCTION_LINES = 120;
const root = fileURLToPath(new URL("..", import.meta.url));

/** The `.ts` files under `dir`. */
function sources(dir) {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith(".ts") && !entry.name.endsWith(".d.ts"))
    .map((entry) => join(entry.parentPath ?? entry.path, entry.name));
}

const problems = [];
const packages = join(root, "packages");
for (const pkg of readdirSync(packages)) {
  let files;
  try {
    files = sources(join(packages, pkg, "src"));
  } catch {
    continue;
  }
  for (const file of files) {
    const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true);
    const lines = (node) =>
      source.getLineAndCharacterOfPosition(node.end).line -
      source.getLineAndCharacterOfPosition(node.getStart()).line +
      1;
    const visit = (node) => {
      const where = () =>
        `${relative(root, file)}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
      if (ts.isClassDeclaration(node) || ts.isClassExpression(node)) {
        const n = lines(node);
        if (n > MAX_CLASS_LINES)
          problems.push(
            `${where()}: class ${node.name?.text ?? "(anonymous)"} has ${n} lines (at most ${MAX_CLASS_LINES})`,
          );
      } else if (ts.isFunctionLike(node) && "body" in node && node.body) {
        const n = lines(node);
        if (n > MAX_FUNCTION_LINES)
          problems.push(
            `${where()}: function ${node.name?.getText(source) ?? "(anonymous)"} has ${n} lines (at most ${MAX_FUNCTION_LINES})`,
          );
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
}
if (problems.length > 0) {
  console.error(`${problems.join("\n")}\nSplit each where its second concept is.`);
  process.exit(1);
}
