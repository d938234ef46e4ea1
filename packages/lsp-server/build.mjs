// Bundle the server so a cold start loads one module (no resolution of hundreds of files). What `initialize` does not
// need (the HTTP client, zod, the simulator) is split into chunks that load on first use.
import { createHash } from "node:crypto";
import { chmodSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { basename } from "node:path";
import { fileURLToPath } from "node:url";
import { brotliCompressSync, constants } from "node:zlib";
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

// `INFILL_TS_PARSER=tree-sitter INFILL_BUILD_OUTDIR=.bench/ts-server node build.mjs` builds the server with the
// tree-sitter replacement of the TypeScript parser (bench/syntax-alternatives.ts), for the eval to compare the two
// (see the README's Evaluation). The default build is the one that ships.
const outdir = process.env.INFILL_BUILD_OUTDIR ?? "dist";
const treeSitterTypeScript = process.env.INFILL_TS_PARSER === "tree-sitter";
const langIndex = fileURLToPath(new URL("./src/context/lang/index.ts", import.meta.url));

/** Resolve the TypeScript parser that lang/index.ts imports to its tree-sitter replacement. */
const treeSitterTypeScriptPlugin = {
  name: "tree-sitter-typescript",
  setup(build) {
    build.onResolve({ filter: /^\.\/typescript\.js$/ }, (args) =>
      args.importer === langIndex
        ? { path: fileURLToPath(new URL("./bench/typescript-tree-sitter.ts", import.meta.url)) }
        : undefined,
    );
  },
};
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
  minifyWhitespace: process.env.INFILL_BUILD_READABLE !== "1",
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
  plugins: treeSitterTypeScript ? [leanUndiciPlugin, treeSitterTypeScriptPlugin] : [leanUndiciPlugin],
  // jsonc-parser's `main` is a UMD build whose requires esbuild cannot follow; its ES module build bundles whole.
  mainFields: ["module", "main"],
  logLevel: "warning",
});

// The bundle's shebang is bin/infill-lsp.js's, the one place for what only a process's command line can set: Node's
// `--max-semi-space-size=1` (a 1 MB young generation keeps a long-lived server's resident memory about 20 MB lower,
// for about 20 ms of start-up) and `MALLOC_ARENA_MAX=2` (V8's compiler threads share two malloc arenas rather than
// keeping one each; see the README's Build section). V8's other flags are set by the server as it starts
// (src/v8-flags.ts), so that `node dist/infill-lsp.js`, which skips the shebang, still gets them.
const shebang = readFileSync(new URL("./bin/infill-lsp.js", import.meta.url), "utf8").split("\n", 1)[0];
writeFileSync(entry, `${shebang}\n${readFileSync(entry, "utf8")}`);
chmodSync(entry, 0o755);

// The tree-sitter runtime and the grammars of the languages parsed with them, brotli-compressed: parse tables
// shrink about fifteen times (39 MB of grammars to under 3 MB), and a grammar inflates in a few milliseconds when
// its language is first read (src/context/syntax/runtime.ts). Quality 9: within 5 % of the best, a hundred times
// faster to build.
const grammars = JSON.parse(
  readFileSync(new URL("./src/context/syntax/grammars.json", import.meta.url), "utf8"),
);
const requireHere = createRequire(import.meta.url);
mkdirSync(`${outdir}/grammars`, { recursive: true });
const shipped = Object.entries(grammars.grammars)
  .filter(([name, g]) => g.ship || (treeSitterTypeScript && name === "tsx"))
  .map(([, g]) => g);
for (const source of [grammars.runtime, ...shipped]) {
  const wasm = readFileSync(requireHere.resolve(`${source.package}/${source.path}`));
  // The very build that was tested ships: a package that changed its .wasm under the same version fails the build.
  const sha256 = createHash("sha256").update(wasm).digest("hex");
  if (sha256 !== source.sha256)
    throw new Error(
      `${source.package}/${source.path}: sha256 ${sha256}, grammars.json pins ${source.sha256}`,
    );
  const compressed = brotliCompressSync(wasm, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: 9,
      [constants.BROTLI_PARAM_LGWIN]: 20,
      [constants.BROTLI_PARAM_SIZE_HINT]: wasm.length,
    },
  });
  writeFileSync(`${outdir}/grammars/${basename(source.path)}.br`, compressed);
}
// The runtime's JavaScript too (web-tree-sitter's CommonJS build, of the package version that gave the runtime's
// .wasm): runtime.ts evaluates it anew for each runtime it loads, so that a runtime let go when its grammars idled
// takes its memory with it, which a bundled module, never unloaded, would keep.
const script = requireHere.resolve(grammars.runtime.package);
if (basename(script) !== grammars.runtime.script)
  throw new Error(
    `${grammars.runtime.package} resolves to ${script}, grammars.json names ${grammars.runtime.script}`,
  );
writeFileSync(
  `${outdir}/grammars/${grammars.runtime.script}.br`,
  brotliCompressSync(readFileSync(script), { params: { [constants.BROTLI_PARAM_QUALITY]: 9 } }),
);

writeFileSync(
  `${outdir}/status.d.ts`,
  statusDeclarations(fileURLToPath(new URL("./src/stats/status-schema.ts", import.meta.url))),
);
