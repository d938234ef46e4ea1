import type { ContextArm } from "@infill/core/usage";
import type { ContextSource } from "../context/context-loader.js";
import type { Documents } from "../documents/documents.js";
import type { Logger } from "../log/logger.js";
import type { Settings } from "../settings/settings.js";
import type { FailureNotice } from "../upstream/failure-notice.js";
import type { UpstreamHealth } from "../upstream/health.js";
import type { Upstream, UpstreamEnd } from "../upstream/upstream.js";
import type { Suggestion } from "./type-through.js";

/** Collaborators of the engine. */
export interface EngineOptions {
  documents: Documents;
  /** The upstream client for the current settings; undefined when there is none (no API key). */
  upstream: () => Upstream | undefined;
  settings: () => Settings;
  health: UpstreamHealth;
  /** Called once per kind of failure (the health tracker deduplicates). */
  onFailure: (notice: FailureNotice) => void;
  /**
   * Called when an upstream request for `uri` starts, with whether it carries repository context; the returned
   * function is called when it ends.
   */
  onUpstream?: (uri: string, arm: ContextArm) => (end: UpstreamEnd) => void;
  /** Called when a request finds the user has typed `chars` characters (code points) of a suggestion shown. */
  onTypedThrough?: (suggestion: Suggestion, chars: number) => void;
  /** Repository context; none means prompts carry the current buffer only. */
  context?: ContextSource;
  log: Logger;
  /**
   * Stream single-line requests too, so that one still in flight when the user types on is followed while its
   * text agrees with the typing and dropped as soon as it does not. When false, one line is asked without a
   * stream and, while its text is not known, aborted as soon as the user types on. Default: streamed (the bench
   * measures both, "following a request in flight").
   */
  streamSingleLines?: boolean;
  /**
   * Hedge a stream whose first token is late: a request that follows it sends a fresh one beside it once it is later
   * than nine in ten recent first tokens, and the first to serve wins. Default true (the bench measures both).
   */
  hedge?: boolean;
}
