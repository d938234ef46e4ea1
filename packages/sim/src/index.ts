export { CODESTRAL_MODELS } from "./dialects/codestral.js";
export { DIALECTS, type DialectName } from "./dialects/dialect.js";
export { LLAMACPP_MODEL } from "./dialects/llamacpp.js";
export { OLLAMA_MODELS } from "./dialects/ollama.js";
export type { Fault } from "./faults.js";
export { parseFaults } from "./faults.js";
export type { Sim, SimOptions, SimRequest } from "./server.js";
export { startSim } from "./server.js";
