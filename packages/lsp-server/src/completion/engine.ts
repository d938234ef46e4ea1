import type { CancellationToken, Position } from "vscode-languageserver";
import type { OpenDocument } from "../documents/documents.js";
import { comparePositions } from "../documents/text-buffer.js";
import { isEnabledFor } from "../settings/settings.js";
import { type AdoptionParts, adopt } from "./adoption.js";
import { anchorAt } from "./anchor.js";
import { type Answer, none, type RequestKind, type Trigger } from "./answer.js";
import { answering, servedAlternatives } from "./answering.js";
import type { EngineOptions } from "./engine-options.js";
import { FirstTokenClock } from "./first-token-clock.js";
import { FreshStreams } from "./fresh-streams.js";
import { Pacing } from "./pacing.js";
import type { PartialListener } from "./partial-feed.js";
import { chooseContext } from "./request-builder.js";
import { delayUnlessAnswered, Slot } from "./slot.js";
import type { DocState } from "./stream-hooks.js";
import { SuggestionMemory } from "./suggestion-memory.js";

export type { EngineOptions } from "./engine-options.js";

/**
 * Turns completion requests into suggestions, spending as few upstream requests as it can. The pipeline of one
 * request: memory (type-through) → a stream in flight that can serve it → debounce (while the context is chosen)
 * → a slot under the concurrency cap → a new stream, cut as soon as post-processing knows where the suggestion
 * ends. A newer request of the same kind for the same document supersedes an older one (answered empty at once,
 * its stream aborted unless another request follows it).
 */
export class CompletionEngine {
  readonly #states = new Map<string, DocState>();
  readonly #memory: SuggestionMemory;
  readonly #pacing: Pacing;
  /** Recent times to first token: how long a stream whose text has not come yet is worth following alone. */
  readonly #firstToken = new FirstTokenClock();
  readonly #adoption: AdoptionParts;
  readonly #fresh: FreshStreams;

  constructor(private readonly options: EngineOptions) {
    this.#memory = new SuggestionMemory(options.onTypedThrough);
    this.#pacing = new Pacing(options.settings);
    this.#adoption = { memory: this.#memory, clock: this.#firstToken, hedge: options.hedge !== false };
    this.#fresh = new FreshStreams(options, {
      pacing: this.#pacing,
      memory: this.#memory,
      clock: this.#firstToken,
    });
  }

  /** Upstream requests in flight now, and requests waiting for a slot. */
  get upstreamLoad(): { inFlight: number; waiting: number } {
    return this.#pacing.load;
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

    const invoked = trigger === "invoked";
    // A prefetch is not typing: it neither counts in the cadence nor waits for it.
    const wait = trigger === "prefetch" ? 0 : this.#pacing.arrived(uri, kind, started, invoked);
    this.#run(slot, state, doc, here, started, wait, invoked, trigger === "prefetch").catch(
      (error: unknown) => {
        this.options.log.error(`completion failed: ${String(error)}`);
        slot.resolve(none("error"));
      },
    );
    return slot.promise;
  }

  /**
   * The document changed from `from` (UTF-16) on. Typing at or after a suggestion's anchor keeps it (that is
   * type-through); a change before the anchor (an edit above, an auto-import at the top, a line joined) moves or
   * alters the text it was made for, so the remembered suggestion is dropped and a request still running for it
   * is aborted.
   */
  didChange(uri: string, from: Position): void {
    this.#memory.changed(uri, from);
    const running = this.#states.get(uri)?.stream;
    if (running && comparePositions(from, running.anchor) < 0) {
      running.stale = true;
      running.abort("superseded");
    }
    // A suggestion accepted (or typed to its end) with nothing remembered past it, and no stream reading on past it
    // (its hot streak is the next one): ask for the next one now.
    const doc = this.options.documents.get(uri);
    const prefetch = this.options.settings().prefetch && !this.#states.get(uri)?.stream?.continuing;
    const end = doc && prefetch ? this.#memory.acceptedEnd(doc) : undefined;
    if (end) void this.complete(uri, end, undefined, "inline", "prefetch");
  }

  /**
   * Whether a completion at `position` (UTF-16) of `uri` is in flight (a request waiting, or a stream anchored on
   * that line) or showing (the suggestion remembered for the document was made at that very place, for the text
   * as it still is): next-edit suggestions wait their turn there.
   */
  busyAt(uri: string, position: Position): boolean {
    const state = this.#states.get(uri);
    if (
      state &&
      (state.waiters.size > 0 ||
        (state.stream && !state.stream.stale && state.stream.anchor.line === position.line))
    )
      return true;
    const shown = this.#memory.get(uri);
    const doc = this.options.documents.get(uri);
    if (!shown || !doc || shown.line !== position.line || shown.character !== position.character)
      return false;
    if (shown.line >= doc.buffer.lineCount) return false;
    const line = doc.buffer.lineAt(shown.line);
    return (
      line.slice(0, shown.character) === shown.linePrefix && line.slice(shown.character) === shown.lineRest
    );
  }

  /** Forget a closed document: abort its upstream request and answer its waiting requests. */
  forget(uri: string): void {
    this.#memory.forget(uri);
    this.#pacing.forget(uri);
    const state = this.#states.get(uri);
    if (!state) return;
    for (const waiter of state.waiters.values()) waiter.resolve(none("cancelled"));
    state.stream?.abort("cancelled");
    this.#states.delete(uri);
  }

  /** Abort everything (shutdown). */
  dispose(): void {
    for (const uri of [...this.#states.keys()]) this.forget(uri);
  }

  /**
   * The pipeline of one request.
   *
   * @param wait the debounce, in ms.
   * @param invoked the user asked: held back only by what a settings change fixes (no key, a rejected key).
   * @param next the server asks for what follows a suggestion just accepted: a block, from the end of its line.
   */
  async #run(
    slot: Slot,
    state: DocState,
    doc: OpenDocument,
    here: Position,
    started: number,
    wait: number,
    invoked: boolean,
    next = false,
  ): Promise<void> {
    const anchor = anchorAt(doc, here);
    let waited = 0;
    const answer = answering(slot, here, started, () => waited);

    const remembered = this.#memory.serve(doc, anchor);
    if (remembered)
      return answer(
        "memory",
        remembered.result,
        remembered.suggestion,
        undefined,
        servedAlternatives(remembered),
      );
    // The same text, the same place: the model found nothing here a moment ago. Only the user asks again.
    const { empty } = state;
    if (
      !invoked &&
      empty?.version === doc.version &&
      empty.line === here.line &&
      empty.character === here.character
    )
      return slot.resolve(none("empty"));

    // A request already streaming for this document may start with what was typed since: follow it.
    let shared = await adopt(this.#adoption, slot, state.stream, () => state.stream, doc, anchor);
    if (shared.kind === "served") return answer("shared", shared.result, shared.suggestion);
    if (shared.kind === "empty" && !invoked) return slot.resolve(none("empty"));
    if (shared.kind === "hedged") {
      void shared.served.then((served) => served && answer("shared", served.result, served.suggestion));
    }
    // The user already waited (a stream that did not fit, or is late): no debounce then.
    const waitedAlready = shared.kind === "diverged" || shared.kind === "hedged";
    if (slot.settled) return;
    const available = this.#fresh.upstream(invoked);
    if (!available) return slot.resolve(none("blocked"));
    // A request is likely soon: the connection opens during the debounce, if it idled out.
    if (this.options.settings().preconnect) available.warm?.();

    // The context is chosen while the debounce runs (usually from memory; the first time, files are read).
    const version = doc.version;
    const quiet = waitedAlready ? 0 : wait;
    const context = chooseContext(this.options.context, doc, here, this.options.settings(), undefined, quiet);
    if (!waitedAlready) {
      waited = wait;
      await delayUnlessAnswered(wait, slot);
      if (slot.settled) return;
    }
    const chosen = await context;
    if (slot.settled) return;
    if (doc.version !== version) return slot.resolve(none("stale"));

    // The cap on requests in flight: a request superseded or cancelled while it waits never goes upstream.
    const load = this.#pacing.load;
    if (load.inFlight >= this.options.settings().maxConcurrent)
      this.options.log.debug(
        `waiting for an upstream slot: ${load.inFlight} in flight, ${load.waiting} waiting`,
      );
    let release = await this.#pacing.enter(slot.promise);
    if (!release) return;
    // Meanwhile a request of the other kind for the same place may have gone upstream: follow it, without holding a
    // slot. When none runs, nothing is awaited between this look and the start below, so that two requests resuming
    // together (both waited for the same context, or for a slot) cannot both start one.
    if (!waitedAlready && state.stream) {
      release();
      shared = await adopt(this.#adoption, slot, state.stream, () => state.stream, doc, anchor);
      if (shared.kind === "served") return answer("shared", shared.result, shared.suggestion);
      if (slot.settled) return;
      release = await this.#pacing.enter(slot.promise);
      if (!release) return;
    }
    // Or it went and already came back: its suggestion is in memory.
    const cameBack = !slot.settled && doc.version === version ? this.#memory.serve(doc, anchor) : undefined;
    if (cameBack) {
      release();
      return answer("memory", cameBack.result, cameBack.suggestion);
    }
    const upstream = this.#fresh.upstream(invoked);
    if (slot.settled || doc.version !== version || !upstream) {
      release();
      if (slot.settled) return;
      return slot.resolve(none(doc.version !== version ? "stale" : "blocked"));
    }
    // An invoked request may bring other candidates (`alternatives`): asked beside the first, ranked with it.
    const others = invoked ? this.options.settings().alternatives - 1 : 0;
    const stream = this.#fresh.start(upstream, state, doc, here, anchor, chosen, next, others > 0);
    if (!stream) {
      release();
      return slot.resolve(none("binary"));
    }
    // Its end frees the upstream slot.
    void stream.done.then(release);
    return this.#fresh.answer(slot, stream, upstream, doc, anchor, others, answer);
  }

  #state(uri: string): DocState {
    let state = this.#states.get(uri);
    if (!state) {
      state = { waiters: new Map(), stream: undefined, empty: undefined };
      this.#states.set(uri, state);
    }
    return state;
  }
}
