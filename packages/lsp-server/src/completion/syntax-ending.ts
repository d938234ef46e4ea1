import type { Node, Tree } from "web-tree-sitter";
import {
  type FittedCompletion,
  fitKept,
  keptRaw,
  type PostProcessContext,
  postProcess,
} from "./postprocess.js";

// Syntax-aware endings: where the indentation and suffix rules of post-processing leave a suggestion, a syntax tree
// of the document with the suggestion in it says (a) where the block the cursor is in ends, and (b) whether the
// suggestion leaves the file with more parse errors than it had. Pure given the parse function: the tests parse with
// the real grammars from scratch, the server incrementally from the document's kept tree.

/**
 * The document a suggestion is for, as syntax-aware endings read it: where the cursor is, and the tree of the
 * document with a change at the cursor, parsed from the document's own lines (no text of the document is made).
 */
export interface SyntaxDocument {
  /** The cursor's offset in the document's text (its lines joined with `\n`). */
  readonly cursor: number;
  /**
   * How many more parse errors (as `countErrors` counts them) `tree`, the document with `change` made at the cursor,
   * has than the document; negative when it has fewer.
   */
  addedErrors(tree: Tree, change: Insertion): number;
  /** The first `length` characters of the document after the cursor (what a suggestion replaces there). */
  after(length: number): string;
  /**
   * The tree of the document with `change` made at the cursor (its `removed`, the text there, replaced by
   * `inserted`); undefined when it cannot be parsed. The caller deletes it.
   */
  parse(change: Insertion): Tree | undefined;
}

/** A change at the cursor: `removed` (the document's text there) replaced by `inserted`. */
export interface Insertion {
  readonly removed: string;
  readonly inserted: string;
}

/** How {@link syntaxEnding} cuts. */
export interface EndingOptions {
  /** Cut at the end of the block the cursor is in (rule a): for multi-line answers. Default true. */
  readonly block?: boolean;
  /** Lines that must stay whatever the tree says (already shown as partial results). Default 0. */
  readonly floor?: number;
  /** Parses allowed; past them the best cut found so far stands. Default 24 (the bench measures the cost of one). */
  readonly maxParses?: number;
}

const MAX_PARSES = 24;

// What may follow a block's closer on its line for the line to still end the block: more closers, `;`, `,`.
const CLOSERS_ONLY = /^[\s)\]};,]*$/;

/**
 * Where a suggestion should end by the syntax of its document: the prefix of `kept` (a suggestion's lines as
 * post-processing kept them, not yet fitted) to answer from; `kept` itself when the tree says nothing better. `fit`
 * turns a prefix into what the editor inserts (post-processing's fitting), and every judgement is on the document
 * with that inserted (`before + text + after` less what it replaces).
 *
 * (a) Block end: the innermost node that encloses the cursor (it starts before it and ends after it) and ends with a
 * closing token of its own (`}`, `end`, `done`, `)`: not one the parser had to invent), is it closed by the
 * suggestion? Then the suggestion ends with the line of that closer, when nothing but closers, `;` or `,` follows it
 * there; a closer line that goes on (`} else {`, `} catch (e) {`) hands the judgement to the next such node
 * enclosing the cursor.
 *
 * (b) Parse errors: when the suggestion (after a) leaves the document with more errors than it had (a closer the
 * document already has, a block left open), it is cut to its longest prefix that does not, in whole lines, and
 * within its first line at a token's end. When no prefix does, the tree says nothing sensible: the suggestion stays
 * as (a) left it if that parses no worse than the whole, else whole.
 *
 * Neither cuts below `floor` lines (nor into the first line when `floor` is above 0).
 */
export function syntaxEnding(
  kept: string,
  doc: SyntaxDocument,
  fit: (raw: string) => FittedCompletion | null,
  options: EndingOptions = {},
): string {
  const floor = options.floor ?? 0;
  let parses = options.maxParses ?? MAX_PARSES;
  const { cursor } = doc;

  /**
   * `read` of the tree of the document with `raw` fitted in, and the errors that adds to the document; undefined
   * when it cannot be had.
   */
  const judge = <T>(
    raw: string,
    read: (root: Node, fitted: FittedCompletion, added: number) => T,
  ): T | undefined => {
    const fitted = fit(raw);
    if (!fitted || parses <= 0) return undefined;
    parses--;
    const change = { removed: doc.after(fitted.replaceEnd), inserted: fitted.text };
    const tree = doc.parse(change);
    if (!tree) return undefined;
    try {
      return read(tree.rootNode, fitted, doc.addedErrors(tree, change));
    } finally {
      tree.delete();
    }
  };
  const errorsOf = (raw: string): number | undefined => judge(raw, (_root, _fitted, added) => added);

  const lines = kept.split("\n");
  const whole = judge(kept, (root, fitted, added) => ({
    errors: added,
    closes: options.block === false ? undefined : closingLine(root, cursor, fitted.text),
  }));
  if (!whole) return kept;

  // (a) The block's end, when the suggestion closes the block the cursor is in.
  let chosen = kept;
  let errors = whole.errors;
  const keep = whole.closes === undefined ? lines.length : Math.max(whole.closes + 1, floor);
  if (keep < lines.length) {
    const cut = lines.slice(0, keep).join("\n");
    const cutErrors = errorsOf(cut);
    if (cutErrors !== undefined) {
      chosen = cut;
      errors = cutErrors;
    }
  }
  if (errors <= 0) return chosen;

  // (b) The longest prefix that adds no errors: whole lines, then tokens of the first line.
  const chosenLines = chosen.split("\n");
  for (let n = chosenLines.length - 1; n >= Math.max(1, floor); n--) {
    // A prefix ending in a blank line fits as the one before it.
    if (chosenLines[n - 1]!.trim() === "") continue;
    const prefix = chosenLines.slice(0, n).join("\n");
    const prefixErrors = errorsOf(prefix);
    if (prefixErrors !== undefined && prefixErrors <= 0) return prefix;
  }
  const first = chosenLines[0]!;
  const ends = floor > 0 ? [] : tokenEnds(first).filter((end) => end < first.trimEnd().length);
  for (const end of ends.reverse()) {
    const prefix = first.slice(0, end);
    const prefixErrors = errorsOf(prefix);
    if (prefixErrors !== undefined && prefixErrors <= 0) return prefix;
  }
  // No prefix parses as well as the document: the tree says nothing sensible here. The block's end stands only
  // when it parses no worse than the whole suggestion.
  return errors <= whole.errors ? chosen : kept;
}

/**
 * The line of `text` (inserted at `cursor`) where the block enclosing the cursor closes, by rule (a) of
 * {@link syntaxEnding}; undefined when the suggestion does not close it.
 */
function closingLine(root: Node, cursor: number, text: string): number | undefined {
  const insertEnd = cursor + text.length;
  // A block must close past this offset: the cursor, then the end of a closer line that went on with code.
  let past = cursor;
  for (let node: Node | null = root.descendantForIndex(cursor); node?.parent; node = node.parent) {
    if (node.startIndex >= cursor || node.endIndex <= past || node.isError || !closesItself(node)) continue;
    // The innermost block still open at the cursor closes in the document, after the suggestion: so do the others.
    if (node.endIndex > insertEnd) return undefined;
    const at = node.endIndex - cursor;
    const lineEnd = text.indexOf("\n", at);
    const stop = lineEnd === -1 ? text.length : lineEnd;
    if (CLOSERS_ONLY.test(text.slice(at, stop))) return text.slice(0, at).split("\n").length - 1;
    past = cursor + stop;
  }
  return undefined;
}

/** A node that ends with a delimiter of its own: its last child is an anonymous token the text has (not MISSING). */
function closesItself(node: Node): boolean {
  if (node.childCount < 2) return false;
  const last = node.lastChild;
  return last !== null && !last.isNamed && !last.isMissing && last.endIndex > last.startIndex;
}

/** The offsets in `line` where a token ends: a word (letters, digits, `_`, `$`) or any other non-blank character. */
function tokenEnds(line: string): number[] {
  return [...line.matchAll(/[\p{L}\p{N}_$]+|\S/gu)].map((m) => m.index + m[0].length);
}

/**
 * For a block streaming in: the line of `settled` (lines post-processing keeps whatever follows, in the answer's
 * form) that closes the block the cursor is in (rule a of {@link syntaxEnding}), judged with those lines inserted;
 * undefined while they do not close it, or when the tree cannot tell. Once they do, the suggestion ends there
 * whatever follows: the stream can be cut. Never throws.
 */
export function blockEndLine(settled: string, doc: SyntaxDocument): number | undefined {
  try {
    const tree = doc.parse({ removed: "", inserted: settled });
    if (!tree) return undefined;
    try {
      return closingLine(tree.rootNode, doc.cursor, settled);
    } finally {
      tree.delete();
    }
  } catch {
    return undefined;
  }
}

/** Fitting for text already post-processed (a paragraph, a streak): trailing whitespace off, nothing replaced. */
export function fitPlain(raw: string): FittedCompletion | null {
  const text = raw
    .split("\n")
    .map((line) => line.trimEnd())
    .join("\n")
    .replace(/\n+$/, "");
  return text.trim() === "" ? null : { text, replaceEnd: 0 };
}

/**
 * {@link postProcess}, then the syntax-aware cut ({@link syntaxEnding}) when the document's syntax is had (`doc`):
 * the block rule for a multi-line answer, the error rule for both. Never throws: whatever goes wrong leaves
 * post-processing's answer.
 *
 * @param floor lines of the answer already shown as partial results (kept whatever the tree says). Default 0.
 */
export function endSuggestion(
  raw: string,
  ctx: PostProcessContext,
  doc: SyntaxDocument | undefined,
  floor = 0,
): FittedCompletion | null {
  if (!doc) return postProcess(raw, ctx);
  try {
    const kept = keptRaw(raw, ctx);
    const fit = (prefix: string) => fitKept(prefix, ctx);
    return fit(syntaxEnding(kept, doc, fit, { block: ctx.mode === "multi-line", floor }));
  } catch {
    return postProcess(raw, ctx);
  }
}

/**
 * The syntax-aware cut of text already post-processed and inserted as is (`replaceEnd` 0: a first paragraph, a hot
 * streak), multi-line; `text` itself without `doc` or when anything goes wrong.
 *
 * @param floor lines already shown as partial results (kept whatever the tree says). Default 0.
 */
export function endPlain(text: string, doc: SyntaxDocument | undefined, floor = 0): string {
  if (!doc) return text;
  try {
    return fitPlain(syntaxEnding(text, doc, fitPlain, { floor }))?.text ?? text;
  } catch {
    return text;
  }
}

/**
 * The document once `shown` is accepted (inserted at the cursor): what the hot streak's suggestions are judged
 * against. Undefined when it cannot be parsed.
 */
export function acceptedDocument(doc: SyntaxDocument, shown: FittedCompletion): SyntaxDocument | undefined {
  try {
    const accepted: Insertion = { removed: doc.after(shown.replaceEnd), inserted: shown.text };
    const tree = doc.parse(accepted);
    if (!tree) return undefined;
    // What the accepted suggestion added: a change of the accepted document adds what it adds to the original, less.
    const acceptedAdded = doc.addedErrors(tree, accepted);
    tree.delete();
    // A change of this document at its cursor is one of the original at the original's cursor.
    const inOriginal = (change: Insertion): Insertion => ({
      removed: accepted.removed + change.removed,
      inserted: accepted.inserted + change.inserted,
    });
    return {
      cursor: doc.cursor + shown.text.length,
      after: (length) => doc.after(shown.replaceEnd + length).slice(shown.replaceEnd),
      parse: (change) => doc.parse(inOriginal(change)),
      addedErrors: (changed, change) => doc.addedErrors(changed, inOriginal(change)) - acceptedAdded,
    };
  } catch {
    return undefined;
  }
}
