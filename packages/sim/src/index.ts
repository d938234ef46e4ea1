export type { Fault } from "./faults.js";
export { parseFaults } from "./faults.js";
export type { Sim, SimOptions, SimRequest } from "./server.js";
export { startSim } from "./server.js";
