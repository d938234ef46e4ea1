import { assertSecureBaseURL } from "./base-url.js";
import { checkTimeoutMs } from "./call-scope.js";
import { ValidationError } from "./errors.js";
import { type CheckedFimRequest, checkFimRequest, type FimRequest } from "./providers/fim-request.js";
import { isProviderName } from "./providers/info.js";
import { OLLAMA_DEFAULT_KEEP_ALIVE } from "./providers/ollama.js";
import type { FimChunk, FimCompletion, Provider, ProviderName, ReadContext } from "./providers/provider.js";
import { PROVIDERS } from "./providers/registry.js";
import type { StreamFormat } from "./stream-decoder.js";
import {
  type ClientOptions,
  checkApiKey,
  checkMaxRetries,
  type RequestOptions,
  Transport,
} from "./transport.js";

/** Options of `new ProviderClient()`. Every one is optional. */
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
   * server serves the model it loaded.
   */
  model?: string | undefined;
  /**
   * Ollama only: `keep_alive`, how long the model stays loaded after a request (`"30m"`, `"-1"` for ever, `0`).
   * Default `"30m"`; `null` sends none, so the Ollama server's own setting applies.
   */
  keepAlive?: string | number | null | undefined;
}

/**
 * One client for every FIM provider: DeepSeek, OpenAI-compatible hosts, Ollama, llama.cpp and Codestral, with the
 * guarantees of FimClient (a request checked before any I/O, typed errors by status, retries with `Retry-After`,
 * abort and timeout, keep-alive pooling, the key never in a message, plain http refused off loopback) and one
 * shape of answer whatever the provider.
 *
 * ```ts
 * const client = new ProviderClient({ provider: "ollama" }); // http://127.0.0.1:11434
 * const { text, usage } = await client.complete({ model: "qwen2.5-coder:1.5b-base", prompt, suffix });
 * for await (const chunk of client.stream({ model, prompt, suffix })) process.stdout.write(chunk.text);
 * ```
 */
export class ProviderClient {
  /** The provider's name. */
  readonly provider: ProviderName;
  /** How people call it: `DeepSeek`, `Ollama`, `llama.cpp`, `Codestral`, `the OpenAI-compatible host`. */
  readonly label: string;
  /** The normalised base, e.g. `http://127.0.0.1:11434`. */
  readonly baseURL: string;
  /** The model of requests that name none, when there is one. */
  readonly model: string | undefined;
  /** The environment variable the key came from (or would have), when the key was not passed; for messages. */
  readonly apiKeyEnv: string | undefined;
  /** Default bound on a whole call (ms). */
  readonly timeoutMs: number;
  /** Retries after the first attempt. */
  readonly maxRetries: number;

  readonly #adapter: Provider;
  readonly #transport: Transport;
  readonly #keepAlive: string | number | undefined;

  /** @throws {ValidationError} for a bad option (field names the option); never for a missing key. */
  constructor(options: ProviderClientOptions = {}) {
    const name = options.provider ?? "deepseek";
    if (!isProviderName(name)) {
      throw new ValidationError("provider", `provider must be one of ${Object.keys(PROVIDERS).join(", ")}`);
    }
    const adapter = PROVIDERS[name];
    this.#adapter = adapter;
    this.provider = name;
    this.label = adapter.label;
    if (options.model !== undefined && (typeof options.model !== "string" || options.model === "")) {
      throw new ValidationError("model", "model must be a non-empty string");
    }
    this.model = options.model ?? adapter.defaultModel;

    this.apiKeyEnv = options.apiKey === undefined ? (options.apiKeyEnv ?? adapter.apiKeyEnv) : undefined;
    if (options.apiKeyEnv !== undefined && !/^[A-Za-z_][A-Za-z0-9_]*$/.test(options.apiKeyEnv)) {
      // Not quoted: a key pasted where its variable's name belongs must not end up in a message.
      throw new ValidationError(
        "apiKeyEnv",
        "apiKeyEnv must be the name of an environment variable (letters, digits and _), not the key itself",
      );
    }
    const apiKey = checkApiKey(
      options.apiKey ?? (this.apiKeyEnv === undefined ? undefined : process.env[this.apiKeyEnv]),
      options.apiKey === undefined ? (this.apiKeyEnv ?? "apiKey") : "apiKey",
    );

    const base = options.baseURL ?? (process.env.INFILL_BASE_URL || adapter.defaultBaseURL);
    if (base === undefined) {
      throw new ValidationError(
        "baseURL",
        `${name} needs a baseURL, the API base of the host (e.g. https://api.siliconflow.cn/v1)`,
      );
    }
    this.baseURL = adapter.normalizeBaseURL(
      base,
      options.baseURL === undefined && process.env.INFILL_BASE_URL ? "INFILL_BASE_URL" : "baseURL",
    );
    assertSecureBaseURL(this.baseURL, options.allowInsecureHttp ?? false);
    this.timeoutMs = checkTimeoutMs(options.timeoutMs ?? 60_000);
    this.maxRetries = checkMaxRetries(options.maxRetries);
    this.#keepAlive =
      name === "ollama"
        ? options.keepAlive === undefined
          ? OLLAMA_DEFAULT_KEEP_ALIVE
          : (options.keepAlive ?? undefined)
        : undefined;
    this.#transport = new Transport({
      endpoint: this.baseURL + adapter.endpoint,
      apiKey,
      timeoutMs: this.timeoutMs,
      maxRetries: this.maxRetries,
      dispatcher: options.dispatcher,
      userAgent: options.userAgent,
      streamAccept: adapter.streamType,
      errorSource: adapter,
    });
  }

  /**
   * Creates a completion and waits for the whole of it.
   *
   * @throws {ValidationError} before any I/O, for a request that is not a FimRequest (field names the culprit).
   * @throws {ApiError} (a subclass per status; `reason` when the provider says more) once retries are exhausted or
   *   for a status that is not retried.
   * @throws {ResponseValidationError} for a 2xx body that does not fit the provider's format.
   * @throws {ConnectionError} | {TimeoutError} | {AbortError}
   */
  async complete(request: FimRequest, options?: RequestOptions): Promise<FimCompletion> {
    const adapter = this.#adapter;
    const secret = this.#transport.secret;
    return this.#transport.call(this.#body(request, false), options, (text, status) =>
      adapter.readResponse(text, { status, secret }),
    );
  }

  /**
   * Streams a completion, yielding each piece as it arrives. Nothing is sent until iteration starts; leaving the
   * loop early aborts the request at once; retries happen only before the response starts. The stream ends at the
   * provider's end (`[DONE]`, `stop: true`, `done: true`); a body that ends before it throws ConnectionError. An
   * SSE provider that answers with another content type has its body read as complete() would, and yielded as
   * the only chunk.
   *
   * @throws like complete().
   */
  async *stream(request: FimRequest, options?: RequestOptions): AsyncGenerator<FimChunk, void, undefined> {
    const adapter = this.#adapter;
    const secret = this.#transport.secret;
    yield* this.#transport.stream(this.#body(request, true), options, {
      format: (status) => streamFormat(adapter, { status, secret }),
      whole(text, status) {
        const { text: piece, finish_reason, usage, raw } = adapter.readResponse(text, { status, secret });
        return { text: piece, finish_reason, usage, raw };
      },
    });
  }

  /**
   * Opens a connection to the provider now (DNS, TCP, TLS), so that the next request does not wait for it; call it
   * when a request is likely soon. Sends no request. Resolves true once a connection was opened; false when the
   * pool already holds one, with a `dispatcher` of the caller's, behind a proxy, or when connecting failed (the next
   * request then reports what is wrong). Never rejects.
   */
  preconnect(): Promise<boolean> {
    return this.#transport.preconnect();
  }

  /**
   * Checks a request as complete() and stream() do before sending it (the client's model filled in where it names
   * none), without sending anything: for a caller that validates many requests before the first is sent.
   *
   * @throws {ValidationError} naming the first offending field.
   */
  check(request: FimRequest): void {
    this.#checked(request);
  }

  #checked(request: FimRequest): CheckedFimRequest {
    const adapter = this.#adapter;
    const model = this.model;
    const named = typeof request !== "object" || request === null || request.model !== undefined;
    return checkFimRequest(
      model === undefined || named ? request : { ...request, model },
      adapter.name,
      adapter.requiresModel ? (adapter.defaultModel ?? "the model id the host serves") : undefined,
    );
  }

  #body(request: FimRequest, streaming: boolean): string {
    const checked = this.#checked(request);
    return JSON.stringify(this.#adapter.body(checked, streaming, { keepAlive: this.#keepAlive }));
  }
}

function streamFormat(adapter: Provider, context: ReadContext): StreamFormat<FimChunk> {
  const readErrorField = adapter.readErrorField;
  return {
    framing: adapter.framing,
    end: adapter.streamEnd,
    read: (data) => adapter.readStreamItem(data, context),
    ...(readErrorField ? { fieldError: (value: string) => readErrorField(value, context) } : {}),
  };
}
