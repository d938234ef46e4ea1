import {
  ApiError,
  AuthenticationError,
  ConnectionError,
  FimError,
  InsufficientBalanceError,
  ValidationError,
} from "./errors.js";
import { ProviderClient } from "./provider-client.js";
import { isProviderName, PROVIDER_INFO, PROVIDER_NAMES, type ProviderName } from "./providers/info.js";

// What `infill complete` and `infill batch` share: the flags that choose a provider and build its client, and the
// one-line messages (with advice) of its errors.

/** parseArgs options of the provider flags. */
export const PROVIDER_FLAGS = {
  provider: { type: "string" },
  model: { type: "string" },
  "base-url": { type: "string" },
  "api-key-env": { type: "string" },
  "allow-insecure-http": { type: "boolean" },
} as const;

/** The provider flags' lines of a command's --help. */
export const PROVIDER_HELP = `  --provider NAME          ${PROVIDER_NAMES.join(", ")} (default deepseek)
  --model ID               model id (default: the provider's, e.g. ${PROVIDER_INFO.deepseek.defaultModel},
                           ${PROVIDER_INFO.ollama.defaultModel}, ${PROVIDER_INFO.codestral.defaultModel})
  --base-url URL           API base (default $INFILL_BASE_URL, else the provider's: ${PROVIDER_INFO.deepseek.defaultBaseURL},
                           ${PROVIDER_INFO.ollama.defaultBaseURL}, ${PROVIDER_INFO.llamacpp.defaultBaseURL}, ${PROVIDER_INFO.codestral.defaultBaseURL})
  --api-key-env NAME       environment variable holding the key (default: DEEPSEEK_API_KEY for deepseek,
                           CODESTRAL_API_KEY for codestral, none for the others)
  --allow-insecure-http    allow plain http to a host other than this machine
`;

/** The provider flags as parseArgs read them. */
export interface ProviderFlagValues {
  provider?: string | undefined;
  model?: string | undefined;
  "base-url"?: string | undefined;
  "api-key-env"?: string | undefined;
  "allow-insecure-http"?: boolean | undefined;
}

/**
 * The client the provider flags ask for (`--model` is left to the requests, so that messages about it name it).
 * @throws {UsageError} for an unknown provider; {ValidationError} for a bad flag value (see failWith).
 */
export function clientFromFlags(values: ProviderFlagValues, userAgent: string): ProviderClient {
  const provider = values.provider ?? "deepseek";
  if (!isProviderName(provider)) {
    throw new UsageError(`--provider must be one of ${PROVIDER_NAMES.join(", ")}, got ${provider}`);
  }
  return new ProviderClient({
    provider,
    baseURL: values["base-url"],
    apiKeyEnv: values["api-key-env"],
    allowInsecureHttp: values["allow-insecure-http"] ?? false,
    userAgent,
  });
}

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

/** A command line that cannot be carried out: exit status 2, its message on stderr. */
export class UsageError extends Error {}

/**
 * Prints what went wrong as one line on stderr, with advice for the provider where there is some.
 * @returns the exit status: 2 for usage and validation errors, 1 for API and network errors.
 */
export function failWith(error: unknown, client?: ProviderClient, model?: string): number {
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

/** Prints `infill: MESSAGE` as one line on stderr. @returns `code`. */
export function fail(code: number, message: string): number {
  // One line, whatever the message (parseArgs' own span several).
  process.stderr.write(`infill: ${message.replace(/\s*\n\s*/g, " ")}\n`);
  return code;
}
