/**
 * Version of `@infill/core`, sent in the default `User-Agent` (`infill/<VERSION>`).
 *
 * A literal rather than a read of package.json so that bundlers (the LSP server is bundled with esbuild) keep
 * it; `test/metadata.test.ts` (at the repository root) fails when it drifts from package.json.
 */
export const VERSION = "0.0.0";
