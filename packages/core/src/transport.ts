import type { EventEmitter } from "node:events";
import type { Dispatcher } from "undici";
import { CallScope, checkTimeoutMs } from "./call-scope.js";
import { preconnectShared, sharedDispatcher } from "./dispatcher.js";
import {
  apiErrorFromResponse,
  ConnectionError,
  type ErrorSource,
  type FimError,
  ValidationError,
} from "./errors.js";
import { isRetryableErrorCode, nextRetryDelay, parseRetryAfter } from "./retry.js";
import { decodeStream, type StreamFormat } from "./stream-decoder.js";
import { VERSION } from "./version.js";

// The HTTP part every client shares: headers with the key, the keep-alive pool, the call scope (deadline, abort),
// and the retry loop up to a 2xx response head. What is sent and how a body is read is the caller's business.

/** Per-call options of `complete()` and `stream()`. */
export interface RequestOptions {
  /** Cancels the call at once (the connection is closed); the call then throws AbortError. */
  signal?: AbortSignal | undefined;
  /**
   * Overrides the client's `timeoutMs` for this call (milliseconds), with the same rules: positive, `Infinity` for
   * no deadline, clamped to 2^31 − 1. A bad value throws ValidationError before anything is sent.
   */
  timeoutMs?: number | undefined;
  /**
   * Whether this call waits and retries on 429 Rate Limit Reached, as it does on 500 and 503. Default true. False
   * throws the RateLimitError (with its `retryAfterMs`) at once, for a caller that paces its own requests on rate
   * limits (`runBatch` lowers its concurrency on each one); other failures are still retried.
   */
  retryRateLimited?: boolean | undefined;
}

/** The options every client takes, besides where to send and which key. Every one is optional. */
export interface ClientOptions {
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

/** What a Transport needs: checked by the client that creates it. */
export interface TransportOptions {
  /** The endpoint, e.g. `https://api.deepseek.com/beta/completions`. */
  endpoint: string;
  /** The key, already trimmed and checked (checkApiKey); undefined for none. */
  apiKey: string | undefined;
  /** Default bound of a call (ms), checked by checkTimeoutMs. */
  timeoutMs: number;
  /** Retries after the first attempt, a non-negative integer. */
  maxRetries: number;
  dispatcher: Dispatcher | undefined;
  /** The caller's product token, e.g. `infill-lsp/0.1.0`; ours is appended. */
  userAgent: string | undefined;
  /** The Accept header of a streamed request, e.g. `text/event-stream` or `application/x-ndjson`. */
  streamAccept: string;
  /** Who answers, for ApiError's `provider` and `reason`. Default none. */
  errorSource?: ErrorSource | undefined;
}

/**
 * Checks an API key for use in a header. `source` names where it came from in messages (`apiKey`,
 * `DEEPSEEK_API_KEY`): a key with a space is most often a paste gone wrong, and the message must say which one.
 *
 * @returns the trimmed key, or undefined for an empty one.
 * @throws {ValidationError} with `field: "apiKey"`; the key is never quoted.
 */
export function checkApiKey(apiKey: string | undefined, source: string): string | undefined {
  const key = (apiKey ?? "").trim();
  if (key !== "" && !/^[\x21-\x7e]+$/.test(key)) {
    throw new ValidationError(
      "apiKey",
      `${source} contains characters that cannot go in an HTTP header (spaces, control or non-ASCII characters)`,
    );
  }
  return key === "" ? undefined : key;
}

/** Checks `maxRetries`: a non-negative integer. Default 2. */
export function checkMaxRetries(maxRetries: number | undefined): number {
  const value = maxRetries ?? 2;
  if (!Number.isInteger(value) || value < 0) {
    throw new ValidationError("maxRetries", "maxRetries must be a non-negative integer");
  }
  return value;
}

type Headers = Record<string, string>;

/** How a streamed call reads its response: its items, or a whole body sent instead of a stream. */
export interface StreamReader<T> {
  /** The stream's format, for a response of this status (errors inside the stream carry it). */
  format(status: number): StreamFormat<T>;
  /** A whole body of another content type, as the stream's only item. */
  whole(text: string, status: number): T;
}

/** Sends requests to one endpoint with retries, inside a call scope. The key lives in private fields only. */
export class Transport {
  readonly timeoutMs: number;
  readonly maxRetries: number;
  readonly #apiKey: string | undefined;
  readonly #dispatcher: Dispatcher | undefined;
  readonly #origin: string;
  readonly #path: string;
  readonly #jsonHeaders: Headers;
  readonly #streamHeaders: Headers;
  readonly #streamType: string;
  readonly #errorSource: ErrorSource | undefined;

  /** @throws {ValidationError} for a user agent that cannot go in a header. */
  constructor(options: TransportOptions) {
    const url = new URL(options.endpoint);
    this.#origin = url.origin;
    this.#path = url.pathname;
    this.#apiKey = options.apiKey;
    this.timeoutMs = options.timeoutMs;
    this.maxRetries = options.maxRetries;
    this.#dispatcher = options.dispatcher;
    this.#errorSource = options.errorSource;
    const userAgent = options.userAgent ? `${options.userAgent} infill/${VERSION}` : `infill/${VERSION}`;
    if (!/^[\x20-\x7e]+$/.test(userAgent)) {
      throw new ValidationError("userAgent", "userAgent must be printable ASCII");
    }
    const common: Headers = { "content-type": "application/json", "user-agent": userAgent };
    if (this.#apiKey !== undefined) common.authorization = `Bearer ${this.#apiKey}`;
    this.#jsonHeaders = { ...common, accept: "application/json" };
    this.#streamHeaders = { ...common, accept: options.streamAccept };
    this.#streamType = options.streamAccept;
  }

  /**
   * Opens a connection to the endpoint's origin now (DNS, TCP, TLS) without sending anything, unless the shared
   * pool holds one (see WarmConnector). False with a dispatcher of the caller's or behind a proxy. Never rejects.
   */
  preconnect(): Promise<boolean> {
    return this.#dispatcher === undefined ? preconnectShared(this.#origin) : Promise.resolve(false);
  }

  /**
   * One call that reads the whole body: sends `body` (with retries) and gives the 2xx body's text to `read`.
   *
   * A chain of promises rather than an async function: each suspension of an async function keeps its whole frame
   * on the heap (about 1 KB here), which a batch paid on every request.
   *
   * @throws what `read` throws, ApiError for a non-2xx status, ConnectionError, TimeoutError or AbortError.
   */
  call<T>(
    body: string,
    options: RequestOptions | undefined,
    read: (text: string, status: number) => T,
  ): Promise<T> {
    let scope: CallScope;
    try {
      scope = this.scope(options);
    } catch (error) {
      return Promise.reject(error);
    }
    return this.open(body, false, scope, options?.retryRateLimited ?? true)
      .then((response) => response.body.text().then((text) => read(text, response.statusCode)))
      .then(
        (value) => {
          scope.dispose();
          return value;
        },
        (error: unknown) => {
          scope.dispose();
          throw scope.toError(error, this.#apiKey);
        },
      );
  }

  /**
   * One streamed call: sends `body` (with retries before the response starts, never after) and yields the items
   * `reader.format` decodes, until its end; whatever follows the end is drained in the background so the socket
   * goes back to the pool. A body of another content type than the stream's (a proxy, a server ignoring
   * `stream: true`) is read whole by `reader.whole` and yielded as the only item; NDJSON needs no such check, as a
   * whole JSON body is one line of it. Leaving the loop early, or a failure, closes the connection at once.
   */
  async *stream<T>(
    body: string,
    options: RequestOptions | undefined,
    reader: StreamReader<T>,
  ): AsyncGenerator<T, void, undefined> {
    const scope = this.scope(options);
    let ended = false;
    try {
      const response = await this.open(body, true, scope, options?.retryRateLimited ?? true);
      const format = reader.format(response.statusCode);
      if (format.framing === "ndjson" || isContentType(response.headers, this.#streamType)) {
        // Not destroyed when the decoder returns at the end, so the rest can be drained and the socket reused.
        const items = response.body.iterator({ destroyOnReturn: false });
        const read = yield* decodeStream(items, format, this.#apiKey);
        discardRest(response.body, read);
      } else {
        yield reader.whole(await response.body.text(), response.statusCode);
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

  /** The key, for cutting it out of server bytes; never put it anywhere else. */
  get secret(): string | undefined {
    return this.#apiKey;
  }

  /** The scope of one call, with the call's own `timeoutMs` checked like the client's. */
  private scope(options: RequestOptions | undefined): CallScope {
    const timeoutMs = options?.timeoutMs;
    return new CallScope(
      timeoutMs === undefined ? this.timeoutMs : checkTimeoutMs(timeoutMs),
      options?.signal,
    );
  }

  /**
   * Sends the request, retrying transient failures, until a 2xx response head arrives. `dispatcher.request()` is
   * undici's `request()` without its per-call URL parsing (origin and path are split once, in the constructor). The
   * first attempt's 2xx goes straight through; anything else goes on in #retry.
   */
  private open(
    body: string,
    streaming: boolean,
    scope: CallScope,
    retryRateLimited: boolean,
  ): Promise<Dispatcher.ResponseData> {
    const dispatcher = this.#dispatcher ?? sharedDispatcher();
    const options: Dispatcher.RequestOptions = {
      origin: this.#origin,
      path: this.#path,
      method: "POST",
      headers: streaming ? this.#streamHeaders : this.#jsonHeaders,
      body,
      // An EventEmitter-like signal, which undici accepts (see CallScope).
      signal: scope as unknown as EventEmitter,
    };
    return dispatcher.request(options).then(
      (response) =>
        isSuccess(response.statusCode)
          ? response
          : this.#retry({ dispatcher, options, scope, retryRateLimited }, { response }),
      (error: unknown) => this.#retry({ dispatcher, options, scope, retryRateLimited }, { error }),
    );
  }

  /** Goes on from an attempt that did not give a 2xx: retries while the failure allows, or throws it. */
  async #retry(
    { dispatcher, options, scope, retryRateLimited }: Attempt,
    first: { response: Dispatcher.ResponseData } | { error: unknown },
  ): Promise<Dispatcher.ResponseData> {
    let outcome = first;
    for (let attempt = 0; ; attempt++) {
      if (attempt > 0) {
        outcome = await dispatcher.request(options).then(
          (response) => ({ response }),
          (error: unknown) => ({ error }),
        );
      }
      if ("error" in outcome) {
        // Failed before any response byte: a POST that never reached a response is safe to send again.
        const failure = scope.toError(outcome.error, this.#apiKey);
        if (!(failure instanceof ConnectionError) || !isRetryableErrorCode(errorCode(outcome.error)))
          throw failure;
        await this.#backoff(attempt, undefined, scope, failure);
        continue;
      }
      const { response } = outcome;
      const status = response.statusCode;
      if (isSuccess(status)) return response;
      // Reading the body also frees the socket for the next attempt.
      const text = await response.body.text();
      const retryAfter = parseRetryAfter(header(response.headers, "retry-after"), Date.now());
      const failure = apiErrorFromResponse(
        status,
        text,
        requestId(response.headers),
        this.#apiKey,
        retryAfter,
        this.#errorSource,
      );
      if (!failure.retryable || (status === 429 && !retryRateLimited)) throw failure;
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

// What may follow the end of a stream before the body ends: normally nothing but the chunked terminator. More, or
// a connection held open longer, and the socket is closed instead of reused.
const DRAIN_LIMIT_BYTES = 16 * 1024;
const DRAIN_TIMEOUT_MS = 1_000;

/**
 * Reads and drops the rest of a finished stream's body in the background, so its socket goes back to the pool when
 * the body ends. More than DRAIN_LIMIT_BYTES, or a body still open after DRAIN_TIMEOUT_MS (a proxy holding the
 * connection), closes the socket instead of keeping a pool connection busy for good.
 * `read` is what the decoder consumed: undici's `dump()` limit counts the whole body, not only what is left.
 */
function discardRest(body: Dispatcher.ResponseData["body"], read: number): void {
  // A timer, not AbortSignal.timeout(): that one costs a signal per stream, and a DOMException (with its stack) when
  // it fires a second later, on every stream, drained or not.
  const timer = setTimeout(destroy, DRAIN_TIMEOUT_MS, body);
  timer.unref();
  body
    .dump({ limit: read + DRAIN_LIMIT_BYTES })
    // Nobody awaits the drain; giving up on it (the timeout) only costs the socket.
    .catch(ignore)
    .finally(() => clearTimeout(timer));
}

/** One request's attempts: where it goes, and the call it belongs to. */
interface Attempt {
  dispatcher: Dispatcher;
  options: Dispatcher.RequestOptions;
  scope: CallScope;
  retryRateLimited: boolean;
}

function isSuccess(status: number): boolean {
  return status >= 200 && status < 300;
}

function destroy(body: Dispatcher.ResponseData["body"]): void {
  body.destroy();
}

function ignore(): void {}

/**
 * Whether a response's content type is the stream type asked for (`text/event-stream`, `application/x-ndjson`),
 * with or without parameters. A missing content type counts as one: a stream was asked for, and a server that
 * leaves the header out most likely still sends it.
 */
function isContentType(headers: Dispatcher.ResponseData["headers"], expected: string): boolean {
  const contentType = header(headers, "content-type");
  if (contentType === undefined) return true;
  const type = contentType.split(";", 1)[0] as string;
  return type.trim().toLowerCase() === expected;
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
