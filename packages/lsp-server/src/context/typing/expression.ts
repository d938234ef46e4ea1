// Values as code writes them, read backwards from where they end: the receiver before the cursor's `.`, and a
// binding's initializer. Only the shapes whose type the declarations tell: names, members, calls, constructors,
// awaits. Pure.
import { type Dialect, isIdentifierPart } from "../scan/scan.js";
import { closeAngle, ScopeText } from "./scope-text.js";

/** A value as written. */
export type ValueExpr =
  /** A local, a parameter, a module-level name. */
  | { readonly kind: "name"; readonly name: string }
  /** `this`, `self`, `cls`. */
  | { readonly kind: "self" }
  /** `x.name`: a field, or a method when called. */
  | { readonly kind: "member"; readonly of: ValueExpr; readonly name: string }
  /** `f(…)`, `x.m(…)`, `X::new(…)`. */
  | { readonly kind: "call"; readonly callee: ValueExpr }
  /** `a::b::c` (Rust): a path of names. */
  | { readonly kind: "path"; readonly path: readonly string[] }
  /** `new X(…)`, `X{…}`, `&X{…}`: an instance of the type as written. */
  | { readonly kind: "new"; readonly type: string }
  /** `await x`, `x.await`. */
  | { readonly kind: "await"; readonly of: ValueExpr }
  /** `x?` (Rust). */
  | { readonly kind: "try"; readonly of: ValueExpr }
  /** `x as T`, Go's `x.(T)`: the type as written. */
  | { readonly kind: "typed"; readonly type: string }
  /**
   * `c ? a : b`, `a ?? b`, `a || b`, Python's `a if c else b` and `a or b`: one of them (their types agree where
   * the code is typed); `undefined`, `null` and `None` left out.
   */
  | { readonly kind: "either"; readonly of: readonly ValueExpr[] };

/** How a language writes values (a row of its rule table). */
export interface ExpressionSyntax {
  readonly dialect: Dialect;
  /** Words naming the current object: `this`; `self`, `cls`. */
  readonly selfWords: readonly string[];
  /** Words that are never a value: keywords (`return`, `if`, …). */
  readonly keywords: ReadonlySet<string>;
  /** `await x` (TypeScript, Python). */
  readonly prefixAwait?: boolean;
  /** `x.await` (Rust). */
  readonly postfixAwait?: boolean;
  /** `x?` unwraps (Rust). */
  readonly tryOperator?: boolean;
  /** `x!` and `x?.` (TypeScript): the access is on the value's type. */
  readonly optionalChains?: boolean;
  /** `new X(…)`. */
  readonly newKeyword?: boolean;
  /** `X{…}` (Go, Rust): a composite literal of the type. */
  readonly structLiterals?: boolean;
  /** `x as T`. */
  readonly asCasts?: boolean;
  /** `::` separates a path (Rust). */
  readonly paths?: boolean;
  /** Go's type assertion `x.(T)`. */
  readonly typeAssertions?: boolean;
  /** Prefixes that leave the value's type as it is, or make a reference to it: `&`, `&mut`, `*`. */
  readonly referencePrefixes?: boolean;
  /** `x->m` reaches a member of what x points to (C++): read as `x.m`. */
  readonly arrows?: boolean;
  /** How one value of several is written: `c ? a : b`, `??`, `||` (TypeScript); `a if c else b`, `or` (Python). */
  readonly alternatives?: "conditional" | "python";
}

/** Links read at most in a chain (a builder's `Command::new(…).version(…)…get_matches()`: two per call). */
const MAX_DEPTH = 32;
/** Lines before the cursor's read for a chain that continues from them (`foo\n  .bar()\n  .`). */
export const RECEIVER_LINES = 6;

/** What the cursor's member access is on. */
export interface Receiver {
  readonly receiver: ValueExpr;
  /** The member name typed so far after the operator (may be empty). */
  readonly prefix: string;
  /** The receiver as written, normalised: what a block remembers having tried. */
  readonly key: string;
}

/**
 * The receiver of the member access the cursor is in: `text` ends at the cursor (the lines before it, the cursor's
 * last); the cursor must follow `receiver.` (TypeScript's `?.` and `!.` too) and a member name being typed.
 * Undefined when the cursor is not after a member operator, or what is before it is no value this reads.
 */
export function receiverAt(text: string, syntax: ExpressionSyntax): Receiver | undefined {
  const scope = new ScopeText(text, syntax.dialect);
  const { code } = scope;
  let op = code.length;
  while (op > 0 && isIdentifierPart(code.charCodeAt(op - 1))) op--;
  const prefix = text.slice(op);
  if (/^\d/.test(prefix)) return undefined;
  const arrow = syntax.arrows === true && code[op - 1] === ">" && code[op - 2] === "-";
  if (!arrow && (code[op - 1] !== "." || code[op - 2] === ".")) return undefined;
  let end = arrow ? op - 2 : op - 1;
  if (syntax.optionalChains && (code[end - 1] === "?" || code[end - 1] === "!")) end--;
  const found = valueBefore(scope, end, syntax, 0);
  if (!found) return undefined;
  return { receiver: found.expr, prefix, key: printValue(found.expr) };
}

/** Where the value that ends right before `end` in `scope` starts (a callee: `self.args.iter().fold`), if it is one. */
export function valueStart(scope: ScopeText, end: number, syntax: ExpressionSyntax): number | undefined {
  return valueBefore(scope, end, syntax, 0)?.start;
}

/** A whole expression (an initializer) as a value, or undefined when it is not one of the shapes read. */
export function parseValue(text: string, syntax: ExpressionSyntax): ValueExpr | undefined {
  return wholeValue(new ScopeText(text, syntax.dialect), 0, text.length, syntax, 0);
}

function wholeValue(
  scope: ScopeText,
  from: number,
  to: number,
  syntax: ExpressionSyntax,
  depth: number,
): ValueExpr | undefined {
  if (depth > MAX_DEPTH) return undefined;
  const { code, text } = scope;
  let start = scope.skipBlank(from);
  let end = to;
  while (end > start && /[\s;,]/.test(code[end - 1]!)) end--;
  if (start >= end) return undefined;
  const head = /^(?:await\b|&\s*mut\b|&|\*)/.exec(code.slice(start, end));
  if (head && syntax.prefixAwait && head[0] === "await") {
    const of = wholeValue(scope, start + 5, end, syntax, depth + 1);
    return of && { kind: "await", of };
  }
  if (head && head[0] !== "await" && syntax.referencePrefixes)
    start = scope.skipBlank(start + head[0].length);
  if (syntax.alternatives) {
    const spans = alternativesOf(code, start, end, syntax.alternatives);
    if (spans) {
      const of: ValueExpr[] = [];
      for (const span of spans) {
        if (/^\s*(?:undefined|null|None)\s*$/.test(code.slice(span.from, span.to))) continue;
        const value = wholeValue(scope, span.from, span.to, syntax, depth + 1);
        if (!value) return undefined;
        of.push(value);
      }
      return of.length === 1 ? of[0] : of.length === 0 ? undefined : { kind: "either", of };
    }
  }
  if (syntax.asCasts) {
    const cast = lastCast(code, start, end);
    if (cast !== undefined) {
      const type = text.slice(cast + 4, end).trim();
      if (type !== "const") return { kind: "typed", type };
      end = cast;
    }
  }
  const found = valueBefore(scope, end, syntax, depth);
  return found && found.start === start ? found.expr : undefined;
}

/**
 * The values of a choice outside brackets between `start` and `end`: `c ? a : b` → a, b; `a ?? b`, `a || b` → a,
 * b (TypeScript); `a if c else b` → a, b; `a or b` → a, b (Python). Undefined when the value is no choice.
 */
function alternativesOf(
  code: string,
  start: number,
  end: number,
  kind: "conditional" | "python",
): Array<{ from: number; to: number }> | undefined {
  let depth = 0;
  const marks: Array<{ at: number; word: string }> = [];
  for (let i = start; i < end; i++) {
    const c = code[i]!;
    if (c === "(" || c === "[" || c === "{") depth++;
    else if (c === ")" || c === "]" || c === "}") depth--;
    else if (depth !== 0) continue;
    else if (kind === "conditional") {
      const two = code.slice(i, i + 2);
      if (two === "??" || two === "||") {
        marks.push({ at: i, word: two });
        i++;
      } else if (c === "?" && code[i + 1] !== ".") marks.push({ at: i, word: "?" });
      else if (c === ":" && marks.some((m) => m.word === "?")) marks.push({ at: i, word: ":" });
    } else if (/\s/.test(code[i - 1] ?? " ")) {
      const word = /^(?:if|else|or)(?=\s)/.exec(code.slice(i, i + 5))?.[0];
      if (word) marks.push({ at: i, word });
    }
  }
  if (marks.length === 0) return undefined;
  const spans: Array<{ from: number; to: number }> = [];
  const first = marks[0]!;
  if (first.word === "?" || first.word === "if") {
    // `c ? a : b`: a and b; `a if c else b`: a and b.
    const other = marks.find((m) => m.word === (first.word === "?" ? ":" : "else"));
    if (!other) return undefined;
    if (first.word === "?") spans.push({ from: first.at + 1, to: other.at }, { from: other.at + 1, to: end });
    else spans.push({ from: start, to: first.at }, { from: other.at + 4, to: end });
    return spans;
  }
  // `a ?? b || c`, `a or b`: each operand.
  let from = start;
  for (const m of marks) {
    if (m.word !== first.word) return undefined;
    spans.push({ from, to: m.at });
    from = m.at + m.word.length;
  }
  spans.push({ from, to: end });
  return spans;
}

/** The offset of the last ` as ` outside brackets between `start` and `end`, if any. */
function lastCast(code: string, start: number, end: number): number | undefined {
  let depth = 0;
  for (let i = end - 1; i > start; i--) {
    const c = code[i];
    if (c === ")" || c === "]" || c === "}") depth++;
    else if (c === "(" || c === "[" || c === "{") depth--;
    else if (depth === 0 && c === " " && code.startsWith(" as ", i) && i + 4 < end) return i;
  }
  return undefined;
}

/** The value that ends right before `end` (blanks skipped), and where it starts. */
function valueBefore(
  scope: ScopeText,
  end: number,
  syntax: ExpressionSyntax,
  depth: number,
): { expr: ValueExpr; start: number } | undefined {
  if (depth > MAX_DEPTH) return undefined;
  const { code } = scope;
  let i = end - 1;
  while (i >= 0 && /\s/.test(code[i]!)) i--;
  if (i < 0) return undefined;
  const c = code[i]!;
  if (c === ")") return callBefore(scope, i, syntax, depth);
  if (c === "}" && syntax.structLiterals) return literalBefore(scope, i, syntax);
  if (c === "?" && syntax.tryOperator) {
    const of = valueBefore(scope, i, syntax, depth + 1);
    return of && { expr: { kind: "try", of: of.expr }, start: of.start };
  }
  if (c === "!" && syntax.optionalChains && code[i + 1] !== "=")
    return valueBefore(scope, i, syntax, depth + 1);
  if (!isIdentifierPart(c.charCodeAt(0))) return undefined;
  let start = i;
  while (start > 0 && isIdentifierPart(code.charCodeAt(start - 1))) start--;
  const word = code.slice(start, i + 1);
  if (/^\d/.test(word)) return undefined;
  // JavaScript's private names (`this.#transport`): the member is named without its `#`.
  if (syntax.optionalChains && code[start - 1] === "#") start--;
  let k = start - 1;
  while (k >= 0 && /\s/.test(code[k]!)) k--;
  const arrow = syntax.arrows === true && code[k] === ">" && code[k - 1] === "-";
  if ((code[k] === "." && code[k - 1] !== ".") || arrow) {
    let ofEnd = arrow ? k - 1 : k;
    if (syntax.optionalChains && (code[k - 1] === "?" || code[k - 1] === "!")) ofEnd--;
    const of = valueBefore(scope, ofEnd, syntax, depth + 1);
    if (!of) return undefined;
    if (word === "await" && syntax.postfixAwait)
      return { expr: { kind: "await", of: of.expr }, start: of.start };
    return { expr: { kind: "member", of: of.expr, name: word }, start: of.start };
  }
  if (syntax.paths && code[k] === ":" && code[k - 1] === ":") return pathBefore(scope, start, word);
  if (syntax.selfWords.includes(word)) return { expr: { kind: "self" }, start };
  if (syntax.keywords.has(word)) return undefined;
  return { expr: { kind: "name", name: word }, start };
}

/** `callee(…)`, `new X(…)`, a parenthesized value, Go's `x.(T)`; `close` is the `)`. */
function callBefore(
  scope: ScopeText,
  close: number,
  syntax: ExpressionSyntax,
  depth: number,
): { expr: ValueExpr; start: number } | undefined {
  const { code, text } = scope;
  const open = scope.openerOf(close);
  if (open < 0) return undefined;
  let j = open - 1;
  while (j >= 0 && /\s/.test(code[j]!)) j--;
  if (syntax.typeAssertions && code[j] === "." && code[j - 1] !== ".") {
    const of = valueBefore(scope, j, syntax, depth + 1);
    return of && { expr: { kind: "typed", type: text.slice(open + 1, close).trim() }, start: of.start };
  }
  let calleeEnd = j + 1;
  // Type arguments of the call: `f<T>(…)`, `X::<T>(…)`.
  if (code[j] === ">" && code[j - 1] !== "=" && code[j - 1] !== "-") {
    const lt = angleOpen(code, j);
    if (lt < 0) return undefined;
    calleeEnd = code.slice(lt - 2, lt) === "::" ? lt - 2 : lt;
  }
  const before = code[calleeEnd - 1];
  const word = scope.wordBefore(calleeEnd);
  const calls =
    before !== undefined &&
    (before === ")" || before === "]" || before === ">" || isIdentifierPart(before.charCodeAt(0))) &&
    !(word && syntax.keywords.has(word.word) && !syntax.selfWords.includes(word.word));
  if (!calls) {
    // A parenthesized value: `(await x)`, `(x as T)`.
    const inner = wholeValue(scope, open + 1, close, syntax, depth + 1);
    return inner && { expr: inner, start: open };
  }
  const callee = valueBefore(scope, calleeEnd, syntax, depth + 1);
  if (!callee) return undefined;
  if (syntax.newKeyword) {
    const keyword = scope.wordBefore(callee.start);
    if (keyword?.word === "new")
      return { expr: { kind: "new", type: text.slice(callee.start, open).trim() }, start: keyword.start };
  }
  return { expr: { kind: "call", callee: callee.expr }, start: callee.start };
}

/** `X{…}`, `pkg.X{…}`, `a::X{…}` (Go, Rust): an instance of the type named before the brace at `close`. */
function literalBefore(
  scope: ScopeText,
  close: number,
  syntax: ExpressionSyntax,
): { expr: ValueExpr; start: number } | undefined {
  const { code, text } = scope;
  const open = scope.openerOf(close);
  if (open < 0) return undefined;
  let end = open;
  while (end > 0 && /\s/.test(code[end - 1]!)) end--;
  // Type arguments: `X[int]{…}`, `X::<T>{…}`.
  if (code[end - 1] === "]") end = scope.openerOf(end - 1);
  let start = end;
  while (start > 0 && /[\p{L}\p{N}_$.:]/u.test(code[start - 1]!)) start--;
  const type = text.slice(start, end);
  const first = /^[\p{L}_$][\p{L}\p{N}_$]*/u.exec(type)?.[0];
  if (!first || syntax.keywords.has(first) || type.endsWith(".") || type.endsWith(":")) return undefined;
  return { expr: { kind: "new", type }, start };
}

/** `a::b::word` ending with `word` at `start` (Rust paths, turbofish type arguments skipped). */
function pathBefore(scope: ScopeText, start: number, word: string): { expr: ValueExpr; start: number } {
  const { code } = scope;
  const path = [word];
  let at = start;
  for (;;) {
    let k = at - 1;
    while (k >= 0 && /\s/.test(code[k]!)) k--;
    if (code[k] !== ":" || code[k - 1] !== ":") break;
    k -= 2;
    while (k >= 0 && /\s/.test(code[k]!)) k--;
    if (code[k] === ">") {
      const lt = angleOpen(code, k);
      if (lt < 0) break;
      k = lt - 1;
      // The turbofish's own `::` (`Vec::<u8>::new`).
      if (code[k] === ":" && code[k - 1] === ":") k -= 2;
    }
    let s = k;
    while (s >= 0 && isIdentifierPart(code.charCodeAt(s))) s--;
    if (s === k) break;
    path.unshift(code.slice(s + 1, k + 1));
    at = s + 1;
  }
  return { expr: { kind: "path", path }, start: at };
}

/** The `<` that opens the `>` at `close` (searching back), or -1. */
function angleOpen(code: string, close: number): number {
  let depth = 0;
  for (let i = close; i >= 0; i--) {
    const c = code[i];
    if (c === ">" && code[i - 1] !== "=" && code[i - 1] !== "-") depth++;
    else if (c === "<" && --depth === 0) return closeAngle(code, i) === close ? i : -1;
    else if (c === ";" || c === "{" || c === "}") return -1;
  }
  return -1;
}

/** A value written back, normalised (arguments left out): `mail`, `this.transport`, `connect().client`. */
export function printValue(expr: ValueExpr): string {
  switch (expr.kind) {
    case "name":
      return expr.name;
    case "self":
      return "this";
    case "member":
      return `${printValue(expr.of)}.${expr.name}`;
    case "call":
      return `${printValue(expr.callee)}()`;
    case "path":
      return expr.path.join("::");
    case "new":
      return `new ${expr.type}`;
    case "await":
      return `await ${printValue(expr.of)}`;
    case "try":
      return `${printValue(expr.of)}?`;
    case "typed":
      return `(as ${expr.type})`;
    case "either":
      return expr.of.map(printValue).join(" | ");
  }
}
