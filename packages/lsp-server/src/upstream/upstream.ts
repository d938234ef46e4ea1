import type { EditCompletion, EditRequest, FimChunk, FimCompletion, FimRequest, Usage } from "@infill/core";

export type { EditCompletion, EditRequest } from "@infill/core";

// What the completion pipeline needs from a provider, and how one of its requests ended: the contract between the
// features and the upstream layer, which provides it (upstreams.ts).

/**
 * What the engine needs from the provider's client (`ProviderClient` fits): one request and answer shape whatever
 * the provider. Requests name no model: the client adds the configured one (or its provider's default).
 */
export interface Upstream {
  stream(request: FimRequest, options: { signal: AbortSignal }): AsyncIterable<FimChunk>;
  complete(request: FimRequest, options: { signal: AbortSignal }): Promise<FimCompletion>;
  /** Open the connection now if none is open, as a request is likely soon. Optional; never throws. */
  warm?(): void;
}

/** What next edits need from the edit model's client (`EditClient` fits). */
export interface EditUpstream {
  complete(request: EditRequest, options: { signal: AbortSignal }): Promise<EditCompletion>;
}

/** Why an upstream request stopped before its answer: the editor stopped waiting, or newer typing made it useless. */
export type AbortReason = "cancelled" | "superseded";

/** How an upstream request ended. */
export interface UpstreamEnd {
  /** `completed` (answered, or cut once the suggestion was settled), aborted (see {@link AbortReason}), `failed`. */
  outcome: "completed" | AbortReason | "failed";
  /** What failed, for a failed request. */
  error?: unknown;
  /** Token usage, when the provider reported it (a stream cut early or aborted has none). */
  usage?: Usage;
  /** Duration, in ms. */
  ms: number;
}
