import { parseArgs } from "node:util";
import { DIALECTS, type DialectName } from "./dialects/dialect.js";
import { parseFaults } from "./faults.js";
import type { SimOptions } from "./sim-options.js";

/** `infill-sim --help`. */
export const USAGE = `Usage: infill-sim [options]

A local server that behaves like DeepSeek's POST /beta/completions (FIM, beta), or another
provider's FIM endpoint. Prints its base URL (http://HOST:PORT/beta for DeepSeek) and runs until
SIGINT or SIGTERM.

Options:
  --dialect NAME     deepseek (default), openai-compatible, ollama, llamacpp or codestral
  --no-fim           the model cannot fill in the middle (llama.cpp 501, Ollama "does not support insert")
  --port N           port to listen on (default 0: a free port)
  --host H           interface to listen on (default 127.0.0.1)
  --key K            accept only this API key (default: any key or none)
  --latency-ms N     milliseconds before the first content byte (default 0)
  --token-ms N       milliseconds per generated token (default 0)
  --keep-alive       send keep-alive lines while waiting --latency-ms
  --connect-delay-ms N
                     milliseconds before a new connection is served, as TCP and TLS
                     set-up cost (default 0)
  --concurrency-limit N
                     answer 429 to a request beyond N being answered at once
                     (default: no limit)
  --tpm-limit N      answer 429 with Retry-After to a request whose prompt would take the
                     tokens answered in the last minute past N (default: no limit)
  --fail LIST        faults for the next requests, e.g. 503x2,429:retry-after=1,reset,garbage,cut:3,stream-error,slow:800
  -h, --help         show this help
  -v, --version      show the version
`;

/** What the command line asks for. */
export type CliCommand =
  | { kind: "run"; options: SimOptions }
  | { kind: "help" }
  | { kind: "version" }
  | { kind: "error"; message: string };

// setTimeout's limit.
const MAX_DELAY_MS = 2_147_483_647;

function wholeNumber(flag: string, text: string, max = Number.MAX_SAFE_INTEGER): number {
  if (!/^\d+$/.test(text) || Number(text) > max) {
    throw new Error(
      `--${flag} expects a whole number${max < Number.MAX_SAFE_INTEGER ? ` up to ${max}` : ""}, got "${text}"`,
    );
  }
  return Number(text);
}

/**
 * Reads `infill-sim`'s arguments. Never throws: a bad command line is `{ kind: "error" }` with a
 * one-line message.
 *
 * @param args - the arguments after the program name
 */
export function parseCliArgs(args: readonly string[]): CliCommand {
  try {
    const { values } = parseArgs({
      args: [...args],
      strict: true,
      allowPositionals: false,
      options: {
        dialect: { type: "string" },
        "no-fim": { type: "boolean" },
        port: { type: "string" },
        host: { type: "string" },
        key: { type: "string" },
        "latency-ms": { type: "string" },
        "token-ms": { type: "string" },
        "keep-alive": { type: "boolean" },
        "connect-delay-ms": { type: "string" },
        "concurrency-limit": { type: "string" },
        "tpm-limit": { type: "string" },
        fail: { type: "string" },
        help: { type: "boolean", short: "h" },
        version: { type: "boolean", short: "v" },
      },
    });
    if (values.help === true) return { kind: "help" };
    if (values.version === true) return { kind: "version" };
    const options: SimOptions = {};
    if (values.dialect !== undefined) {
      if (!(DIALECTS as readonly string[]).includes(values.dialect)) {
        throw new Error(`--dialect expects one of ${DIALECTS.join(", ")}, got "${values.dialect}"`);
      }
      options.dialect = values.dialect as DialectName;
    }
    if (values["no-fim"] === true) options.fim = false;
    if (values.port !== undefined) options.port = wholeNumber("port", values.port, 65535);
    if (values.host !== undefined) options.host = values.host;
    if (values.key !== undefined) options.apiKey = values.key;
    if (values["latency-ms"] !== undefined)
      options.latencyMs = wholeNumber("latency-ms", values["latency-ms"]);
    if (values["token-ms"] !== undefined) options.tokenMs = wholeNumber("token-ms", values["token-ms"]);
    if (values["keep-alive"] === true) options.keepAlive = true;
    if (values["connect-delay-ms"] !== undefined)
      options.connectDelayMs = wholeNumber("connect-delay-ms", values["connect-delay-ms"], MAX_DELAY_MS);
    if (values["concurrency-limit"] !== undefined) {
      options.concurrencyLimit = wholeNumber("concurrency-limit", values["concurrency-limit"]);
      if (options.concurrencyLimit < 1) throw new Error("--concurrency-limit must be at least 1");
    }
    if (values["tpm-limit"] !== undefined) {
      options.tokensPerMinute = wholeNumber("tpm-limit", values["tpm-limit"]);
      if (options.tokensPerMinute < 1) throw new Error("--tpm-limit must be at least 1");
    }
    if (values.fail !== undefined) options.faults = parseFaults(values.fail);
    return { kind: "run", options };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    // parseArgs's messages go on with hints over several lines; the first sentence is the point.
    const first = message.split("\n")[0]!.split(". ")[0]!.replace(/\.$/, "");
    return { kind: "error", message: `${first} (see --help)` };
  }
}
