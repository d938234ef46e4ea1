import {
  type Command,
  type CompletionItem,
  CompletionItemKind,
  type CompletionList,
  type InlineCompletionItem,
  InsertTextFormat,
  type Position,
  type Range,
} from "vscode-languageserver";
import { codePoints } from "../completion/type-through.js";
import { ACCEPTED_COMMAND } from "../stats/commands.js";

/** A suggestion placed in the document: insert `text` at `position`, replacing `replaceEnd` units after it. */
export interface Placement {
  text: string;
  /** The cursor (in the client's position encoding). */
  position: Position;
  /** End of the replaced span (in the client's encoding); equal to `position` when nothing is replaced. */
  end: Position;
  /** The identifier characters right before the cursor (popup clients filter on them). */
  wordBefore: string;
  /** Length of `wordBefore` in the client's encoding. */
  wordBeforeLength: number;
  /** The suggestion `text` is the rest of, for reporting it taken: its id, and its characters before `text`. */
  accept?: { id: string; before: number };
}

/** The `infill.accepted` command for an item that takes `taken` of the placement's suggestion. */
function acceptedCommand(placement: Placement, taken: string): Command | undefined {
  if (!placement.accept) return undefined;
  const { id, before } = placement.accept;
  return {
    title: "infill: accepted",
    command: ACCEPTED_COMMAND,
    arguments: [{ id, chars: before + codePoints(taken) }],
  };
}

const LABEL_MAX = 80;

/**
 * Ghost text for `textDocument/inlineCompletion`: one item whose range covers what it replaces, then one per
 * alternative (an invoked request's other candidates, best first: editors cycle through them).
 */
export function inlineItems(
  placement: Placement,
  alternatives: readonly Placement[] = [],
): InlineCompletionItem[] {
  return [placement, ...alternatives].map((place) => {
    const command = acceptedCommand(place, place.text);
    return {
      insertText: place.text,
      range: { start: place.position, end: place.end },
      ...(command ? { command } : {}),
    };
  });
}

/**
 * Items for `textDocument/completion` (popup clients: Helix, eglot, nvim-cmp, blink.cmp). The edit starts at
 * the beginning of the word being typed and re-inserts it, so clients that filter on that word keep the item;
 * `filterText` is that word plus the suggestion. A suggestion spanning lines comes as a one-line variant first,
 * then the whole block; each alternative (an invoked request's other candidates, best first) comes after, whole.
 * The list is incomplete so clients ask again as the user types.
 */
export function completionList(
  placement: Placement,
  alternatives: readonly Placement[] = [],
): CompletionList {
  const { text, wordBefore } = placement;
  const start: Position = {
    line: placement.position.line,
    character: placement.position.character - placement.wordBeforeLength,
  };
  const range: Range = { start, end: placement.end };
  const firstLine = firstContentLine(text);
  const multiLine = firstLine.length < text.length;
  const items: CompletionItem[] = [];
  const item = (insert: string, sortText: string, detail: string): CompletionItem => {
    const command = acceptedCommand(placement, insert);
    return {
      label: label(wordBefore + insert),
      kind: CompletionItemKind.Text,
      detail,
      filterText: wordBefore + firstLine.trimStart(),
      sortText,
      preselect: sortText === "0",
      insertTextFormat: InsertTextFormat.PlainText,
      textEdit: { range, newText: wordBefore + insert },
      ...(insert.includes("\n") ? { documentation: { kind: "markdown", value: fence(text) } } : {}),
      ...(command ? { command } : {}),
    };
  };
  if (multiLine) items.push(item(firstLine, "0", "infill (line)"));
  items.push(item(text, multiLine ? "1" : "0", multiLine ? "infill (block)" : "infill"));
  for (const [i, alternative] of alternatives.entries()) {
    items.push(
      ...completionList(alternative)
        .items.slice(-1)
        .map((other) => ({
          ...other,
          sortText: `2.${i}`,
          preselect: false,
          detail: `infill (alternative ${i + 2})`,
        })),
    );
  }
  return { isIncomplete: true, items };
}

/** The text up to the end of its first line that has something on it (a block may start with a line break). */
export function firstContentLine(text: string): string {
  const content = text.search(/\S/);
  if (content === -1) return text;
  const end = text.indexOf("\n", content);
  return (end === -1 ? text : text.slice(0, end)).replace(/\r$/, "");
}

function label(text: string): string {
  const flat = text.trim().replace(/\s+/g, " ");
  return flat.length > LABEL_MAX ? `${flat.slice(0, LABEL_MAX - 1)}…` : flat;
}

function fence(text: string): string {
  const ticks = text.includes("```") ? "````" : "```";
  return `${ticks}\n${text}\n${ticks}`;
}

const WORD_CHAR = /[\p{L}\p{N}_$]/u;

/**
 * Identifier characters (any script) right before the cursor. Scans backwards one character at a time: an
 * anchored `/…+$/u` regex retries from every position of the line, which costs tens of µs on long lines.
 */
export function wordBefore(linePrefix: string): string {
  let start = linePrefix.length;
  while (start > 0) {
    const code = linePrefix.charCodeAt(start - 1);
    if (code < 128) {
      const ascii =
        (code >= 97 && code <= 122) ||
        (code >= 65 && code <= 90) ||
        (code >= 48 && code <= 57) ||
        code === 95 ||
        code === 36;
      if (!ascii) break;
      start--;
      continue;
    }
    // Step over a whole code point (a surrogate pair) when testing non-ASCII letters.
    const width = code >= 0xdc00 && code <= 0xdfff && start >= 2 ? 2 : 1;
    if (!WORD_CHAR.test(linePrefix.slice(start - width, start))) break;
    start -= width;
  }
  return linePrefix.slice(start);
}
