// TypeScript's and JavaScript's typing rules (JSDoc's `@type`, `@param`, `@returns` too): one row per question of
// the table (`TypingRules`). Pure.
import {
  annotated,
  commentAbove,
  type DeclarationSyntax,
  docType,
  inParameters,
  nearest,
  typeAlias,
} from "../bindings.js";
import type { ExpressionSyntax } from "../expression.js";
import type { Binding, TypingRules } from "../rules.js";
import { closeAngle, escapeName, type ScopeText, signatureReturn } from "../scope-text.js";
import type { TypeExpr } from "../type-expr.js";
import { callbackParameter, ITERATIONS, objectContext } from "./typescript-callbacks.js";

const KEYWORDS = new Set(
  (
    "return if else for while do switch case new typeof void delete in of instanceof throw yield await async " +
    "function class const let var import export default extends super try catch finally break continue"
  ).split(" "),
);

/** How TypeScript writes values. */
const EXPRESSIONS: ExpressionSyntax = {
  dialect: "js",
  selfWords: ["this"],
  keywords: KEYWORDS,
  prefixAwait: true,
  optionalChains: true,
  newKeyword: true,
  asCasts: true,
  alternatives: "conditional",
};

const LOCAL: DeclarationSyntax = {
  marks: "!",
  typeStops: ";",
  valueStops: ";",
  lineBreaks: true,
  angles: true,
};
const PARAMETER: DeclarationSyntax = {
  marks: "?",
  typeStops: ",",
  valueStops: ",",
  lineBreaks: false,
  angles: true,
};
const MEMBER: DeclarationSyntax = {
  marks: "?!",
  typeStops: ";,",
  valueStops: ";",
  lineBreaks: true,
  angles: true,
};
/** What follows a signature's parameter list: a return type, a body, an arrow. */
const AFTER_PARAMETERS = /^\s*(?::|\{|=>)/;
const MODIFIERS =
  "(?:(?:public|private|protected|readonly|override|static|declare|accessor|abstract|export|async)\\s+)*";
/** Wrappers whose members are the wrapped type's (`Readonly<X>`): a member access on them is on X. */
const TRANSPARENT = new Set(["Readonly", "NonNullable", "Required", "Partial", "Awaited"]);
const AWAITABLE = new Set(["Promise", "PromiseLike", "Thenable"]);
const ITERABLE = new Set([
  "Array",
  "ReadonlyArray",
  "Set",
  "ReadonlySet",
  "Iterable",
  "IterableIterator",
  "AsyncIterable",
  "AsyncIterableIterator",
  "Generator",
  "AsyncGenerator",
]);
const NOTHING = new Set(["undefined", "null", "void", "never"]);

/** `const x: T = v`, `let x = v`, `for (const x of xs)`, a parameter, JSDoc's `@type` and `@param`. */
function binding(scope: ScopeText, name: string): Binding | undefined {
  const n = escapeName(name);
  const local = scope.matches(new RegExp(`\\b(?:const|let|var|using)\\s+${n}(?![\\p{L}\\p{N}_$])`, "gu"))[0];
  let declared: Binding | undefined;
  if (local) {
    const end = local.index + local[0].length;
    const found = annotated(scope, end, local.index, LOCAL);
    const doc = docType(commentAbove(scope, local.index), "type");
    declared = doc && !found?.type ? { type: doc, at: local.index } : found;
  }
  let parameter: Binding | undefined;
  const pattern = new RegExp(`(?:[(,]|^)\\s*${MODIFIERS}(?:\\.\\.\\.)?${n}\\s*\\??\\s*:`, "gmu");
  for (const m of scope.matches(pattern)) {
    const at = m.index + m[0].lastIndexOf(name);
    if (!inParameters(scope, at, AFTER_PARAMETERS)) continue;
    parameter = annotated(scope, at + name.length, at, PARAMETER);
    break;
  }
  let iterated: Binding | undefined;
  const loop = scope.matches(new RegExp(`\\bfor\\s*\\(\\s*(?:const|let|var)\\s+${n}\\s+of\\b`, "gu"))[0];
  if (loop) {
    const value = scope.read(loop.index + loop[0].length, "").text;
    if (value) iterated = { value, inner: true, at: loop.index };
  }
  let documented: Binding | undefined;
  const param = [...scope.text.matchAll(new RegExp(`@param\\s*\\{[^\\n]*\\}\\s*\\[?${n}\\b`, "g"))].at(-1);
  if (param) {
    const type = docType(param[0], "param", name);
    if (type) documented = { type, at: param.index };
  }
  return nearest(
    declared,
    parameter,
    iterated,
    documented,
    destructured(scope, name),
    callbackParameter(scope, name, EXPRESSIONS),
  );
}

/** `const { key: name } = value`, `({ name }: Props) =>`: the member of the value (or the annotated type). */
function destructured(scope: ScopeText, name: string): Binding | undefined {
  for (const m of scope.matches(/(?:\b(?:const|let|var)\s*|[(,]\s*)\{/g)) {
    const open = m.index + m[0].length - 1;
    const close = scope.closerOf(open);
    if (close >= scope.code.length) continue;
    const key = patternKey(scope.code.slice(open + 1, close), name);
    if (key === undefined) continue;
    const local = /^(?:const|let|var)/.test(m[0].trimStart());
    if (!local && !inParameters(scope, open, AFTER_PARAMETERS)) continue;
    const found = annotated(scope, close + 1, m.index, local ? LOCAL : PARAMETER);
    if (found) return { ...found, member: key };
  }
  return undefined;
}

/** The key of the entry of an object pattern (`a`, `b: name`, `name = 1`) that binds `name`. */
function patternKey(pattern: string, name: string): string | undefined {
  let depth = 0;
  let from = 0;
  for (let i = 0; i <= pattern.length; i++) {
    const c = pattern[i];
    if (c === "{" || c === "[" || c === "(") depth++;
    else if (c === "}" || c === "]" || c === ")") depth--;
    else if (i === pattern.length || (c === "," && depth === 0)) {
      const m = /^\s*([\p{L}_$][\p{L}\p{N}_$]*)\s*(?::\s*([\p{L}_$][\p{L}\p{N}_$]*)\s*)?(?:=[\s\S]*)?$/u.exec(
        pattern.slice(from, i),
      );
      if (m && (m[2] ?? m[1]) === name) return m[1];
      from = i + 1;
    }
  }
  return undefined;
}

/** The class whose body is open at the end of the scope. */
function selfType(scope: ScopeText): string | undefined {
  for (const m of scope.matches(/\bclass\s+([\p{L}_$][\p{L}\p{N}_$]*)/gu)) {
    const body = bodyOpen(scope.code, m.index + m[0].length);
    if (body !== undefined && scope.closerOf(body) >= scope.code.length) return m[1];
  }
  return undefined;
}

/** The `{` that opens a declaration's body after `from`: the first outside parentheses and type arguments. */
function bodyOpen(code: string, from: number): number | undefined {
  let depth = 0;
  for (let i = from; i < code.length; i++) {
    const c = code[i];
    if (c === "<") i = closeAngle(code, i);
    else if (c === "(" || c === "[") depth++;
    else if (c === ")" || c === "]") depth--;
    else if (c === "{" && depth <= 0) return i;
    else if (c === ";" && depth <= 0) return undefined;
  }
  return undefined;
}

/** A property's, field's or variable's type or value; a getter's return type. */
function declared(lines: ScopeText, name: string): Binding | undefined {
  const n = escapeName(name);
  const m = new RegExp(
    `(?:^|[\\s(,{;])${MODIFIERS}(?:(?:const|let|var)\\s+)?(get\\s+)?#?${n}(?![\\p{L}\\p{N}_$])`,
    "u",
  ).exec(lines.code);
  if (!m) return undefined;
  const end = m.index + m[0].length;
  if (m[1]) {
    const type = returns(lines, name);
    return type === undefined ? undefined : { type, at: m.index };
  }
  const found = annotated(lines, end, m.index, MEMBER);
  const doc = docType(lines.text, "type");
  if (doc && !found?.type) return { type: doc, at: m.index };
  return found;
}

/** A function's, method's or arrow function's declared return type (`@returns {T}` when it has none). */
function returns(lines: ScopeText, name: string): string | undefined {
  const n = escapeName(name);
  const fn = new RegExp(`(?:^|[^\\p{L}\\p{N}_$.])(?:get\\s+)?#?${n}\\s*\\??\\s*(?=[<(])`, "u").exec(
    lines.code,
  );
  let type: string | undefined;
  if (fn) type = signatureReturn(lines, fn.index + fn[0].length, SIGNATURE);
  if (type === undefined) {
    const arrow = new RegExp(
      `(?:^|[^\\p{L}\\p{N}_$.])#?${n}\\s*(?::[^=]*)?=\\s*(?:async\\s+)?(?=[<(])`,
      "u",
    ).exec(lines.code);
    if (arrow) type = signatureReturn(lines, arrow.index + arrow[0].length, { ...SIGNATURE, arrow: true });
  }
  return type ?? docType(lines.text, "returns");
}

const SIGNATURE = { marker: ":", typeParameters: "<", stops: "{;" } as const;

/** A function's, method's or arrow function's parameters' declared types (`a: A, b = 1` → [A, undefined]). */
function parameters(lines: ScopeText, name: string): Array<string | undefined> | undefined {
  const n = escapeName(name);
  const m =
    new RegExp(`(?:^|[^\\p{L}\\p{N}_$.])#?${n}\\s*\\??\\s*(?=[<(])`, "u").exec(lines.code) ??
    new RegExp(`(?:^|[^\\p{L}\\p{N}_$.])#?${n}\\s*(?::[^=]*)?=\\s*(?:async\\s+)?(?=[<(])`, "u").exec(
      lines.code,
    );
  if (!m) return undefined;
  const { code } = lines;
  let i = lines.skipBlank(m.index + m[0].length);
  if (code[i] === "<") i = lines.skipBlank(closeAngle(code, i) + 1);
  if (code[i] !== "(") return undefined;
  const close = lines.closerOf(i);
  const out: Array<string | undefined> = [];
  let from = i + 1;
  while (from < close) {
    const entry = lines.read(from, ",", { angles: true });
    const colon =
      /^(?:(?:public|private|protected|readonly)\s+)*(?:\.\.\.)?[\p{L}_$][\p{L}\p{N}_$]*\s*\??\s*:/u.exec(
        entry.text,
      );
    const type = colon
      ? entry.text
          .slice(colon[0].length)
          .replace(/=[^=>][\s\S]*$/, "")
          .trim()
      : undefined;
    if (entry.text !== "") out.push(type || undefined);
    from = entry.end + 1;
    if (entry.end >= close) break;
  }
  return out;
}

/** A constructor's parameter property, `this.f = v` in the class's body (its JSDoc `@type` first). */
function assigned(body: ScopeText, name: string): Binding | undefined {
  const n = escapeName(name);
  const property = new RegExp(
    `\\b(?:public|private|protected|readonly)\\s+(?:readonly\\s+)?${n}\\s*\\??\\s*:`,
    "u",
  ).exec(body.code);
  if (property) {
    const at = property.index + property[0].lastIndexOf(name);
    const found = annotated(body, at + name.length, at, PARAMETER);
    if (found) return found;
  }
  const assignment = new RegExp(`\\bthis\\s*\\.\\s*#?${n}\\s*=(?![=>])`, "u").exec(body.code);
  if (!assignment) return undefined;
  const doc = docType(commentAbove(body, assignment.index), "type");
  if (doc) return { type: doc, at: assignment.index };
  const value = body.read(assignment.index + assignment[0].length, ";", { lineBreaks: true }).text;
  return value ? { value, at: assignment.index } : undefined;
}

/** `type X<T> = Y<T>;`: Y, when it names a type rather than spelling one out. */
function aliased(lines: ScopeText, name: string): string | undefined {
  const text = typeAlias(lines, name, true);
  return text?.startsWith("{") ? undefined : text;
}

/** `class X extends A implements B, C`, `interface X extends A, B`, `type X = A & B & {…}`. */
function bases(lines: ScopeText, name: string): string[] {
  const { code, text } = lines;
  const m = new RegExp(`\\b(?:class|interface|type)\\s+${escapeName(name)}\\b`, "u").exec(code);
  if (!m) return [];
  const body = bodyOpen(code, m.index + m[0].length) ?? code.length;
  let header = code.slice(m.index + m[0].length, body);
  let offset = m.index + m[0].length;
  if (header.trimStart().startsWith("<")) {
    const close = closeAngle(code, code.indexOf("<", offset)) + 1;
    header = code.slice(close, body);
    offset = close;
  }
  const out: string[] = [];
  const clause = /\b(extends|implements)\b|=/g;
  const marks = [...header.matchAll(clause)];
  marks.forEach((mark, k) => {
    const from = offset + mark.index + mark[0].length;
    const to = offset + (marks[k + 1]?.index ?? header.length);
    out.push(...splitTypes(text.slice(from, to), mark[0] === "=" ? "&" : ","));
  });
  return out.filter((b) => /^[\p{L}_$]/u.test(b));
}

/** Types separated by `sep` outside brackets (angle brackets too). */
function splitTypes(text: string, sep: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let from = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if ("<([{".includes(c)) depth++;
    else if (">)]}".includes(c) && text[i - 1] !== "=") depth--;
    else if (c === sep && depth === 0) {
      out.push(text.slice(from, i).trim());
      from = i + 1;
    }
  }
  out.push(text.slice(from).trim());
  return out.filter((t) => t !== "");
}

function awaited(type: TypeExpr): TypeExpr | undefined {
  if (type.kind === "named" && AWAITABLE.has(type.name)) return type.args[0];
  return type;
}

function accessed(type: TypeExpr): TypeExpr | undefined {
  if (type.kind === "union") {
    const real = type.of.filter((t) => !(t.kind === "named" && NOTHING.has(t.name)));
    return real.length === 1 ? accessed(real[0]!) : undefined;
  }
  if (type.kind === "named" && TRANSPARENT.has(type.name) && type.args[0]) return accessed(type.args[0]);
  if (type.kind === "intersection") return type.of.find((t) => t.kind === "named");
  return type.kind === "named" ? type : undefined;
}

function element(type: TypeExpr): TypeExpr | undefined {
  if (type.kind === "array") return type.of;
  if (type.kind === "named" && ITERABLE.has(type.name)) return type.args[0];
  return undefined;
}

/** TypeScript and JavaScript. */
export const TYPESCRIPT_RULES: TypingRules = {
  family: "typescript",
  expressions: EXPRESSIONS,
  types: { generics: "<", separators: ["."] },
  outline: { dialect: "js", body: "brace" },
  binding,
  selfType,
  declared,
  returns,
  parameters,
  objectContext: (scope, at) => objectContext(scope, at, EXPRESSIONS),
  iterations: ITERATIONS,
  assigned,
  aliased,
  bases,
  awaited,
  accessed,
  element,
  selfNames: ["this"],
  // A constructor is no member of an instance, unless it declares parameter properties (`readonly res: Response`).
  hidden: (name, signature) =>
    name === "constructor" && !/[(,]\s*(?:public|protected|readonly)\s/.test(signature),
};
