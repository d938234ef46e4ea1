import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const src = (pkg: string, file = "index.ts") =>
  fileURLToPath(new URL(`./packages/${pkg}/src/${file}`, import.meta.url));

// Tests run on source: workspace packages resolve to their src/ entry, not to dist/.
export default defineConfig({
  resolve: {
    alias: [
      { find: /^@infill\/core$/, replacement: src("core") },
      { find: /^@infill\/core\/provider-info$/, replacement: src("core", "providers/info.ts") },
      { find: /^@infill\/core\/usage$/, replacement: src("core", "usage.ts") },
      { find: /^@infill\/core\/failure$/, replacement: src("core", "failure.ts") },
      { find: /^@infill\/sim$/, replacement: src("sim") },
    ],
  },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: "core",
          root: "packages/core",
          include: ["test/**/*.test.ts"],
          // dist/, for the tests that run the CLI as a child process.
          globalSetup: ["test/support/build-cli.ts"],
        },
      },
      { extends: true, test: { name: "sim", root: "packages/sim", include: ["test/**/*.test.ts"] } },
      {
        extends: true,
        test: { name: "lsp-server", root: "packages/lsp-server", include: ["test/**/*.test.ts"] },
      },
      // Real editors, end to end: they provision Neovim, Helix and Emacs with scripts/provision-editors.sh.
      {
        extends: true,
        test: { name: "neovim", root: "packages/neovim-plugin", include: ["test/**/*.test.ts"] },
      },
      { extends: true, test: { name: "editors", root: "editors", include: ["test/**/*.test.ts"] } },
      // The release artifacts: package metadata, and the packed tarballs installed with npm as a user would.
      { extends: true, test: { name: "publish", root: ".", include: ["test/**/*.test.ts"] } },
    ],
    testTimeout: 20_000,
    hookTimeout: 20_000,
  },
});
