import type { ContextArm } from "@infill/core/usage";
import type { FittedCompletion } from "./postprocess.js";

/** A completion shown at an anchor, remembered so typing into it can be served without a new request. */
export interface Suggestion {
  /** Document URI. */
  readonly uri: string;
  /** Anchor line (0-based), where the suggestion was requested. */
  readonly line: number;
  /** Anchor character, in UTF-16 units. */
  readonly character: number;
  /** Text of the anchor line before the anchor. */
  readonly linePrefix: string;
  /** Text of the anchor line after the anchor, at the time of the suggestion. */
  readonly lineRest: string;
  /** Text to insert at the anchor (post-processed, lines joined with `"\n"`). */
  readonly text: string;
  /** UTF-16 units of `lineRest` that the suggestion's range covers. */
  readonly replaceEnd: number;
  /** Whether the request it came from carried repository context (usage counts it under that arm). */
  readonly contextArm?: ContextArm;
}

/** The document as it is now, seen from a remembered {@link Suggestion}. */
export interface TypeThroughState {
  /** Document URI; when given it must equal the suggestion's. */
  readonly uri?: string;
  /** Cursor line (0-based). */
  readonly line: number;
  /** Cursor character, in UTF-16 units. */
  readonly character: number;
  /** Document text between the anchor and the cursor; `""` when the cursor is at the anchor. */
  readonly typed: string;
  /** Current text of the anchor line before the anchor character. */
  readonly linePrefixAtAnchor: string;
  /** Current text of the cursor line after the cursor. */
  readonly lineRestAfterCursor: string;
}

type PrefixMatch =
  | { readonly kind: "match"; readonly rest: string }
  | { readonly kind: "diverged" }
  | { readonly kind: "need-more" };

/**
 * The part of a remembered suggestion still to insert after the user typed into it, or `null` when it no longer
 * applies: a different URI, the anchor line's prefix changed, the cursor is not where `typed` says it is, the
 * rest of the line changed beyond what typing explains, `typed` is not a prefix of the suggestion (or goes beyond
 * it), or only whitespace would remain.
 *
 * Indentation after a typed line break is lenient, because editors auto-indent: when the typed indentation is a
 * prefix of the suggestion's, the rest of the suggestion's indentation remains to insert; when it differs, the
 * editor's wins and the suggestion's indentation for that line is dropped. Line breaks in `typed` may be `\r\n`
 * or `\r`.
 *
 * The rest of the line may have lost characters the suggestion covered (`replaceEnd`) when they appear, in order,
 * among the typed characters — an editor typing over an auto-paired `)`; `replaceEnd` shrinks accordingly.
 */
export function matchTypeThrough(s: Suggestion, now: TypeThroughState): FittedCompletion | null {
  const match = matchSince(s, now);
  return match && match.rest.trim() !== "" ? { text: match.rest, replaceEnd: match.replaceEnd } : null;
}

/**
 * How much of a remembered suggestion the user has typed, in characters (code points) of the suggestion's text:
 * the text typed since the anchor when it is the start of the suggestion, or all of it, under the same rules as
 * {@link matchTypeThrough} (so a suggestion typed to its end counts whole, where `matchTypeThrough` has nothing
 * left to show), or all of it followed by more; null when what was typed is not the suggestion's start.
 */
export function typedThrough(s: Suggestion, now: TypeThroughState): number | null {
  const match = matchSince(s, now);
  if (match) {
    // The rest is a suffix of the text (indentation the editor typed differently is not counted twice).
    const rest = match.rest.trim() === "" ? "" : match.rest;
    return codePoints(s.text) - codePoints(rest);
  }
  // Typed to its end and on: the whole suggestion starts what was typed.
  if (now.uri !== undefined && now.uri !== s.uri) return null;
  if (now.linePrefixAtAnchor !== s.linePrefix || !cursorAgrees(s, now)) return null;
  return matchTyped(normalizeBreaks(now.typed), s.text, true).kind === "match" ? codePoints(s.text) : null;
}

/** Number of Unicode code points of `text` (what an editor calls characters). */
export function codePoints(text: string): number {
  let n = 0;
  // A string iterates by code points: a surrogate pair is one step.
  for (const _ of text) n++;
  return n;
}

/** The checks of {@link matchTypeThrough}, without refusing an empty rest. */
function matchSince(s: Suggestion, now: TypeThroughState): { rest: string; replaceEnd: number } | null {
  if (now.uri !== undefined && now.uri !== s.uri) return null;
  if (now.linePrefixAtAnchor !== s.linePrefix) return null;
  if (!cursorAgrees(s, now)) return null;

  const consumed = s.lineRest.length - now.lineRestAfterCursor.length;
  if (consumed < 0 || consumed > s.replaceEnd) return null;
  if (s.lineRest.slice(consumed) !== now.lineRestAfterCursor) return null;
  if (consumed > 0 && !isSubsequence(s.lineRest.slice(0, consumed), now.typed)) return null;

  const match = matchTyped(s.text, normalizeBreaks(now.typed), true);
  return match.kind === "match" ? { rest: match.rest, replaceEnd: s.replaceEnd - consumed } : null;
}

/**
 * Whether a completion still streaming in can serve a cursor the user typed `typed` past the anchor: true while
 * `typed` is a prefix of `partialText` (with the same lenient indentation as {@link matchTypeThrough}) or
 * `partialText` is a prefix of `typed` (more may arrive that matches) — keep waiting; false once they diverge.
 * `partialText` is the raw stream so far; serve only after post-processing the finished text.
 */
export function canServeFromPartial(partialText: string, typed: string): boolean {
  return matchTyped(partialText, normalizeBreaks(typed), false).kind !== "diverged";
}

/** Does the cursor sit exactly where the anchor plus `typed` puts it? */
function cursorAgrees(s: Suggestion, now: TypeThroughState): boolean {
  const breaks = [...now.typed.matchAll(/\r\n|\r|\n/g)];
  const lastBreak = breaks[breaks.length - 1];
  if (lastBreak === undefined) return now.line === s.line && now.character === s.character + now.typed.length;
  const lastLineStart = lastBreak.index + lastBreak[0].length;
  return now.line === s.line + breaks.length && now.character === now.typed.length - lastLineStart;
}

/**
 * Matches `typed` against the start of `text`. With `complete` false, `text` is still growing: running out of it
 * (or of a whitespace run at its end) means "need more", not a mismatch.
 */
function matchTyped(text: string, typed: string, complete: boolean): PrefixMatch {
  let i = 0;
  let j = 0;
  while (j < typed.length) {
    if (i >= text.length) return complete ? { kind: "diverged" } : { kind: "need-more" };
    const t = typed[j]!;
    if (t !== text[i]) return { kind: "diverged" };
    i += 1;
    j += 1;
    if (t !== "\n") continue;

    const typedEnd = skipIndent(typed, j);
    const textEnd = skipIndent(text, i);
    if (!complete && textEnd === text.length) return { kind: "need-more" };
    const typedIndent = typed.slice(j, typedEnd);
    if (typedEnd === typed.length && text.startsWith(typedIndent, i)) {
      // Only indentation typed so far, and it agrees: the rest of the suggestion's indentation is still to come.
      i += typedIndent.length;
    } else {
      i = textEnd;
    }
    j = typedEnd;
  }
  return { kind: "match", rest: text.slice(i) };
}

function skipIndent(text: string, from: number): number {
  let i = from;
  while (i < text.length && (text[i] === " " || text[i] === "\t")) i++;
  return i;
}

function normalizeBreaks(text: string): string {
  return text.includes("\r") ? text.replace(/\r\n?/g, "\n") : text;
}

function isSubsequence(needle: string, haystack: string): boolean {
  let j = 0;
  for (let i = 0; i < haystack.length && j < needle.length; i++) {
    if (haystack[i] === needle[j]) j++;
  }
  return j === needle.length;
}
