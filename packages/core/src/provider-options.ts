import { assertSecureBaseURL } from "./base-url.js";
import { checkTimeoutMs } from "./call-scope.js";
import { ValidationError } from "./errors.js";
import { isProviderName } from "./providers/info.js";
import { OLLAMA_DEFAULT_KEEP_ALIVE } from "./providers/ollama.js";
import type { Provider, ProviderName } from "./providers/provider.js";
import { PROVIDERS } from "./providers/registry.js";
import { type ClientOptions, checkApiKey, checkMaxRetries } from "./transport.js";

// The options of the clients that speak to any provider (ProviderClient for FIM, EditClient for next edits), and
// the one place they are checked: which provider, its key, its base URL, the model and the call bounds.

/** Options of `new ProviderClient()` and `new EditClient()`. Every one is optional. */
export interface ProviderClientOptions extends ClientOptions {
  /** Which provider to talk to. Default `deepseek`. */
  provider?: ProviderName | undefined;
  /**
   * The API key, sent as `Authorization: Bearer <key>`. Default: the environment variable named by `apiKeyEnv`.
   * Without a key no Authorization header is sent (right for a local Ollama or llama.cpp). Never in errors or logs.
   */
  apiKey?: string | undefined;
  /**
   * The name of the environment variable the key is read from when `apiKey` is not given. Default: the
   * provider's (`DEEPSEEK_API_KEY`, `CODESTRAL_API_KEY`; none for the others). A name, not a key: letters, digits
   * and `_`.
   */
  apiKeyEnv?: string | undefined;
  /**
   * The provider's API base; requests go to `{baseURL}{endpoint}`. Default: `process.env.INFILL_BASE_URL`, else
   * the provider's (`https://api.deepseek.com/beta`, `http://127.0.0.1:11434`, `http://127.0.0.1:8080`,
   * `https://codestral.mistral.ai/v1`; `openai-compatible` has none and needs one).
   */
  baseURL?: string | undefined;
  /**
   * The model of requests that name none. Default: the provider's (`deepseek-v4-flash`, `qwen2.5-coder:1.5b-base`,
   * `codestral-latest`); none for `openai-compatible`, whose requests must then name one, and for `llamacpp`, whose
   * server serves the model it loaded. EditClient's default is DeepSeek's only: the other providers' FIM models
   * are not edit models.
   */
  model?: string | undefined;
  /**
   * Ollama only: `keep_alive`, how long the model stays loaded after a request (`"30m"`, `"-1"` for ever, `0`).
   * Default `"30m"`; `null` sends none, so the Ollama server's own setting applies.
   */
  keepAlive?: string | number | null | undefined;
}

/** ProviderClientOptions checked, defaults filled in: what a client is built from. */
export interface ResolvedProviderOptions {
  readonly provider: ProviderName;
  /** The provider's FIM adapter: its label, defaults, base URL rules and error reasons. */
  readonly adapter: Provider;
  /** The normalised base, checked for plain http off loopback. */
  readonly baseURL: string;
  readonly model: string | undefined;
  /** The variable the key came from (or would have), when the key was not passed. */
  readonly apiKeyEnv: string | undefined;
  /** The key, trimmed and checked; undefined for none. */
  readonly apiKey: string | undefined;
  /** Milliseconds, checked by checkTimeoutMs. */
  readonly timeoutMs: number;
  readonly maxRetries: number;
  /** Ollama's `keep_alive` to send; undefined for none (and for every other provider). */
  readonly keepAlive: string | number | undefined;
}

/**
 * Checks a client's options in the order they are documented and fills in the provider's defaults.
 *
 * @param defaultModel the model of requests that name none when `options.model` is not given, from the adapter.
 * @throws {ValidationError} for a bad option (field names the option); never for a missing key, and never quoting
 *   a value that may be a key.
 */
export function resolveProviderOptions(
  options: ProviderClientOptions,
  defaultModel: (adapter: Provider) => string | undefined,
): ResolvedProviderOptions {
  const name = options.provider ?? "deepseek";
  if (!isProviderName(name)) {
    throw new ValidationError("provider", `provider must be one of ${Object.keys(PROVIDERS).join(", ")}`);
  }
  const adapter = PROVIDERS[name];
  if (options.model !== undefined && (typeof options.model !== "string" || options.model === "")) {
    throw new ValidationError("model", "model must be a non-empty string");
  }
  const apiKeyEnv = options.apiKey === undefined ? (options.apiKeyEnv ?? adapter.apiKeyEnv) : undefined;
  if (options.apiKeyEnv !== undefined && !/^[A-Za-z_][A-Za-z0-9_]*$/.test(options.apiKeyEnv)) {
    // Not quoted: a key pasted where its variable's name belongs must not end up in a message.
    throw new ValidationError(
      "apiKeyEnv",
      "apiKeyEnv must be the name of an environment variable (letters, digits and _), not the key itself",
    );
  }
  const apiKey = checkApiKey(
    options.apiKey ?? (apiKeyEnv === undefined ? undefined : process.env[apiKeyEnv]),
    options.apiKey === undefined ? (apiKeyEnv ?? "apiKey") : "apiKey",
  );
  const base = options.baseURL ?? (process.env.INFILL_BASE_URL || adapter.defaultBaseURL);
  if (base === undefined) {
    throw new ValidationError(
      "baseURL",
      `${name} needs a baseURL, the API base of the host (e.g. https://api.siliconflow.cn/v1)`,
    );
  }
  const baseURL = adapter.normalizeBaseURL(
    base,
    options.baseURL === undefined && process.env.INFILL_BASE_URL ? "INFILL_BASE_URL" : "baseURL",
  );
  assertSecureBaseURL(baseURL, options.allowInsecureHttp ?? false);
  return {
    provider: name,
    adapter,
    baseURL,
    model: options.model ?? defaultModel(adapter),
    apiKeyEnv,
    apiKey,
    timeoutMs: checkTimeoutMs(options.timeoutMs ?? 60_000),
    maxRetries: checkMaxRetries(options.maxRetries),
    keepAlive:
      name === "ollama"
        ? options.keepAlive === undefined
          ? OLLAMA_DEFAULT_KEEP_ALIVE
          : (options.keepAlive ?? undefined)
        : undefined,
  };
}
