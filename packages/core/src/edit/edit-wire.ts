import type { ErrorSource } from "../errors.js";
import type { BodyOptions, ReadContext, StreamAdapter } from "../providers/provider.js";
import type { Usage } from "../schemas.js";
import type { CheckedEditRequest, EditShape } from "./edit-request.js";

/** A whole next-edit answer, whatever the provider. */
export interface EditCompletion {
  /** What the model wrote: after the prompt (raw), after the forced prefix (chat); never the prefix itself. */
  text: string;
  /** Why generation ended: `stop`, `length`, or the provider's own word; null when it does not say. */
  finish_reason: string | null;
  /**
   * Token accounting in one shape (see FimCompletion's `usage`): DeepSeek's cache fields where it reports them.
   * Undefined when the provider gave no counts.
   */
  usage: Usage | undefined;
  /** The model that answered, when the provider says. */
  model: string | undefined;
  /** The provider's response body as parsed. */
  raw: unknown;
}

/** One piece of a streamed next-edit answer. */
export interface EditChunk {
  /** This piece's text (often empty on the first and last items). */
  text: string;
  /** Null on every item but the last one that says why generation ended. */
  finish_reason: string | null;
  /** On the item that carries the counts (the last one, usually); otherwise undefined. */
  usage: Usage | undefined;
  /** The stream item as parsed (an SSE event's JSON, an NDJSON line). */
  raw: unknown;
}

/**
 * One endpoint a provider answers next-edit requests of one shape on: how to build its body, read its response and
 * its stream. Plain objects, like the FIM adapters; the HTTP is the client's.
 */
export interface EditWire extends StreamAdapter<EditChunk>, ErrorSource {
  readonly shape: EditShape;
  /** The JSON body for a checked request of this shape. `options.keepAlive` is Ollama's `keep_alive`. */
  body(request: CheckedEditRequest, streaming: boolean, options: BodyOptions): Record<string, unknown>;
  /**
   * Reads the 2xx body of a request that did not stream.
   * @throws {ResponseValidationError} when it does not fit; {ApiError} for an error body.
   */
  readResponse(text: string, context: ReadContext): EditCompletion;
}
