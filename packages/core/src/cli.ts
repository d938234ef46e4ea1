#!/usr/bin/env node
import { readFile } from "node:fs/promises";
import { parseArgs } from "node:util";
import {
  ApiError,
  AuthenticationError,
  ConnectionError,
  FimError,
  InsufficientBalanceError,
  ValidationError,
} from "./errors.js";
import { splitAt } from "./position.js";
import { ProviderClient } from "./provider-client.js";
import type { FimRequest } from "./providers/fim-request.js";
import { isProviderName, PROVIDER_INFO, PROVIDER_NAMES, type ProviderName } from "./providers/info.js";
import { runUsageCommand } from "./usage-command.js";
import { VERSION } from "./version.js";

const HELP = `Usage: infill complete (--prompt TEXT [--suffix TEXT] | --file FILE --line N --character N) [options]
       infill usage [--by language|model|context] [--month YYYY-MM] [--json]   (see infill usage --help)

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
  --provider NAME          ${PROVIDER_NAMES.join(", ")} (default deepseek)
  --model ID               model id (default: the provider's, e.g. ${PROVIDER_INFO.deepseek.defaultModel},
                           ${PROVIDER_INFO.ollama.defaultModel}, ${PROVIDER_INFO.codestral.defaultModel})
  --max-tokens N           most tokens to generate, 1–4096
  --temperature T          sampling temperature, 0–2
  --base-url URL           API base (default $INFILL_BASE_URL, else the provider's: ${PROVIDER_INFO.deepseek.defaultBaseURL},
                           ${PROVIDER_INFO.ollama.defaultBaseURL}, ${PROVIDER_INFO.llamacpp.defaultBaseURL}, ${PROVIDER_INFO.codestral.defaultBaseURL})
  --api-key-env NAME       environment variable holding the key (default: DEEPSEEK_API_KEY for deepseek,
                           CODESTRAL_API_KEY for codestral, none for the others)
  --allow-insecure-http    allow plain http to a host other than this machine
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
  provider: { type: "string" },
  model: { type: "string" },
  "max-tokens": { type: "string" },
  temperature: { type: "string" },
  "base-url": { type: "string" },
  "api-key-env": { type: "string" },
  "allow-insecure-http": { type: "boolean" },
  help: { type: "boolean", short: "h" },
  version: { type: "boolean", short: "v" },
} as const;

/** Request fields and client options as the user spelled them on the command line. */
const FLAG_BY_FIELD: Record<string, string> = {
  model: "--model",
  prompt: "--prompt",
  suffix: "--suffix",
  max_tokens: "--max-tokens",
  temperature: "--temperature",
  baseURL: "--base-url",
  apiKeyEnv: "--api-key-env",
};

class UsageError extends Error {}

// A reader that stops early (`infill complete … --stream | head -c 2`) closes the pipe: the rest of the output is
// unwanted, not a failure, so exit 0 at once (as the reader got what it asked for). Without this listener the EPIPE
// is an unhandled 'error' event that crashes with a stack trace.
process.stdout.on("error", (error: NodeJS.ErrnoException) => {
  process.exit(error.code === "EPIPE" ? 0 : fail(1, `cannot write the output: ${error.message}`));
});

async function main(argv: string[]): Promise<number> {
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

  const provider = values.provider ?? "deepseek";
  if (!isProviderName(provider)) {
    return fail(2, `--provider must be one of ${PROVIDER_NAMES.join(", ")}, got ${provider}`);
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
    client = new ProviderClient({
      provider,
      baseURL: values["base-url"],
      apiKeyEnv: values["api-key-env"],
      allowInsecureHttp: values["allow-insecure-http"] ?? false,
      userAgent: `infill-cli/${VERSION}`,
    });
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

function failWith(error: unknown, client?: ProviderClient, model?: string): number {
  if (error instanceof UsageError) return fail(2, error.message);
  if (error instanceof ValidationError) return fail(2, flagMessage(error));
  if (error instanceof ApiError) {
    const advice = client && adviceFor(error, client.provider, client.apiKeyEnv, model);
    return fail(1, advice ? `${withId(error)} — ${advice}` : withId(error));
  }
  if (error instanceof ConnectionError && client) {
    const running = LOCAL_SERVER[client.provider];
    const hint = running && /ECONNREFUSED/.test(error.message) ? ` — is ${running} running?` : "";
    return fail(1, `${error.message} (base URL ${client.baseURL})${hint}`);
  }
  if (error instanceof FimError) return fail(1, error.message);
  return fail(1, `unexpected error: ${error instanceof Error ? error.message : String(error)}`);
}

/** What serves the local providers, for a refused connection. */
const LOCAL_SERVER: Partial<Record<ProviderName, string>> = {
  ollama: "Ollama (ollama serve)",
  llamacpp: "llama-server",
};

/** What to do about an API error, when there is something to say. */
function adviceFor(
  error: ApiError,
  provider: ProviderName,
  apiKeyEnv: string | undefined,
  model: string | undefined,
): string | undefined {
  if (error instanceof AuthenticationError) return `check ${apiKeyEnv ?? "--api-key-env"}`;
  if (error instanceof InsufficientBalanceError && provider === "deepseek")
    return "top up your DeepSeek balance";
  if (error.reason === "model-not-found") {
    return provider === "ollama" ? `run ollama pull ${model ?? "<model>"}` : "check --model";
  }
  if (error.reason === "fim-unsupported") {
    if (provider === "llamacpp")
      return "start llama-server with a model that has FIM tokens (e.g. Qwen2.5-Coder)";
    if (provider === "ollama") {
      return `pick a model whose template takes a suffix (e.g. ${PROVIDER_INFO.ollama.defaultModel})`;
    }
    return "this host or model cannot fill in the middle; pick one that takes suffix";
  }
  return undefined;
}

function withId(error: ApiError): string {
  return error.requestId ? `${error.message} (request id ${error.requestId})` : error.message;
}

/** "invalid request: max_tokens must be …" → "--max-tokens must be …". */
function flagMessage(error: ValidationError): string {
  return error.message
    .replace(/^invalid request: /, "")
    .split("; ")
    .map((part) => {
      const field = /^[\w.[\]]+/.exec(part)?.[0] ?? "";
      const flag = FLAG_BY_FIELD[field];
      return flag ? flag + part.slice(field.length) : part;
    })
    .join("; ");
}

function fail(code: number, message: string): number {
  // One line, whatever the message (parseArgs' own span several).
  process.stderr.write(`infill: ${message.replace(/\s*\n\s*/g, " ")}\n`);
  return code;
}

process.exitCode = await main(process.argv.slice(2));
