// TypeScript's functions without parameter types, typed by where they are written: an argument of a call
// (`operate((source, subscriber) => …)`, `items.map((item) => …)`), a property of an object literal whose type is
// known (`const rules: Rules = { nameOf: (definition) => … }`). Which function and which parameter; the types are
// the inference's to find. Pure.
import { contextOf, stillOpen } from "../callbacks.js";
import type { ExpressionSyntax } from "../expression.js";
import type { Binding } from "../rules.js";
import { escapeName, type ScopeText } from "../scope-text.js";

const IDENT = "[\\p{L}_$][\\p{L}\\p{N}_$]*";

/**
 * The callback `name` is an untyped parameter of, nearest the end of the scope first, while the cursor is still
 * inside that function: `(a, name) =>`, `name =>`, `function (name) {`, a method `key(name) {` of an object literal.
 */
export function callbackParameter(
  scope: ScopeText,
  name: string,
  syntax: ExpressionSyntax,
): Binding | undefined {
  const n = escapeName(name);
  const forms: Array<{ pattern: RegExp; list: boolean }> = [
    // `(a, name) =>`, `async (name) =>`
    { pattern: /(?<![\p{L}\p{N}_$])\(([^()]*)\)(?=\s*=>)/gu, list: true },
    // `function (name) {`, `function* f(a, name) {`
    { pattern: new RegExp(`\\bfunction\\b\\s*\\*?\\s*(?:${IDENT}\\s*)?\\(([^()]*)\\)`, "gu"), list: true },
    // `name =>`
    { pattern: new RegExp(`(?<![\\p{L}\\p{N}_$.])${n}(?=\\s*=>)`, "gu"), list: false },
  ];
  let best: Binding | undefined;
  for (const { pattern, list } of forms) {
    for (const m of scope.matches(pattern)) {
      if (best?.at !== undefined && m.index < best.at) break;
      const parameter = list ? untypedIndex(m[1] ?? "", name) : 0;
      if (parameter === undefined || !stillOpen(scope, m.index + m[0].length)) continue;
      const start = functionStart(scope.code, m.index);
      const context = contextOf(scope, start, parameter, syntax);
      if (context) best = { callback: context, at: start };
      break;
    }
  }
  return best;
}

/** Where a function expression starting at `at` really starts: before an `async`. */
function functionStart(code: string, at: number): number {
  const before = /\basync\s*$/.exec(code.slice(Math.max(0, at - 12), at));
  return before ? at - before[0].length : at;
}

/** The index of `name` among parameters written without a type (`a, name = 1, ...rest`); undefined otherwise. */
function untypedIndex(list: string, name: string): number | undefined {
  const entries = list.split(",");
  for (let i = 0; i < entries.length; i++) {
    const entry = entries[i]!.trim().replace(/^\.\.\./, "");
    const m = new RegExp(`^(${IDENT})\\s*(\\?)?\\s*(:)?`, "u").exec(entry);
    if (m?.[1] === name) return m[3] ? undefined : i;
  }
  return undefined;
}

/**
 * What types an object literal: its context's type as written (`const x: T = {`, `{ … } satisfies T`), or the
 * call it is an argument of (`f(a, {`).
 */
export function objectContext(
  scope: ScopeText,
  at: number,
  syntax: ExpressionSyntax,
): { readonly type: string } | { readonly callee: string; readonly argument: number } | undefined {
  const written = objectType(scope, at);
  if (written !== undefined) return { type: written };
  const context = contextOf(scope, at, 0, syntax);
  return context?.context === "call" ? { callee: context.callee, argument: context.argument } : undefined;
}

/** The type an object literal's context declares: `const x: T = {`, `{ … } satisfies T`. */
function objectType(scope: ScopeText, at: number): string | undefined {
  const { code, text } = scope;
  const head = code.slice(Math.max(0, at - 400), at);
  const declared = new RegExp(`\\b(?:const|let|var)\\s+${IDENT}\\s*:\\s*([^=;]+?)\\s*=\\s*$`, "u").exec(head);
  if (declared) {
    const from = at - head.length + declared.index + declared[0].indexOf(declared[1]!);
    return text.slice(from, from + declared[1]!.length).trim();
  }
  const close = scope.closerOf(at);
  const satisfies = /^\s*(?:satisfies|as)\s+([^;,)\n]+)/.exec(code.slice(close + 1, close + 200));
  return satisfies
    ? text
        .slice(
          close + 1 + satisfies.index + satisfies[0].indexOf(satisfies[1]!),
          close + 1 + satisfies[0].length,
        )
        .trim()
    : undefined;
}

/** Array and iterable methods whose callback's element parameter is at this index. */
export const ITERATIONS: Readonly<Record<string, number>> = {
  map: 0,
  flatMap: 0,
  filter: 0,
  forEach: 0,
  find: 0,
  findIndex: 0,
  findLast: 0,
  findLastIndex: 0,
  some: 0,
  every: 0,
  sort: 0,
  toSorted: 0,
  reduce: 1,
  reduceRight: 1,
};
