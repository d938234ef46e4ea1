import type { Position } from "vscode-languageserver";
import type { OpenDocument } from "../documents/documents.js";
import type { Upstream } from "../upstream/upstream.js";
import { askAlternatives, meanLogprob, rankCandidates } from "./alternatives.js";
import type { Anchor } from "./anchor.js";
import { none } from "./answer.js";
import type { AnswerWith } from "./answering.js";
import { documentSyntax } from "./document-syntax.js";
import type { EngineOptions } from "./engine-options.js";
import type { FirstTokenClock } from "./first-token-clock.js";
import type { Pacing } from "./pacing.js";
import { type ChosenContext, streamStart } from "./request-builder.js";
import { SharedStream } from "./shared-stream.js";
import type { Slot } from "./slot.js";
import { type DocState, streamHooks } from "./stream-hooks.js";
import type { SuggestionMemory } from "./suggestion-memory.js";

/**
 * The end of a request's pipeline that goes upstream: the upstream to use now, a new stream started as the document's
 * stream in flight, and the answer from it — its suggestion, or the best of it and the other candidates asked beside
 * it (`alternatives`).
 */
export class FreshStreams {
  readonly #options: EngineOptions;
  readonly #pacing: Pacing;
  readonly #memory: SuggestionMemory;
  readonly #clock: FirstTokenClock;

  constructor(
    options: EngineOptions,
    parts: { pacing: Pacing; memory: SuggestionMemory; clock: FirstTokenClock },
  ) {
    this.#options = options;
    this.#pacing = parts.pacing;
    this.#memory = parts.memory;
    this.#clock = parts.clock;
  }

  /**
   * Answer from a stream just started: its suggestion, or (`others` above 0) the best of it and the other
   * candidates, asked beside it and ranked with it.
   */
  async answer(
    slot: Slot,
    stream: SharedStream,
    upstream: Upstream,
    doc: OpenDocument,
    anchor: Anchor,
    others: number,
    answer: AnswerWith,
  ): Promise<void> {
    const alternatives =
      others > 0
        ? askAlternatives({
            upstream,
            request: stream.request,
            ctx: stream.ctx,
            syntax: () => stream.syntax(),
            count: others,
            giveUp: slot.promise,
            enter: (giveUp) => this.#pacing.enter(giveUp),
            onUpstream: () => this.#options.onUpstream?.(doc.uri, stream.contextArm ?? "off") ?? (() => {}),
          })
        : undefined;
    await stream.follow(slot);
    if (slot.settled) return;
    const result = await stream.settled;
    if (!alternatives) {
      return result && stream.suggestion
        ? answer("upstream", result, stream.suggestion, stream)
        : slot.resolve(none("empty"));
    }
    const first = result ? [{ result, meanLogprob: meanLogprob(stream.logprobs), order: 0 }] : [];
    const ranked = rankCandidates([...first, ...(await alternatives)]);
    if (slot.settled) return;
    const [best, ...rest] = ranked.map((c) => ({
      ...c.result,
      suggestion: { uri: doc.uri, ...anchor, text: c.result.text, replaceEnd: c.result.replaceEnd },
    }));
    if (!best) return slot.resolve(none("empty"));
    // The best is the one typing into is answered from memory.
    if (!stream.stale)
      this.#memory.remember(
        best.suggestion,
        rest.map((r) => r.suggestion),
      );
    return answer("upstream", best, best.suggestion, stream, rest);
  }

  /** The upstream to use now, or undefined when there is none (no key) or it is backed off. */
  upstream(invoked: boolean): Upstream | undefined {
    const upstream = this.#options.upstream();
    return upstream && !this.#options.health.isBlocked(invoked) ? upstream : undefined;
  }

  /** Start a stream for `here`, as the document's stream in flight; undefined for a binary document. */
  start(
    upstream: Upstream,
    state: DocState,
    doc: OpenDocument,
    here: Position,
    anchor: Anchor,
    context: ChosenContext,
    next: boolean,
    withLogprobs: boolean,
  ): SharedStream | undefined {
    const { log, health, onFailure, streamSingleLines } = this.#options;
    const start = streamStart(doc, here, anchor, context, this.#options.settings(), {
      next,
      withLogprobs,
      ...(streamSingleLines === undefined ? {} : { streamSingleLines }),
    });
    if (!start) return undefined;
    const counted = this.#options.onUpstream?.(doc.uri, context.arm);
    const stream: SharedStream = new SharedStream(
      upstream,
      { ...start, syntax: documentSyntax(doc, here) },
      streamHooks(
        { health, log, onFailure, memory: this.#memory, clock: this.#clock },
        state,
        () => stream,
        { version: doc.version, line: here.line, character: here.character },
        counted,
      ),
    );
    state.stream = stream;
    return stream;
  }
}
