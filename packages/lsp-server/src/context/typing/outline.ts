// The member outline of a type: its header, its members' signatures without bodies, then its bases', ranked by the
// name typed after the `.` and by nearness, cut to a budget. A function of (file lines, declaration). Pure.
import { type Dialect, maskCode } from "../scan/scan.js";
import type { TextLines } from "../scan/source-text.js";
import type { Declaration } from "../types.js";

/** How a language's outline closes what it leaves out (a row of its rule table). */
export interface OutlineSyntax {
  readonly dialect: Dialect;
  /**
   * Where a signature ends and a body begins: at a `{` outside brackets (` … }` stands for the body), or at a `:`
   * that ends a line (Python: ` ...`).
   */
  readonly body: "brace" | "colon";
  /**
   * Members declared outside the type's body go under the nearest line above them that this matches, as in the
   * file (Rust's `impl Display for X {`); without it each stands alone (Go's methods).
   */
  readonly group?: RegExp;
  /** Lines between a member's doc comment and its name that the outline keeps (Python's `@property`). */
  readonly decorators?: RegExp;
}

/** A type to outline: its declaration, and the lines of the file that declares it. */
export interface OutlineType {
  /** The file, as the caller names it (absolute, or workspace-relative). */
  readonly path: string;
  readonly declaration: Declaration;
  readonly lines: TextLines;
  /**
   * Its members not visible outside it (`exported` false) are shown too, after the others: the receiver is
   * `this`/`self`, or the language lets the cursor's file see them (Go's package).
   */
  readonly private?: boolean;
}

/** How to choose and render members. */
export interface OutlineOptions {
  readonly syntax: OutlineSyntax;
  /** Most characters of all the outlines' text together. */
  readonly maxChars: number;
  /** The member name typed after the operator: members it starts go first. */
  readonly prefix?: string;
  /** Names used near the cursor: members so named go next. */
  readonly near?: ReadonlySet<string>;
  /** Names used as members anywhere in the current file (`.name`): members so named go after those near. */
  readonly used?: ReadonlySet<string>;
  /** Members a value's access never offers (constructors), by name and signature. */
  readonly hidden?: (name: string, signature: string) => boolean;
}

/** The outline of one type. */
export interface TypeOutline {
  readonly path: string;
  /** The declaration's first and last line (0-based, inclusive) in its file. */
  readonly startLine: number;
  readonly endLine: number;
  /** Header, member signatures and the closing line, joined with `\n`. */
  readonly text: string;
  /** The members it shows, in the order they appear. */
  readonly members: readonly string[];
}

/** A member signature's lines at most; more are cut with `…`. */
const MAX_SIGNATURE_LINES = 4;
/** A one-line member up to this long is kept whole, body and all (`close() { this.s.end(); }`). */
const ONE_LINE_MEMBER = 140;
/** A header spans this many lines at most before its body opens. */
const MAX_HEADER_LINES = 6;

interface Candidate {
  readonly type: number;
  readonly member: Declaration;
  readonly text: string;
  /** The line the member is grouped under (outside the body), or -1 inside it, or -2 alone. */
  readonly group: number;
  readonly groupText?: { readonly open: string; readonly close: string };
}

/**
 * The outlines of a type and its bases (in `types`, the type first, nearest bases next): each a header, the chosen
 * members' signatures in file order, a closing line. Members are ranked by whether the typed prefix starts them,
 * whether their name is used near the cursor, then anywhere in the file, whether they are visible outside their
 * type, then by type (the type's own before its bases') and line; taken while the text fits `maxChars`. A type none of whose members fit
 * gives no outline.
 */
export function memberOutlines(types: readonly OutlineType[], options: OutlineOptions): TypeOutline[] {
  const { syntax } = options;
  const heads = types.map((t) => header(t, syntax));
  const candidates: Candidate[] = [];
  types.forEach((t, index) => {
    for (const member of t.declaration.members ?? []) {
      if (!member.exported && !t.private) continue;
      const found = candidate(t, index, member, syntax);
      if (!options.hidden?.(member.name, found.text)) candidates.push(found);
    }
  });
  const prefix = options.prefix?.toLowerCase() ?? "";
  const rank = (c: Candidate) => [
    prefix !== "" && c.member.name.toLowerCase().startsWith(prefix) ? 0 : 1,
    options.near?.has(c.member.name) ? 0 : 1,
    options.used?.has(c.member.name) ? 0 : 1,
    c.member.exported ? 0 : 1,
    c.type,
    c.member.startLine,
  ];
  const ranked = candidates
    .map((c) => ({ c, key: rank(c) }))
    .sort((a, b) => {
      for (let i = 0; i < a.key.length; i++) if (a.key[i] !== b.key[i]) return a.key[i]! - b.key[i]!;
      return 0;
    })
    .map(({ c }) => c);
  const opened = new Set<number>();
  const groups = new Set<string>();
  const chosen: Candidate[] = [];
  let used = 0;
  for (const c of ranked) {
    let cost = c.text.length + 1;
    if (!opened.has(c.type)) cost += heads[c.type]!.open.length + heads[c.type]!.close.length + 2;
    const group = `${c.type}\0${c.group}`;
    if (c.groupText && !groups.has(group)) cost += c.groupText.open.length + c.groupText.close.length + 2;
    if (used + cost > options.maxChars) continue;
    used += cost;
    opened.add(c.type);
    if (c.groupText) groups.add(group);
    chosen.push(c);
  }
  const out: TypeOutline[] = [];
  types.forEach((t, index) => {
    const mine = chosen
      .filter((c) => c.type === index)
      .sort((a, b) => a.member.startLine - b.member.startLine);
    if (mine.length === 0) return;
    out.push({
      path: t.path,
      startLine: t.declaration.startLine,
      endLine: t.declaration.endLine,
      text: render(heads[index]!, mine),
      members: mine.map((c) => c.member.name),
    });
  });
  return out;
}

/** A type's outline text: the header, the members inside its body, its closing line, then those outside. */
function render(head: { open: string; close: string }, members: readonly Candidate[]): string {
  const lines = [head.open, ...members.filter((c) => c.group === -1).map((c) => c.text)];
  if (head.close !== "") lines.push(head.close);
  let group: number | undefined;
  for (const c of members) {
    if (c.group === -1) continue;
    if (c.group !== group && group !== undefined && group >= 0) lines.push(groupClose(members, group));
    if (c.group !== group && c.group >= 0) lines.push(c.groupText!.open);
    group = c.group;
    lines.push(c.text);
  }
  if (group !== undefined && group >= 0) lines.push(groupClose(members, group));
  return lines.join("\n");
}

function groupClose(members: readonly Candidate[], group: number): string {
  return members.find((c) => c.group === group)!.groupText!.close;
}

/** The header of a type (from its name line to where its body opens) and its closing line. */
function header(t: OutlineType, syntax: OutlineSyntax): { open: string; close: string } {
  const { declaration: d, lines } = t;
  const last = Math.min(d.endLine, d.nameLine + MAX_HEADER_LINES - 1);
  const text = range(lines, d.nameLine, last);
  const cut = bodyStart(text, syntax);
  if (cut === undefined) return { open: lines.line(d.nameLine), close: "" };
  const open = text.slice(0, cut + 1);
  if (syntax.body === "colon") return { open, close: "" };
  const end = lines.line(d.endLine);
  const close = /^\s*}/.test(end) && d.endLine > d.nameLine ? end : `${lines.indentation(d.nameLine)}}`;
  return { open, close };
}

/** A member as the outline shows it: its signature without its body, where it goes. */
function candidate(t: OutlineType, type: number, member: Declaration, syntax: OutlineSyntax): Candidate {
  const { lines, declaration: d } = t;
  const text = signature(lines, member, syntax);
  const inside = member.startLine >= d.startLine && member.endLine <= d.endLine;
  if (inside || !syntax.group) return { type, member, text, group: inside ? -1 : -2 };
  for (let line = member.startLine - 1; line > d.endLine || line < d.startLine; line--) {
    if (line < 0) break;
    const at = lines.line(line);
    if (!syntax.group.test(at) || lines.indentation(line).length >= lines.indentation(member.nameLine).length)
      continue;
    const cut = bodyStart(at, syntax);
    const open = cut === undefined ? at : at.slice(0, cut + 1);
    return { type, member, text, group: line, groupText: { open, close: `${lines.indentation(line)}}` } };
  }
  return { type, member, text, group: -2 };
}

/** A member's signature: kept decorators, its lines from its name to its body, the body elided. */
function signature(lines: TextLines, member: Declaration, syntax: OutlineSyntax): string {
  const kept: string[] = [];
  if (syntax.decorators)
    for (let line = member.startLine; line < member.nameLine; line++)
      if (syntax.decorators.test(lines.line(line))) kept.push(lines.line(line));
  const first = lines.line(member.nameLine);
  if (member.endLine === member.nameLine && first.length <= ONE_LINE_MEMBER)
    return [...kept, first].join("\n");
  const last = Math.min(member.endLine, member.nameLine + MAX_SIGNATURE_LINES - 1);
  const text = range(lines, member.nameLine, last);
  const cut = bodyStart(text, syntax);
  if (cut !== undefined)
    return [...kept, text.slice(0, cut + 1) + (syntax.body === "brace" ? " … }" : " ...")].join("\n");
  if (last < member.endLine) return [...kept, text, `${lines.indentation(member.nameLine)}  …`].join("\n");
  return [...kept, text].join("\n");
}

/**
 * Where the body starts in a declaration's text: the first `{` outside parentheses and brackets that its line does
 * not close (a type literal `{ a: string }` or a default `= {}` closes where it opens), or (colon) the first `:`
 * outside them that ends its line. Undefined when there is none.
 */
function bodyStart(text: string, syntax: OutlineSyntax): number | undefined {
  const code = maskCode(text, syntax.dialect);
  let depth = 0;
  for (let i = 0; i < code.length; i++) {
    const c = code[i];
    if (c === "(" || c === "[") depth++;
    else if (c === ")" || c === "]") depth = Math.max(0, depth - 1);
    else if (depth > 0) continue;
    else if (syntax.body === "brace" && c === "{") {
      const close = closeOnLine(code, i);
      if (close === -1) return i;
      i = close;
    } else if (syntax.body === "colon" && c === ":" && /^[ \t]*(?:\n|$)/.test(code.slice(i + 1))) return i;
  }
  return undefined;
}

/** The `}` closing the `{` at `open` on the same line (a balanced literal), or -1. */
function closeOnLine(code: string, open: number): number {
  let depth = 0;
  for (let i = open; i < code.length && code[i] !== "\n"; i++) {
    if (code[i] === "{") depth++;
    else if (code[i] === "}" && --depth === 0) return i;
  }
  return -1;
}

/** Lines `[from, to]` of a file joined with `\n`. */
function range(lines: TextLines, from: number, to: number): string {
  const out: string[] = [];
  for (let line = from; line <= to; line++) out.push(lines.line(line));
  return out.join("\n");
}

/**
 * A type that has no members to list (a union of object types, `type Command = { kind: "run" } | { kind: "x" }`):
 * its declaration's lines from its name on, as many as `maxChars` allows (at least its first); undefined when not
 * even its first line fits.
 */
export function declarationOutline(t: OutlineType, maxChars: number): TypeOutline | undefined {
  const { declaration: d, lines } = t;
  const out: string[] = [];
  let used = 0;
  for (let line = d.nameLine; line <= d.endLine; line++) {
    const text = lines.line(line);
    if (used + text.length + 1 > maxChars) break;
    used += text.length + 1;
    out.push(text);
  }
  if (out.length === 0) return undefined;
  return { path: t.path, startLine: d.startLine, endLine: d.endLine, text: out.join("\n"), members: [] };
}
