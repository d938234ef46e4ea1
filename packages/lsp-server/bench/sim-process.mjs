// @infill/sim in a process of its own, so that neither side of a comparison shares an event loop with it.
// Its options come as JSON in the first argument (default none). Prints its URL; on a "dump" line on stdin, prints
// the JSON bodies of every request it has received; on a "since" line, those received since the last "since".
import { createInterface } from "node:readline";
import { startSim } from "@infill/sim";

let told = 0;

const sim = await startSim(JSON.parse(process.argv[2] ?? "{}"));
process.stdout.write(`${sim.url}\n`);
for await (const line of createInterface({ input: process.stdin })) {
  if (line === "dump") process.stdout.write(`${JSON.stringify(sim.requests.map((r) => r.body))}\n`);
  if (line === "since") {
    process.stdout.write(`${JSON.stringify(sim.requests.slice(told).map((r) => r.body))}\n`);
    told = sim.requests.length;
  }
}
await sim.close();
