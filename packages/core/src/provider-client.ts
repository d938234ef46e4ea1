import { ProviderClientBase } from "./provider-client-base.js";
import { type ProviderClientOptions, resolveProviderOptions } from "./provider-options.js";
import { type CheckedFimRequest, checkFimRequest, type FimRequest } from "./providers/fim-request.js";
import type { FimChunk, FimCompletion, Provider } from "./providers/provider.js";
import { streamFormatOf } from "./providers/provider.js";
import type { RequestOptions, Transport } from "./transport.js";

export type { ProviderClientOptions } from "./provider-options.js";

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
export class ProviderClient extends ProviderClientBase {
  readonly #adapter: Provider;
  readonly #transport: Transport;

  /** @throws {ValidationError} for a bad option (field names the option); never for a missing key. */
  constructor(options: ProviderClientOptions = {}) {
    const resolved = resolveProviderOptions(options, (adapter) => adapter.defaultModel);
    super(resolved, options);
    const adapter = resolved.adapter;
    this.#adapter = adapter;
    this.#transport = this.transport(adapter.endpoint, adapter.streamType, adapter);
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
      format: (status) => streamFormatOf(adapter, { status, secret }),
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
    return JSON.stringify(this.#adapter.body(checked, streaming, this.bodyOptions));
  }
}
