import type { Dispatcher } from "undici";
import { assertSecureBaseURL, DEFAULT_BASE_URL, normalizeBaseURL } from "./base-url.js";
import { CallScope } from "./call-scope.js";
import { sharedDispatcher } from "./dispatcher.js";
import { apiErrorFromResponse, ConnectionError, type FimError, ValidationError } from "./errors.js";
import { serializeRequest } from "./request-body.js";
import { parseCompletionBody } from "./response-body.js";
import { isRetryableErrorCode, nextRetryDelay, parseRetryAfter } from "./retry.js";
import type { CompletionChunk, CompletionRequest, CompletionResponse } from "./schemas.js";
import { decodeChunks } from "./sse.js";
import { VERSION } from "./version.js";

/** Options of `new FimClient()`. Every one is optional. */
export interface FimClientOptions {
  /**
   * DeepSeek API key, sent as `Authorization: Bearer <key>`. Default: `process.env.DEEPSEEK_API_KEY`.
   * Surrounding whitespace is trimmed. Without a key no Authorization header is sent and the server decides
   * (DeepSeek answers 401; a local `@infill/sim` may accept it). The key never appears in errors or logs.
   */
  apiKey?: string | undefined;
  /**
   * API base; requests go to `{baseURL}/completions`. Default: `process.env.INFILL_BASE_URL`, else
   * `https://api.deepseek.com/beta`. A bare host gets `/beta` appended; see normalizeBaseURL.
   */
  baseURL?: string | undefined;
  /**
   * Bound on a whole call in milliseconds: every attempt, backoff sleep and, for `stream()`, the time until the
   * stream ends. Exceeding it throws TimeoutError. Default: 60_000 (60 s); `Infinity` disables it.
   */
  timeoutMs?: number | undefined;
  /** Retries after the first attempt for 429, 500, 503 and connection failures. Default: 2. */
  maxRetries?: number | undefined;
  /**
   * undici Dispatcher to send requests through (a Pool, a MockAgent, a ProxyAgent…). Default: a module-wide
   * keep-alive pool that honours HTTPS_PROXY / HTTP_PROXY / NO_PROXY.
   */
  dispatcher?: Dispatcher | undefined;
  /**
   * Product token of the calling tool, e.g. `infill-lsp/0.1.0`. It is sent before the client's own token:
   * `User-Agent: infill-lsp/0.1.0 infill/<VERSION>`. Default: just `infill/<VERSION>`.
   */
  userAgent?: string | undefined;
  /**
   * Allow plain `http://` to a host other than loopback (127.0.0.0/8, ::1, localhost). Default: false, because
   * the key and the user's code would cross the network unencrypted.
   */
  allowInsecureHttp?: boolean | undefined;
}

/** Per-call options of `complete()` and `stream()`. */
export interface RequestOptions {
  /** Cancels the call at once (the connection is closed); the call then throws AbortError. */
  signal?: AbortSignal | undefined;
  /** Overrides the client's `timeoutMs` for this call (milliseconds). */
  timeoutMs?: number | undefined;
}

type Headers = Record<string, string>;

/**
 * Typed client for DeepSeek's FIM Completion (Beta) API, `POST {baseURL}/completions`.
 *
 * ```ts
 * const client = new FimClient(); // DEEPSEEK_API_KEY from the environment
 * const request = { model: DEFAULT_MODEL, prompt: "def fib(n):\n    ", suffix: "\n" };
 * const { choices } = await client.complete(request);
 * for await (const chunk of client.stream(request)) process.stdout.write(chunk.choices[0]?.text ?? "");
 * ```
 */
export class FimClient {
  /** The normalised base, e.g. `https://api.deepseek.com/beta`. */
  readonly baseURL: string;
  /** Default bound on a whole call (ms). */
  readonly timeoutMs: number;
  /** Retries after the first attempt. */
  readonly maxRetries: number;

  // Private fields: util.inspect and JSON.stringify of the client never show the key or the headers holding it.
  readonly #apiKey: string | undefined;
  readonly #dispatcher: Dispatcher | undefined;
  readonly #origin: string;
  readonly #path: string;
  readonly #jsonHeaders: Headers;
  readonly #streamHeaders: Headers;

  /** @throws {ValidationError} for a bad option (field names the option); never for a missing key. */
  constructor(options: FimClientOptions = {}) {
    const apiKey = (options.apiKey ?? process.env.DEEPSEEK_API_KEY ?? "").trim();
    if (apiKey !== "" && !/^[\x21-\x7e]+$/.test(apiKey)) {
      throw new ValidationError(
        "apiKey",
        "apiKey contains characters that cannot go in an HTTP header (spaces, control or non-ASCII characters)",
      );
    }
    this.#apiKey = apiKey === "" ? undefined : apiKey;

    this.baseURL = normalizeBaseURL(options.baseURL ?? (process.env.INFILL_BASE_URL || DEFAULT_BASE_URL));
    assertSecureBaseURL(this.baseURL, options.allowInsecureHttp ?? false);
    const url = new URL(`${this.baseURL}/completions`);
    this.#origin = url.origin;
    this.#path = url.pathname;

    this.timeoutMs = options.timeoutMs ?? 60_000;
    if (!(this.timeoutMs > 0)) {
      throw new ValidationError("timeoutMs", `timeoutMs must be a positive number of milliseconds`);
    }
    this.maxRetries = options.maxRetries ?? 2;
    if (!Number.isInteger(this.maxRetries) || this.maxRetries < 0) {
      throw new ValidationError("maxRetries", "maxRetries must be a non-negative integer");
    }
    this.#dispatcher = options.dispatcher;

    const userAgent = options.userAgent ? `${options.userAgent} infill/${VERSION}` : `infill/${VERSION}`;
    if (!/^[\x20-\x7e]+$/.test(userAgent)) {
      throw new ValidationError("userAgent", "userAgent must be printable ASCII");
    }
    const common: Headers = { "content-type": "application/json", "user-agent": userAgent };
    if (this.#apiKey !== undefined) common.authorization = `Bearer ${this.#apiKey}`;
    this.#jsonHeaders = { ...common, accept: "application/json" };
    this.#streamHeaders = { ...common, accept: "text/event-stream" };
  }

  /**
   * Creates a completion and waits for the whole of it. Sends `stream` as given (false or absent);
   * `stream: true` is refused with a ValidationError — use `stream()`.
   *
   * @throws {ValidationError} before any I/O, for a request that breaks the spec (field names the culprit).
   * @throws {ApiError} (a subclass per status) once retries are exhausted or for a non-retryable status.
   * @throws {ResponseValidationError} for a 200 whose body does not fit.
   * @throws {ConnectionError} | {TimeoutError} | {AbortError}
   */
  async complete(request: CompletionRequest, options?: RequestOptions): Promise<CompletionResponse> {
    const body = serializeRequest(request, false);
    const scope = new CallScope(options?.timeoutMs ?? this.timeoutMs, options?.signal);
    try {
      const response = await this.#open(body, this.#jsonHeaders, scope);
      return parseCompletionBody(await response.body.text(), response.statusCode, this.#apiKey);
    } catch (error) {
      throw scope.toError(error);
    } finally {
      scope.dispose();
    }
  }

  /**
   * Streams a completion: sends `stream: true` and yields each chunk as it arrives (the first one's text is often
   * empty; `usage` comes on the last content chunk or on a final `choices: []` chunk). Nothing is sent until
   * iteration starts. Leaving the loop early (break, return, throw) aborts the HTTP request at once. Retries
   * happen only before the response starts, never once a chunk has been delivered. `timeoutMs` runs until the
   * stream ends.
   *
   * @throws like complete(); a stream that ends without `data: [DONE]` throws ConnectionError.
   */
  async *stream(
    request: CompletionRequest,
    options?: RequestOptions,
  ): AsyncGenerator<CompletionChunk, void, undefined> {
    const body = serializeRequest(request, true);
    const scope = new CallScope(options?.timeoutMs ?? this.timeoutMs, options?.signal);
    let settled = false;
    try {
      const response = await this.#open(body, this.#streamHeaders, scope);
      yield* decodeChunks(response.body, this.#apiKey, response.statusCode);
      settled = true;
    } catch (error) {
      settled = true;
      throw scope.toError(error);
    } finally {
      // Reached without settling only when the consumer left the loop: drop the connection now.
      if (!settled) scope.stop();
      scope.dispose();
    }
  }

  /**
   * Sends the request, retrying transient failures, until a 2xx response head arrives. `dispatcher.request()` is
   * undici's `request()` without its per-call URL parsing (origin and path are split once, in the constructor).
   */
  async #open(body: string, headers: Headers, scope: CallScope): Promise<Dispatcher.ResponseData> {
    const dispatcher = this.#dispatcher ?? sharedDispatcher();
    const options: Dispatcher.RequestOptions = {
      origin: this.#origin,
      path: this.#path,
      method: "POST",
      headers,
      body,
      signal: scope,
    };
    for (let attempt = 0; ; attempt++) {
      let response: Dispatcher.ResponseData;
      try {
        response = await dispatcher.request(options);
      } catch (error) {
        // Failed before any response byte: a POST that never reached a response is safe to send again.
        const failure = scope.toError(error);
        if (!(failure instanceof ConnectionError) || !isRetryableErrorCode(errorCode(error))) throw failure;
        await this.#backoff(attempt, undefined, scope, failure);
        continue;
      }
      const status = response.statusCode;
      if (status >= 200 && status < 300) return response;
      // Reading the body also frees the socket for the next attempt.
      const text = await response.body.text();
      const retryAfter = parseRetryAfter(header(response.headers, "retry-after"), Date.now());
      const failure = apiErrorFromResponse(
        status,
        text,
        requestId(response.headers),
        this.#apiKey,
        retryAfter,
      );
      if (!failure.retryable) throw failure;
      await this.#backoff(attempt, failure.retryAfterMs, scope, failure);
    }
  }

  /** Sleeps before the next attempt (abortably), or throws `failure` when no attempt is left or time is short. */
  async #backoff(
    attempt: number,
    retryAfterMs: number | undefined,
    scope: CallScope,
    failure: FimError,
  ): Promise<void> {
    const delay = nextRetryDelay(attempt, this.maxRetries, retryAfterMs, scope.remainingMs(), Math.random());
    if (delay === undefined) throw failure;
    await scope.sleep(delay);
  }
}

function header(headers: Dispatcher.ResponseData["headers"], name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function requestId(headers: Dispatcher.ResponseData["headers"]): string | undefined {
  return header(headers, "x-ds-trace-id") ?? header(headers, "x-request-id");
}

function errorCode(error: unknown): unknown {
  if (typeof error !== "object" || error === null) return undefined;
  const { code, cause } = error as { code?: unknown; cause?: { code?: unknown } };
  return code ?? cause?.code;
}
