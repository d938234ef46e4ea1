import type { Position } from "vscode-languageserver";
import type { OpenDocument } from "../documents/documents.js";
import { comparePositions } from "../documents/text-buffer.js";
import { type Anchor, typedSince } from "./anchor.js";
import type { StreakSuggestion } from "./hot-streak.js";
import type { FittedCompletion } from "./postprocess.js";
import { matchTypeThrough, type Suggestion, type TypeThroughState, typedThrough } from "./type-through.js";

/** What memory answers: the rest of a remembered suggestion, and of the other candidates typing still agrees with. */
export interface Served {
  result: FittedCompletion;
  suggestion: Suggestion;
  alternatives: Array<{ result: FittedCompletion; suggestion: Suggestion }>;
}

/** A document's remembered suggestions: the one shown last, and its hot streak. */
interface Remembered {
  root: Suggestion;
  /** An invoked request's other candidates, at the root's anchor. */
  alternatives: readonly Suggestion[];
  streak: readonly StreakSuggestion[];
  /** The streak suggestions (and the root) already found accepted whole, so each is told once. */
  accepted: Set<Suggestion>;
}

/**
 * The last suggestion of each document, and the hot streak read past it, so that typing into it, or accepting it,
 * is answered from memory without a new request. A suggestion is forgotten as soon as the text before it changes.
 */
export class SuggestionMemory {
  readonly #remembered = new Map<string, Remembered>();

  /**
   * @param onTypedThrough told when a request finds the user has typed `chars` characters (code points) of a
   *   suggestion shown (usage counts it as taken that far).
   */
  constructor(private readonly onTypedThrough?: (suggestion: Suggestion, chars: number) => void) {}

  /** The suggestion remembered for a document (the one shown last, not its streak). */
  get(uri: string): Suggestion | undefined {
    return this.#remembered.get(uri)?.root;
  }

  /** Remember the suggestion shown, and the other candidates shown with it (typing into them is served too). */
  remember(suggestion: Suggestion, alternatives: readonly Suggestion[] = []): void {
    this.#remembered.set(suggestion.uri, { root: suggestion, alternatives, streak: [], accepted: new Set() });
  }

  /** Add the hot streak read past `root`, when it is still the document's remembered suggestion. */
  extend(root: Suggestion, streak: readonly StreakSuggestion[]): void {
    const remembered = this.#remembered.get(root.uri);
    if (remembered?.root === root) remembered.streak = streak;
  }

  /**
   * The document changed from `from` on: typing at or after the suggestion's anchor keeps it (that is
   * type-through, and accepting it and its streak); a change before it (an edit above, an auto-import at the top)
   * drops it.
   */
  changed(uri: string, from: Position): void {
    const remembered = this.#remembered.get(uri);
    if (remembered && comparePositions(from, remembered.root) < 0) this.#remembered.delete(uri);
  }

  forget(uri: string): void {
    this.#remembered.delete(uri);
  }

  /**
   * What is left to show at `here`: the rest of the remembered suggestion, when what was typed since its anchor
   * agrees with it; or, once it was accepted (or typed to its end), the rest of the next suggestion of its streak
   * whose lead the document holds.
   */
  serve(doc: OpenDocument, here: Anchor): Served | undefined {
    const remembered = this.#remembered.get(doc.uri);
    if (!remembered) return undefined;
    const candidates = [remembered.root, ...remembered.alternatives];
    const matching = candidates.flatMap((suggestion) => {
      const result = this.typeThrough(suggestion, doc, here);
      return result ? [{ result, suggestion }] : [];
    });
    const [first, ...alternatives] = matching;
    if (first) return { ...first, alternatives };
    for (const suggestion of remembered.streak) {
      if (!holdsLead(doc, suggestion)) continue;
      const result = this.typeThrough(suggestion, doc, here);
      if (result) return { result, suggestion, alternatives: [] };
    }
    return undefined;
  }

  /**
   * Where the document's remembered suggestions end once the last of them the document holds whole was accepted
   * (or typed to its end), when nothing more is remembered past it: the place to ask for the next one ahead.
   * Each suggestion is found accepted once.
   */
  acceptedEnd(doc: OpenDocument): Position | undefined {
    const remembered = this.#remembered.get(doc.uri);
    if (!remembered) return undefined;
    const { root, streak } = remembered;
    const last = streak.at(-1);
    const lead = last?.lead.text ?? "";
    const text = lead + (last ?? root).text;
    if (remembered.accepted.has(last ?? root)) return undefined;
    const end = endOf(root, text);
    if (end.line >= doc.buffer.lineCount || doc.buffer.lineAt(end.line).length < end.character)
      return undefined;
    if (doc.buffer.lineAt(root.line).slice(0, root.character) !== root.linePrefix) return undefined;
    if (doc.buffer.slice(root, end) !== text) return undefined;
    remembered.accepted.add(last ?? root);
    return end;
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

/** Whether the document holds a streak suggestion's lead: the first anchor's line prefix, then the lead's text. */
function holdsLead(doc: OpenDocument, suggestion: StreakSuggestion): boolean {
  const { lead } = suggestion;
  if (suggestion.line >= doc.buffer.lineCount) return false;
  if (doc.buffer.lineAt(suggestion.line).length < suggestion.character) return false;
  return doc.buffer.slice(lead, suggestion) === lead.text;
}

/** Where `text`, inserted at the suggestion's anchor, ends. */
function endOf(anchor: Suggestion, text: string): Position {
  const lines = text.split("\n");
  const last = lines.at(-1)!;
  return lines.length === 1
    ? { line: anchor.line, character: anchor.character + last.length }
    : { line: anchor.line + lines.length - 1, character: last.length };
}
