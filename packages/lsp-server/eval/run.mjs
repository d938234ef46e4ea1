// The eval is TypeScript (it imports the server's own token estimate); bundle it, then run it.
// `node eval/run.mjs context` (or `INFILL_EVAL=context pnpm eval`) runs the repository-context eval alone,
// `node eval/run.mjs next-edit` (`INFILL_EVAL=next-edit`) the next-edit eval alone; neither, both, one after the other.
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const PARTS = { context: "./main.ts", "next-edit": "./next-edit/main.ts" };
const asked = process.argv[2] ?? (process.env.INFILL_EVAL || undefined);
if (asked !== undefined && !(asked in PARTS)) {
  console.error(`usage: node eval/run.mjs [${Object.keys(PARTS).join(" | ")}] (or INFILL_EVAL=…)`);
  process.exit(2);
}
for (const part of asked ? [asked] : Object.keys(PARTS)) {
  // One level below the package root, like eval/, so the eval's relative paths (../dist, ../../..) hold. `.bench/`
  // is already ignored by git and the linter.
  const outfile = fileURLToPath(new URL(`../.bench/eval-${part}.mjs`, import.meta.url));
  await build({
    entryPoints: [fileURLToPath(new URL(PARTS[part], import.meta.url))],
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
  // Each part in a process of its own: its servers, sims and timers end with it.
  const { status } = spawnSync(process.execPath, [outfile], { stdio: "inherit" });
  if (status !== 0) process.exit(status ?? 1);
}
