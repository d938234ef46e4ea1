import { lineChanges, splitLines } from "./line-diff.js";
import { regionEdits } from "./region-edits.js";

/**
 * Why a rewritten region is no suggestion: `unchanged` (the region as it is), `undoes-last-edit` (an edit puts back
 * what the user's last edit took out), `whitespace-only` (only spaces, tabs or line breaks differ), `too-large`
 * (more lines or characters changed than the bounds allow).
 */
export type NoSuggestionReason = "unchanged" | "undoes-last-edit" | "whitespace-only" | "too-large";

/** How much one answer may change. */
export interface SuggestionBounds {
  /** Lines touched (a run of removed and added lines counts the longer side). Default 20. */
  maxChangedLines: number;
  /** Characters removed plus characters inserted, over all edits (UTF-16 code units). Default 1,000. */
  maxChangedChars: number;
}

/** The bounds used when none are given. */
export const DEFAULT_SUGGESTION_BOUNDS: SuggestionBounds = { maxChangedLines: 20, maxChangedChars: 1_000 };

/** What {@link whyNoSuggestion} weighs. */
export interface SuggestionCandidate {
  /** The region as it is. */
  current: string;
  /** The region as the model rewrote it. */
  rewritten: string;
  /** The user's last edit in this document (its lines before and after), if any. */
  lastEdit?: { before: string; after: string } | undefined;
  /** Defaults to {@link DEFAULT_SUGGESTION_BOUNDS}. */
  bounds?: SuggestionBounds | undefined;
}

/** Why the rewritten region gives the user nothing to show, or `undefined` when it is a suggestion. */
export function whyNoSuggestion(candidate: SuggestionCandidate): NoSuggestionReason | undefined {
  const { current, rewritten, lastEdit } = candidate;
  const bounds = candidate.bounds ?? DEFAULT_SUGGESTION_BOUNDS;
  if (current === rewritten) return "unchanged";
  if (withoutWhitespace(current) === withoutWhitespace(rewritten)) return "whitespace-only";
  const edits = regionEdits(current, rewritten, 0).map((edit) => ({
    removed: current.slice(edit.startOffset, edit.endOffset),
    inserted: edit.text,
  }));
  if (lastEdit) {
    const userEdits = regionEdits(lastEdit.before, lastEdit.after, 0).map((edit) => ({
      removed: lastEdit.before.slice(edit.startOffset, edit.endOffset),
      inserted: edit.text,
    }));
    const undoes = edits.some((edit) =>
      userEdits.some((user) => edit.removed === user.inserted && edit.inserted === user.removed),
    );
    if (undoes) return "undoes-last-edit";
  }
  const changedChars = edits.reduce((sum, edit) => sum + edit.removed.length + edit.inserted.length, 0);
  if (changedChars > bounds.maxChangedChars || changedLines(current, rewritten) > bounds.maxChangedLines) {
    return "too-large";
  }
  return undefined;
}

function withoutWhitespace(text: string): string {
  return text.replace(/\s+/g, "");
}

function changedLines(current: string, rewritten: string): number {
  return lineChanges(splitLines(current), splitLines(rewritten)).reduce(
    (sum, change) => sum + Math.max(change.oldEnd - change.oldStart, change.newEnd - change.newStart),
    0,
  );
}
