// The memory section alone (`node bench/run.mjs memory`): it takes half a minute, the long session
// (`BENCH_MEMORY_COMPLETIONS=10000`) two minutes more.
import { printSummary } from "./harness.js";
import { memoryBench } from "./memory.js";

console.log("memory:");
await memoryBench();
printSummary();
