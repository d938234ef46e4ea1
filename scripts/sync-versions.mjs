// After `changeset version` bumps package.json files, write each package's version into its src/version.ts (a
// literal, so bundlers keep it and no package.json has to sit next to the compiled code; test/metadata.test.ts
// checks the two agree): @infill/core's goes into the User-Agent, @infill/sim's into `infill-sim --version`.
import { readFileSync, writeFileSync } from "node:fs";

for (const dir of ["core", "sim"]) {
  const pkg = JSON.parse(readFileSync(new URL(`../packages/${dir}/package.json`, import.meta.url), "utf8"));
  const file = new URL(`../packages/${dir}/src/version.ts`, import.meta.url);
  const source = readFileSync(file, "utf8");
  const next = source.replace(
    /export const VERSION = "[^"]*";/,
    `export const VERSION = ${JSON.stringify(pkg.version)};`,
  );
  if (next === source && !source.includes(`"${pkg.version}"`))
    throw new Error(`sync-versions: VERSION not found in packages/${dir}/src/version.ts`);
  writeFileSync(file, next);
}
