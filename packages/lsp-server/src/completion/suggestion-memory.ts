import type { Position } from "vscode-languageserver";
import type { OpenDocument } from "../documents/documents.js";
import { comparePositions } from "../documents/text-buffer.js";
import { type Anchor, typedSince } from "./anchor.js";
import type { FittedCompletion } from "./postprocess.js";
import { matchTypeThrough, type Suggestion, type TypeThroughState, typedThrough } from "./type-through.js";

/**
 * The last suggestion of each document, so that typing into it is answered from memory (type-through) without a
 * new request. A suggestion is forgotten as soon as the text before it changes.
 */
export class SuggestionMemory {
  readonly #last = new Map<string, Suggestion>();

  /**
   * @param onTypedThrough told when a request finds the user has typed `chars` characters (code points) of a
   *   suggestion shown (usage counts it as taken that far).
   */
  constructor(private readonly onTypedThrough?: (suggestion: Suggestion, chars: number) => void) {}

  /** The suggestion remembered for a document. */
  get(uri: string): Suggestion | undefined {
    return this.#last.get(uri);
  }

  remember(suggestion: Suggestion): void {
    this.#last.set(suggestion.uri, suggestion);
  }

  /**
   * The document changed from `from` on: typing at or after the suggestion's anchor keeps it (that is
   * type-through); a change before it (an edit above, an auto-import at the top) drops it.
   */
  changed(uri: string, from: Position): void {
    const last = this.#last.get(uri);
    if (last && comparePositions(from, last) < 0) this.#last.delete(uri);
  }

  forget(uri: string): void {
    this.#last.delete(uri);
  }

  /** What is left of the remembered suggestion at `here`, when what was typed since its anchor agrees with it. */
  serve(doc: OpenDocument, here: Anchor): { result: FittedCompletion; suggestion: Suggestion } | undefined {
    const last = this.#last.get(doc.uri);
    const result = last && this.typeThrough(last, doc, here);
    return result ? { result, suggestion: last } : undefined;
  }

  /** What is left of `suggestion` at `here`, seen from `doc` as it is now; null when the typing left it. */
  typeThrough(suggestion: Suggestion, doc: OpenDocument, here: Anchor): FittedCompletion | null {
    if (suggestion.uri !== doc.uri || suggestion.line >= doc.buffer.lineCount) return null;
    const typed = typedSince(doc, suggestion, here);
    if (typed === null) return null;
    const now: TypeThroughState = {
      line: here.line,
      character: here.character,
      typed,
      linePrefixAtAnchor: doc.buffer.lineAt(suggestion.line).slice(0, suggestion.character),
      lineRestAfterCursor: here.lineRest,
    };
    const chars = this.onTypedThrough && typed !== "" ? typedThrough(suggestion, now) : null;
    if (chars) this.onTypedThrough?.(suggestion, chars);
    return matchTypeThrough(suggestion, now);
  }
}
