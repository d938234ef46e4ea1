import { CHAR, type Dialect, isIdentifierPart, isIdentifierStart, maskCode } from "./scan.js";
import type { Reference } from "./types.js";

/** How a language writes references. */
export interface ReferenceRules {
  readonly dialect: Dialect;
  /** Words that are never references (keywords, `this`, literals, builtins that are never imported). */
  readonly keywords: ReadonlySet<string>;
  /** `::` separates path segments (Rust). Default false. */
  readonly paths?: boolean;
  /** `:` separates a method call (Lua's `m:f()`). Default false. */
  readonly methodColon?: boolean;
  /** Chains of up to four identifiers are kept (Python's `pkg.mod.func`). Default false: two. */
  readonly chains?: boolean;
}

const DOT = 46;
const COLON = 58;
const QUESTION = 63;

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
  return 0;
}

/** Whether the identifier at `start` follows a separator (it is a member of something before it). */
function isMember(code: string, start: number, rules: ReferenceRules): boolean {
  let i = start - 1;
  while (i >= 0 && isSpace(code.charCodeAt(i))) i--;
  const c = code.charCodeAt(i);
  // `..` (Lua's concatenation, Rust's ranges) and `...` (a spread) are not member access.
  if (c === DOT) return code.charCodeAt(i - 1) !== DOT;
  if (c !== COLON) return false;
  if (code.charCodeAt(i - 1) === COLON) return rules.paths === true;
  return rules.methodColon === true;
}

/**
 * References in the lines before the cursor (see `LanguageSupport.references`): each identifier that is not a
 * keyword and not itself a member, with the identifier after its first separator; nearest first, and on one line
 * the one nearest the cursor first.
 */
export function findReferences(lines: readonly string[], rules: ReferenceRules): Reference[] {
  const code = maskCode(lines.join("\n"), rules.dialect);
  const maxLinks = rules.chains ? 4 : 2;
  const found: { chain: string[]; line: number }[] = [];
  const n = code.length;
  let line = 0;
  let i = 0;
  while (i < n) {
    const c = code.charCodeAt(i);
    if (c === CHAR.NL) line++;
    if (!isIdentifierPart(c)) {
      i++;
      continue;
    }
    const start = i;
    while (i < n && isIdentifierPart(code.charCodeAt(i))) i++;
    if (!isIdentifierStart(c) || isMember(code, start, rules)) continue;
    const name = code.slice(start, i);
    if (rules.keywords.has(name)) continue;
    const chain = [name];
    let j = i;
    while (chain.length < maxLinks) {
      while (j < n && isSpace(code.charCodeAt(j))) j++;
      const width = separatorAt(code, j, rules);
      if (width === 0) break;
      j += width;
      while (j < n && isSpace(code.charCodeAt(j))) j++;
      if (!isIdentifierStart(code.charCodeAt(j))) break;
      const linkStart = j;
      while (j < n && isIdentifierPart(code.charCodeAt(j))) j++;
      chain.push(code.slice(linkStart, j));
    }
    found.push({ chain, line });
  }
  const last = lines.length - 1;
  const seen = new Set<string>();
  const references: Reference[] = [];
  for (let k = found.length - 1; k >= 0; k--) {
    const { chain, line: at } = found[k]!;
    const key = chain.join("\0");
    if (seen.has(key)) continue;
    seen.add(key);
    const [name, member] = chain as [string, string | undefined];
    references.push({
      name,
      ...(member === undefined ? {} : { member }),
      ...(chain.length > 2 ? { chain } : {}),
      distance: last - at,
    });
  }
  return references;
}
