// The tree-sitter runtime and its grammars, loaded lazily: nothing here runs at start-up. The runtime (web-tree-sitter,
// a WebAssembly module and its JavaScript) loads the first time a grammar is asked for, and each grammar the first
// time a file of its language is read. A grammar that cannot be loaded stays unloaded: its language then has no
// outline, and nothing throws. A grammar not used for a while is let go (idle-grammars.ts decides when): its parser
// and queries are deleted and its trees forgotten; once none is left the runtime goes too, and the next grammar asked
// for loads a new one. (A WebAssembly module cannot be unloaded from the instance it was linked into, and the
// runtime's memory never shrinks: only a whole runtime, let go, gives its memory back.)
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { basename, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { compileFunction } from "node:vm";
import { brotliDecompressSync } from "node:zlib";
import type { Language, Parser, Query } from "web-tree-sitter";
import manifest from "./grammars.json" with { type: "json" };
import { followGrammarIdle, type GrammarIdleSettings, IdleTracker } from "./idle-grammars.js";

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

/**
 * The runtime's JavaScript: web-tree-sitter's CommonJS build, which the build ships compressed beside the grammars
 * (tests read it from node_modules). It is evaluated anew for each runtime: a module's state (the WebAssembly
 * instance and its memory) lives as long as the module, and an ES module, once imported, lives as long as the
 * process.
 */
async function runtimeSource(): Promise<{ source: string; filename: string }> {
  const name = `${manifest.runtime.script}.br`;
  for (const dir of ["./grammars/", "../grammars/"]) {
    const filename = fileURLToPath(new URL(dir + name, import.meta.url));
    const compressed = await readFile(filename).catch(() => undefined);
    if (compressed) return { source: brotliDecompressSync(compressed).toString("utf8"), filename };
  }
  const filename = createRequire(import.meta.url).resolve(manifest.runtime.package);
  return { source: await readFile(filename, "utf8"), filename };
}

/** A fresh copy of web-tree-sitter's module: its own classes and its own (not yet initialised) runtime. */
function evaluate(source: string, filename: string): Runtime {
  const module = { exports: {} as Runtime };
  const run = compileFunction(source, ["exports", "require", "module", "__filename", "__dirname"], {
    filename,
  });
  run(module.exports, createRequire(filename), module, filename, dirname(filename));
  return module.exports;
}

/** One runtime: its module, and each grammar's language linked into it (kept while the runtime lives). */
interface Generation {
  readonly runtime: Promise<Runtime>;
  readonly languages: Map<GrammarName, Promise<Language>>;
}

let generation: Generation | undefined;

/** The current runtime, loaded and initialised on first use; rejects (every time) when it cannot load. */
function currentGeneration(): Generation {
  generation ??= {
    runtime: (async () => {
      const [{ source, filename }, wasmBinary] = await Promise.all([
        runtimeSource(),
        wasmBytes(manifest.runtime),
      ]);
      const module = evaluate(source, filename);
      await module.Parser.init({ wasmBinary });
      return module;
    })(),
    languages: new Map(),
  };
  return generation;
}

/** A loaded grammar: its language, one parser set to it, and its compiled queries. */
export interface LoadedGrammar {
  readonly language: Language;
  readonly parser: Parser;
  /** A query over this grammar, compiled once per source text; throws when the query does not compile. */
  query(source: string): Query;
  /** Delete the parser and the queries (the grammar was let go). */
  delete(): void;
}

const loading = new Map<GrammarName, Promise<LoadedGrammar | undefined>>();
const failureListeners = new Set<(name: GrammarName, error: unknown) => void>();
const releaseListeners = new Set<(name: GrammarName) => void>();

/** Be told when a grammar (or the runtime) fails to load: its language then has no outline. Returns an unsubscribe. */
export function onGrammarFailure(listener: (name: GrammarName, error: unknown) => void): () => void {
  failureListeners.add(listener);
  return () => failureListeners.delete(listener);
}

/**
 * Be told when a grammar is let go (idle): every tree parsed with it must be forgotten then, before its parser is
 * deleted. Returns an unsubscribe.
 */
export function onGrammarRelease(listener: (name: GrammarName) => void): () => void {
  releaseListeners.add(listener);
  return () => releaseListeners.delete(listener);
}

/** Settled loads: the grammar, or null when it failed. */
const settled = new Map<GrammarName, LoadedGrammar | null>();
/** Loads not settled yet: the runtime is not let go while one is under way. */
let pending = 0;

/** Load a grammar (once, until it is let go); resolves to undefined when it cannot load. Never rejects. */
export function loadGrammar(name: GrammarName): Promise<LoadedGrammar | undefined> {
  let load = loading.get(name);
  if (!load) {
    pending++;
    load = (async () => {
      let loaded: LoadedGrammar | undefined;
      try {
        const { runtime, languages } = currentGeneration();
        const ts = await runtime;
        let language = languages.get(name);
        if (!language) {
          language = (async () => ts.Language.load(await wasmBytes(manifest.grammars[name])))();
          languages.set(name, language);
        }
        loaded = grammarOf(ts, await language);
      } catch (error) {
        loaded = undefined;
        for (const listener of failureListeners) listener(name, error);
      }
      pending--;
      settled.set(name, loaded ?? null);
      if (loaded) idle.used(name);
      return loaded;
    })();
    loading.set(name, load);
  }
  return load;
}

/** A parser set to `language` and its queries, compiled once per source text. */
function grammarOf(ts: Runtime, language: Language): LoadedGrammar {
  const parser = new ts.Parser();
  parser.setLanguage(language);
  const queries = new Map<string, Query>();
  return {
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
    delete() {
      for (const query of queries.values()) query.delete();
      queries.clear();
      parser.delete();
    },
  };
}

/**
 * A grammar without waiting, to use now (which keeps it loaded a while longer): the loaded grammar, `null` when its
 * load failed, undefined when it was never asked for, is still loading or was let go.
 */
export function grammarNow(name: GrammarName): LoadedGrammar | null | undefined {
  const grammar = settled.get(name);
  if (grammar) idle.used(name);
  return grammar;
}

/** Whether a grammar is loaded (`null`: its load failed), without counting as a use. */
export function grammarLoaded(name: GrammarName): boolean | null {
  const grammar = settled.get(name);
  return grammar === null ? null : grammar !== undefined;
}

/** Names of the grammars loaded (for the bench and the status). */
export function loadedGrammars(): GrammarName[] {
  return [...settled].filter(([, grammar]) => grammar).map(([name]) => name);
}

/** Whether a runtime is loaded (or loading). */
export function runtimeLoaded(): boolean {
  return generation !== undefined;
}

/**
 * Let grammars go: their trees (the listeners forget them), their parsers and queries; the runtime too once no
 * grammar is loaded nor loading. The idle policy calls this; tests may.
 */
export function releaseGrammars(names: readonly GrammarName[]): void {
  for (const name of names) {
    const grammar = settled.get(name);
    if (!grammar) continue;
    for (const listener of releaseListeners) listener(name);
    settled.delete(name);
    loading.delete(name);
    idle.forget(name);
    grammar.delete();
  }
  if (generation && pending === 0 && loadedGrammars().length === 0) {
    generation = undefined;
    policy.afterRelease();
  }
}

let policy: GrammarIdleSettings;
const idle = new IdleTracker<GrammarName>(releaseGrammars, { idleMs: 0 });
followGrammarIdle((settings) => {
  policy = settings;
  idle.idleMs = settings.idleMs;
});
