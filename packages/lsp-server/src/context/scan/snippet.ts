import type { Declaration, DeclarationKind } from "../types.js";
import { findOpen } from "./lexer.js";
import type { SourceText, TextLines } from "./source-text.js";
import type { Span } from "./statements.js";

/** Limits of a declaration's snippet. */
export const SNIPPET_LIMITS = {
  /** Lines of a whole snippet. */
  maxLines: 40,
  /** Lines of a doc comment (the first ones and the closing one are kept). */
  maxDocLines: 12,
  /** A function body of at most this many lines goes in whole. */
  shortBody: 6,
  /** A member's body (in its container's listing) of at most this many lines goes in whole. */
  shortMemberBody: 1,
} as const;

/** The elision line: what stands for the lines left out. */
export const ELLIPSIS = "…";

/** A declaration as a parser finds it, in lines of its file; {@link toDeclaration} makes it a {@link Declaration}. */
export interface Item {
  name: string;
  kind: DeclarationKind;
  exported: boolean;
  /** First line of the doc comment above, or `start` when there is none. */
  docStart: number;
  /** First line of the declaration proper (decorators and attributes included). */
  start: number;
  nameLine: number;
  /** Last line (inclusive). */
  end: number;
  /**
   * The body: the line that opens it (`{`, Python's `:`, Lua's parameter list) and the line that closes it (`}`,
   * `end`), or no closing line (Python: the body runs to `end`).
   */
  body?: { readonly open: number; readonly close?: number };
  /** Lines of a docstring at the start of the body (Python). */
  bodyDoc?: { readonly start: number; readonly end: number };
  /** Members written inside the body, listed in the container's snippet when the body is long. */
  members?: Item[];
  /** Members declared elsewhere (Go methods, Rust `impl` blocks): reachable, but not in the snippet. */
  attached?: Item[];
  /** Left out of its container's listing (private members). */
  hidden?: boolean;
  /** See `Declaration.bases`. */
  bases?: string[];
}

/** Lines `[from, to]` of the source. */
function range(source: TextLines, from: number, to: number): string[] {
  const lines: string[] = [];
  for (let l = from; l <= to; l++) lines.push(source.line(l));
  return lines;
}

/** A comment of more than `maxDocLines` lines: its first lines and its last (which closes a block comment). */
function capDoc(lines: string[]): string[] {
  const max = SNIPPET_LIMITS.maxDocLines;
  return lines.length <= max ? lines : [...lines.slice(0, max - 1), lines[lines.length - 1]!];
}

/** At most `maxLines` lines: beyond, the first ones and an elision line at the indentation of the next. */
function capLines(lines: string[]): string[] {
  const max = SNIPPET_LIMITS.maxLines;
  if (lines.length <= max) return lines;
  const next = lines[max - 1]!;
  return [...lines.slice(0, max - 1), next.slice(0, next.length - next.trimStart().length) + ELLIPSIS];
}

/** Indentation of the body's first non-blank line, or the opening line's plus two spaces. */
function bodyIndent(source: TextLines, item: Item, from: number, to: number): string {
  for (let l = from; l <= to; l++) if (source.line(l).trim() !== "") return source.indentation(l);
  const open = source.indentation(item.body?.open ?? item.start);
  return open + (open.startsWith("\t") ? "\t" : "  ");
}

/**
 * Lines `[item.start, to]`: the declaration proper. Attributes interleaved with doc comments between its start and
 * its name (Rust's `#[cfg_attr(…, doc = …)]` amid `///` lines) are capped like a doc comment, so that a long run of
 * them never pushes the name line out of the snippet.
 */
function declarationLines(source: TextLines, item: Item, to: number): string[] {
  if (item.nameLine <= item.start || item.nameLine > to) return range(source, item.start, to);
  return [...capDoc(range(source, item.start, item.nameLine - 1)), ...range(source, item.nameLine, to)];
}

/**
 * The lines of an item's snippet. `member` gives the form it takes in its container's listing (a body longer than
 * one line elided); `memberDocs` whether the members listed keep their doc comments.
 */
function snippetLines(source: TextLines, item: Item, member: boolean, memberDocs: boolean): string[] {
  const doc = member && !memberDocs ? [] : capDoc(range(source, item.docStart, item.start - 1));
  const body = item.body;
  if (!body) return capLines([...doc, ...declarationLines(source, item, item.end)]);
  const first = body.open + 1;
  const last = body.close === undefined ? item.end : body.close - 1;
  const short = member ? SNIPPET_LIMITS.shortMemberBody : SNIPPET_LIMITS.shortBody;
  if (body.open === body.close || last - first + 1 <= short)
    return capLines([...doc, ...declarationLines(source, item, item.end)]);
  const head = [...doc, ...declarationLines(source, item, body.open)];
  const bodyDoc =
    item.bodyDoc && !(member && !memberDocs)
      ? capDoc(range(source, item.bodyDoc.start, item.bodyDoc.end))
      : [];
  const closing = body.close === undefined ? [] : range(source, body.close, item.end);
  const listed = member ? [] : (item.members ?? []).filter((m) => !m.hidden);
  if (listed.length > 0) {
    const withDocs = listing(source, listed, true);
    const fits = head.length + bodyDoc.length + withDocs.length + closing.length <= SNIPPET_LIMITS.maxLines;
    const lines = fits ? withDocs : listing(source, listed, false);
    const room = SNIPPET_LIMITS.maxLines - head.length - bodyDoc.length - closing.length;
    if (room >= 2) {
      const fitted =
        lines.length <= room
          ? lines
          : [...lines.slice(0, room - 1), bodyIndent(source, item, first, last) + ELLIPSIS];
      return [...head, ...bodyDoc, ...fitted, ...closing];
    }
  }
  const afterDoc = item.bodyDoc ? item.bodyDoc.end + 1 : first;
  return capLines([...head, ...bodyDoc, bodyIndent(source, item, afterDoc, last) + ELLIPSIS, ...closing]);
}

function listing(source: TextLines, members: Item[], docs: boolean): string[] {
  return members.flatMap((m) => snippetLines(source, m, true, docs));
}

/**
 * A declaration whose snippet is cut when first read: most declarations of a file never go into a prompt, and
 * cutting them all would cost a parse about a third more. `snippet` is an accessor on the prototype; `toJSON`
 * includes it.
 */
class OutlinedDeclaration implements Declaration {
  readonly name: string;
  readonly kind: DeclarationKind;
  readonly startLine: number;
  readonly endLine: number;
  readonly nameLine: number;
  readonly exported: boolean;
  declare readonly members?: readonly Declaration[];
  declare readonly bases?: readonly string[];
  #snippet: string | undefined;
  readonly #source: TextLines;
  readonly #item: Item;

  constructor(source: TextLines, item: Item) {
    this.name = item.name;
    this.kind = item.kind;
    this.startLine = item.docStart;
    this.endLine = item.end;
    this.nameLine = item.nameLine;
    this.exported = item.exported;
    this.#source = source;
    this.#item = item;
    const { members, attached } = item;
    if (members?.length || attached?.length) {
      const all: Declaration[] = [];
      for (const m of members ?? []) all.push(new OutlinedDeclaration(source, m));
      for (const m of attached ?? []) all.push(new OutlinedDeclaration(source, m));
      (this as { members?: readonly Declaration[] }).members = all;
    }
    if (item.bases?.length) (this as { bases?: readonly string[] }).bases = item.bases;
  }

  get snippet(): string {
    this.#snippet ??= snippetLines(this.#source, this.#item, false, true).join("\n");
    return this.#snippet;
  }

  /** The lines of the file a declaration was cut from, when one of these parsers made it. */
  static sourceOf(declaration: Declaration): TextLines | undefined {
    return #source in declaration ? declaration.#source : undefined;
  }

  toJSON(): Declaration {
    const { name, kind, startLine, endLine, nameLine, snippet, exported, members, bases } = this;
    return {
      name,
      kind,
      startLine,
      endLine,
      nameLine,
      snippet,
      exported,
      ...(members ? { members } : {}),
      ...(bases ? { bases } : {}),
    };
  }
}

/**
 * The lines of the file a declaration was read from (a member's too), when a parser of `scan/` made it: what a
 * member outline cuts signatures from without reading the file again. Undefined for other declarations.
 */
export function sourceOf(declaration: Declaration): TextLines | undefined {
  return OutlinedDeclaration.sourceOf(declaration);
}

/** The {@link Declaration} of an item and its members, recursively (snippets cut when first read). */
export function toDeclaration(source: TextLines, item: Item): Declaration {
  return new OutlinedDeclaration(source, item);
}

/** A body between brackets: its lines and the offsets of its brackets. */
export interface BracketBody {
  readonly open: number;
  readonly close: number;
  readonly openOffset: number;
  readonly closeOffset: number;
}

/**
 * The body of a brace-language declaration spanning `[start, end)` of masked code: the last bracket pair that
 * closes it (a function's or a class's `{…}`, a call's `(…)`, an object literal), as lines; undefined when the
 * declaration does not end with a bracket.
 */
export function lastBracketBody(source: SourceText, start: number, end: number): BracketBody | undefined {
  const code = source.code;
  let i = end - 1;
  while (i > start) {
    const c = code.charCodeAt(i);
    if (c === 59 || c === 44 || c <= 32) i--;
    else break;
  }
  const c = code[i];
  if (c !== "}" && c !== ")" && c !== "]") return undefined;
  const openOffset = findOpen(code, i, start);
  if (openOffset === -1) return undefined;
  return { open: source.lineOf(openOffset), close: source.lineOf(i), openOffset, closeOffset: i };
}

/**
 * The item a declaration spanning `[span.start, span.end)` of a brace language's code is: its lines, the comment
 * block right above it as its doc, and its body (by default the last bracket pair that closes it). Not exported
 * until the caller says so.
 */
export function spanItem(
  source: SourceText,
  span: Span,
  name: string,
  nameAt: number,
  kind: DeclarationKind,
  body: { readonly open: number; readonly close?: number } | undefined = lastBracketBody(
    source,
    span.start,
    span.end,
  ),
): Item {
  const start = source.lineOf(span.start);
  const item: Item = {
    name,
    kind,
    exported: false,
    docStart: source.docStart(start),
    start,
    nameLine: source.lineOf(nameAt),
    end: source.lineOf(Math.max(span.start, span.end - 1)),
  };
  if (body)
    item.body = body.close === undefined ? { open: body.open } : { open: body.open, close: body.close };
  return item;
}
