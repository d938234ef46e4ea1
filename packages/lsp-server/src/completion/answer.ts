import type { Usage } from "@infill/core";
import type { Position } from "vscode-languageserver";
import type { Suggestion } from "./type-through.js";

// What the completion pipeline answers: a suggestion, or why there is none. Values, not exceptions: every LSP
// request gets an answer.

/** What the repository context of an upstream request was. */
export interface ContextFigures {
  /** Time spent choosing it, in ms. */
  ms: number;
  /** Snippets in the block. */
  snippets: number;
  /** Estimated tokens of the block. */
  tokens: number;
  /** Estimated tokens of the block's member outlines (the types the cursor's receiver has). */
  outlineTokens: number;
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
 * backoff; the editor as the user types (`automatic`); or the server itself, for the next suggestion right after
 * one was accepted (`prefetch`: no debounce, but held back like `automatic`).
 */
export type Trigger = "invoked" | "automatic" | "prefetch";

/** Where a suggestion came from: a new upstream request, memory (type-through), or a request already running. */
export type SuggestionSource = "upstream" | "memory" | "shared";

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
      /** An invoked request's other candidates (the `alternatives` setting), best first, at the same place. */
      alternatives?: ReadonlyArray<{ text: string; replaceEnd: number; suggestion: Suggestion }>;
    }
  | { kind: "none"; reason: NoSuggestionReason };

/** The answer "no suggestion", and why. */
export const none = (reason: NoSuggestionReason): Answer => ({ kind: "none", reason });
