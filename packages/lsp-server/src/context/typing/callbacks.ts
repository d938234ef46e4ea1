// Where a function written without parameter types stands (any language with such functions: TypeScript's
// arrows, Rust's closures): an argument of a call, or a property of an object literal. Pure.
import { type ExpressionSyntax, valueStart } from "./expression.js";
import type { Binding } from "./rules.js";
import { closeAngle, type ScopeText } from "./scope-text.js";

/**
 * What a function expression starting at `start` is written in: a call's argument (`callee(a, ⟨fn⟩)`: the callee
 * as written and the argument's index), or an object literal's property (`{ key: ⟨fn⟩ }`); `parameter` is the
 * index of the parameter asked about. Undefined anywhere else.
 */
export function contextOf(
  scope: ScopeText,
  start: number,
  parameter: number,
  syntax: ExpressionSyntax,
): Binding["callback"] {
  const { code, text } = scope;
  let before = start - 1;
  while (before >= 0 && /\s/.test(code[before]!)) before--;
  const c = code[before];
  if (c === ":") {
    const key = scope.wordBefore(before);
    if (!key || code[scope.openerAt(key.start)] !== "{") return undefined;
    return { context: "property", object: scope.openerAt(key.start), key: key.word, parameter };
  }
  if (c !== "(" && c !== ",") return undefined;
  const opener = scope.openerAt(start);
  if (opener < 0 || code[opener] !== "(") return undefined;
  const argument = commasBetween(code, opener + 1, start);
  let end = opener;
  while (end > 0 && /\s/.test(code[end - 1]!)) end--;
  // Type arguments of the call: `pipe<T>(…)`.
  if (code[end - 1] === ">") {
    let lt = end - 1;
    while (lt > 0 && !(code[lt] === "<" && closeAngle(code, lt) === end - 1)) lt--;
    end = lt;
  }
  const calleeStart = valueStart(scope, end, syntax);
  if (calleeStart === undefined) return undefined;
  const callee = text.slice(calleeStart, end);
  return { context: "call", callee, argument, parameter };
}

/** Commas outside brackets between two offsets. */
function commasBetween(code: string, from: number, to: number): number {
  let depth = 0;
  let commas = 0;
  for (let i = from; i < to; i++) {
    const c = code[i];
    if (c === "(" || c === "[" || c === "{") depth++;
    else if (c === ")" || c === "]" || c === "}") depth--;
    else if (c === "," && depth === 0) commas++;
  }
  return commas;
}

/**
 * Whether the function whose parameters end at `after` is still open at the end of the scope: its block body's
 * `{` is not closed, or (an expression body) the bracket around it is not.
 */
export function stillOpen(scope: ScopeText, after: number): boolean {
  const { code } = scope;
  let i = scope.skipBlank(after);
  if (code.startsWith("=>", i)) i = scope.skipBlank(i + 2);
  // A closure's return type (`|a| -> T {`).
  if (code.startsWith("->", i)) i = scope.read(i + 2, "{").end;
  if (code[i] === "{") return scope.closerOf(i) >= code.length;
  const around = scope.openerAt(after);
  return around === -1 || scope.closerOf(around) >= code.length;
}
