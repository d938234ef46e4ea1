// What following taken suggestions costs (accept inference, retention checks) alone: `node bench/run.mjs outcomes`,
// with `BENCH_BASE_BIN` set to another build's dist/infill-lsp.js to print it side by side.
import { printSummary } from "./harness.js";
import { outcomesBench } from "./outcomes.js";

console.log("following taken suggestions, by how many are pending their retention checks:");
await outcomesBench();
printSummary();
