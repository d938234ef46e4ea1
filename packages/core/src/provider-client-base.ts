import type { Dispatcher } from "undici";
import type { ErrorSource } from "./errors.js";
import type { ProviderClientOptions, ResolvedProviderOptions } from "./provider-options.js";
import type { ProviderName } from "./providers/info.js";
import type { BodyOptions } from "./providers/provider.js";
import { Transport } from "./transport.js";

/**
 * What every client of a provider is (ProviderClient for FIM, EditClient for next edits): the provider, its base
 * URL, the model and the call bounds, and the transports to its endpoints. The key is held in a private field and
 * handed only to those transports.
 */
export abstract class ProviderClientBase {
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

  readonly #apiKey: string | undefined;
  readonly #dispatcher: Dispatcher | undefined;
  readonly #userAgent: string | undefined;
  readonly #bodyOptions: BodyOptions;

  protected constructor(resolved: ResolvedProviderOptions, options: ProviderClientOptions) {
    this.provider = resolved.provider;
    this.label = resolved.adapter.label;
    this.baseURL = resolved.baseURL;
    this.model = resolved.model;
    this.apiKeyEnv = resolved.apiKeyEnv;
    this.timeoutMs = resolved.timeoutMs;
    this.maxRetries = resolved.maxRetries;
    this.#apiKey = resolved.apiKey;
    this.#dispatcher = options.dispatcher;
    this.#userAgent = options.userAgent;
    this.#bodyOptions = { keepAlive: resolved.keepAlive };
  }

  /** What shapes a body beyond the request (Ollama's `keep_alive`). */
  protected get bodyOptions(): BodyOptions {
    return this.#bodyOptions;
  }

  /**
   * A transport to `{baseURL}{endpoint}`, with the client's key, bounds, dispatcher and user agent.
   *
   * @throws {ValidationError} for a user agent that cannot go in a header.
   */
  protected transport(endpoint: string, streamType: string, errorSource: ErrorSource): Transport {
    return new Transport({
      endpoint: this.baseURL + endpoint,
      apiKey: this.#apiKey,
      timeoutMs: this.timeoutMs,
      maxRetries: this.maxRetries,
      dispatcher: this.#dispatcher,
      userAgent: this.#userAgent,
      streamAccept: streamType,
      errorSource,
    });
  }
}
