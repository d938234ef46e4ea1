// The parsers' comparison alone: `node bench/run.mjs parsers` (the whole `pnpm bench` runs it too).
import { printSummary } from "./harness.js";
import { parsersBench } from "./parsers.js";

await parsersBench();
printSummary();
