// Bundle the server so a cold start loads one module (no resolution of hundreds of files). What `initialize` does not
// need (the HTTP client, zod, the simulator) is split into chunks that load on first use.
import { chmodSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { statusDeclarations } from "./build/status-declarations.mjs";

const leanUndici = fileURLToPath(new URL("./build/undici-lean.cjs", import.meta.url));

/** Resolve `undici` to the lean entry (see build/undici-lean.cjs), except from that entry itself. */
const leanUndiciPlugin = {
  name: "lean-undici",
  setup(build) {
    build.onResolve({ filter: /^undici$/ }, (args) =>
      args.importer === leanUndici ? undefined : { path: leanUndici },
    );
  },
};

const outdir = "dist";
const entry = `${outdir}/infill-lsp.js`;

// Chunk names carry content hashes: start from an empty folder so no stale chunk ships.
rmSync(outdir, { recursive: true, force: true });

await build({
  // The server, and `@infill/lsp-server/status` (the schema of `infill.status`), which shares the zod chunk.
  entryPoints: { "infill-lsp": "src/bin.ts", status: "src/status.ts" },
  outdir,
  splitting: true,
  chunkNames: "chunks/[name]-[hash]",
  bundle: true,
  platform: "node",
  target: "node20.18",
  format: "esm",
  // Identifiers stay readable so that a stack trace in a user's log names the functions; no source maps (see the
  // README's Build section): they would hold the source of every bundled dependency, several times the code.
  minifyWhitespace: true,
  minifySyntax: true,
  sourcemap: false,
  legalComments: "none",
  // `infill-lsp --help` prints the README's environment and settings tables (src/help.ts).
  loader: { ".md": "text" },
  // Bundled CommonJS dependencies (vscode-languageserver, undici) still call require().
  banner: {
    js: "import{createRequire as __infillRequire}from'node:module';const require=__infillRequire(import.meta.url);",
  },
  // The workspace packages from their TypeScript source: the server builds without building them first (the
  // Neovim plugin's install runs only this build).
  alias: {
    "@infill/core": fileURLToPath(new URL("../core/src/index.ts", import.meta.url)),
    "@infill/core/provider-info": fileURLToPath(new URL("../core/src/providers/info.ts", import.meta.url)),
    "@infill/core/usage": fileURLToPath(new URL("../core/src/usage.ts", import.meta.url)),
    "@infill/core/failure": fileURLToPath(new URL("../core/src/failure.ts", import.meta.url)),
    "@infill/sim": fileURLToPath(new URL("../sim/src/index.ts", import.meta.url)),
  },
  plugins: [leanUndiciPlugin],
  // jsonc-parser's `main` is a UMD build whose requires esbuild cannot follow; its ES module build bundles whole.
  mainFields: ["module", "main"],
  logLevel: "warning",
});

// A language server lives for hours next to an editor: a 1 MB young generation keeps its resident memory about
// 20 MB lower than Node's default, which lets garbage pile up between scavenges. It costs about 20 ms of start-up
// (more scavenges while the modules load). Editors that run `node dist/infill-lsp.js` skip the flag and only use
// more memory. (`--optimize-for-size` needs no shebang: the server sets it as it starts, see src/bin.ts.)
writeFileSync(entry, `#!/usr/bin/env -S node --max-semi-space-size=1\n${readFileSync(entry, "utf8")}`);
chmodSync(entry, 0o755);

writeFileSync(
  `${outdir}/status.d.ts`,
  statusDeclarations(fileURLToPath(new URL("./src/stats/status-schema.ts", import.meta.url))),
);
