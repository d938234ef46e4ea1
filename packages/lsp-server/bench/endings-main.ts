// Syntax-aware endings' cost alone: `node bench/run.mjs endings` (the whole `pnpm bench` runs it too).
import { endingsBench } from "./endings.js";
import { printSummary } from "./harness.js";

await endingsBench();
printSummary();
