// C#'s typing rules: `Store s = …`, `var s = new Store { … }`, parameters (`out`, `ref`, `this`), `foreach (var x
// in xs)`, `is Store s`, fields and properties (read without `this.` too), `await` of `Task<X>`, `: Base, IFace`. Pure.
import type { TypingRules } from "../rules.js";
import type { TypeExpr } from "../type-expr.js";
import { type TypeFirstSyntax, typeFirstBinding, typeFirstDeclared, typeFirstReturns } from "./type-first.js";
import { headerBases, isConstructor, openType } from "./type-headers.js";

const KEYWORDS = new Set(
  (
    "return new throw case else if for foreach while do switch try catch finally break continue goto yield " +
    "using namespace class interface struct enum record delegate event operator base this null true false " +
    "typeof sizeof nameof default checked unchecked lock fixed stackalloc when where get set init add remove " +
    "await as"
  ).split(" "),
);
const MODIFIERS = new Set(
  (
    "public private protected internal static readonly const volatile virtual override abstract sealed " +
    "extern unsafe new partial async ref in params this required file scoped"
  ).split(" "),
);
const SYNTAX: TypeFirstSyntax = {
  modifiers: MODIFIERS,
  keywords: KEYWORDS,
  inferred: new Set(["var"]),
  foreachIn: true,
  introducers: new Set(["is", "out", "case", "using"]),
};
const TYPES = ["class", "interface", "struct", "record", "enum"];
const AWAITABLE = new Set(["Task", "ValueTask", "IAsyncOperation"]);
const ITERABLE = new Set(
  "IEnumerable IList ICollection IReadOnlyList IReadOnlyCollection List HashSet ISet Queue Stack LinkedList IEnumerator ObservableCollection Collection".split(
    " ",
  ),
);
/** Wrappers whose `.Value` is what they wrap (their members are not the access's). */
const NULLABLE = new Set(["Nullable"]);

function lastName(type: TypeExpr): string | undefined {
  return type.kind === "named" ? type.name.split(".").at(-1) : undefined;
}

function awaited(type: TypeExpr): TypeExpr | undefined {
  const name = lastName(type);
  if (type.kind === "named" && name !== undefined && AWAITABLE.has(name)) return type.args[0];
  return type;
}

function accessed(type: TypeExpr): TypeExpr | undefined {
  if (type.kind !== "named") return undefined;
  if (NULLABLE.has(lastName(type)!) && type.args[0]) return accessed(type.args[0]);
  return type;
}

function element(type: TypeExpr): TypeExpr | undefined {
  if (type.kind === "array") return type.of;
  if (type.kind === "named" && ITERABLE.has(lastName(type)!)) return type.args[0];
  return undefined;
}

/** C#. */
export const CSHARP_RULES: TypingRules = {
  family: "csharp",
  expressions: {
    dialect: "c",
    selfWords: ["this"],
    keywords: KEYWORDS,
    prefixAwait: true,
    optionalChains: true,
    newKeyword: true,
    asCasts: true,
  },
  types: { generics: "<", separators: ["."] },
  outline: { dialect: "c", body: "brace" },
  binding: (scope, name) => typeFirstBinding(scope, name, SYNTAX),
  selfType: (scope) => openType(scope, TYPES),
  declared: (lines, name) => typeFirstDeclared(lines, name, SYNTAX),
  returns: (lines, name) => typeFirstReturns(lines, name, SYNTAX),
  bases: (lines, name) => headerBases(lines, name, TYPES),
  awaited,
  accessed,
  element,
  unwrapping: {
    ConfigureAwait: "same",
    GetAwaiter: "same",
    Value: "inner",
    GetValueOrDefault: "inner",
    First: "inner",
    FirstOrDefault: "inner",
    Single: "inner",
    SingleOrDefault: "inner",
    Last: "inner",
    LastOrDefault: "inner",
    ElementAt: "inner",
  },
  implicitSelf: true,
  hidden: (name, signature) => isConstructor(name, signature, MODIFIERS),
};
