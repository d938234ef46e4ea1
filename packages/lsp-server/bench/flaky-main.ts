// The flaky-upstream session alone: `node bench/run.mjs flaky` (the whole `pnpm bench` runs it too).
import { printSummary } from "./harness.js";
import { flakyBench } from "./resilience.js";

await flakyBench();
printSummary();
