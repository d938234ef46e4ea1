import type { FimRequest, Usage } from "@infill/core";
import type { ContextArm } from "@infill/core/usage";
import type { AbortReason, Upstream, UpstreamEnd } from "../upstream/upstream.js";
import type { Anchor } from "./anchor.js";
import type { ContextFigures } from "./answer.js";
import { firstParagraph } from "./hot-streak.js";
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
  /** Its first text came, `ms` after it started (its time to first token, as the server sees it). */
  onFirstText?(ms: number): void;
  /**
   * It reads on past its suggestion (the hot streak): `raw` is all it wrote so far, `ended` whether that is all.
   * Called after each piece, and once more when it ended (not when it was aborted or failed meanwhile).
   */
  onStreak?(raw: string, suggestion: Suggestion, ended: boolean): void;
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
  /**
   * Chunks (about a token each) to read past the point where its suggestion is settled, as the hot streak; 0 (the
   * default) stops there.
   */
  streakTokens?: number;
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
  /** The request it sent. */
  readonly request: FimRequest;
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
  /** Time from its start until its suggestion was known, in ms: when it settled, or when it ended. */
  settledMs: number | undefined;
  /** How it ended, once it did. */
  outcome: UpstreamEnd["outcome"] | undefined;
  /** The log probabilities of its tokens up to its suggestion, when the request asked for them. */
  readonly logprobs: number[] = [];
  /** When it started (`performance.now()`). */
  readonly startedAt = performance.now();
  /** The document changed before the anchor: what it returns is for text that is gone. */
  stale = false;
  /** The suggestion post-processing made of it, once it ended with one. */
  suggestion: Suggestion | undefined;
  /** Resolves as soon as its suggestion is known (null for none): when it settled, or when it ended. Never rejects. */
  readonly settled: Promise<FittedCompletion | null>;
  /** Resolves when the upstream request ended (after reading on, for a hot streak). Never rejects. */
  readonly done: Promise<FittedCompletion | null>;
  #settle!: (result: FittedCompletion | null) => void;
  #result: FittedCompletion | null | undefined;
  readonly #streakTokens: number;
  readonly #uri: string;
  /** Whether it carries repository context (`holdout`: left out on purpose, `off`: context is off). */
  readonly contextArm: ContextArm | undefined;
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
    this.request = start.request;
    this.contextArm = start.contextArm;
    this.anchor = start.anchor;
    this.ctx = start.ctx;
    this.streamed = start.streamed;
    this.context = start.context;
    this.#streakTokens = start.ctx.mode === "multi-line" ? (start.streakTokens ?? 0) : 0;
    this.settled = new Promise((resolve) => {
      this.#settle = resolve;
    });
    this.done = this.#consume(upstream, start.request);
  }

  /** Whether its suggestion is known and it still reads on (the hot streak). */
  get continuing(): boolean {
    return this.#result !== undefined && this.upstreamMs === undefined;
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

  /**
   * Resolves once `ready()` holds after a piece of text arrived, or it ended, or `slot` was answered, whichever
   * comes first. Never rejects.
   */
  async until(ready: () => boolean, slot: Slot): Promise<void> {
    if (ready()) return;
    let listener: (() => void) | undefined;
    const readyNow = new Promise<void>((resolve) => {
      listener = () => {
        if (ready()) resolve();
      };
      this.#listeners.add(listener);
    });
    await Promise.race([readyNow, this.done, slot.promise]);
    if (listener) this.#listeners.delete(listener);
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
    await Promise.race([this.settled, slot.promise, ...(diverged ? [diverged] : [])]);
    if (listener) this.#listeners.delete(listener);
    if (partials) this.#listeners.delete(partials);
    this.#followers.delete(slot);
    // Reading on for the hot streak, it is the memory's now: it ends by its budget, or when dropped.
    if (slot.settled && !this.followed && !this.continuing) {
      // Left by a request the editor cancelled: cancelled, unless a newer request comes and adopts or drops it.
      const reason: AbortReason =
        slot.answer?.kind === "none" && slot.answer.reason === "cancelled" ? "cancelled" : "superseded";
      this.#orphanTimer = setTimeout(() => this.abort(reason), ADOPTION_GRACE_MS);
      this.#orphanTimer.unref?.();
    }
  }

  /** Read the request into `raw`, cutting it once the suggestion is settled. Never rejects. */
  async #consume(upstream: Upstream, request: FimRequest): Promise<FittedCompletion | null> {
    const t0 = this.startedAt;
    const { signal } = this.controller;
    let outcome: UpstreamEnd["outcome"] = "completed";
    let failure: unknown;
    let past = 0;
    try {
      if (this.streamed) {
        for await (const chunk of upstream.stream(request, { signal })) {
          if (chunk.usage) this.usage = chunk.usage;
          if (chunk.logprobs && this.#result === undefined) this.logprobs.push(...chunk.logprobs);
          if (!chunk.text) continue;
          if (this.raw === "") this.hooks.onFirstText?.(performance.now() - t0);
          this.raw += chunk.text;
          if (this.#result !== undefined) {
            if (this.suggestion) this.hooks.onStreak?.(this.raw, this.suggestion, false);
            this.#told();
            if (++past >= this.#streakTokens) break;
            continue;
          }
          this.#told();
          if (this.#streakTokens > 0) {
            // Answer as soon as the first paragraph is whole, and read on: what follows is the next suggestions.
            const first = firstParagraph(this.raw, this.ctx);
            if (first !== undefined) this.#resolve({ text: first, replaceEnd: 0 });
            else if (isSettled(this.raw, this.ctx)) this.#resolve(postProcess(this.raw, this.ctx));
          } else if (isSettled(this.raw, this.ctx)) break;
        }
      } else {
        const response = await upstream.complete(request, { signal });
        this.usage = response.usage;
        this.raw = response.text;
        if (response.logprobs) this.logprobs.push(...response.logprobs);
        this.#told();
      }
      this.hooks.onSuccess?.();
    } catch (error) {
      if (signal.aborted) {
        outcome = signal.reason === "superseded" ? "superseded" : "cancelled";
      } else {
        outcome = "failed";
        failure = error;
        this.hooks.onFailure?.(error);
      }
      // A suggestion answered before it was dropped stands; otherwise there is none.
      this.#resolve(null);
      return this.#result ?? null;
    } finally {
      this.outcome = outcome;
      this.upstreamMs = performance.now() - t0;
      clearTimeout(this.#orphanTimer);
      this.hooks.onEnd?.({
        outcome,
        ms: this.upstreamMs,
        ...(failure === undefined ? {} : { error: failure }),
        ...(this.usage ? { usage: this.usage } : {}),
      });
    }
    if (this.#result !== undefined) {
      if (this.suggestion) this.hooks.onStreak?.(this.raw, this.suggestion, true);
      return this.#result;
    }
    this.#resolve(postProcess(this.raw, this.ctx));
    return this.#result ?? null;
  }

  /** Its suggestion is known: remember it, tell who waits (once). */
  #resolve(result: FittedCompletion | null): void {
    if (this.#result !== undefined) return;
    this.#result = result;
    this.settledMs = performance.now() - this.startedAt;
    if (result) {
      this.suggestion = {
        uri: this.#uri,
        ...this.anchor,
        text: result.text,
        replaceEnd: result.replaceEnd,
        ...(this.contextArm ? { contextArm: this.contextArm } : {}),
      };
      this.hooks.onSuggestion?.(this.suggestion);
    }
    this.#settle(result);
  }

  #told(): void {
    for (const listener of this.#listeners) listener();
  }
}
