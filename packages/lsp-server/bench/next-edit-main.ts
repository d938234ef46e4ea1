// Next edits alone: `node bench/run.mjs next-edit` (the whole `pnpm bench` runs it too).
import { printSummary } from "./harness.js";
import { nextEditBench } from "./next-edit.js";

await nextEditBench();
printSummary();
