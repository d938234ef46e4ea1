import type { FimChunk, FimCompletion, FimContext, FimRequest, Usage } from "@infill/core";
import type { CancellationToken, Position } from "vscode-languageserver";
import { type ContextBlock, EMPTY_BLOCK } from "../context/block.js";
import type { Documents, OpenDocument } from "../documents/documents.js";
import { comparePositions } from "../documents/text-buffer.js";
import type { Logger } from "../log/logger.js";
import { isEnabledFor, type Settings } from "../settings/settings.js";
import type { FailureNotice, UpstreamHealth } from "../upstream/health.js";
import { Cadence } from "./adaptive-debounce.js";
import { type PartialListener, partialFeed } from "./partial-results.js";
import {
  completionMode,
  type FittedCompletion,
  isSettled,
  type PostProcessContext,
  postProcess,
} from "./postprocess.js";
import { buildPromptWindow } from "./prompt-window.js";
import {
  canServeFromPartial,
  matchTypeThrough,
  type Suggestion,
  type TypeThroughState,
  typedThrough,
} from "./type-through.js";
import { type Release, UpstreamGate } from "./upstream-gate.js";

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

/** Where the repository context of a request comes from (`RepositoryContext` fits). */
export interface ContextSource {
  /** The block for a request at `position` (UTF-16), within `budgetTokens`. Never rejects. */
  block(
    doc: OpenDocument,
    position: Position,
    budgetTokens: number,
  ): Promise<{ block: ContextBlock; ms: number; recomputed: boolean }>;
}

/** What the repository context of an upstream request was. */
export interface ContextFigures {
  /** Time spent choosing it, in ms. */
  ms: number;
  /** Snippets in the block. */
  snippets: number;
  /** Estimated tokens of the block. */
  tokens: number;
  /** Whether it was chosen anew (false: the document's previous block, reused byte for byte). */
  recomputed: boolean;
}

/** Why a request got no suggestion. A value, not an exception: every LSP request gets an answer. */
export type NoSuggestionReason =
  | "unknown-document"
  | "invalid-position"
  | "disabled"
  | "superseded"
  | "cancelled"
  | "stale"
  | "blocked"
  | "binary"
  | "empty"
  | "error";

/**
 * Which LSP request asks: ghost text and the popup are answered independently (a client may show both), so a
 * request only supersedes an older one of the same kind.
 */
export type RequestKind = "inline" | "completion";

/**
 * Who asked: the user (`invoked`: a key or command; LSP `triggerKind: Invoked`), which skips the debounce and any
 * backoff, or the editor as the user types (`automatic`).
 */
export type Trigger = "invoked" | "automatic";

/** Where a suggestion came from: a new upstream request, memory (type-through), or a request already running. */
export type SuggestionSource = "upstream" | "memory" | "shared";

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

/** The engine's answer to one completion request. */
export type Answer =
  | {
      kind: "suggestion";
      /** Text to insert at `position`. */
      text: string;
      /** UTF-16 units after `position` on its line that the insertion replaces (auto-paired closers). */
      replaceEnd: number;
      /** The cursor, UTF-16. */
      position: Position;
      source: SuggestionSource;
      /** Time from the request to the answer, in ms. */
      latencyMs: number;
      /** Time the upstream request took, in ms, for a suggestion that needed one. */
      upstreamMs?: number;
      /** Upstream token usage, when the stream ran to its end. */
      usage?: Usage;
      /** The repository context of the upstream request, when context is on. */
      context?: ContextFigures;
      /** The suggestion shown (the same object while it is typed through), from which `text` is what is left. */
      suggestion: Suggestion;
      /** The debounce waited before the upstream request, in ms, for a suggestion that needed one. */
      debounceMs?: number;
    }
  | { kind: "none"; reason: NoSuggestionReason };

/** Collaborators of the engine. */
export interface EngineOptions {
  documents: Documents;
  /** The upstream client for the current settings; undefined when there is none (no API key). */
  upstream: () => Upstream | undefined;
  settings: () => Settings;
  health: UpstreamHealth;
  /** Called once per kind of failure (the health tracker deduplicates). */
  onFailure: (notice: FailureNotice) => void;
  /** Called when an upstream request starts; the returned function is called when it ends. */
  onUpstream?: (uri: string) => (end: UpstreamEnd) => void;
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
}

/**
 * How long a request that nobody waits for anymore (its LSP request was cancelled) keeps streaming, in ms, in
 * case the next keystroke's request can adopt it. Clients such as Neovim cancel the old request and send the new
 * one in the same breath; a new request that cannot use the stream aborts it at once.
 */
const ADOPTION_GRACE_MS = 50;
/** Type-through looks at most this many lines between the anchor and the cursor. */
const TYPE_THROUGH_MAX_LINES = 16;

const none = (reason: NoSuggestionReason): Answer => ({ kind: "none", reason });

/** A one-shot answer slot: the first `resolve` wins, later ones are ignored. */
class Slot {
  settled = false;
  /** The answer, once settled. */
  answer: Answer | undefined;
  /** Told the settled lines (relative to the request's cursor) while it streams, until the slot is answered. */
  constructor(readonly onPartial?: (text: string) => void) {}
  #resolve!: (answer: Answer) => void;
  readonly promise = new Promise<Answer>((resolve) => {
    this.#resolve = resolve;
  });

  resolve(answer: Answer): void {
    if (this.settled) return;
    this.settled = true;
    this.answer = answer;
    this.#resolve(answer);
  }
}

interface Anchor {
  line: number;
  character: number;
  linePrefix: string;
  lineRest: string;
}

interface Inflight {
  readonly controller: AbortController;
  readonly anchor: Anchor;
  raw: string;
  usage: Usage | undefined;
  /** Duration of the upstream request, in ms, once it ended. */
  upstreamMs: number | undefined;
  /** The requests waiting for it; it is aborted when none of them still waits. */
  readonly followers: Set<Slot>;
  orphanTimer: NodeJS.Timeout | undefined;
  /** Called after each piece of text arrives. */
  readonly listeners: Set<() => void>;
  /** The document changed before the anchor: what it returns is for text that is gone. */
  stale: boolean;
  /** The repository context it was sent with. */
  context: ContextFigures | undefined;
  /** What it suggested, once it ended with a suggestion. */
  suggestion: Suggestion | undefined;
  /** What post-processing judges its text against. */
  readonly ctx: PostProcessContext;
  /** Whether its text arrives as it is generated (a stream); otherwise it is not known until the end. */
  readonly streamed: boolean;
  result: Promise<FittedCompletion | null>;
}

/** What following the request in flight gave. */
type Shared =
  | { kind: "served"; result: FittedCompletion; suggestion: Suggestion }
  | { kind: "diverged" }
  | { kind: "none" };

interface DocState {
  waiters: Map<RequestKind, Slot>;
  inflight: Inflight | undefined;
  last: Suggestion | undefined;
  /** The typing cadence seen through each kind of request, for the adaptive debounce. */
  cadence: Map<RequestKind, Cadence>;
}

/**
 * Turns completion requests into suggestions, spending as few upstream requests as it can: a debounce per
 * document, a newer request superseding an older one (answered empty at once, its upstream request aborted),
 * type-through from the last suggestion, a still-streaming request serving the next keystrokes, and streams cut
 * as soon as post-processing knows where the suggestion ends.
 */
export class CompletionEngine {
  readonly #states = new Map<string, DocState>();
  /** The cap on upstream requests in flight, over every document (`maxConcurrent`). */
  readonly #gate: UpstreamGate;
  /** The cadence learned last, which a document new to the engine starts from. */
  #lastCadence: Cadence | undefined;

  constructor(private readonly options: EngineOptions) {
    this.#gate = new UpstreamGate(() => options.settings().maxConcurrent);
  }

  /** Upstream requests in flight now, and requests waiting for a slot. */
  get upstreamLoad(): { inFlight: number; waiting: number } {
    return { inFlight: this.#gate.inUse, waiting: this.#gate.waiting };
  }

  /**
   * Answer a completion request at a UTF-16 position. Never rejects. `onPartial` is told the lines settled so far
   * while a block streams (each call extends the previous text), never after the answer, a supersede or a cancel.
   */
  complete(
    uri: string,
    position: Position,
    token?: CancellationToken,
    kind: RequestKind = "inline",
    trigger: Trigger = "automatic",
    onPartial?: PartialListener,
  ): Promise<Answer> {
    const started = performance.now();
    const { documents, settings } = this.options;
    const doc = documents.get(uri);
    if (!doc) return Promise.resolve(none("unknown-document"));
    const here = documents.toUtf16(doc, position);
    if (!here) return Promise.resolve(none("invalid-position"));
    if (!isEnabledFor(settings(), doc.languageId)) return Promise.resolve(none("disabled"));

    const state = this.#state(uri);
    state.waiters.get(kind)?.resolve(none("superseded"));
    const slot = new Slot(onPartial && ((text) => onPartial({ text, position: here })));
    state.waiters.set(kind, slot);
    const onCancel = token?.onCancellationRequested(() => slot.resolve(none("cancelled")));
    void slot.promise.then(() => {
      onCancel?.dispose();
      if (state.waiters.get(kind) === slot) state.waiters.delete(kind);
    });

    this.#cadence(state, kind).record(started);
    const wait = trigger === "invoked" ? 0 : this.#debounceMs(state, kind);
    this.#run(slot, state, doc, here, started, wait, trigger === "invoked").catch((error: unknown) => {
      this.options.log.error(`completion failed: ${String(error)}`);
      slot.resolve(none("error"));
    });
    return slot.promise;
  }

  /**
   * The document changed from `from` (UTF-16) on. Typing at or after a suggestion's anchor keeps it (that is
   * type-through); a change before the anchor (an edit above, an auto-import at the top, a line joined) moves or
   * alters the text it was made for, so the remembered suggestion is dropped and a request still running for it
   * is aborted.
   */
  didChange(uri: string, from: Position): void {
    const state = this.#states.get(uri);
    if (!state) return;
    if (state.last && comparePositions(from, state.last) < 0) state.last = undefined;
    const running = state.inflight;
    if (running && comparePositions(from, running.anchor) < 0) {
      running.stale = true;
      running.controller.abort("superseded" satisfies AbortReason);
    }
  }

  /** Forget a closed document: abort its upstream request and answer its waiting request. */
  forget(uri: string): void {
    const state = this.#states.get(uri);
    if (!state) return;
    for (const waiter of state.waiters.values()) waiter.resolve(none("cancelled"));
    state.inflight?.controller.abort("cancelled" satisfies AbortReason);
    this.#states.delete(uri);
  }

  /** Abort everything (shutdown). */
  dispose(): void {
    for (const uri of [...this.#states.keys()]) this.forget(uri);
  }

  /**
   * @param wait the debounce, in ms.
   * @param invoked the user asked: held back only by what a settings change fixes (no key, a rejected key).
   */
  async #run(
    slot: Slot,
    state: DocState,
    doc: OpenDocument,
    here: Position,
    started: number,
    wait: number,
    invoked: boolean,
  ): Promise<void> {
    const anchor = anchorAt(doc, here);
    let waited = 0;
    const answer = (
      result: FittedCompletion,
      source: SuggestionSource,
      suggestion: Suggestion,
      inflight?: Inflight,
    ) =>
      slot.resolve({
        kind: "suggestion",
        text: result.text,
        replaceEnd: result.replaceEnd,
        position: here,
        source,
        latencyMs: performance.now() - started,
        ...(inflight?.upstreamMs !== undefined ? { upstreamMs: inflight.upstreamMs } : {}),
        ...(inflight?.usage ? { usage: inflight.usage } : {}),
        ...(inflight?.context ? { context: inflight.context } : {}),
        suggestion,
        ...(source === "upstream" ? { debounceMs: waited } : {}),
      });

    const remembered = state.last && this.#typeThrough(state.last, doc, anchor);
    if (remembered) return answer(remembered, "memory", state.last!);

    // A request already streaming for this document may start with what was typed since: follow it.
    let shared = await this.#share(slot, state, doc, anchor);
    if (shared.kind === "served") return answer(shared.result, "shared", shared.suggestion);
    if (slot.settled) return;
    const available = this.#upstream(invoked);
    if (!available) return slot.resolve(none("blocked"));
    // A request is likely soon: the connection opens during the debounce, if it idled out.
    if (this.options.settings().preconnect) available.warm?.();

    // The context is chosen while the debounce runs (usually from memory; the first time, files are read).
    const version = doc.version;
    const context = this.#context(doc, here);
    // After following a stream that did not fit, the user already waited: no debounce then.
    if (shared.kind !== "diverged") {
      waited = wait;
      await delay(wait, slot);
      if (slot.settled) return;
    }
    const chosen = await context;
    if (slot.settled) return;
    if (doc.version !== version) return slot.resolve(none("stale"));

    // The cap on requests in flight: a request superseded or cancelled while it waits never goes upstream.
    let release = await this.#gate.enter(slot.promise);
    if (!release) return;
    // Meanwhile a request of the other kind for the same place may have gone upstream: follow it, without holding a
    // slot. When none runs, nothing is awaited between this look and the start below, so that two requests resuming
    // together (both waited for the same context, or for a slot) cannot both start one.
    if (shared.kind !== "diverged" && state.inflight) {
      release();
      shared = await this.#share(slot, state, doc, anchor);
      if (shared.kind === "served") return answer(shared.result, "shared", shared.suggestion);
      if (slot.settled) return;
      release = await this.#gate.enter(slot.promise);
      if (!release) return;
    }
    // Or it went and already came back: its suggestion is in memory.
    const cameBack =
      !slot.settled && doc.version === version && state.last && this.#typeThrough(state.last, doc, anchor);
    if (cameBack) {
      release();
      return answer(cameBack, "memory", state.last!);
    }
    const upstream = this.#upstream(invoked);
    const inflight =
      !slot.settled && doc.version === version && upstream
        ? this.#start(upstream, state, doc, here, anchor, chosen, release)
        : undefined;
    if (!inflight) {
      release();
      if (doc.version !== version) return slot.resolve(none("stale"));
      return slot.resolve(none(upstream ? "binary" : "blocked"));
    }
    await this.#follow(slot, inflight);
    if (slot.settled) return;
    const result = await inflight.result;
    return result && inflight.suggestion
      ? answer(result, "upstream", inflight.suggestion, inflight)
      : slot.resolve(none("empty"));
  }

  /** The upstream to use now, or undefined when there is none (no key) or it is backed off. */
  #upstream(invoked: boolean): Upstream | undefined {
    const upstream = this.options.upstream();
    return upstream && !this.options.health.isBlocked(invoked) ? upstream : undefined;
  }

  #cadence(state: DocState, kind: RequestKind): Cadence {
    let cadence = state.cadence.get(kind);
    if (!cadence) {
      cadence = new Cadence(this.#lastCadence);
      state.cadence.set(kind, cadence);
    }
    this.#lastCadence = cadence;
    return cadence;
  }

  /** The debounce for the request just recorded: learned from the cadence, or the fixed `debounceMs`. */
  #debounceMs(state: DocState, kind: RequestKind): number {
    const { debounceMs, adaptiveDebounce } = this.options.settings();
    return adaptiveDebounce ? this.#cadence(state, kind).waitMs(debounceMs) : debounceMs;
  }

  /**
   * Let the request in flight for this document serve `here` if what was typed since its anchor may still be the
   * start of its text: follow it until it answers (`served`) or turns out not to fit (`diverged`). One that cannot
   * serve `here` is aborted unless another request still waits for it (`none`).
   */
  async #share(slot: Slot, state: DocState, doc: OpenDocument, here: Anchor): Promise<Shared> {
    const running = state.inflight;
    if (!running || running.stale) return { kind: "none" };
    const typed = typedSince(doc, running.anchor, here);
    // Text that is not known until the request ends cannot be checked against the typing as it arrives.
    const unknown = !running.streamed && typed !== "";
    if (typed === null || unknown || !canServeFromPartial(running.raw, typed)) {
      if (state.inflight === running && !isFollowed(running)) running.controller.abort("superseded");
      return { kind: "none" };
    }
    // Its settled lines, seen from here: what is left of them after what was typed (until the next edit, after
    // which this request is about to be superseded).
    const version = doc.version;
    const view = (text: string) =>
      doc.version !== version
        ? null
        : (this.#typeThrough({ uri: doc.uri, ...running.anchor, text, replaceEnd: 0 }, doc, here)?.text ??
          null);
    await this.#follow(slot, running, typed, view);
    if (slot.settled) return { kind: "none" };
    const served = state.last && this.#typeThrough(state.last, doc, here);
    if (served) return { kind: "served", result: served, suggestion: state.last! };
    if (state.inflight === running && !isFollowed(running)) running.controller.abort("superseded");
    return { kind: "diverged" };
  }

  /**
   * Wait for an in-flight request on behalf of `slot`: until it finishes, the slot is answered otherwise, or —
   * when `typed` is given — its text stops agreeing with what was typed. Meanwhile the slot is told the settled
   * lines as `view` shows them from its cursor. A request left with no one waiting is aborted after a short
   * grace, in case the next keystroke's request adopts it.
   */
  async #follow(
    slot: Slot,
    inflight: Inflight,
    typed?: string,
    view?: (settled: string) => string | null,
  ): Promise<void> {
    clearTimeout(inflight.orphanTimer);
    inflight.followers.add(slot);
    const { onPartial } = slot;
    const partials =
      onPartial &&
      partialFeed(
        inflight,
        (text) => {
          if (!slot.settled) onPartial(text);
        },
        view,
      );
    partials?.();
    if (partials) inflight.listeners.add(partials);
    let listener: (() => void) | undefined;
    const diverged =
      typed === undefined
        ? undefined
        : new Promise<void>((resolve) => {
            listener = () => {
              if (!canServeFromPartial(inflight.raw, typed)) resolve();
            };
            inflight.listeners.add(listener);
          });
    await Promise.race([inflight.result, slot.promise, ...(diverged ? [diverged] : [])]);
    if (listener) inflight.listeners.delete(listener);
    if (partials) inflight.listeners.delete(partials);
    inflight.followers.delete(slot);
    if (slot.settled && !isFollowed(inflight)) {
      // Left by a request the editor cancelled: cancelled, unless a newer request comes and adopts or drops it.
      const reason: AbortReason =
        slot.answer?.kind === "none" && slot.answer.reason === "cancelled" ? "cancelled" : "superseded";
      inflight.orphanTimer = setTimeout(() => inflight.controller.abort(reason), ADOPTION_GRACE_MS);
      inflight.orphanTimer.unref?.();
    }
  }

  /** The repository context for a request, and its figures; an empty block when context is off. */
  async #context(
    doc: OpenDocument,
    here: Position,
  ): Promise<{ block: ContextBlock; figures: ContextFigures | undefined }> {
    const s = this.options.settings();
    const source = this.options.context;
    if (!source || !s.context.enabled) return { block: EMPTY_BLOCK, figures: undefined };
    // The context never takes more than half of the request: the current file comes first.
    const budget = Math.min(s.context.maxTokens, Math.floor(s.contextTokens / 2));
    const { block, ms, recomputed } = await source.block(doc, here, budget);
    // A snippet from an open buffer holding NUL would make the request binary: leave the context out then.
    const usable = block.text.includes("\0") ? EMPTY_BLOCK : block;
    return {
      block: usable,
      figures: { ms, snippets: usable.snippets.length, tokens: usable.tokens, recomputed },
    };
  }

  #start(
    upstream: Upstream,
    state: DocState,
    doc: OpenDocument,
    here: Position,
    anchor: Anchor,
    context: { block: ContextBlock; figures: ContextFigures | undefined },
    release: Release,
  ): Inflight | undefined {
    const s = this.options.settings();
    // The context's share of `contextTokens` is what it really uses: context not found gives its share back.
    const window = buildPromptWindow(doc.buffer, here, {
      budgetTokens: s.contextTokens - context.block.tokens,
    });
    if (window.prompt.includes("\0") || window.suffix.includes("\0")) return undefined;
    const ctx: PostProcessContext = {
      lineBefore: anchor.linePrefix,
      lineAfter: anchor.lineRest,
      suffix: window.suffix,
      mode: completionMode(anchor.linePrefix, anchor.lineRest, s.lineMode),
    };
    // A block is streamed, so that it can be cut as soon as post-processing knows where it ends. One line stops
    // at the line break on the server (which bills nothing past it); it is streamed too unless told otherwise, so
    // that a request still running when the user types on can be followed or dropped on its first text.
    const singleLine = ctx.mode === "single-line";
    const streamed = !singleLine || (this.options.streamSingleLines ?? true);
    const request: FimRequest = {
      prompt: window.prompt,
      // The provider puts the block where it belongs: before the prompt, or (llama.cpp) in its own field.
      ...(context.block.text === "" ? {} : { context: fimContext(context.block) }),
      suffix: window.suffix,
      max_tokens: s.maxTokens,
      temperature: s.temperature,
      ...(singleLine ? { stop: ["\n"] } : {}),
    };
    const controller = new AbortController();
    const inflight: Inflight = {
      controller,
      anchor,
      raw: "",
      usage: undefined,
      upstreamMs: undefined,
      followers: new Set(),
      orphanTimer: undefined,
      listeners: new Set(),
      stale: false,
      context: context.figures,
      suggestion: undefined,
      ctx,
      streamed,
      result: Promise.resolve(null),
    };
    inflight.result = this.#consume(upstream, request, streamed, ctx, inflight, state, doc.uri);
    // #consume never rejects; its end frees the upstream slot.
    void inflight.result.then(release);
    state.inflight = inflight;
    return inflight;
  }

  /** Stream one upstream request into `inflight.raw`, cutting it once the suggestion is settled. Never rejects. */
  async #consume(
    upstream: Upstream,
    request: FimRequest,
    streamed: boolean,
    ctx: PostProcessContext,
    inflight: Inflight,
    state: DocState,
    uri: string,
  ): Promise<FittedCompletion | null> {
    const { health, log, onFailure } = this.options;
    const done = this.options.onUpstream?.(uri);
    const t0 = performance.now();
    const signal = inflight.controller.signal;
    let outcome: UpstreamEnd["outcome"] = "completed";
    let failure: unknown;
    try {
      if (streamed) {
        for await (const chunk of upstream.stream(request, { signal })) {
          if (chunk.usage) inflight.usage = chunk.usage;
          const text = chunk.text;
          if (!text) continue;
          inflight.raw += text;
          for (const listener of inflight.listeners) listener();
          if (isSettled(inflight.raw, ctx)) break;
        }
      } else {
        const response = await upstream.complete(request, { signal });
        inflight.usage = response.usage;
        inflight.raw = response.text;
        for (const listener of inflight.listeners) listener();
      }
      health.success();
    } catch (error) {
      if (inflight.controller.signal.aborted) {
        outcome = signal.reason === "superseded" ? "superseded" : "cancelled";
        const why = inflight.stale ? "the text it was for changed" : "nobody waits for it";
        log.debug(`upstream request aborted after ${Math.round(performance.now() - t0)} ms: ${why}`);
        return null;
      }
      outcome = "failed";
      failure = error;
      const notice = health.failure(error);
      if (notice) onFailure(notice);
      log.warn(`upstream request failed: ${error instanceof Error ? error.message : String(error)}`);
      return null;
    } finally {
      inflight.upstreamMs = performance.now() - t0;
      clearTimeout(inflight.orphanTimer);
      if (state.inflight === inflight) state.inflight = undefined;
      done?.({
        outcome,
        ms: inflight.upstreamMs,
        ...(failure === undefined ? {} : { error: failure }),
        ...(inflight.usage ? { usage: inflight.usage } : {}),
      });
    }
    const result = postProcess(inflight.raw, ctx);
    const usage = inflight.usage;
    log.debug(
      `upstream ${Math.round(performance.now() - t0)} ms, ${inflight.raw.length} chars, ` +
        (usage
          ? `prompt ${usage.prompt_tokens} tokens` +
            (usage.prompt_cache_hit_tokens === undefined ? "" : ` (${usage.prompt_cache_hit_tokens} cached)`)
          : "no usage (stream cut early, or the provider gives none)"),
    );
    if (result) {
      inflight.suggestion = { uri, ...inflight.anchor, text: result.text, replaceEnd: result.replaceEnd };
      if (!inflight.stale) state.last = inflight.suggestion;
    }
    return result;
  }

  #typeThrough(
    last: Suggestion,
    doc: OpenDocument,
    here: Anchor,
  ): { text: string; replaceEnd: number } | null {
    if (last.uri !== doc.uri || last.line >= doc.buffer.lineCount) return null;
    const typed = typedSince(doc, last, here);
    if (typed === null) return null;
    const now: TypeThroughState = {
      line: here.line,
      character: here.character,
      typed,
      linePrefixAtAnchor: doc.buffer.lineAt(last.line).slice(0, last.character),
      lineRestAfterCursor: here.lineRest,
    };
    const chars = this.options.onTypedThrough && typed !== "" ? typedThrough(last, now) : null;
    if (chars) this.options.onTypedThrough?.(last, chars);
    return matchTypeThrough(last, now);
  }

  #state(uri: string): DocState {
    let state = this.#states.get(uri);
    if (!state) {
      state = { waiters: new Map(), inflight: undefined, last: undefined, cadence: new Map() };
      this.#states.set(uri, state);
    }
    return state;
  }
}

/** A context block as the provider-neutral request carries it (see FimContext in @infill/core). */
function fimContext(block: ContextBlock): FimContext {
  return {
    snippets: block.snippets.map(({ path, text }) => ({ path, text })),
    text: block.text,
    pathLine: block.pathLine,
  };
}

/** Does a request still wait for this upstream request? (A superseded or cancelled one no longer does.) */
function isFollowed(inflight: Inflight): boolean {
  for (const follower of inflight.followers) if (!follower.settled) return true;
  return false;
}

function anchorAt(doc: OpenDocument, position: Position): Anchor {
  const text = doc.buffer.lineAt(position.line);
  return {
    line: position.line,
    character: position.character,
    linePrefix: text.slice(0, position.character),
    lineRest: text.slice(position.character),
  };
}

/** The text typed between an anchor and the cursor, or null when the cursor is before it or too far away. */
function typedSince(doc: OpenDocument, from: Position, to: Position): string | null {
  if (to.line < from.line || (to.line === from.line && to.character < from.character)) return null;
  if (to.line - from.line > TYPE_THROUGH_MAX_LINES || from.line >= doc.buffer.lineCount) return null;
  if (from.character > doc.buffer.lineAt(from.line).length) return null;
  return doc.buffer.slice(from, to);
}

function delay(ms: number, slot: Slot): Promise<void> {
  if (ms <= 0) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    void slot.promise.then(() => {
      clearTimeout(timer);
      resolve();
    });
  });
}
