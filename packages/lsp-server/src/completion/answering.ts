import type { Position } from "vscode-languageserver";
import type { SuggestionSource } from "./answer.js";
import type { FittedCompletion } from "./postprocess.js";
import type { SharedStream } from "./shared-stream.js";
import type { Slot } from "./slot.js";
import type { Served } from "./suggestion-memory.js";
import type { Suggestion } from "./type-through.js";

/** A candidate as an answer carries it: the text to insert, and the suggestion it is of. */
export type Candidate = FittedCompletion & { suggestion: Suggestion };

/** Answers the request being run: from where, what, and (an upstream answer) its stream and alternatives. */
export type AnswerWith = (
  source: SuggestionSource,
  result: FittedCompletion,
  suggestion: Suggestion,
  stream?: SharedStream,
  alternatives?: readonly Candidate[],
) => void;

/**
 * How a request is answered with a suggestion: at `here`, with its latency since `started`, and for an upstream
 * answer the stream's figures (time, usage, context) and the debounce it waited (`waited`, asked at the answer).
 */
export function answering(slot: Slot, here: Position, started: number, waited: () => number): AnswerWith {
  return (source, result, suggestion, stream, alternatives) =>
    slot.resolve({
      kind: "suggestion",
      text: result.text,
      replaceEnd: result.replaceEnd,
      position: here,
      source,
      latencyMs: performance.now() - started,
      // Until its suggestion was known, or (answered from its first lines before that) until now.
      ...(stream ? { upstreamMs: stream.settledMs ?? performance.now() - stream.startedAt } : {}),
      ...(stream?.usage ? { usage: stream.usage } : {}),
      ...(stream?.context ? { context: stream.context } : {}),
      suggestion,
      ...(source === "upstream" ? { debounceMs: waited() } : {}),
      ...(alternatives && alternatives.length > 0 ? { alternatives } : {}),
    });
}

/** The other candidates memory served, as an answer carries them. */
export function servedAlternatives(served: Served): Candidate[] {
  return served.alternatives.map((a) => ({ ...a.result, suggestion: a.suggestion }));
}
