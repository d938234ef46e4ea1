// A type's header as the class-based languages write it (Java, C#, C++, Kotlin, Swift): the type whose body is
// open at the end of the code (what `this`/`self` is), and the bases its header names (`extends`, `: A, B`). Pure.
import { closeAngle, escapeName, type ScopeText } from "../scope-text.js";

const IDENT = "[\\p{L}_$][\\p{L}\\p{N}_$]*";
/** An export macro between the keyword and the name (`class LEVELDB_EXPORT DB`). */
const MACRO = "(?:[A-Z][A-Z0-9_]*\\s+)?";

/** The `{` that opens the body of a header starting at `from`, outside brackets and type arguments; or -1. */
function bodyOpen(code: string, from: number): number {
  let depth = 0;
  for (let i = from; i < code.length; i++) {
    const c = code[i];
    if (c === "<") i = closeAngle(code, i);
    else if (c === "(" || c === "[") depth++;
    else if (c === ")" || c === "]") depth--;
    else if (c === "{" && depth <= 0) return i;
    else if ((c === ";" || c === "}") && depth <= 0) return -1;
  }
  return -1;
}

/**
 * The name of the type whose body is open at the end of the scope, declared by one of `keywords` (`class`,
 * `struct`…); with `methods`, also the owner of a C++ method defined outside its class (`Status DBImpl::Get(…) {`
 * → `DBImpl`). The nearest open one.
 */
export function openType(scope: ScopeText, keywords: readonly string[], methods = false): string | undefined {
  const { code } = scope;
  const declared = new RegExp(`\\b(?:${keywords.join("|")})\\s+${MACRO}(${IDENT})`, "gu");
  const defined = new RegExp(`(${IDENT}(?:\\s*<[^<>;{}()]*>)?(?:::${IDENT})*)::~?${IDENT}\\s*\\(`, "gu");
  const found = [...scope.matches(declared)];
  if (methods) found.push(...scope.matches(defined));
  found.sort((a, b) => b.index - a.index);
  for (const m of found) {
    const open = bodyOpen(code, m.index + m[0].length);
    if (open >= 0 && scope.closerOf(open) >= code.length) return m[1]!.replace(/\s*<[\s\S]*?>/g, "");
  }
  return undefined;
}

/** Bases that add no members a completion wants. */
const NO_BASE =
  /^(?:Object|Any|AnyObject|NSObject|Serializable|Cloneable|Codable|Equatable|Hashable|Sendable)$/;

/**
 * The bases a type's header names, as written: what follows `extends`/`implements` (Java) or the header's `:`
 * (C#, C++, Kotlin, Swift), split at commas outside brackets, access words, a Kotlin constructor call's arguments
 * and delegation (`by x`) left out, up to the body or a `where` clause.
 */
export function headerBases(lines: ScopeText, name: string, keywords: readonly string[]): string[] {
  const { code, text } = lines;
  const m = new RegExp(
    `\\b(?:${keywords.join("|")})\\s+${MACRO}${escapeName(name)}(?![\\p{L}\\p{N}_$])`,
    "u",
  ).exec(code);
  if (!m) return [];
  let i = lines.skipBlank(m.index + m[0].length);
  if (code[i] === "<") i = lines.skipBlank(closeAngle(code, i) + 1);
  // Kotlin's primary constructor: `class X(val a: A) : B`; its modifiers first (`private constructor(…)`).
  const ctor = /^(?:(?:private|public|protected|internal)\s+)?(?:constructor\s*)?(?=\()/.exec(code.slice(i));
  if (ctor) i = lines.skipBlank(lines.closerOf(i + ctor[0].length) + 1);
  const open = bodyOpen(code, i);
  const header = text.slice(i, open < 0 ? code.length : open).replace(/\bwhere\b[\s\S]*$/, "");
  const clause = /^\s*(?::(?!:)|\bextends\b|\bimplements\b)/.exec(header);
  if (!clause) return [];
  const list = header.slice(clause[0].length).replace(/\b(?:extends|implements)\b/g, ",");
  return split(list)
    .map((item) =>
      item
        .replace(/\b(?:public|private|protected|internal|virtual|open)\b/g, "")
        .replace(/\bby\b[\s\S]*$/, "")
        .replace(/\([\s\S]*\)\s*$/, "")
        .trim(),
    )
    .filter((item) => /^[\p{L}_$]/u.test(item) && !NO_BASE.test(item));
}

/** Items separated by commas outside brackets (angle brackets too). */
function split(text: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let from = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if ("<([{".includes(c)) depth++;
    else if (">)]}".includes(c) && text[i - 1] !== "-") depth--;
    else if (c === "," && depth === 0) {
      out.push(text.slice(from, i));
      from = i + 1;
    }
  }
  out.push(text.slice(from));
  return out.map((item) => item.trim()).filter((item) => item !== "");
}

/**
 * Whether a member's signature, as the outline shows it, is a constructor or a destructor (`public Store(…)`,
 * `explicit Table(…)`, `~Table()`): nothing but modifiers before its name, which is the type's.
 */
export function isConstructor(name: string, signature: string, modifiers: ReadonlySet<string>): boolean {
  const m = new RegExp(`^\\s*((?:[\\p{L}_]+\\s+)*)~?${escapeName(name)}\\s*\\(`, "u").exec(
    signature.replace(/^\s*(?:@[\p{L}_.]+(?:\([^)]*\))?\s*|\[[^\]]*\]\s*)*/u, ""),
  );
  return m !== null && m[1]!.split(/\s+/).every((word) => word === "" || modifiers.has(word));
}
