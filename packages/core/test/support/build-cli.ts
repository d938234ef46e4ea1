// Vitest global setup of the core project: builds dist/ from source once, before any test file runs, for the tests
// that run the `infill` CLI as a child process (cli.test.ts, batch-cli.test.ts).
import { fileURLToPath } from "node:url";
import { buildCli } from "./cli-process.js";

export default async function setup(): Promise<void> {
  await buildCli(fileURLToPath(new URL("../..", import.meta.url)));
}
