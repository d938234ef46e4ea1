// Java's typing rules: `Store s = …`, `var s = new Store(…)`, parameters, `for (Node n : nodes)`, fields (read
// without `this.` too), methods' return types, `extends`/`implements`. Pure.
import type { TypingRules } from "../rules.js";
import type { ScopeText } from "../scope-text.js";
import type { TypeExpr } from "../type-expr.js";
import { type TypeFirstSyntax, typeFirstBinding, typeFirstDeclared, typeFirstReturns } from "./type-first.js";
import { headerBases, isConstructor, openType } from "./type-headers.js";

const KEYWORDS = new Set(
  (
    "return new throw case else if for while do switch try catch finally assert break continue instanceof " +
    "import package class interface enum record extends implements super this null true false yield"
  ).split(" "),
);
const MODIFIERS = new Set(
  "public private protected static final abstract synchronized transient volatile native strictfp default sealed".split(
    " ",
  ),
);
const SYNTAX: TypeFirstSyntax = {
  modifiers: MODIFIERS,
  keywords: KEYWORDS,
  inferred: new Set(["var"]),
  introducers: new Set(["instanceof", "case"]),
};
const TYPES = ["class", "interface", "enum", "record"];
/** Wrappers whose members a method call reaches through a getter (left to `unwrapping`). */
const ITERABLE = new Set(
  "List ArrayList LinkedList Set HashSet TreeSet LinkedHashSet Collection Iterable Iterator Deque ArrayDeque Queue Stream SortedSet NavigableSet".split(
    " ",
  ),
);

function element(type: TypeExpr): TypeExpr | undefined {
  if (type.kind === "array") return type.of;
  if (type.kind === "named" && ITERABLE.has(type.name.split(".").at(-1)!)) return type.args[0];
  return undefined;
}

/** Java. */
export const JAVA_RULES: TypingRules = {
  family: "java",
  expressions: { dialect: "c", selfWords: ["this"], keywords: KEYWORDS, newKeyword: true },
  types: { generics: "<", separators: ["."] },
  outline: { dialect: "c", body: "brace" },
  binding: (scope, name) => typeFirstBinding(scope, name, SYNTAX),
  selfType: (scope) => openType(scope, TYPES),
  declared: (lines, name) => typeFirstDeclared(lines, name, SYNTAX),
  returns: (lines, name) => typeFirstReturns(lines, name, SYNTAX),
  bases: (lines: ScopeText, name: string) => headerBases(lines, name, TYPES),
  awaited: (type) => type,
  accessed: (type) => (type.kind === "named" ? type : undefined),
  element,
  unwrapping: { get: "inner", orElse: "inner", orElseThrow: "inner", join: "inner", next: "inner" },
  implicitSelf: true,
  hidden: (name, signature) => isConstructor(name, signature, MODIFIERS),
};
