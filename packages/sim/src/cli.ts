#!/usr/bin/env node
import { parseCliArgs, USAGE } from "./cli-args.js";
import { startSim } from "./server.js";
import { VERSION } from "./version.js";

const command = parseCliArgs(process.argv.slice(2));
if (command.kind === "help") {
  process.stdout.write(USAGE);
} else if (command.kind === "version") {
  process.stdout.write(`${VERSION}\n`);
} else if (command.kind === "error") {
  process.stderr.write(`infill-sim: ${command.message}\n`);
  process.exitCode = 2;
} else {
  try {
    // Nobody can read the request log of a CLI process: keep none, so memory stays flat.
    const sim = await startSim({ ...command.options, keepRequests: 0 });
    process.stdout.write(`${sim.url}\n`);
    const stop = (): void => {
      // Closing ends every connection and timer, so the process exits on its own with code 0.
      sim.close().catch(() => {
        process.exitCode = 1;
      });
    };
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
  } catch (error) {
    process.stderr.write(`infill-sim: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  }
}
