import { assertSecureBaseURL, DEFAULT_BASE_URL, normalizeBaseURL } from "./base-url.js";
import { checkTimeoutMs } from "./call-scope.js";
import { serializeRequest } from "./request-body.js";
import { parseCompletionBody } from "./response-body.js";
import type { CompletionChunk, CompletionRequest, CompletionResponse } from "./schemas.js";
import { deepseekChunks } from "./sse.js";
import {
  type ClientOptions,
  checkApiKey,
  checkMaxRetries,
  type RequestOptions,
  Transport,
} from "./transport.js";

export type { RequestOptions } from "./transport.js";

/** Options of `new FimClient()`. Every one is optional. */
export interface FimClientOptions extends ClientOptions {
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
}

/**
 * Sends a body serializeRequest() made, as complete() would: for runBatch, which serialises each request once, as
 * it reads the record. Not part of the package's surface (index.ts does not export it).
 */
export let completeBody: (
  client: FimClient,
  body: string,
  options: RequestOptions | undefined,
) => Promise<CompletionResponse>;

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

  // A private field: util.inspect and JSON.stringify of the client never show the key or the headers holding it.
  readonly #transport: Transport;

  /** @throws {ValidationError} for a bad option (field names the option); never for a missing key. */
  constructor(options: FimClientOptions = {}) {
    // Messages name where a bad value came from: swapped environment variables are not found by reading code.
    const apiKey = checkApiKey(
      options.apiKey ?? process.env.DEEPSEEK_API_KEY,
      options.apiKey === undefined ? "DEEPSEEK_API_KEY" : "apiKey",
    );
    this.baseURL = normalizeBaseURL(
      options.baseURL ?? (process.env.INFILL_BASE_URL || DEFAULT_BASE_URL),
      options.baseURL === undefined ? "INFILL_BASE_URL" : "baseURL",
    );
    assertSecureBaseURL(this.baseURL, options.allowInsecureHttp ?? false);
    this.timeoutMs = checkTimeoutMs(options.timeoutMs ?? 60_000);
    this.maxRetries = checkMaxRetries(options.maxRetries);
    this.#transport = new Transport({
      endpoint: `${this.baseURL}/completions`,
      apiKey,
      timeoutMs: this.timeoutMs,
      maxRetries: this.maxRetries,
      dispatcher: options.dispatcher,
      userAgent: options.userAgent,
      streamAccept: "text/event-stream",
      errorSource: DEEPSEEK,
    });
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
    return this.#transport.call(body, options, this.#readWhole);
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
    const transport = this.#transport;
    yield* transport.stream(body, options, {
      format: (status) => deepseekChunks(status, transport.secret),
      whole: this.#readWhole,
    });
  }

  /**
   * Opens a connection to the API now (DNS, TCP, TLS), so that the next request does not wait for it; call it when
   * a request is likely soon (an editor opened a file, the user starts typing after a pause). Sends no request.
   * Resolves true once a connection was opened; false when the pool already holds one to the API, when the client
   * has a `dispatcher` of its own or goes through a proxy, or when connecting failed (the next request then reports
   * what is wrong). Never rejects.
   */
  preconnect(): Promise<boolean> {
    return this.#transport.preconnect();
  }

  readonly #readWhole = (text: string, status: number): CompletionResponse =>
    parseCompletionBody(text, status, this.#transport.secret, DEEPSEEK);

  static {
    completeBody = (client, body, options) => client.#transport.call(body, options, client.#readWhole);
  }
}

/** DeepSeek, as the source of FimClient's API errors. */
const DEEPSEEK = { name: "deepseek" } as const;
