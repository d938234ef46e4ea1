// The types the next-edit layer shares with the formatters and the answer parser (branch ne-formats: files in
// `prompt/` and `answer/`), as PLAN.md fixes them. Types only: this file goes once theirs land.

/** One grouped edit of the history, oldest first in a list. */
export interface EditEvent {
  /** Workspace-relative, `/` separators. */
  path: string;
  /** 0-based first line of `before` in the file before the edit. */
  oldStartLine: number;
  /** 0-based first line of `after` in the file after it. */
  newStartLine: number;
  /** Whole lines: the changed lines with a line or two of context each side. */
  before: string;
  after: string;
  rename?: { from: string; to: string };
}

/** The editable region around the cursor, with a little context on each side. */
export interface Excerpt {
  path: string;
  languageId: string;
  /** The excerpt's first line is the file's first line. */
  startsFile: boolean;
  /** Whole lines of context above the region (may be ""). */
  beforeRegion: string;
  /** The editable region: whole lines. */
  region: string;
  /** 0-based line of the region's first line. */
  regionStartLine: number;
  /** UTF-16 offset of the cursor inside `region`. */
  cursorOffset: number;
  /** Whole lines of context below it. */
  afterRegion: string;
}

/** What a format turns into a prompt. */
export interface NextEditInput {
  excerpt: Excerpt;
  events: EditEvent[];
  related: { path: string; text: string }[];
}

/** A prompt: raw text (zeta, sweep) or chat messages (instinct, deepseek). */
export type EditPrompt =
  | { shape: "raw"; prompt: string; stop: string[]; maxTokens: number }
  | {
      shape: "chat";
      messages: { role: "system" | "user"; content: string }[];
      prefix?: string;
      stop: string[];
      maxTokens: number;
    };

/** The names of the formats. */
export type NextEditFormatName = "zeta" | "sweep" | "instinct" | "deepseek";

/** One model family's prompt, and how to read its answer. */
export interface NextEditFormat {
  readonly name: NextEditFormatName;
  prompt(input: NextEditInput): EditPrompt;
  /** The region as the model rewrote it (the prefix, if any, already put back by the caller), or why not. */
  rewrittenRegion(
    answer: string,
    input: NextEditInput,
  ): { ok: true; region: string } | { ok: false; problem: string };
}

/** One of the smallest edits of a region: offsets in the current region. */
export interface RegionEdit {
  startOffset: number;
  endOffset: number;
  text: string;
}

// @infill/core's next-edit client: the request and answer (the upstream layer's contract).
export type { EditCompletion, EditRequest } from "../upstream/upstream.js";

// The answer's rules (branch ne-formats, `answer/`): the smallest edits, and when a rewrite is no suggestion.

/** The smallest edits that turn `current` into `rewritten`, nearest the cursor first. */
export type RegionEditsFn = (current: string, rewritten: string, cursorOffset: number) => RegionEdit[];

/** Why a rewritten region is no suggestion (equal, undoes the last event, whitespace only, too large), or undefined. */
export type NoSuggestionFn = (input: NextEditInput, rewritten: string) => string | undefined;
