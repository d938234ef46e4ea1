// Swift's typing rules: `let x: T = v`, `var x = X(…)`, `if let`/`guard let`, `try await`, parameters (with
// labels), `for x in xs`, properties, `func f(…) async throws -> T`, `self` in a type or an extension, `x?.`, `x!.`,
// `: Base, Protocol`. Pure.
import { annotated, type DeclarationSyntax, inParameters, nearest } from "../bindings.js";
import type { Binding, TypingRules } from "../rules.js";
import { closeAngle, escapeName, type ScopeText } from "../scope-text.js";
import type { TypeExpr } from "../type-expr.js";
import { headerBases, openType } from "./type-headers.js";

const KEYWORDS = new Set(
  (
    "return if else guard for while repeat switch case default do try catch throw break continue in is as " +
    "func let var class struct enum protocol extension actor import typealias init deinit self Self super nil " +
    "true false await where some any"
  ).split(" "),
);

const LOCAL: DeclarationSyntax = { typeStops: ";{", valueStops: ";{", lineBreaks: true, angles: true };
const PARAMETER: DeclarationSyntax = { typeStops: ",", valueStops: ",", lineBreaks: false, angles: true };
/** What follows a function's parameters: `async`, `throws`, a return type, a body, a `where` clause. */
const AFTER_PARAMETERS = /^\s*(?:->|\{|async\b|throws\b|rethrows\b|where\b)/;
const TYPES = ["class", "struct", "enum", "protocol", "extension", "actor"];
const ITERABLE = new Set(["Array", "Set", "ContiguousArray", "ArraySlice", "Optional"]);

/** `try`, `try?`, `try!` before a value, and a `guard`'s `else`: the value's type is what they leave. */
function bare(binding: Binding | undefined): Binding | undefined {
  if (binding?.value === undefined) return binding;
  const value = binding.value.replace(/^try[?!]?\s+/, "").replace(/\s+else$/, "");
  return { ...binding, value };
}

/** `let x: T = v`, `if let x = v`, `guard var x = v else`, a parameter (`_ x: T`, `label x: T`), `for x in v`. */
function binding(scope: ScopeText, name: string): Binding | undefined {
  const n = escapeName(name);
  const local = scope.matches(new RegExp(`\\b(?:let|var)\\s+${n}(?![\\p{L}\\p{N}_])`, "gu"))[0];
  const declared = local && bare(annotated(scope, local.index + local[0].length, local.index, LOCAL));
  let parameter: Binding | undefined;
  const pattern = new RegExp(`[(,]\\s*(?:[\\p{L}_][\\p{L}\\p{N}_]*\\s+)?${n}\\s*:`, "gu");
  for (const m of scope.matches(pattern)) {
    const at = m.index + m[0].lastIndexOf(name);
    if (!inParameters(scope, at, AFTER_PARAMETERS)) continue;
    parameter = annotated(scope, at + name.length, at, PARAMETER);
    if (parameter?.type) parameter = { type: parameter.type.replace(/^inout\s+/, ""), at };
    break;
  }
  let iterated: Binding | undefined;
  const loop = scope.matches(new RegExp(`\\bfor\\s+(?:case\\s+)?(?:let\\s+)?${n}\\s+in\\b`, "gu"))[0];
  if (loop) {
    const value = scope.read(loop.index + loop[0].length, "{").text;
    if (value) iterated = bare({ value, inner: true, at: loop.index });
  }
  return nearest(declared, parameter, iterated);
}

/** A stored or computed property (`var x: T { … }`, `let x = v`), or a function's return type. */
function declared(lines: ScopeText, name: string): Binding | undefined {
  const n = escapeName(name);
  if (new RegExp(`\\bfunc\\s+${n}\\s*[<(]`, "u").test(lines.code)) {
    const type = returns(lines, name);
    return type === undefined ? undefined : { type };
  }
  const m = new RegExp(`\\b(?:let|var)\\s+${n}(?![\\p{L}\\p{N}_])`, "u").exec(lines.code);
  return m ? bare(annotated(lines, m.index + m[0].length, m.index, LOCAL)) : undefined;
}

/** `func name<T>(…) async throws -> T {`. */
function returns(lines: ScopeText, name: string): string | undefined {
  const { code } = lines;
  const m = new RegExp(`\\bfunc\\s+${escapeName(name)}\\s*(?=[<(])`, "u").exec(code);
  if (!m) return undefined;
  let i = m.index + m[0].length;
  if (code[i] === "<") i = lines.skipBlank(closeAngle(code, i) + 1);
  if (code[i] !== "(") return undefined;
  const after = /^\s*(?:async\s+)?(?:(?:re)?throws(?:\([^)]*\))?\s+)?(?:async\s+)?->/.exec(
    code.slice(lines.closerOf(i) + 1),
  );
  if (!after) return undefined;
  const type = lines.read(lines.closerOf(i) + 1 + after[0].length, "{", { angles: true }).text;
  return type.replace(/\s+where\b[\s\S]*$/, "").trim() || undefined;
}

function accessed(type: TypeExpr): TypeExpr | undefined {
  if (type.kind !== "named") return undefined;
  if (type.name === "Optional" && type.args[0]) return accessed(type.args[0]);
  return type;
}

function element(type: TypeExpr): TypeExpr | undefined {
  if (type.kind === "tuple" && type.of.length === 1) return type.of[0];
  if (type.kind === "named" && ITERABLE.has(type.name)) return type.args[0];
  return undefined;
}

/** Swift. */
export const SWIFT_RULES: TypingRules = {
  family: "swift",
  expressions: {
    dialect: "c",
    selfWords: ["self"],
    keywords: KEYWORDS,
    prefixAwait: true,
    optionalChains: true,
  },
  types: { generics: "<", separators: ["."] },
  outline: { dialect: "c", body: "brace" },
  binding,
  selfType: (scope) => openType(scope, TYPES),
  declared,
  returns,
  bases: (lines, name) => headerBases(lines, name, TYPES),
  awaited: (type) => type,
  accessed,
  element,
  unwrapping: { first: "inner", last: "inner", value: "inner", get: "inner" },
  selfNames: ["Self"],
  implicitSelf: true,
  hidden: (name) => name === "init" || name === "deinit",
};
