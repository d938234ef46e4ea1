// The infill/typeDefinitions overhead alone: `node bench/run.mjs type-definitions` (the whole `pnpm bench` runs it too).
import { printSummary } from "./harness.js";
import { typeDefinitionsBench } from "./type-definitions.js";

await typeDefinitionsBench();
printSummary();
