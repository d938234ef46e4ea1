// V8's flags for a small, long-lived process, set by the entry (bin.ts) before the rest of the bundle is loaded,
// and so however the server is started (the shebang, `node dist/infill-lsp.js` as the
// Neovim plugin and npm's Windows shims run it, an editor's own command). Flags that V8 reads once, at start-up
// (`--max-semi-space-size`), cannot be set here; each one below is read when it applies, and bench/memory.ts
// measures them.
import { setFlagsFromString } from "node:v8";

/**
 * The flags, each with why:
 *
 * - `--optimize-for-size`: V8's heap heuristics for a small footprint grow the heap by less between full
 *   collections and give memory back when idle. A session's completions each promote a little garbage to the old
 *   generation; with the default heuristics the heap grew from 20 to 50 MB before a full collection, the resident
 *   memory with it (about 4 MB per 1,000 completions); with these it stays within 16–28 MB, for about 0.2 ms more
 *   CPU time per completion.
 * - `--semi-space-growth-factor=1`: the young generation keeps the size it starts with (two 1 MB semi-spaces), as
 *   the shebang's `--max-semi-space-size=1` does, instead of doubling up to 16 MB each as the garbage of a burst
 *   survives scavenges; V8 reads the factor each time it would grow the space, so it holds when set here.
 * - `--liftoff-only`: WebAssembly stays on V8's baseline compiler. Optimising a module's hot functions (TurboFan, on
 *   background threads) leaves what those threads allocated in their own glibc malloc arenas, which glibc keeps for
 *   good: about 17 MB once tree-sitter's first grammars have parsed a while, and 6–9 MB for undici's HTTP parser. On
 *   the baseline compiler alone, tree-sitter parses about 1.5 times slower (1,000 lines of C in a few ms; the
 *   memory bench prints both, measured in the same run), which the request path does not wait on.
 */
export const V8_FLAGS = ["--optimize-for-size", "--semi-space-growth-factor=1", "--liftoff-only"] as const;

/** Set {@link V8_FLAGS}: once, before anything else is loaded. */
export function setV8Flags(): void {
  for (const flag of V8_FLAGS) setFlagsFromString(flag);
}
