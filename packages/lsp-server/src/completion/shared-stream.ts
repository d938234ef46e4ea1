import type { FimRequest, Usage } from "@infill/core";
import type { ContextArm } from "@infill/core/usage";
import type { AbortReason, Upstream, UpstreamEnd } from "../upstream/upstream.js";
import type { Anchor } from "./anchor.js";
import type { ContextFigures } from "./answer.js";
import { partialFeed } from "./partial-feed.js";
import { type FittedCompletion, isSettled, type PostProcessContext, postProcess } from "./postprocess.js";
import type { Slot } from "./slot.js";
import { canServeFromPartial, type Suggestion } from "./type-through.js";

/**
 * How long a stream that nobody waits for anymore (its LSP request was cancelled) keeps running, in ms, in case
 * the next keystroke's request adopts it. Clients such as Neovim cancel the old request and send the new one in
 * the same breath; a new request that cannot use the stream aborts it at once.
 */
export const ADOPTION_GRACE_MS = 50;

/** What a stream reports as it runs (the engine's health, log and usage hooks). */
export interface StreamHooks {
  /** It got an answer (or was cut once settled): the provider works. */
  onSuccess?(): void;
  /** It failed (not aborted). */
  onFailure?(error: unknown): void;
  /** It ended, however: how, and its duration. */
  onEnd?(end: UpstreamEnd): void;
  /** It ended with a suggestion (post-processed), before anyone waiting for it is resumed. */
  onSuggestion?(suggestion: Suggestion): void;
}

/** What starts a stream. */
export interface StreamStart {
  /** The document it is for. */
  uri: string;
  /** Where the request was made. */
  anchor: Anchor;
  request: FimRequest;
  /** What post-processing judges its text against. */
  ctx: PostProcessContext;
  /** Whether its text arrives as it is generated; otherwise it is not known until the end. */
  streamed: boolean;
  /** The repository context it was sent with. */
  context?: ContextFigures | undefined;
  /** Whether it carries repository context, for the suggestion it makes. */
  contextArm?: ContextArm;
}

/**
 * One upstream request, shared by every completion request that can use it: the one that started it, and later
 * ones (the next keystrokes, or the other kind of request at the same place) that adopt it while what was typed
 * since its anchor may still be the start of its text. It is read into `raw` as it streams and cut as soon as
 * post-processing knows where the suggestion ends. It is aborted when nobody follows it any more (after a short
 * grace, for a request that was cancelled), or when the text it was made for changes.
 */
export class SharedStream {
  readonly controller = new AbortController();
  readonly anchor: Anchor;
  readonly ctx: PostProcessContext;
  readonly streamed: boolean;
  readonly context: ContextFigures | undefined;
  /** The text so far. */
  raw = "";
  /** Token usage, once the provider reported it. */
  usage: Usage | undefined;
  /** Duration of the upstream request, in ms, once it ended. */
  upstreamMs: number | undefined;
  /** The document changed before the anchor: what it returns is for text that is gone. */
  stale = false;
  /** The suggestion post-processing made of it, once it ended with one. */
  suggestion: Suggestion | undefined;
  /** Resolves when it ended, with its suggestion (null for none). Never rejects. */
  readonly done: Promise<FittedCompletion | null>;
  readonly #uri: string;
  readonly #arm: ContextArm | undefined;
  readonly #followers = new Set<Slot>();
  readonly #listeners = new Set<() => void>();
  #orphanTimer: NodeJS.Timeout | undefined;

  /** Start the request now. */
  constructor(
    upstream: Upstream,
    start: StreamStart,
    private readonly hooks: StreamHooks = {},
  ) {
    this.#uri = start.uri;
    this.#arm = start.contextArm;
    this.anchor = start.anchor;
    this.ctx = start.ctx;
    this.streamed = start.streamed;
    this.context = start.context;
    this.done = this.#consume(upstream, start.request);
  }

  /** Whether a request still waits for it (a superseded or cancelled one no longer does). */
  get followed(): boolean {
    for (const follower of this.#followers) if (!follower.settled) return true;
    return false;
  }

  /**
   * Whether a request whose cursor is `typed` past the anchor may be served by it: its text so far agrees with
   * the typing (or none came yet). Text that is not known until the end cannot be checked as it arrives.
   */
  canServe(typed: string | null): boolean {
    if (typed === null || this.stale) return false;
    if (!this.streamed && typed !== "") return false;
    return canServeFromPartial(this.raw, typed);
  }

  /** Abort it, unless a request still waits for it. */
  dropIfUnfollowed(reason: AbortReason): void {
    if (!this.followed) this.abort(reason);
  }

  abort(reason: AbortReason): void {
    this.controller.abort(reason);
  }

  /**
   * Wait for it on behalf of `slot`: until it ends, the slot is answered otherwise, or — when `typed` is given —
   * its text stops agreeing with what was typed. Meanwhile the slot is told the settled lines as `view` shows them
   * from its cursor. Left with no one waiting, it is aborted after a short grace, in case the next keystroke's
   * request adopts it.
   */
  async follow(slot: Slot, typed?: string, view?: (settled: string) => string | null): Promise<void> {
    clearTimeout(this.#orphanTimer);
    this.#followers.add(slot);
    const { onPartial } = slot;
    const partials =
      onPartial &&
      partialFeed(
        this,
        (text) => {
          if (!slot.settled) onPartial(text);
        },
        view,
      );
    partials?.();
    if (partials) this.#listeners.add(partials);
    let listener: (() => void) | undefined;
    const diverged =
      typed === undefined
        ? undefined
        : new Promise<void>((resolve) => {
            listener = () => {
              if (!canServeFromPartial(this.raw, typed)) resolve();
            };
            this.#listeners.add(listener);
          });
    await Promise.race([this.done, slot.promise, ...(diverged ? [diverged] : [])]);
    if (listener) this.#listeners.delete(listener);
    if (partials) this.#listeners.delete(partials);
    this.#followers.delete(slot);
    if (slot.settled && !this.followed) {
      // Left by a request the editor cancelled: cancelled, unless a newer request comes and adopts or drops it.
      const reason: AbortReason =
        slot.answer?.kind === "none" && slot.answer.reason === "cancelled" ? "cancelled" : "superseded";
      this.#orphanTimer = setTimeout(() => this.abort(reason), ADOPTION_GRACE_MS);
      this.#orphanTimer.unref?.();
    }
  }

  /** Read the request into `raw`, cutting it once the suggestion is settled. Never rejects. */
  async #consume(upstream: Upstream, request: FimRequest): Promise<FittedCompletion | null> {
    const t0 = performance.now();
    const { signal } = this.controller;
    let outcome: UpstreamEnd["outcome"] = "completed";
    let failure: unknown;
    try {
      if (this.streamed) {
        for await (const chunk of upstream.stream(request, { signal })) {
          if (chunk.usage) this.usage = chunk.usage;
          if (!chunk.text) continue;
          this.raw += chunk.text;
          this.#told();
          if (isSettled(this.raw, this.ctx)) break;
        }
      } else {
        const response = await upstream.complete(request, { signal });
        this.usage = response.usage;
        this.raw = response.text;
        this.#told();
      }
      this.hooks.onSuccess?.();
    } catch (error) {
      if (signal.aborted) {
        outcome = signal.reason === "superseded" ? "superseded" : "cancelled";
        return null;
      }
      outcome = "failed";
      failure = error;
      this.hooks.onFailure?.(error);
      return null;
    } finally {
      this.upstreamMs = performance.now() - t0;
      clearTimeout(this.#orphanTimer);
      this.hooks.onEnd?.({
        outcome,
        ms: this.upstreamMs,
        ...(failure === undefined ? {} : { error: failure }),
        ...(this.usage ? { usage: this.usage } : {}),
      });
    }
    const result = postProcess(this.raw, this.ctx);
    if (result) {
      this.suggestion = {
        uri: this.#uri,
        ...this.anchor,
        text: result.text,
        replaceEnd: result.replaceEnd,
        ...(this.#arm ? { contextArm: this.#arm } : {}),
      };
      this.hooks.onSuggestion?.(this.suggestion);
    }
    return result;
  }

  #told(): void {
    for (const listener of this.#listeners) listener();
  }
}
