// After `changeset version` bumps package.json files, write @infill/core's version into src/version.ts (a literal,
// so bundlers keep it; packages/core/test/version.test.ts checks the two agree).
import { readFileSync, writeFileSync } from "node:fs";

const pkg = JSON.parse(readFileSync(new URL("../packages/core/package.json", import.meta.url), "utf8"));
const file = new URL("../packages/core/src/version.ts", import.meta.url);
const source = readFileSync(file, "utf8");
const next = source.replace(
  /export const VERSION = "[^"]*";/,
  `export const VERSION = ${JSON.stringify(pkg.version)};`,
);
if (next === source && !source.includes(`"${pkg.version}"`))
  throw new Error("sync-versions: VERSION not found in version.ts");
writeFileSync(file, next);
