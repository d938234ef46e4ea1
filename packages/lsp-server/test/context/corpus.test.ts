import { readdirSync, readFileSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { parseTypeScript } from "../../src/context/lang/typescript.js";

function sources(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const file = join(dir, name);
    if (name === "node_modules" || name === "dist" || name.startsWith(".")) continue;
    if (statSync(file).isDirectory()) sources(file, out);
    else if (/\.(ts|tsx|mts|js|mjs)$/.test(name)) out.push(file);
  }
  return out;
}

/** `export [declare] [abstract] [async] <keyword> Name` at a line's start: what a reader expects to find. */
const EXPORTED =
  /^export (?:declare )?(?:abstract )?(?:async )?(?:function\*?|class|interface|type|enum|const enum|const|let|var|namespace) +([\w$]+)/gm;

/** The exported declarations a file states at line starts that its outline does not have. */
function missingExports(file: string): string[] {
  const text = readFileSync(file, "utf8");
  const exported = new Set(
    parseTypeScript(text)
      .outline.declarations.filter((d) => d.exported)
      .map((d) => d.name),
  );
  return [...text.matchAll(EXPORTED)].map((m) => m[1]!).filter((name) => !exported.has(name));
}

const zodRoot = join(dirname(createRequire(import.meta.url).resolve("zod/package.json")), "src");
const packagesRoot = fileURLToPath(new URL("../../..", import.meta.url));
/** The packages' own sources: tests and benchmarks hold fixtures whose code sits inside template strings. */
const repoSources = () =>
  readdirSync(packagesRoot).flatMap((pkg) => {
    const src = join(packagesRoot, pkg, "src");
    return statSync(src, { throwIfNoEntry: false })?.isDirectory() ? sources(src) : [];
  });

describe("real sources", () => {
  it.each([
    { corpus: "zod's sources (barrels, namespaces, overloads)", files: () => sources(zodRoot), atLeast: 300 },
    { corpus: "this repository's packages", files: repoSources, atLeast: 50 },
  ])("finds every exported declaration of $corpus", ({ files: list, atLeast }) => {
    const files = list();
    expect(files.length).toBeGreaterThanOrEqual(atLeast);
    const missing = files.flatMap((file) => missingExports(file).map((name) => `${file}: ${name}`));
    expect(missing).toEqual([]);
  });
});
