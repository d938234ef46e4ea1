// The eval is TypeScript (it imports the server's own token estimate); bundle it, then run it.
import { fileURLToPath, pathToFileURL } from "node:url";
import { build } from "esbuild";

// One level below the package root, like eval/, so the eval's relative paths (../dist, ../../..) hold. `.bench/`
// is already ignored by git and the linter.
const outfile = fileURLToPath(new URL("../.bench/eval.mjs", import.meta.url));
await build({
  entryPoints: [fileURLToPath(new URL("./main.ts", import.meta.url))],
  outfile,
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20.18",
  // The compiler (the eval's oracle) is loaded from node_modules as it is, not bundled.
  external: ["typescript"],
  logLevel: "warning",
  banner: {
    js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);",
  },
});
await import(pathToFileURL(outfile).href);
