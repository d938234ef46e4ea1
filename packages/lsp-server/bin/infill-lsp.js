#!/usr/bin/env -S MALLOC_ARENA_MAX=2 node --max-semi-space-size=1
// The `infill-lsp` command. The server is bundled into dist/infill-lsp.js (build.mjs); this small file is committed
// so that the command exists before any build, and `pnpm install` in a fresh clone links it without a warning. Its
// shebang, which build.mjs copies onto the bundle, carries what only a process's own command line can set (see the
// README's Build section): a 1 MB young generation, and glibc's malloc kept to two arenas.
import { existsSync } from "node:fs";

const server = new URL("../dist/infill-lsp.js", import.meta.url);
if (!existsSync(server)) {
  process.stderr.write(
    "infill-lsp: the server is not built (dist/infill-lsp.js is missing): run `npx --yes pnpm@10 build` in the repository\n",
  );
  process.exit(1);
}
await import(server.href);
