import {
  type CheckedEditRequest,
  checkEditRequest,
  type EditRequest,
  type EditShape,
  type EditSupport,
  shapeOf,
} from "./edit/edit-request.js";
import type { EditChunk, EditCompletion, EditWire } from "./edit/edit-wire.js";
import { EDIT_WIRES } from "./edit/edit-wires.js";
import { ValidationError } from "./errors.js";
import { ProviderClientBase } from "./provider-client-base.js";
import { type ProviderClientOptions, resolveProviderOptions } from "./provider-options.js";
import type { ProviderName } from "./providers/info.js";
import { streamFormatOf } from "./providers/provider.js";
import type { RequestOptions, Transport } from "./transport.js";

/** What a request must name as its model where a provider has no default for next edits, for messages. */
const EDIT_MODEL_EXAMPLES: Readonly<Partial<Record<ProviderName, string>>> = {
  ollama: "nate/instinct",
  "openai-compatible": "the model id the host serves, e.g. zed-industries/zeta",
};

/** One endpoint of the client: the wire it speaks and the transport that sends to it. */
interface Route {
  readonly wire: EditWire;
  readonly transport: Transport;
}

/**
 * The client for next-edit requests: a raw prompt (Zeta, Sweep) or chat messages (Instinct, DeepSeek) sent to the
 * provider's completion or chat endpoint, with ProviderClient's guarantees (a request checked before any I/O,
 * naming the field; typed errors by status, retries with `Retry-After`, abort and timeout, keep-alive pooling, the
 * key never in a message, plain http refused off loopback) and one shape of answer whatever the provider.
 *
 * | provider | raw (`prompt`) | chat (`messages`) |
 * | --- | --- | --- |
 * | `deepseek` | refused | `{base}/chat/completions` (base `…/beta`), `prefix` as Chat Prefix Completion, thinking off |
 * | `openai-compatible` | `{base}/completions` without `suffix` | `{base}/chat/completions` |
 * | `ollama` | `{base}/api/generate` with `raw: true` | `{base}/api/chat` |
 * | `llamacpp` | `{base}/completion` | `{base}/v1/chat/completions` |
 * | `codestral` | refused by the constructor | refused by the constructor |
 *
 * ```ts
 * const client = new EditClient(); // DeepSeek, DEEPSEEK_API_KEY
 * const { text } = await client.complete({ messages, prefix: "<|editable_region_start|>\n", stop: ["<|editable_region_end|>"] });
 * ```
 */
export class EditClient extends ProviderClientBase {
  /**
   * The model of requests that name none: the `model` option, else `deepseek-v4-flash` for DeepSeek; undefined
   * for the other providers (their FIM models are not edit models), whose requests must then name one (llama.cpp's
   * need not: its server serves the model it loaded).
   */
  declare readonly model: string | undefined;

  readonly #routes: Partial<Record<EditShape, Route>> = {};
  readonly #support: EditSupport;

  /**
   * @throws {ValidationError} for a bad option (field names the option), and with `field: "provider"` for
   *   Codestral, which has no endpoint for next edits; never for a missing key.
   */
  constructor(options: ProviderClientOptions = {}) {
    if (options.provider === "codestral") {
      throw new ValidationError(
        "provider",
        "Codestral cannot make next edits: its FIM API only fills in the middle. Use deepseek, " +
          "openai-compatible, ollama or llamacpp for next edits",
      );
    }
    const resolved = resolveProviderOptions(options, (adapter) =>
      adapter.name === "deepseek" ? adapter.defaultModel : undefined,
    );
    super(resolved, options);
    const wires = EDIT_WIRES[this.provider];
    for (const wire of [wires.raw, wires.chat]) {
      if (wire === undefined) continue;
      this.#routes[wire.shape] = { wire, transport: this.transport(wire.endpoint, wire.streamType, wire) };
    }
    this.#support = {
      provider: this.provider,
      label: this.label,
      shapes: Object.keys(this.#routes) as EditShape[],
      prefix: this.provider === "deepseek",
      requiredModel:
        this.model === undefined && resolved.adapter.requiresModel
          ? (EDIT_MODEL_EXAMPLES[this.provider] ?? "the model id")
          : undefined,
    };
  }

  /**
   * Asks for a next edit and waits for the whole answer.
   *
   * @throws {ValidationError} before any I/O, for a request that is not an EditRequest or that the provider cannot
   *   honour (field names the culprit: `prompt` for a raw prompt to DeepSeek, `prefix` off DeepSeek, `model`…).
   * @throws {ApiError} (a subclass per status; `reason` when the provider says more) once retries are exhausted or
   *   for a status that is not retried.
   * @throws {ResponseValidationError} for a 2xx body that does not fit the provider's format.
   * @throws {ConnectionError} | {TimeoutError} | {AbortError}
   */
  async complete(request: EditRequest, options?: RequestOptions): Promise<EditCompletion> {
    const { route, body } = this.#prepare(request, false);
    const { wire, transport } = route;
    const secret = transport.secret;
    return transport.call(body, options, (text, status) => wire.readResponse(text, { status, secret }));
  }

  /**
   * Streams a next edit, yielding each piece as it arrives. Nothing is sent until iteration starts (the request is
   * checked then, before any I/O); leaving the loop early aborts the request at once; retries happen only before
   * the response starts. The stream ends at the provider's end (`[DONE]`, `stop: true`, `done: true`); a body that
   * ends before it throws ConnectionError.
   *
   * @throws like complete().
   */
  async *stream(request: EditRequest, options?: RequestOptions): AsyncGenerator<EditChunk, void, undefined> {
    const { route, body } = this.#prepare(request, true);
    const { wire, transport } = route;
    const secret = transport.secret;
    yield* transport.stream(body, options, {
      format: (status) => streamFormatOf(wire, { status, secret }),
      whole(text, status) {
        const { text: piece, finish_reason, usage, raw } = wire.readResponse(text, { status, secret });
        return { text: piece, finish_reason, usage, raw };
      },
    });
  }

  /**
   * Checks a request as complete() and stream() do before sending it (the client's model filled in where it names
   * none), without sending anything.
   *
   * @throws {ValidationError} naming the first offending field.
   */
  check(request: EditRequest): void {
    this.#checked(request);
  }

  /**
   * Opens a connection to the provider now (DNS, TCP, TLS), so that the next request does not wait for it; see
   * ProviderClient's `preconnect()`. Never rejects.
   */
  preconnect(): Promise<boolean> {
    const route = this.#routes.chat ?? this.#routes.raw;
    return route ? route.transport.preconnect() : Promise.resolve(false);
  }

  #checked(request: EditRequest): CheckedEditRequest {
    const model = this.model;
    const named = typeof request !== "object" || request === null || request.model !== undefined;
    return checkEditRequest(model === undefined || named ? request : { ...request, model }, this.#support);
  }

  #prepare(request: EditRequest, streaming: boolean): { route: Route; body: string } {
    const checked = this.#checked(request);
    // checkEditRequest refused the shapes the provider has no route for.
    const route = this.#routes[shapeOf(checked)] as Route;
    const body = route.wire.body(checked, streaming, this.bodyOptions);
    return { route, body: JSON.stringify(body) };
  }
}
