// The benchmark is TypeScript (it measures source modules in-process too); bundle it, then run it.
import { copyFileSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build } from "esbuild";

// One level below the package root, like bench/, so the bench's relative paths (../dist, ../src) hold.
// `node bench/run.mjs parsers` runs one part alone (bench/parsers-main.ts); no argument, the whole benchmark.
const part = process.argv[2];
const outfile = fileURLToPath(new URL(`../.bench/${part ?? "server"}-bench.mjs`, import.meta.url));
await build({
  entryPoints: [fileURLToPath(new URL(part ? `./${part}-main.ts` : "./server.ts", import.meta.url))],
  outfile,
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20.18",
  // jsonc-parser's `main` is a UMD build whose requires esbuild cannot follow (as in build.mjs).
  mainFields: ["module", "main"],
  logLevel: "warning",
  banner: {
    js: "import { createRequire as __benchRequire } from 'node:module'; const require = __benchRequire(import.meta.url);",
  },
});
// The sim's own process (harness.ts starts it from beside the bundle).
copyFileSync(
  fileURLToPath(new URL("./sim-process.mjs", import.meta.url)),
  fileURLToPath(new URL("../.bench/sim-process.mjs", import.meta.url)),
);
await import(pathToFileURL(outfile).href);
