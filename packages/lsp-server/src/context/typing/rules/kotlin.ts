// Kotlin's typing rules: `val x: T = v`, `val x = X(…)`, parameters and constructor properties, `for (x in xs)`,
// properties, `fun f(…): T`, `x?.`, `x!!.`, `: Base(), Iface`. Pure.
import { annotated, type DeclarationSyntax, inParameters, nearest } from "../bindings.js";
import type { Binding, TypingRules } from "../rules.js";
import { escapeName, type ScopeText, signatureReturn } from "../scope-text.js";
import type { TypeExpr } from "../type-expr.js";
import { headerBases, openType } from "./type-headers.js";

const KEYWORDS = new Set(
  (
    "return if else when for while do try catch finally throw break continue in is as fun val var class " +
    "interface object package import typealias this super null true false"
  ).split(" "),
);

const LOCAL: DeclarationSyntax = { typeStops: ";", valueStops: ";", lineBreaks: true, angles: true };
const PARAMETER: DeclarationSyntax = { typeStops: ",", valueStops: ",", lineBreaks: false, angles: true };
const PROPERTY: DeclarationSyntax = { typeStops: ";{", valueStops: ";", lineBreaks: true, angles: true };
const MODIFIERS =
  "(?:(?:private|public|protected|internal|override|open|final|lateinit|const|vararg|noinline|crossinline|abstract)\\s+)*";
/** What follows a function's or a class's parameters: a return type or a supertype, a body, `=`, the line's end. */
const AFTER_PARAMETERS = /^[ \t]*(?::|\{|=(?!=)|\n|$|where\b)/;
const TYPES = ["class", "interface", "object"];
const ITERABLE = new Set(
  "List MutableList ArrayList Set MutableSet HashSet Collection Iterable Sequence Array Flow".split(" "),
);

/** `val x: T = v`, `var x = v`, a parameter (of a function or a constructor), `for (x in v)`. */
function binding(scope: ScopeText, name: string): Binding | undefined {
  const n = escapeName(name);
  const local = scope.matches(new RegExp(`\\b(?:val|var)\\s+${n}(?![\\p{L}\\p{N}_])`, "gu"))[0];
  const declared = local && elvisFree(annotated(scope, local.index + local[0].length, local.index, LOCAL));
  let parameter: Binding | undefined;
  for (const m of scope.matches(new RegExp(`[(,]\\s*${MODIFIERS}(?:(?:val|var)\\s+)?${n}\\s*:`, "gu"))) {
    const at = m.index + m[0].lastIndexOf(name);
    if (!inParameters(scope, at, AFTER_PARAMETERS)) continue;
    parameter = annotated(scope, at + name.length, at, PARAMETER);
    break;
  }
  let iterated: Binding | undefined;
  const loop = scope.matches(new RegExp(`\\bfor\\s*\\(\\s*${n}\\s+in\\b`, "gu"))[0];
  if (loop) {
    const value = scope.read(loop.index + loop[0].length, "").text;
    if (value) iterated = { value, inner: true, at: loop.index };
  }
  return nearest(declared, parameter, iterated);
}

/** A value's `?: fallback` and a type's getter (`val x: T get() = …`) left out: the access's type is what remains. */
function elvisFree(binding: Binding | undefined): Binding | undefined {
  if (!binding) return binding;
  const { type, value } = binding;
  return {
    ...binding,
    ...(type !== undefined ? { type: type.replace(/\s+(?:private\s+)?[gs]et\b[\s\S]*$/, "") } : {}),
    ...(value !== undefined ? { value: value.replace(/\s*\?:[\s\S]*$/, "") } : {}),
  };
}

/** A property (`val x: T`, `var x = v`, a constructor's `val x: T`), or a function's return type. */
function declared(lines: ScopeText, name: string): Binding | undefined {
  const n = escapeName(name);
  if (
    new RegExp(`\\bfun\\s+(?:<[^>]*>\\s*)?(?:[\\p{L}_][\\p{L}\\p{N}_.<>]*\\.)?${n}\\s*\\(`, "u").test(
      lines.code,
    )
  ) {
    const type = returns(lines, name);
    return type === undefined ? undefined : { type };
  }
  const m = new RegExp(
    `\\b(?:val|var)\\s+(?:[\\p{L}_][\\p{L}\\p{N}_<>]*\\.)?${n}(?![\\p{L}\\p{N}_])`,
    "u",
  ).exec(lines.code);
  return m ? elvisFree(annotated(lines, m.index + m[0].length, m.index, PROPERTY)) : undefined;
}

/** `fun <T> Recv.name(…): T {`; undefined for an expression body without a type (`= …`). */
function returns(lines: ScopeText, name: string): string | undefined {
  const m = new RegExp(
    `\\bfun\\s+(?:<[^>]*>\\s*)?(?:[\\p{L}_][\\p{L}\\p{N}_.<>]*\\.)?${escapeName(name)}\\s*(?=\\()`,
    "u",
  ).exec(lines.code);
  if (!m) return undefined;
  return signatureReturn(lines, m.index + m[0].length, { marker: ":", typeParameters: "<", stops: "{=\n" });
}

function element(type: TypeExpr): TypeExpr | undefined {
  if (type.kind === "named" && ITERABLE.has(type.name.split(".").at(-1)!)) return type.args[0];
  return undefined;
}

/** Kotlin. */
export const KOTLIN_RULES: TypingRules = {
  family: "kotlin",
  expressions: { dialect: "c", selfWords: ["this"], keywords: KEYWORDS, optionalChains: true, asCasts: true },
  types: { generics: "<", separators: ["."] },
  outline: { dialect: "c", body: "brace" },
  binding,
  selfType: (scope) => openType(scope, TYPES),
  declared,
  returns,
  assigned: declared,
  bases: (lines, name) => headerBases(lines, name, TYPES),
  awaited: (type) => type,
  accessed: (type) => (type.kind === "named" ? type : undefined),
  element,
  unwrapping: {
    await: "inner",
    first: "inner",
    last: "inner",
    single: "inner",
    firstOrNull: "inner",
    also: "same",
    apply: "same",
  },
  implicitSelf: true,
  hidden: (name) => name === "constructor" || name === "init",
};
