// The benchmark is TypeScript (it measures source modules in-process too); bundle it, then run it. An argument names
// another entry of bench/ to run alone (`node bench/run.mjs memory-main.ts`).
import { fileURLToPath, pathToFileURL } from "node:url";
import { build } from "esbuild";

// One level below the package root, like bench/, so the bench's relative paths (../dist, ../src) hold.
const entry = process.argv[2] ?? "server.ts";
const outfile = fileURLToPath(new URL(`../.bench/${entry.replace(/\.ts$/, "")}-bench.mjs`, import.meta.url));
await build({
  entryPoints: [fileURLToPath(new URL(`./${entry}`, import.meta.url))],
  outfile,
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20.18",
  // jsonc-parser's `main` is a UMD build whose requires esbuild cannot follow (as in build.mjs).
  mainFields: ["module", "main"],
  logLevel: "warning",
  banner: {
    js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);",
  },
});
await import(pathToFileURL(outfile).href);
