import type { Position } from "vscode-languageserver";
import type { NextEdit } from "./answer-memory.js";
import type {
  EditPrompt,
  EditRequest,
  NextEditFormat,
  NextEditInput,
  NoSuggestionFn,
  RegionEdit,
  RegionEditsFn,
} from "./contracts.js";

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

/** The rules an answer is read with: the format's parser, and the answer layer's diff and no-suggestion rules. */
export interface AnswerRules {
  readonly format: NextEditFormat;
  readonly regionEdits: RegionEditsFn;
  readonly noSuggestion?: NoSuggestionFn;
}

/** What an answer comes to. */
export type Reading =
  | { kind: "edits"; edits: RegionEdit[] }
  /** A well-formed answer that suggests nothing (no change, only whitespace, the last edit undone…). */
  | { kind: "none"; reason: string }
  /** An answer that is not what the format says: counted by problem, never shown. */
  | { kind: "malformed"; problem: string };

/**
 * Read the model's answer: the continuation it wrote, after the prompt's forced prefix (put back here), as the
 * region rewritten, then the smallest edits, nearest the cursor first. Never throws: a parser that does is a
 * malformed answer. An edit outside the region (offsets past it, or out of order) makes the answer malformed.
 */
export function readAnswer(
  text: string,
  prompt: EditPrompt,
  input: NextEditInput,
  rules: AnswerRules,
): Reading {
  try {
    const answer = prompt.shape === "chat" && prompt.prefix !== undefined ? prompt.prefix + text : text;
    const rewritten = rules.format.rewrittenRegion(answer, input);
    if (!rewritten.ok) return { kind: "malformed", problem: rewritten.problem };
    const region = input.excerpt.region;
    if (rewritten.region === region) return { kind: "none", reason: "unchanged" };
    const reason = rules.noSuggestion?.(input, rewritten.region);
    if (reason !== undefined) return { kind: "none", reason };
    const edits = rules.regionEdits(region, rewritten.region, input.excerpt.cursorOffset);
    if (
      !edits.every(
        (edit) =>
          edit.startOffset >= 0 && edit.startOffset <= edit.endOffset && edit.endOffset <= region.length,
      )
    )
      return { kind: "malformed", problem: "outside-region" };
    const ordered = [...edits].sort((a, b) => a.startOffset - b.startOffset);
    if (ordered.some((edit, i) => i > 0 && edit.startOffset < ordered[i - 1]!.endOffset))
      return { kind: "malformed", problem: "overlapping-edits" };
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
