import { SERVER_VERSION, startServer } from "./connection.js";

const USAGE = `infill-lsp ${SERVER_VERSION}: fill-in-the-middle completions over LSP (stdio)

Usage: infill-lsp [--stdio]

Environment:
  DEEPSEEK_API_KEY  API key for DeepSeek (required for the "deepseek" provider)
  INFILL_BASE_URL   API base URL (default https://api.deepseek.com/beta)
  INFILL_MODEL      model id (default deepseek-v4-flash)
`;

const args = process.argv.slice(2);
if (args.includes("--version") || args.includes("-v")) {
  process.stdout.write(`${SERVER_VERSION}\n`);
} else if (args.includes("--help") || args.includes("-h")) {
  process.stdout.write(USAGE);
} else {
  const unknown = args.filter((arg) => arg !== "--stdio" && !arg.startsWith("--clientProcessId"));
  if (unknown.length > 0) {
    process.stderr.write(`infill-lsp: unknown argument ${unknown[0]} (only --stdio is supported)\n`);
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
  startServer({ input: process.stdin, output: process.stdout, onExit: (code) => process.exit(code) });
}
