// Rust's typing rules: `let x: T = v`, `X::new(…)` returning `Self`, `?` and `.await`, `if let Some(x)`, `for x
// in`, `self` in an `impl`, struct fields, references and smart pointers seen through. Pure.
import { annotated, type DeclarationSyntax, inParameters, nearest, typeAlias } from "../bindings.js";
import { contextOf, stillOpen } from "../callbacks.js";
import type { Binding, TypingRules } from "../rules.js";
import { closeAngle, escapeName, type ScopeText, signatureReturn } from "../scope-text.js";
import type { TypeExpr } from "../type-expr.js";

const KEYWORDS = new Set(
  (
    "as async await break const continue crate dyn else enum extern false fn for if impl in let loop match mod " +
    "move mut pub ref return static struct super trait true type unsafe use where while"
  ).split(" "),
);

const LET: DeclarationSyntax = { typeStops: ";", valueStops: ";", lineBreaks: false, angles: true };
const PARAMETER: DeclarationSyntax = { typeStops: ",|", valueStops: ",", lineBreaks: false, angles: true };
const FIELD: DeclarationSyntax = { typeStops: ",;", valueStops: ";", lineBreaks: true, angles: true };
/** What follows a function's parameters: a return type, a body, a `where` clause. */
const AFTER_PARAMETERS = /^\s*(?:->|\{|where\b)/;
/** Wrappers a method call sees through (`Deref`). */
const TRANSPARENT = new Set([
  "Box",
  "Rc",
  "Arc",
  "Ref",
  "RefMut",
  "MutexGuard",
  "RwLockReadGuard",
  "RwLockWriteGuard",
  "Cow",
  "Pin",
  "ManuallyDrop",
]);
const ITERABLE = new Set([
  "Vec",
  "VecDeque",
  "HashSet",
  "BTreeSet",
  "Option",
  "Result",
  "IntoIter",
  "Iter",
  "IterMut",
  "LinkedList",
]);
/** Traits whose `Item` is what iterating gives (`impl Iterator<Item = &Arg>`). */
const ITERATORS =
  /(?:^|::)(?:Iterator|IntoIterator|DoubleEndedIterator|ExactSizeIterator|ParallelIterator|IndexedParallelIterator)$/;

/** `let x: T = v`, `if let Some(x) = v`, `for x in v`, a parameter. */
function binding(scope: ScopeText, name: string): Binding | undefined {
  const n = escapeName(name);
  const local = scope.matches(new RegExp(`\\blet\\s+(?:mut\\s+)?${n}\\b`, "gu"))[0];
  const declared = local && annotated(scope, local.index + local[0].length, local.index, LET);
  let option: Binding | undefined;
  const some = scope.matches(
    new RegExp(
      `\\b(?:if|while)\\s+let\\s+(?:Some|Ok)\\s*\\(\\s*(?:ref\\s+)?(?:mut\\s+)?${n}\\s*\\)\\s*=`,
      "gu",
    ),
  )[0];
  if (some) {
    const value = scope.read(some.index + some[0].length, "{").text;
    if (value) option = { value, inner: true, at: some.index };
  }
  let iterated: Binding | undefined;
  const loop = scope.matches(new RegExp(`\\bfor\\s+(?:mut\\s+)?${n}\\s+in\\b`, "gu"))[0];
  if (loop) {
    const value = scope.read(loop.index + loop[0].length, "{").text;
    if (value) iterated = { value, inner: true, at: loop.index };
  }
  let parameter: Binding | undefined;
  for (const m of scope.matches(new RegExp(`[(,]\\s*(?:mut\\s+)?${n}\\s*:`, "gu"))) {
    const at = m.index + m[0].lastIndexOf(name);
    if (!inParameters(scope, at, AFTER_PARAMETERS)) continue;
    parameter = annotated(scope, at + name.length, at, PARAMETER);
    break;
  }
  return nearest(declared, option, iterated, parameter, closureParameter(scope, name));
}

/**
 * A parameter of a closure written as a call's argument, while the cursor is inside it: `|a| a.`, `|(k, v)|`,
 * `move |a: &Arg| …` (typed: its annotation).
 */
function closureParameter(scope: ScopeText, name: string): Binding | undefined {
  for (const m of scope.matches(/(?:[(,=]|\bmove)\s*\|([^|]*)\|/g)) {
    const bar = m.index + m[0].indexOf("|");
    const entries = m[1]!.split(",");
    const index = entries.findIndex((e) =>
      new RegExp(`^\\s*&?\\s*(?:mut\\s+)?${escapeName(name)}\\s*(?::|$)`, "u").test(e),
    );
    if (index === -1 || !stillOpen(scope, m.index + m[0].length)) continue;
    const typed = /:\s*([\s\S]+)$/.exec(entries[index]!);
    if (typed) return { type: typed[1]!.trim(), at: bar };
    let start = bar;
    const move = /\bmove\s*$/.exec(scope.code.slice(Math.max(0, bar - 8), bar));
    if (move) start -= move[0].length;
    const context = contextOf(scope, start, index, RUST_RULES.expressions);
    return context ? { callback: context, at: start } : undefined;
  }
  return undefined;
}

/** The type of the `impl` block open at the end of the scope: `impl<T> Trait for Type<T>` → `Type<T>`. */
function selfType(scope: ScopeText): string | undefined {
  // An `impl` block starts its line (`-> impl Iterator<…> {` is a return type).
  for (const m of scope.matches(/^[ \t]*(?:unsafe[ \t]+)?impl\b/gm)) {
    const { code } = scope;
    let i = scope.skipBlank(m.index + m[0].length);
    if (code[i] === "<") i = closeAngle(code, i) + 1;
    const head = scope.read(i, "{;", { angles: true });
    if (code[head.end] !== "{" || scope.closerOf(head.end) < code.length) continue;
    const text = head.text.replace(/\bwhere\b[\s\S]*$/, "").trim();
    const target = /\bfor\s+([\s\S]+)$/.exec(text)?.[1] ?? text;
    return target.trim() || undefined;
  }
  return undefined;
}

/** A struct field (`pub name: T,`), a `const` or `static`. */
function declared(lines: ScopeText, name: string): Binding | undefined {
  const n = escapeName(name);
  if (new RegExp(`\\bfn\\s+${n}\\b`, "u").test(lines.code)) {
    const type = returns(lines, name);
    return type === undefined ? undefined : { type };
  }
  const m = new RegExp(
    `(?:^|[\\s(,{])(?:pub(?:\\s*\\([^)]*\\))?\\s+)?(?:(?:const|static)\\s+(?:mut\\s+)?)?${n}(?=\\s*:[^:])`,
    "u",
  ).exec(lines.code);
  return m ? annotated(lines, m.index + m[0].length, m.index, FIELD) : undefined;
}

/** `fn name<…>(…) -> T where … {`. */
function returns(lines: ScopeText, name: string): string | undefined {
  const m = new RegExp(`\\bfn\\s+${escapeName(name)}\\b`, "u").exec(lines.code);
  if (!m) return undefined;
  return signatureReturn(lines, m.index + m[0].length, { marker: "->", typeParameters: "<", stops: "{;" });
}

/** A trait's supertraits: `trait X: A + B<T> {` → A, B<T>. */
function bases(lines: ScopeText, name: string): string[] {
  const m = new RegExp(`\\btrait\\s+${escapeName(name)}\\b`, "u").exec(lines.code);
  if (!m) return [];
  let i = lines.skipBlank(m.index + m[0].length);
  if (lines.code[i] === "<") i = closeAngle(lines.code, i) + 1;
  i = lines.skipBlank(i);
  if (lines.code[i] !== ":") return [];
  const text = lines.read(i + 1, "{;", { angles: true }).text.replace(/\bwhere\b[\s\S]*$/, "");
  return text
    .split("+")
    .map((t) => t.trim())
    .filter((t) => /^[\p{L}_]/u.test(t) && !/^(?:Sized|Send|Sync|Clone|Copy|Debug|'\w+)$/u.test(t));
}

/** The type argument of a wrapper, lifetimes and associated types left out. */
function wrapped(type: TypeExpr): TypeExpr | undefined {
  return type.kind === "named" ? type.args.find((a) => a.kind !== "assoc" && a.kind !== "other") : undefined;
}

function awaited(type: TypeExpr): TypeExpr | undefined {
  const inner = accessed(type);
  if (inner?.kind === "named" && /(?:^|::)(?:Future|IntoFuture)$/.test(inner.name)) {
    const output = inner.args.find((a) => a.kind === "assoc" && a.name === "Output");
    return output?.kind === "assoc" ? output.value : undefined;
  }
  return type;
}

function tried(type: TypeExpr): TypeExpr | undefined {
  const inner = accessed(type);
  if (inner?.kind === "named" && /(?:^|::)(?:Result|Option|Poll)$|Result$/.test(inner.name))
    return wrapped(inner);
  return undefined;
}

function accessed(type: TypeExpr): TypeExpr | undefined {
  if (type.kind === "ref") return accessed(type.of);
  if (type.kind !== "named") return undefined;
  const last = type.name.split("::").at(-1)!;
  if (TRANSPARENT.has(last)) {
    const inner = wrapped(type);
    return inner && accessed(inner);
  }
  return type;
}

function element(type: TypeExpr): TypeExpr | undefined {
  if (type.kind === "ref") return element(type.of);
  if (type.kind === "array") return type.of;
  if (type.kind === "named" && ITERATORS.test(type.name)) {
    const item = type.args.find((a) => a.kind === "assoc" && a.name === "Item");
    return item?.kind === "assoc" ? item.value : undefined;
  }
  if (type.kind === "named" && ITERABLE.has(type.name.split("::").at(-1)!)) return wrapped(type);
  return undefined;
}

/** Rust. */
export const RUST_RULES: TypingRules = {
  family: "rust",
  expressions: {
    dialect: "rust",
    selfWords: ["self"],
    keywords: KEYWORDS,
    postfixAwait: true,
    tryOperator: true,
    structLiterals: true,
    asCasts: true,
    paths: true,
    referencePrefixes: true,
  },
  types: { generics: "<", separators: ["::"], rust: true },
  outline: { dialect: "rust", body: "brace", group: /^\s*(?:unsafe\s+)?impl\b/ },
  binding,
  selfType,
  declared,
  returns,
  aliased: (lines, name) => typeAlias(lines, name, false),
  bases,
  awaited,
  tried,
  accessed,
  element,
  iterations: {
    map: 0,
    filter: 0,
    for_each: 0,
    any: 0,
    all: 0,
    find: 0,
    find_map: 0,
    filter_map: 0,
    flat_map: 0,
    position: 0,
    take_while: 0,
    skip_while: 0,
    inspect: 0,
    and_then: 0,
    is_some_and: 0,
    map_or: 1,
    map_or_else: 1,
    fold: 1,
    max_by_key: 0,
    min_by_key: 0,
    sort_by_key: 0,
    retain: 0,
    partition: 0,
  },
  unwrapping: {
    unwrap: "inner",
    expect: "inner",
    unwrap_or: "inner",
    unwrap_or_default: "inner",
    unwrap_or_else: "inner",
    unwrap_unchecked: "inner",
    borrow: "inner",
    borrow_mut: "inner",
    lock: "inner",
    read: "inner",
    write: "inner",
    clone: "same",
    iter: "same",
    iter_mut: "same",
    into_iter: "same",
    par_iter: "same",
    into_par_iter: "same",
    cloned: "same",
    copied: "same",
    rev: "same",
    skip: "same",
    take: "same",
    peekable: "same",
    as_deref: "same",
    to_owned: "same",
    as_ref: "same",
    as_mut: "same",
    deref: "same",
  },
  selfNames: ["Self"],
  hidden: () => false,
};
