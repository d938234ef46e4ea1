import type { Logger } from "../log/logger.js";
import type { FailureNotice } from "../upstream/failure-notice.js";
import type { UpstreamHealth } from "../upstream/health.js";
import type { UpstreamEnd } from "../upstream/upstream.js";
import type { RequestKind } from "./answer.js";
import type { FirstTokenClock } from "./first-token-clock.js";
import { endStreak, hotStreak, type StreakSuggestion } from "./hot-streak.js";
import type { SharedStream, StreamHooks } from "./shared-stream.js";
import type { Slot } from "./slot.js";
import type { SuggestionMemory } from "./suggestion-memory.js";
import { acceptedDocument, type SyntaxDocument } from "./syntax-ending.js";

// A document's requests as the engine keeps them, and what its upstream stream tells the engine as it runs.

/** The requests of one document: the one waiting of each kind, and its upstream request in flight. */
export interface DocState {
  waiters: Map<RequestKind, Slot>;
  stream: SharedStream | undefined;
  /** Where (and at which version of the document) the last upstream request found nothing to suggest. */
  empty: { version: number; line: number; character: number } | undefined;
}

/** The debug log line of an upstream request that ended. */
function describeEnd(end: UpstreamEnd, stream: SharedStream): string {
  const ms = Math.round(end.ms);
  if (end.outcome === "cancelled" || end.outcome === "superseded") {
    const why = stream.stale ? "the text it was for changed" : "nobody waits for it";
    return `upstream request aborted after ${ms} ms: ${why}`;
  }
  if (end.outcome === "failed") return `upstream request failed after ${ms} ms`;
  const { usage } = end;
  return (
    `upstream ${ms} ms, ${stream.raw.length} chars, ` +
    (usage
      ? `prompt ${usage.prompt_tokens} tokens` +
        (usage.prompt_cache_hit_tokens === undefined ? "" : ` (${usage.prompt_cache_hit_tokens} cached)`)
      : "no usage (stream cut early, or the provider gives none)")
  );
}

/**
 * What a stream tells the engine as it runs: the upstream's health (and the user, once per kind), the end (the
 * document's stream slot freed; the place remembered as empty when it found nothing; usage counted), its suggestion
 * and hot streak into memory, its first token onto the clock.
 */
export function streamHooks(
  parts: {
    health: UpstreamHealth;
    log: Logger;
    onFailure: (notice: FailureNotice) => void;
    memory: SuggestionMemory;
    clock: FirstTokenClock;
  },
  state: DocState,
  stream: () => SharedStream,
  at: { version: number; line: number; character: number },
  counted: ((end: UpstreamEnd) => void) | undefined,
): StreamHooks {
  const { health, log, onFailure, memory, clock } = parts;
  // The streak is cut by syntax in the document with the suggestion accepted; the same paragraphs are cut once.
  let accepted: SyntaxDocument | undefined;
  let lastStreak: { text: string; cut: StreakSuggestion[] } | undefined;
  return {
    onSuccess: () => health.success(),
    onFailure: (error) => {
      const notice = health.failure(error);
      if (notice) onFailure(notice);
      log.warn(`upstream request failed: ${error instanceof Error ? error.message : String(error)}`);
    },
    onEnd: (end) => {
      const self = stream();
      if (state.stream === self) state.stream = undefined;
      if (end.outcome === "completed" && !self.suggestion && !self.stale) state.empty = at;
      counted?.(end);
      log.debug(describeEnd(end, self));
    },
    onSuggestion: (suggestion) => {
      if (!stream().stale) memory.remember(suggestion);
    },
    onFirstText: (ms) => clock.record(ms),
    onStreak: (raw, suggestion, ended) => {
      const self = stream();
      if (self.stale) return;
      // While it reads on, the paragraphs already followed by another are whole; at its end, all of them.
      const streak = hotStreak(raw, suggestion, self.ctx);
      const whole = ended ? streak : streak.slice(0, -1);
      const text = whole.map((s) => s.text).join("");
      if (lastStreak?.text !== text) {
        const syntax = self.syntax();
        accepted ??= syntax && acceptedDocument(syntax, suggestion);
        lastStreak = { text, cut: endStreak(whole, accepted) };
      }
      memory.extend(suggestion, lastStreak.cut);
    },
  };
}
