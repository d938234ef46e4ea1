// C++'s typing rules: `Table* t = …`, `const Options& o`, `X x(…)`, `X x{…}`, `auto x = X(…)`, `new X(…)`,
// `std::make_unique<X>(…)`, range-for, members (read without `this->` too, in a method defined outside its class),
// `->` through pointers and smart pointers, `: public Base`. Pure.
import type { TypingRules } from "../rules.js";
import type { TypeExpr } from "../type-expr.js";
import { type TypeFirstSyntax, typeFirstBinding, typeFirstDeclared, typeFirstReturns } from "./type-first.js";
import { headerBases, isConstructor, openType } from "./type-headers.js";

const KEYWORDS = new Set(
  (
    "return new delete throw case else if for while do switch try catch break continue goto co_return " +
    "co_await co_yield sizeof alignof decltype typeid static_cast dynamic_cast const_cast reinterpret_cast " +
    "namespace using template operator this nullptr true false public private protected friend typedef " +
    "public: private: protected: and or not"
  ).split(" "),
);
const MODIFIERS = new Set(
  (
    "const volatile static extern inline virtual explicit constexpr consteval constinit mutable register " +
    "thread_local struct class enum union typename unsigned signed long short override final noexcept"
  ).split(" "),
);
const SYNTAX: TypeFirstSyntax = {
  modifiers: MODIFIERS,
  keywords: KEYWORDS,
  inferred: new Set(["auto"]),
  constructs: true,
};
const TYPES = ["class", "struct", "union"];
/** Wrappers whose `->` reaches what they point to. */
const POINTERS = new Set([
  "unique_ptr",
  "shared_ptr",
  "weak_ptr",
  "optional",
  "scoped_ptr",
  "not_null",
  "observer_ptr",
  "reference_wrapper",
  "ComPtr",
]);
const ITERABLE = new Set(
  "vector list deque set unordered_set multiset array span initializer_list forward_list".split(" "),
);

function lastName(type: TypeExpr): string {
  return type.kind === "named" ? (type.name.split("::").at(-1) ?? type.name) : "";
}

function accessed(type: TypeExpr): TypeExpr | undefined {
  if (type.kind !== "named") return undefined;
  if (POINTERS.has(lastName(type))) return type.args[0] && accessed(type.args[0]);
  return type;
}

function element(type: TypeExpr): TypeExpr | undefined {
  if (type.kind === "array") return type.of;
  if (type.kind === "named" && ITERABLE.has(lastName(type))) return type.args[0];
  return undefined;
}

/** C++. */
export const CPP_RULES: TypingRules = {
  family: "cpp",
  expressions: {
    dialect: "c",
    selfWords: ["this"],
    keywords: KEYWORDS,
    newKeyword: true,
    structLiterals: true,
    paths: true,
    referencePrefixes: true,
    arrows: true,
  },
  types: { generics: "<", separators: ["::"] },
  outline: { dialect: "c", body: "brace" },
  binding: (scope, name) => typeFirstBinding(scope, name, SYNTAX),
  selfType: (scope) => openType(scope, TYPES, true),
  declared: (lines, name) => typeFirstDeclared(lines, name, SYNTAX),
  returns: (lines, name) => typeFirstReturns(lines, name, SYNTAX),
  bases: (lines, name) => headerBases(lines, name, TYPES),
  awaited: (type) => type,
  accessed,
  element,
  unwrapping: {
    get: "inner",
    value: "inner",
    lock: "inner",
    front: "inner",
    back: "inner",
    at: "inner",
    top: "inner",
  },
  implicitSelf: true,
  hidden: (name, signature) => isConstructor(name, signature, MODIFIERS) || name.startsWith("operator"),
};
