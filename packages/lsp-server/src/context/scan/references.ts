import type { Reference } from "../types.js";
import { CHAR, type Dialect, isIdentifierPart, isIdentifierStart, maskCode } from "./scan.js";

/** How a language writes references. */
export interface ReferenceRules {
  readonly dialect: Dialect;
  /** Words that are never references (keywords, `this`, literals, builtins that are never imported). */
  readonly keywords: ReadonlySet<string>;
  /**
   * Builtin names that are references only when the file binds them itself (Python's `from rich import print`):
   * otherwise the language's own. Default none.
   */
  readonly builtins?: ReadonlySet<string>;
  /** `::` separates path segments (Rust). Default false. */
  readonly paths?: boolean;
  /** `:` separates a method call (Lua's `m:f()`). Default false. */
  readonly methodColon?: boolean;
  /** `->` separates a member (C and C++ `p->field`, PHP `$o->method()`). Default false. */
  readonly arrows?: boolean;
  /** Chains of up to four identifiers are kept (Python's `pkg.mod.func`). Default false: two. */
  readonly chains?: boolean;
  /** The longest chain kept when `chains` is on. Default 4 (Rust's `crate::a::b::c::Type` needs more). */
  readonly chainLength?: number;
  /**
   * Keywords that name a module when a path starts with them (Rust's `crate::`, `super::`, `self::`): then they
   * are references like names. Default none.
   */
  readonly pathKeywords?: ReadonlySet<string>;
  /**
   * Characters that end a name when written right after it, not before `=` (Ruby's `empty?`, `save!`; not
   * `a != b`). Default none.
   */
  readonly suffixes?: string;
}

const DOT = 46;
const COLON = 58;
const QUESTION = 63;
const MINUS = 45;
const GT = 62;

function isSpace(c: number): boolean {
  return c === CHAR.SPACE || c === 9 || c === CHAR.NL || c === CHAR.CR;
}

/** Length of the separator between chain links that starts at `i` (`.`, `?.`, `::`, Lua's `:`), or 0. */
function separatorAt(code: string, i: number, rules: ReferenceRules): number {
  const c = code.charCodeAt(i);
  const next = code.charCodeAt(i + 1);
  if (c === DOT) return next === DOT ? 0 : 1;
  if (c === QUESTION && next === DOT) return 2;
  if (c === COLON && next === COLON) return rules.paths ? 2 : 0;
  if (c === COLON && rules.methodColon) return 1;
  if (c === MINUS && next === GT && rules.arrows) return 2;
  return 0;
}

/** Whether the identifier at `start` follows a separator (it is a member of something before it). */
function isMember(code: string, start: number, rules: ReferenceRules): boolean {
  let i = start - 1;
  while (i >= 0 && isSpace(code.charCodeAt(i))) i--;
  if (i < 0) return false;
  const c = code.charCodeAt(i);
  // `..` (Lua's concatenation, Rust's ranges) and `...` (a spread) are not member access.
  if (c === DOT) return i === 0 || code.charCodeAt(i - 1) !== DOT;
  if (c === GT) return rules.arrows === true && i > 0 && code.charCodeAt(i - 1) === MINUS;
  if (c !== COLON) return false;
  if (i > 0 && code.charCodeAt(i - 1) === COLON) return rules.paths === true;
  return rules.methodColon === true;
}

/** End of the identifier that starts at `i` (its suffix included: Ruby's `empty?`). */
function identifierEnd(code: string, i: number, suffixes?: string): number {
  const n = code.length;
  while (i < n && isIdentifierPart(code.charCodeAt(i))) i++;
  if (suffixes && i < n && suffixes.includes(code[i]!) && code[i + 1] !== "=") i++;
  return i;
}

/** Past blanks (line breaks included) from `i`. */
function skipSpace(code: string, i: number): number {
  const n = code.length;
  while (i < n && isSpace(code.charCodeAt(i))) i++;
  return i;
}

/**
 * References in the lines before the cursor (see `LanguageSupport.references`): each identifier that is not a
 * keyword and not itself a member, with the identifier after its first separator; nearest first, and on one line
 * the one nearest the cursor first. One pass over the masked lines; strings only for the names it keeps.
 */
export function findReferences(
  lines: readonly string[],
  rules: ReferenceRules,
  preceding = "",
  bound?: ReadonlySet<string>,
): Reference[] {
  // Names inside a template literal's `${…}` are code too (`${util.joinValues(` is a use of util). The text before
  // the lines is masked with them, so that lines starting inside a comment (a JSDoc block with a `code` span in
  // it) or a string are read as such; only the lines are searched.
  const prefix = preceding === "" ? "" : `${preceding}\n`;
  const code = maskCode(prefix + lines.join("\n"), rules.dialect, { templateExpressions: true });
  const n = code.length;
  // What each reference is, in reading order: its name, the member after it, the longer chain, its line.
  const names: string[] = [];
  const members: (string | undefined)[] = [];
  const chains: (string[] | undefined)[] = [];
  const lineOf: number[] = [];
  let line = 0;
  let i = prefix.length;
  while (i < n) {
    const c = code.charCodeAt(i);
    if (c === CHAR.NL) line++;
    if (!isIdentifierPart(c)) {
      i++;
      continue;
    }
    const start = i;
    i = identifierEnd(code, i, rules.suffixes);
    if (!isIdentifierStart(c) || isMember(code, start, rules)) continue;
    const name = code.slice(start, i);
    const pathStart = rules.pathKeywords?.has(name) === true && code.startsWith("::", skipSpace(code, i));
    if (!pathStart && (rules.keywords.has(name) || (rules.builtins?.has(name) && !bound?.has(name))))
      continue;
    let member: string | undefined;
    let chain: string[] | undefined;
    let j = skipSpace(code, i);
    let width = separatorAt(code, j, rules);
    while (width > 0) {
      j = skipSpace(code, j + width);
      if (!isIdentifierStart(code.charCodeAt(j))) break;
      const end = identifierEnd(code, j, rules.suffixes);
      const link = code.slice(j, end);
      if (member === undefined) member = link;
      else {
        chain ??= [name, member];
        chain.push(link);
      }
      if (!rules.chains || (chain?.length ?? 2) >= (rules.chainLength ?? 4)) break;
      j = skipSpace(code, end);
      width = separatorAt(code, j, rules);
    }
    names.push(name);
    members.push(member);
    chains.push(chain);
    lineOf.push(line);
  }
  const last = lines.length - 1;
  const seen = new Set<string>();
  const references: Reference[] = [];
  for (let k = names.length - 1; k >= 0; k--) {
    const name = names[k]!;
    const member = members[k];
    const chain = chains[k];
    const key = chain ? chain.join(".") : member === undefined ? name : `${name}.${member}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const distance = last - lineOf[k]!;
    if (member === undefined) references.push({ name, distance });
    else if (chain === undefined) references.push({ name, member, distance });
    else references.push({ name, member, chain, distance });
  }
  return references;
}
