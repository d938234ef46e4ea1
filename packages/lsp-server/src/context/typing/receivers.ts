// The receiver of a member access at the cursor (`mail` in `await mail.del│`): where to ask for its type. Pure.
import type { Family } from "../types.js";

/** The receiver of the member access being typed at the cursor. Positions are UTF-16, on the cursor's line. */
export interface Receiver {
  readonly line: number;
  /** The receiver's first character: where its type is asked (the callee's, for `connect(…).`). */
  readonly character: number;
  /** One past the receiver's last character (its `)` for a call): an edit before it may change its type. */
  readonly end: number;
  /** The member name typed after the operator so far (`del` in `mail.del`), `""` right after it. */
  readonly member: string;
}

/** Families where `->` reaches a member (a pointer's in C and C++, an object's in PHP). */
const ARROW: ReadonlySet<Family> = new Set(["c", "cpp", "php"]);
/**
 * Families where `X::` reaches a member of what X names: C++'s and PHP's static members, Rust's associated items,
 * Ruby's constants and class methods. Where X is a namespace or a module, the editor's server answers nothing.
 */
const SCOPE: ReadonlySet<Family> = new Set(["cpp", "rust", "php", "ruby"]);
/** Families whose line comments start with `#` (PHP has both); the others' with `//` (Lua's with `--`). */
const HASH_COMMENTS: ReadonlySet<Family> = new Set(["python", "ruby", "bash", "elixir", "php"]);
const SLASH_COMMENTS: ReadonlySet<Family | undefined> = new Set<Family | undefined>([
  "typescript",
  "go",
  "rust",
  "c",
  "cpp",
  "java",
  "kotlin",
  "scala",
  "csharp",
  "php",
  "swift",
  "zig",
  undefined,
]);

const NAME_CHAR = /[\p{L}\p{N}_$]/u;

/**
 * The receiver of a member access right before the cursor — `x` in `x.│`, `x?.`, `x!.`, `x->` and `x::` (where
 * the family has them, see above), with a member name partly typed or not — or undefined when the cursor is not
 * after one (or the line before it is in a string or a comment, as far as this line tells). A call's receiver is
 * its callee (`connect` in `connect("smtp").│`), on the same line; anything else (`)` without its `(` on the line,
 * `]`, a literal) has none: the answer would be a guess.
 */
export function receiverAt(
  lineText: string,
  position: { line: number; character: number },
  family: Family | undefined,
): Receiver | undefined {
  const before = lineText.slice(0, position.character);
  let at = before.length;
  while (at > 0 && NAME_CHAR.test(before[at - 1]!)) at--;
  const member = before.slice(at);
  // The operator.
  if (before.endsWith("::", at) && family !== undefined && SCOPE.has(family)) at -= 2;
  else if (before.endsWith("->", at) && family !== undefined && ARROW.has(family)) at -= 2;
  else if (before[at - 1] === "." && before[at - 2] !== ".") at -= 1;
  else return undefined;
  // Optional chaining and non-null assertions (TypeScript, Kotlin, Swift, C#).
  if (before[at - 1] === "?" || before[at - 1] === "!") at--;
  const end = at;
  let nameEnd = end;
  if (before[end - 1] === ")") {
    const open = openingParen(before, end - 1);
    if (open === undefined) return undefined;
    nameEnd = open;
  }
  let start = nameEnd;
  while (start > 0 && NAME_CHAR.test(before[start - 1]!)) start--;
  if (start === nameEnd || /\p{N}/u.test(before[start]!)) return undefined;
  if (!inCode(before, start, family)) return undefined;
  return { line: position.line, character: start, end, member };
}

/** The index of the `(` that the `)` at `close` closes, on the same text, or undefined. */
function openingParen(text: string, close: number): number | undefined {
  let depth = 0;
  for (let i = close; i >= 0; i--) {
    const c = text[i];
    if (c === ")") depth++;
    else if (c === "(" && --depth === 0) return i;
  }
  return undefined;
}

/**
 * Whether `index` of a line is code: not inside a string literal opened earlier on the line, nor after a line
 * comment's start; inside a template literal's `${…}` (TypeScript and JavaScript) it is code again. A line alone
 * cannot tell a string or comment opened on a line above; those are rare where a member is being typed, and cost one
 * unanswered question.
 */
function inCode(text: string, index: number, family: Family | undefined): boolean {
  let quote: string | undefined;
  // The `${` of template literals the index is inside of, innermost last: the `{`s open in each since.
  const substitutions: number[] = [];
  for (let i = 0; i < index; i++) {
    const c = text[i]!;
    if (quote) {
      if (c === "\\") i++;
      else if (c === quote) quote = undefined;
      else if (quote === "`" && c === "$" && text[i + 1] === "{" && family === "typescript") {
        substitutions.push(0);
        quote = undefined;
        i++;
      }
      continue;
    }
    if (substitutions.length > 0 && (c === "{" || c === "}")) {
      const open = substitutions.length - 1;
      if (c === "{") substitutions[open]!++;
      else if (substitutions[open] === 0) {
        substitutions.pop();
        quote = "`";
      } else substitutions[open]!--;
      continue;
    }
    // Rust's `'` also starts lifetimes (`&'a self`): not a quote there.
    if (c === '"' || c === "`" || (c === "'" && family !== "rust")) quote = c;
    else if (c === "/" && text[i + 1] === "/" && SLASH_COMMENTS.has(family)) return false;
    else if (c === "#" && family !== undefined && HASH_COMMENTS.has(family)) return false;
    else if (c === "-" && text[i + 1] === "-" && family === "lua") return false;
  }
  return quote === undefined;
}
