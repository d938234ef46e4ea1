import type { Dispatcher } from "undici";
import { assertSecureBaseURL, DEFAULT_BASE_URL, normalizeBaseURL } from "./base-url.js";
import { CallScope, checkTimeoutMs } from "./call-scope.js";
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
   * stream ends. Exceeding it throws TimeoutError. Default: 60_000 (60 s); `Infinity` disables it. Must be
   * positive; finite values above 2^31 − 1 (about 24.8 days, the longest timer Node can set) are clamped to it.
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
  /**
   * Overrides the client's `timeoutMs` for this call (milliseconds), with the same rules: positive, `Infinity` for
   * no deadline, clamped to 2^31 − 1. A bad value throws ValidationError before anything is sent.
   */
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
    // Messages name where a bad value came from: swapped environment variables are not found by reading code.
    const apiKey = (options.apiKey ?? process.env.DEEPSEEK_API_KEY ?? "").trim();
    if (apiKey !== "" && !/^[\x21-\x7e]+$/.test(apiKey)) {
      throw new ValidationError(
        "apiKey",
        `${options.apiKey === undefined ? "DEEPSEEK_API_KEY" : "apiKey"} contains characters that cannot go in ` +
          "an HTTP header (spaces, control or non-ASCII characters)",
      );
    }
    this.#apiKey = apiKey === "" ? undefined : apiKey;

    this.baseURL = normalizeBaseURL(
      options.baseURL ?? (process.env.INFILL_BASE_URL || DEFAULT_BASE_URL),
      options.baseURL === undefined ? "INFILL_BASE_URL" : "baseURL",
    );
    assertSecureBaseURL(this.baseURL, options.allowInsecureHttp ?? false);
    const url = new URL(`${this.baseURL}/completions`);
    this.#origin = url.origin;
    this.#path = url.pathname;

    this.timeoutMs = checkTimeoutMs(options.timeoutMs ?? 60_000);
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
    const scope = this.#scope(options);
    try {
      const response = await this.#open(body, this.#jsonHeaders, scope);
      return parseCompletionBody(await response.body.text(), response.statusCode, this.#apiKey);
    } catch (error) {
      throw scope.toError(error, this.#apiKey);
    } finally {
      scope.dispose();
    }
  }

  /**
   * Streams a completion: sends `stream: true` and yields each chunk as it arrives (the first one's text is often
   * empty; `usage` comes on the last content chunk or on a final `choices: []` chunk). Nothing is sent until
   * iteration starts. Leaving the loop early (break, return, throw) aborts the HTTP request at once. Retries
   * happen only before the response starts, never once a chunk has been delivered. `timeoutMs` runs until
   * `data: [DONE]`, where the stream ends (whatever follows it is dropped in the background).
   *
   * A server that answers with a content type other than `text/event-stream` (a proxy or an OpenAI-compatible
   * server ignoring `stream: true`) has its body read as complete() would: an `{"error": …}` body throws ApiError,
   * a completion is yielded as the stream's single chunk, anything else throws ResponseValidationError.
   *
   * @throws like complete(); a stream that ends without `data: [DONE]` throws ConnectionError.
   */
  async *stream(
    request: CompletionRequest,
    options?: RequestOptions,
  ): AsyncGenerator<CompletionChunk, void, undefined> {
    const body = serializeRequest(request, true);
    const scope = this.#scope(options);
    let ended = false;
    try {
      const response = await this.#open(body, this.#streamHeaders, scope);
      if (isEventStream(header(response.headers, "content-type"))) {
        // Not destroyed when decodeChunks returns at [DONE], so the rest can be drained and the socket reused.
        const events = response.body.iterator({ destroyOnReturn: false });
        const read = yield* decodeChunks(events, this.#apiKey, response.statusCode);
        discardRest(response.body, read);
      } else {
        yield parseCompletionBody(await response.body.text(), response.statusCode, this.#apiKey);
      }
      ended = true;
    } catch (error) {
      throw scope.toError(error, this.#apiKey);
    } finally {
      // The consumer left the loop, or the stream failed: drop the connection now rather than read on.
      if (!ended) scope.stop();
      scope.dispose();
    }
  }

  /** The scope of one call, with the call's own `timeoutMs` checked like the constructor's. */
  #scope(options: RequestOptions | undefined): CallScope {
    const timeoutMs = options?.timeoutMs;
    return new CallScope(
      timeoutMs === undefined ? this.timeoutMs : checkTimeoutMs(timeoutMs),
      options?.signal,
    );
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
        const failure = scope.toError(error, this.#apiKey);
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

// What may follow [DONE] before the body ends: normally nothing but the chunked terminator. More, or a connection
// held open longer, and the socket is closed instead of reused.
const DRAIN_LIMIT_BYTES = 16 * 1024;
const DRAIN_TIMEOUT_MS = 1_000;

/**
 * Reads and drops the rest of a finished stream's body in the background, so its socket goes back to the pool when
 * the body ends. More than DRAIN_LIMIT_BYTES, or a body still open after DRAIN_TIMEOUT_MS (a proxy holding the
 * connection), closes the socket instead of keeping a pool connection busy for good.
 * `read` is what decodeChunks consumed: undici's `dump()` limit counts the whole body, not only what is left.
 */
function discardRest(body: Dispatcher.ResponseData["body"], read: number): void {
  body
    .dump({ limit: read + DRAIN_LIMIT_BYTES, signal: AbortSignal.timeout(DRAIN_TIMEOUT_MS) })
    // Nobody awaits the drain; giving up on it (the timeout) only costs the socket.
    .catch(ignore);
}

function ignore(): void {}

/**
 * `text/event-stream`, with or without parameters. A missing content type counts as one: events were asked for,
 * and a server that leaves the header out most likely still sends them.
 */
function isEventStream(contentType: string | undefined): boolean {
  if (contentType === undefined) return true;
  const type = contentType.split(";", 1)[0] as string;
  return type.trim().toLowerCase() === "text/event-stream";
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
