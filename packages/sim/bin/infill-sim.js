#!/usr/bin/env node
// The `infill-sim` command. The CLI is built into dist/; this small file is committed so that the command exists
// before any build, and `pnpm install` in a fresh clone links it without a warning.
import { existsSync } from "node:fs";

const cli = new URL("../dist/cli.js", import.meta.url);
if (!existsSync(cli)) {
  process.stderr.write(
    "infill-sim: the CLI is not built (dist/cli.js is missing): run `npx --yes pnpm@10 build` in the repository\n",
  );
  process.exit(1);
}
await import(cli.href);
