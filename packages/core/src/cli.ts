#!/usr/bin/env node
import { readFile } from "node:fs/promises";
import { parseArgs } from "node:util";
import { runBatchCommand } from "./batch-command.js";
import {
  clientFromFlags,
  fail,
  failWith,
  PROVIDER_FLAGS,
  PROVIDER_HELP,
  UsageError,
} from "./cli-provider.js";
import { splitAt } from "./position.js";
import type { ProviderClient } from "./provider-client.js";
import type { FimRequest } from "./providers/fim-request.js";
import { runUsageCommand } from "./usage-command.js";
import { VERSION } from "./version.js";

const HELP = `Usage: infill complete (--prompt TEXT [--suffix TEXT] | --file FILE --line N --character N) [options]
       infill batch [IN.jsonl] [-o OUT.jsonl] [options]                              (see infill batch --help)
       infill usage [--by language|model|context|kind] [--month YYYY-MM] [--json]   (see infill usage --help)

Asks a FIM provider (by default DeepSeek's FIM Completion API) for the text between a prompt and a
suffix, and prints it.

Input (one of):
  --prompt TEXT            text before the cursor
  --suffix TEXT            text after the cursor (with --prompt)
  --file FILE              split FILE at a position into prompt and suffix, with
  --line N                 0-based line of the cursor
  --character N            0-based UTF-16 column of the cursor

Options:
  --stream                 print the text as it arrives
  --json                   print the full response as JSON (with --stream: one chunk per line)
${PROVIDER_HELP}  --max-tokens N           most tokens to generate, 1–4096
  --temperature T          sampling temperature, 0–2
  -h, --help               show this help
  -v, --version            show the version

Environment:
  DEEPSEEK_API_KEY         DeepSeek's API key (sent as a Bearer token)
  CODESTRAL_API_KEY        Codestral's API key
  INFILL_BASE_URL          API base when --base-url is not given
  HTTPS_PROXY, NO_PROXY    proxy settings

Exit status: 0 on success (also when the reader of the output stops early), 1 for API or network errors,
2 for usage errors.
`;

const OPTIONS = {
  prompt: { type: "string" },
  suffix: { type: "string" },
  file: { type: "string" },
  line: { type: "string" },
  character: { type: "string" },
  stream: { type: "boolean" },
  json: { type: "boolean" },
  ...PROVIDER_FLAGS,
  "max-tokens": { type: "string" },
  temperature: { type: "string" },
  help: { type: "boolean", short: "h" },
  version: { type: "boolean", short: "v" },
} as const;

// A reader that stops early (`infill complete … --stream | head -c 2`) closes the pipe: the rest of the output is
// unwanted, not a failure, so exit 0 at once (as the reader got what it asked for). Without this listener the EPIPE
// is an unhandled 'error' event that crashes with a stack trace.
process.stdout.on("error", (error: NodeJS.ErrnoException) => {
  process.exit(error.code === "EPIPE" ? 0 : fail(1, `cannot write the output: ${error.message}`));
});

async function main(argv: string[]): Promise<number> {
  if (argv[0] === "batch") return runBatchCommand(argv.slice(1));
  if (argv[0] === "usage") {
    const { code, stdout, stderr } = await runUsageCommand(argv.slice(1));
    process.stdout.write(stdout);
    process.stderr.write(stderr);
    return code;
  }
  let parsed: ReturnType<
    typeof parseArgs<{ args: string[]; options: typeof OPTIONS; allowPositionals: true }>
  >;
  try {
    parsed = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
  } catch (error) {
    return fail(2, `${(error as Error).message}; see infill --help`);
  }
  const { values, positionals } = parsed;
  if (values.help) {
    process.stdout.write(HELP);
    return 0;
  }
  if (values.version) {
    process.stdout.write(`${VERSION}\n`);
    return 0;
  }
  if (positionals[0] !== "complete" || positionals.length > 1) {
    const what =
      positionals.length === 0 ? "a command is required" : `unknown command: ${positionals.join(" ")}`;
    return fail(2, `${what}; usage: infill complete --prompt TEXT (see infill --help)`);
  }

  let request: FimRequest;
  let client: ProviderClient;
  try {
    request = {
      ...(values.model === undefined ? {} : { model: values.model }),
      ...(await readInput(values)),
    };
    if (values["max-tokens"] !== undefined) request.max_tokens = parseNumber(values["max-tokens"]);
    if (values.temperature !== undefined) request.temperature = parseNumber(values.temperature);
    client = clientFromFlags(values, `infill-cli/${VERSION}`);
  } catch (error) {
    return failWith(error);
  }

  // --json prints what the provider sent (its response, or each stream item), not our reading of it.
  try {
    if (values.stream) {
      for await (const chunk of client.stream(request)) {
        process.stdout.write(values.json ? `${JSON.stringify(chunk.raw)}\n` : chunk.text);
      }
      if (!values.json) process.stdout.write("\n");
    } else {
      const completion = await client.complete(request);
      process.stdout.write(values.json ? `${JSON.stringify(completion.raw)}\n` : `${completion.text}\n`);
    }
    return 0;
  } catch (error) {
    if (values.stream && !values.json) process.stdout.write("\n");
    return failWith(error, client, request.model ?? client.model);
  }
}

async function readInput(values: {
  prompt?: string | undefined;
  suffix?: string | undefined;
  file?: string | undefined;
  line?: string | undefined;
  character?: string | undefined;
}): Promise<{ prompt: string; suffix?: string }> {
  if (values.file !== undefined) {
    if (values.prompt !== undefined || values.suffix !== undefined) {
      throw new UsageError("--file cannot be combined with --prompt or --suffix");
    }
    if (values.line === undefined || values.character === undefined) {
      throw new UsageError("--file needs --line and --character (0-based)");
    }
    const line = parseIndex("--line", values.line);
    const character = parseIndex("--character", values.character);
    let text: string;
    try {
      text = await readFile(values.file, "utf8");
    } catch (error) {
      throw new UsageError(`cannot read ${values.file}: ${(error as NodeJS.ErrnoException).code ?? error}`);
    }
    try {
      return splitAt(text, line, character);
    } catch (error) {
      throw new UsageError(`${values.file}: ${(error as Error).message}`);
    }
  }
  if (values.line !== undefined || values.character !== undefined) {
    throw new UsageError("--line and --character go with --file");
  }
  if (values.prompt === undefined) throw new UsageError("--prompt TEXT or --file FILE is required");
  return values.suffix === undefined
    ? { prompt: values.prompt }
    : { prompt: values.prompt, suffix: values.suffix };
}

function parseIndex(flag: string, value: string): number {
  if (!/^\d+$/.test(value))
    throw new UsageError(`${flag} must be a non-negative integer (0-based), got ${value}`);
  return Number(value);
}

/** Leaves range and integer checks to the request schema, whose message the flag name is put into. */
function parseNumber(value: string): number {
  return value.trim() === "" ? Number.NaN : Number(value);
}

process.exitCode = await main(process.argv.slice(2));
