// What a next-edit formatter is given (the edit history, the excerpt around the cursor, related files) and what it
// gives back (a raw prompt or chat messages, and a parser for the answer). The shapes are the contract between the
// formats (branch ne-formats) and the engine that chooses the region and keeps the history (branch ne-engine).

import type { RewrittenRegion } from "../answer/rewritten-region.js";

export type { AnswerProblem, RewrittenRegion } from "../answer/rewritten-region.js";

/** One grouped edit of the user's history; a list of them runs oldest first. */
export interface EditEvent {
  /** Workspace-relative, `/` separators. */
  path: string;
  /** 0-based line of `before`'s first line in the file before the edit. */
  oldStartLine: number;
  /** 0-based line of `after`'s first line in the file after the edit. */
  newStartLine: number;
  /** Whole lines (each ending in "\n" but maybe the file's last): the changed lines with a line or two of context. */
  before: string;
  /** The same lines after the edit. */
  after: string;
  /** Set when the edit replaced one identifier by another. */
  rename?: { from: string; to: string };
}

/** The part of the current file a formatter shows: context, the editable region, context. */
export interface Excerpt {
  /** Workspace-relative, `/` separators. */
  path: string;
  /** The LSP language id (`typescript`, `python` …). */
  languageId: string;
  /** The excerpt's first line is the file's first line. */
  startsFile: boolean;
  /** Whole lines of context above the region (may be ""). */
  beforeRegion: string;
  /** The editable region: whole lines, each ending in "\n" but maybe the file's last. */
  region: string;
  /** 0-based line of the region's first line in the file. */
  regionStartLine: number;
  /** UTF-16 offset of the cursor in `region`. */
  cursorOffset: number;
  /** Whole lines of context below the region (may be ""). */
  afterRegion: string;
}

/** Everything a formatter needs; it reads no files and receives only what fits the budget. */
export interface NextEditInput {
  excerpt: Excerpt;
  /** Oldest first. */
  events: EditEvent[];
  /** Other files' text worth showing (definitions, recently viewed code). */
  related: { path: string; text: string }[];
}

/** A request ready for `EditClient`: a raw prompt, or chat messages with an optional forced start of the answer. */
export type EditPrompt =
  | { shape: "raw"; prompt: string; stop: string[]; maxTokens: number }
  | {
      shape: "chat";
      messages: { role: "system" | "user"; content: string }[];
      /** The start forced on the answer (DeepSeek's Chat Prefix Completion); the model continues after it. */
      prefix?: string;
      stop: string[];
      maxTokens: number;
    };

/** The names of the formats, one per model family. */
export type NextEditFormatName = "zeta" | "sweep" | "instinct" | "deepseek";

/** One model family's prompt and the strict reader of its answers. */
export interface NextEditFormat {
  readonly name: NextEditFormatName;
  prompt(input: NextEditInput): EditPrompt;
  /**
   * The region as the model rewrote it, or why not. `answer` is the whole text the model wrote, the prefix (if the
   * prompt forced one) put back in front by the caller. The caller drops a truncated answer (finish reason `length`)
   * before this: where a format stops at the region's end, no format can tell a truncated answer from a finished one.
   */
  rewrittenRegion(answer: string, input: NextEditInput): RewrittenRegion;
}
