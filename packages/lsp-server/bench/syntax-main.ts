// tree-sitter's costs alone: `node bench/run.mjs syntax` (the whole `pnpm bench` runs them too).
import { startSim } from "@infill/sim";
import { printSummary } from "./harness.js";
import { syntaxBench } from "./syntax.js";

const sim = await startSim();
await syntaxBench(sim);
await sim.close();
printSummary();
