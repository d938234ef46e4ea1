/**
 * Version of `@infill/sim`, printed by `infill-sim --version`.
 *
 * A literal rather than a read of package.json, which is not next to the compiled CLI in every layout (bundles,
 * the tests' own build); the root `test/metadata.test.ts` fails when it drifts from package.json, and
 * `scripts/sync-versions.mjs` rewrites it on release.
 */
export const VERSION = "0.0.0";
