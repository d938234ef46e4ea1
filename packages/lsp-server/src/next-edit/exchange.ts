import type { Position } from "vscode-languageserver";
import type { EditRequest } from "../upstream/upstream.js";
import { whyNoSuggestion } from "./answer/no-suggestion.js";
import { type RegionEdit, regionEdits } from "./answer/region-edits.js";
import type { NextEdit } from "./answer-memory.js";
import type { EditPrompt, NextEditFormat, NextEditInput } from "./prompt/excerpt.js";

// One next-edit exchange with the model, both ways: the prompt as a request, and the answer as edits of the
// document. Pure.

/** The request for a prompt. Deterministic (temperature 0): the same region and history ask the same. */
export function editRequest(prompt: EditPrompt): EditRequest {
  const common = { max_tokens: prompt.maxTokens, temperature: 0, stop: prompt.stop };
  if (prompt.shape === "raw") return { prompt: prompt.prompt, ...common };
  return {
    messages: prompt.messages,
    ...(prompt.prefix === undefined ? {} : { prefix: prompt.prefix }),
    ...common,
  };
}

/** How an answer is read: the format's parser, and (for tests) another diff than the answer layer's. */
export interface AnswerRules {
  readonly format: NextEditFormat;
  readonly regionEdits?: typeof regionEdits;
}

/** What an answer comes to. */
export type Reading =
  | { kind: "edits"; edits: RegionEdit[] }
  /** A well-formed answer that suggests nothing (no change, only whitespace, the last edit undone…). */
  | { kind: "none"; reason: string }
  /** An answer that is not what the format says: counted by problem, never shown. */
  | { kind: "malformed"; problem: string };

/**
 * Read the model's answer: the continuation it wrote (`finishReason` `length`: cut short, so no region can be
 * trusted), after the prompt's forced prefix (put back here), as the region rewritten; then the answer layer's
 * no-suggestion rules (unchanged, whitespace only, the user's last edit in this file undone, too large) and the
 * smallest edits, nearest the cursor first. Never throws: a reader that does makes the answer malformed, and so does
 * an edit outside the region (offsets past it, or overlapping).
 */
export function readAnswer(
  text: string,
  finishReason: string | null,
  prompt: EditPrompt,
  input: NextEditInput,
  rules: AnswerRules,
): Reading {
  try {
    if (finishReason === "length") return { kind: "malformed", problem: "truncated" };
    const answer = prompt.shape === "chat" && prompt.prefix !== undefined ? prompt.prefix + text : text;
    const rewritten = rules.format.rewrittenRegion(answer, input);
    if (!rewritten.ok) return { kind: "malformed", problem: rewritten.problem };
    const { region, path } = input.excerpt;
    const last = input.events.filter((event) => event.path === path).at(-1);
    const reason = whyNoSuggestion({ current: region, rewritten: rewritten.region, lastEdit: last });
    if (reason !== undefined) return { kind: "none", reason };
    const edits = (rules.regionEdits ?? regionEdits)(region, rewritten.region, input.excerpt.cursorOffset);
    const inside = edits.every(
      (edit) =>
        edit.startOffset >= 0 && edit.startOffset <= edit.endOffset && edit.endOffset <= region.length,
    );
    const ordered = [...edits].sort((a, b) => a.startOffset - b.startOffset);
    if (!inside || ordered.some((edit, i) => i > 0 && edit.startOffset < ordered[i - 1]!.endOffset))
      return { kind: "malformed", problem: "outside-region" };
    return edits.length === 0 ? { kind: "none", reason: "unchanged" } : { kind: "edits", edits };
  } catch {
    return { kind: "malformed", problem: "unreadable" };
  }
}

/** The region's edits as edits of the document, each with an id from `nextId`, in the order given. */
export function documentEdits(
  region: string,
  regionStartLine: number,
  edits: readonly RegionEdit[],
  nextId: () => string,
): NextEdit[] {
  // Offsets to positions: the region's lines are the document's, joined with `\n`.
  const lineStarts = [0];
  for (let i = region.indexOf("\n"); i !== -1; i = region.indexOf("\n", i + 1)) lineStarts.push(i + 1);
  const position = (offset: number): Position => {
    let line = lineStarts.length - 1;
    while (lineStarts[line]! > offset) line--;
    return { line: regionStartLine + line, character: offset - lineStarts[line]! };
  };
  return edits.map((edit) => ({
    id: nextId(),
    range: { start: position(edit.startOffset), end: position(edit.endOffset) },
    text: edit.text,
  }));
}
