// The command line: `--version`, `--help`, or the server over stdio. Loaded by bin.ts once V8's flags are set.
import { SERVER_VERSION, startServer } from "./protocol/connection.js";

const args = process.argv.slice(2);
if (args.includes("--version") || args.includes("-v")) {
  process.stdout.write(`${SERVER_VERSION}\n`);
} else if (args.includes("--help") || args.includes("-h")) {
  // Loaded only here: the README (inlined by the bundler) and its reader stay out of the server's start-up.
  void Promise.all([import("./help.js"), import("../README.md")]).then(([{ usage }, { default: readme }]) => {
    process.stdout.write(usage(SERVER_VERSION, readme));
  });
} else {
  const unknown = args.filter((arg) => arg !== "--stdio" && !arg.startsWith("--clientProcessId"));
  if (unknown.length > 0) {
    process.stderr.write(
      `infill-lsp: unknown argument ${unknown[0]} (only --stdio is supported; see infill-lsp --help)\n`,
    );
    process.exit(2);
  }
  run();
}

function run(): void {
  // A language server must outlive any single bad request: log and go on rather than take completions down.
  process.on("uncaughtException", (error) => process.stderr.write(`infill-lsp: ${error.stack ?? error}\n`));
  process.on("unhandledRejection", (error) =>
    process.stderr.write(`infill-lsp: unhandled rejection: ${error}\n`),
  );
  // The client went away: nothing left to serve.
  process.stdin.on("end", () => process.exit(0));
  process.stdout.on("error", () => process.exit(0));
  const server = startServer({
    input: process.stdin,
    output: process.stdout,
    onExit: (code) => process.exit(code),
  });
  // However the process ends, the usage counted since the last write goes to the usage log first: at exit, and on
  // the signals editors stop servers with (then the signal is raised again, so the server still dies of it).
  process.on("exit", () => server.flushUsage());
  for (const signal of ["SIGTERM", "SIGHUP", "SIGINT"] as const) {
    process.once(signal, () => {
      server.flushUsage();
      process.kill(process.pid, signal);
    });
  }
}
