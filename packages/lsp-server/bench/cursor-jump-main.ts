// The cursor-jump overhead alone: `node bench/run.mjs cursor-jump` (the whole `pnpm bench` runs it too).
import { cursorJumpBench } from "./cursor-jump.js";
import { printSummary } from "./harness.js";

await cursorJumpBench();
printSummary();
