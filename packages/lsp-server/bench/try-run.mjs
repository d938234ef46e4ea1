import { fileURLToPath, pathToFileURL } from "node:url";
import { build } from "esbuild";

const root = "/work/wt/resilience/packages/lsp-server/";
const outfile = root + ".bench/try.mjs";
await build({
  entryPoints: [root + "bench/try.ts"],
  outfile,
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20.18",
  logLevel: "warning",
  banner: {
    js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);",
  },
});
await import(pathToFileURL(outfile).href);
