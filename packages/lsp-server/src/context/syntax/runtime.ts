// The tree-sitter runtime and its grammars, loaded lazily: nothing here runs at start-up. The runtime (web-tree-sitter,
// a WebAssembly module) loads the first time a grammar is asked for, and each grammar the first time a file of its
// language is read; both once per process. A grammar that cannot be loaded stays unloaded: its language then has no
// outline, and nothing throws.
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { basename } from "node:path";
import { fileURLToPath } from "node:url";
import { brotliDecompressSync } from "node:zlib";
import type { Language, Parser, Query } from "web-tree-sitter";
import manifest from "./grammars.json" with { type: "json" };

/** A grammar's name, as `grammars.json` lists it (`c`, `cpp`, `c_sharp`, …). */
export type GrammarName = keyof typeof manifest.grammars;

/** Every grammar the manifest lists. */
export const GRAMMAR_NAMES = Object.keys(manifest.grammars) as GrammarName[];

/** Where a `.wasm` comes from: an npm package and its path inside it (the build copies it into `dist/grammars/`). */
interface WasmSource {
  readonly package: string;
  readonly path: string;
}

/** The file a grammar or the runtime ships as in `dist/grammars/`: its `.wasm` name, brotli-compressed. */
export function shippedName(source: WasmSource): string {
  return `${basename(source.path)}.br`;
}

/**
 * A `.wasm` file's bytes. The built server ships them brotli-compressed in `grammars/` next to its bundle (or next
 * to the chunk this code is bundled in: one level up); tests and benches run on source and read them from the
 * packages in node_modules. Inflating the largest grammar takes about 10 ms, once per process.
 */
async function wasmBytes(source: WasmSource): Promise<Uint8Array> {
  const name = shippedName(source);
  for (const dir of ["./grammars/", "../grammars/"]) {
    const compressed = await readFile(fileURLToPath(new URL(dir + name, import.meta.url))).catch(
      () => undefined,
    );
    if (compressed) return new Uint8Array(brotliDecompressSync(compressed));
  }
  const require = createRequire(import.meta.url);
  return new Uint8Array(await readFile(require.resolve(`${source.package}/${source.path}`)));
}

type Runtime = typeof import("web-tree-sitter");

let runtime: Promise<Runtime> | undefined;

/** The initialised runtime, loaded on first use; rejects (every time) when it cannot load. */
function loadRuntime(): Promise<Runtime> {
  runtime ??= (async () => {
    // A dynamic import: the bundler puts web-tree-sitter in a chunk of its own that a cold start never reads.
    const [module, wasmBinary] = await Promise.all([import("web-tree-sitter"), wasmBytes(manifest.runtime)]);
    await module.Parser.init({ wasmBinary });
    return module;
  })();
  return runtime;
}

/** A loaded grammar: its language, one parser set to it, and its compiled queries. */
export interface LoadedGrammar {
  readonly language: Language;
  readonly parser: Parser;
  /** A query over this grammar, compiled once per source text; throws when the query does not compile. */
  query(source: string): Query;
}

const loading = new Map<GrammarName, Promise<LoadedGrammar | undefined>>();
const failureListeners = new Set<(name: GrammarName, error: unknown) => void>();

/** Be told when a grammar (or the runtime) fails to load: its language then has no outline. Returns an unsubscribe. */
export function onGrammarFailure(listener: (name: GrammarName, error: unknown) => void): () => void {
  failureListeners.add(listener);
  return () => failureListeners.delete(listener);
}
/** Settled loads: the grammar, or null when it failed. */
const settled = new Map<GrammarName, LoadedGrammar | null>();

/** Load a grammar (once per process); resolves to undefined when it cannot load. Never rejects. */
export function loadGrammar(name: GrammarName): Promise<LoadedGrammar | undefined> {
  let pending = loading.get(name);
  if (!pending) {
    pending = (async () => {
      let loaded: LoadedGrammar | undefined;
      try {
        const ts = await loadRuntime();
        const language = await ts.Language.load(await wasmBytes(manifest.grammars[name]));
        const parser = new ts.Parser();
        parser.setLanguage(language);
        const queries = new Map<string, Query>();
        loaded = {
          language,
          parser,
          query(source) {
            let query = queries.get(source);
            if (!query) {
              query = new ts.Query(language, source);
              queries.set(source, query);
            }
            return query;
          },
        };
      } catch (error) {
        loaded = undefined;
        for (const listener of failureListeners) listener(name, error);
      }
      settled.set(name, loaded ?? null);
      return loaded;
    })();
    loading.set(name, pending);
  }
  return pending;
}

/**
 * A grammar without waiting: the loaded grammar, `null` when its load failed, undefined when it was never asked
 * for or is still loading.
 */
export function grammarNow(name: GrammarName): LoadedGrammar | null | undefined {
  return settled.get(name);
}

/** Names of the grammars loaded so far (for the bench and the status). */
export function loadedGrammars(): GrammarName[] {
  return [...settled].filter(([, grammar]) => grammar).map(([name]) => name);
}
