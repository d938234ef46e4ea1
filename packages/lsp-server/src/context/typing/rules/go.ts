// Go's typing rules: `x := f()`, `a, err := f()`, `var x T`, parameters and receivers (`a, b T` groups),
// `for _, x := range xs`, composite literals, struct fields, embedded types. Pure.
import { nearest } from "../bindings.js";
import type { Binding, TypingRules } from "../rules.js";
import { escapeName, type ScopeText, signatureReturn } from "../scope-text.js";
import type { TypeExpr } from "../type-expr.js";

const KEYWORDS = new Set(
  (
    "break case chan const continue default defer else fallthrough for func go goto if import interface map " +
    "package range return select struct switch type var nil true false iota"
  ).split(" "),
);

const IDENT = "[\\p{L}_][\\p{L}\\p{N}_]*";
/** What a function's parameter list follows: `func`, `func Name`, `func (r *T) Name`, type parameters. */
const SIGNATURE_BEFORE = new RegExp(
  `\\bfunc\\s*(?:\\([^()]*\\)\\s*)?(?:${IDENT}\\s*)?(?:\\[[^\\]]*\\]\\s*)?$|\\bfunc\\s*$`,
  "u",
);

/** `x := v`, `a, x := v`, `var x T = v`, `for _, x := range v`, a parameter or receiver. */
function binding(scope: ScopeText, name: string): Binding | undefined {
  const n = escapeName(name);
  let short: Binding | undefined;
  const assign = new RegExp(
    `(?<![\\p{L}\\p{N}_.])((?:${IDENT}\\s*,\\s*)*)${n}((?:\\s*,\\s*${IDENT})*)\\s*:=`,
    "gu",
  );
  const m = scope.matches(assign)[0];
  if (m) {
    const index = m[1]!.split(",").length - 1;
    const count = index + 1 + (m[2]!.split(",").length - 1);
    // A block's `{` follows a space (`range xs {`), a composite literal's does not (`&Handler{…}`).
    let read = scope.read(m.index + m[0].length, ";{", { lineBreaks: true });
    if (scope.code[read.end] === "{" && !/\s/.test(scope.code[read.end - 1] ?? " "))
      read = scope.read(m.index + m[0].length, ";", { lineBreaks: true });
    const range = /^range\b/.exec(read.text);
    if (range) {
      // `for k, v := range xs`: v is an element; a lone k is a key or an index.
      if (index === 1) short = { value: read.text.slice(5).trim(), inner: true, at: m.index };
    } else if (read.text) {
      short = { value: read.text, ...(count > 1 ? { index } : {}), at: m.index };
    }
  }
  let variable: Binding | undefined;
  const v = scope.matches(new RegExp(`\\bvar\\s+${n}\\b`, "gu"))[0];
  if (v) {
    const rest = scope.read(v.index + v[0].length, "\n;");
    const [type, value] = splitAssignment(rest.text);
    if (type || value) variable = { ...(type ? { type } : {}), ...(value ? { value } : {}), at: v.index };
  }
  return nearest(short, variable, parameter(scope, name));
}

/** `T = v` → [T, v]; `= v` → [undefined, v]; `T` → [T]. */
function splitAssignment(text: string): [string | undefined, string | undefined] {
  const eq = text.indexOf("=");
  if (eq === -1) return [text.trim() || undefined, undefined];
  return [text.slice(0, eq).trim() || undefined, text.slice(eq + 1).trim() || undefined];
}

/** The type of `name` among the parameters (or the receiver) of the nearest function signature declaring it. */
function parameter(scope: ScopeText, name: string): Binding | undefined {
  for (const m of scope.matches(
    new RegExp(`(?<![\\p{L}\\p{N}_.])${escapeName(name)}(?![\\p{L}\\p{N}_])`, "gu"),
  )) {
    const open = scope.openerAt(m.index);
    if (open < 0 || scope.code[open] !== "(") continue;
    if (!SIGNATURE_BEFORE.test(scope.code.slice(Math.max(0, open - 200), open))) continue;
    const close = scope.closerOf(open);
    if (close >= scope.code.length) continue;
    const type = groupType(scope.text.slice(open + 1, close), scope.code.slice(open + 1, close), name);
    if (type) return { type, at: open };
  }
  return undefined;
}

/** In a parameter list `a, b int, c *T`, the type `name` is declared with. */
export function groupType(text: string, code: string, name: string): string | undefined {
  const items: string[] = [];
  let depth = 0;
  let from = 0;
  for (let i = 0; i <= code.length; i++) {
    const c = code[i];
    if (c === "(" || c === "[" || c === "{") depth++;
    else if (c === ")" || c === "]" || c === "}") depth--;
    else if ((c === "," && depth === 0) || i === code.length) {
      items.push(text.slice(from, i).trim());
      from = i + 1;
    }
  }
  let pending = false;
  for (const item of items) {
    const m = new RegExp(`^(${IDENT})(?:\\s+(.+))?$`, "su").exec(item);
    if (!m) {
      pending = false;
      continue;
    }
    if (m[1] === name) {
      if (m[2]) return m[2].trim();
      pending = true;
    } else if (pending && m[2]) return m[2].trim();
  }
  return undefined;
}

/** A struct field (`Name T`, `A, B T`, a tag after it) or a variable (`var x T = v`). */
function declared(lines: ScopeText, name: string): Binding | undefined {
  const n = escapeName(name);
  if (new RegExp(`\\bfunc\\b[^\\n]*\\b${n}\\s*\\(|^\\s*${n}\\s*\\(`, "mu").test(lines.code)) {
    const type = returns(lines, name);
    return type === undefined ? undefined : { type };
  }
  const m = new RegExp(
    `(?:^|[\\s(,])(?:var\\s+)?(?:${IDENT}\\s*,\\s*)*${n}((?:\\s*,\\s*${IDENT})*)(?![\\p{L}\\p{N}_])`,
    "mu",
  ).exec(lines.code);
  if (!m) return undefined;
  const rest = lines.read(m.index + m[0].length, '\n;`"');
  const [type, value] = splitAssignment(rest.text);
  if (!type && !value) return undefined;
  return { ...(type ? { type } : {}), ...(value ? { value } : {}), at: m.index };
}

/** `func (r *T) Name(…) R {`, an interface's `Name(…) R`: R, without the names of named results. */
function returns(lines: ScopeText, name: string): string | undefined {
  const n = escapeName(name);
  const m =
    new RegExp(`\\bfunc\\s*(?:\\([^()]*\\)\\s*)?${n}\\b`, "u").exec(lines.code) ??
    new RegExp(`^\\s*${n}\\b(?=\\s*[[(])`, "mu").exec(lines.code);
  if (!m) return undefined;
  const type = signatureReturn(lines, m.index + m[0].length, {
    marker: "",
    typeParameters: "[",
    stops: "{;\n",
  });
  if (type === undefined || !type.startsWith("(")) return type;
  // `(c *Client, err error)` → `(*Client, error)`.
  const inner = type.slice(1, -1);
  const items = inner.split(",").map((item) => item.trim());
  const named = items.every((item) => new RegExp(`^${IDENT}\\s+\\S`, "u").test(item));
  return named
    ? `(${items.map((item) => item.replace(new RegExp(`^${IDENT}\\s+`, "u"), "")).join(", ")})`
    : type;
}

/** `type X Y`, `type X = Y`: Y, when it is no struct or interface spelled out. */
function aliased(lines: ScopeText, name: string): string | undefined {
  const m = new RegExp(`\\btype\\s+${escapeName(name)}\\s*(?:\\[[^\\]]*\\]\\s*)?=?\\s*`, "u").exec(
    lines.code,
  );
  if (!m) return undefined;
  const text = lines.read(m.index + m[0].length, "\n;{").text;
  return text === "" || /^(?:struct|interface)\b/.test(text) ? undefined : text;
}

/** The types a struct or an interface embeds: body lines that are a type alone (`*Base`, `pkg.Base`). */
function bases(lines: ScopeText, name: string): string[] {
  const m = new RegExp(`\\btype\\s+${escapeName(name)}\\b[^{\\n]*\\b(?:struct|interface)\\s*\\{`, "u").exec(
    lines.code,
  );
  if (!m) return [];
  const open = m.index + m[0].length - 1;
  const body = lines.code.slice(open + 1, lines.closerOf(open));
  const out: string[] = [];
  for (const line of body.split("\n")) {
    const embedded = new RegExp(`^\\s*\\*?(${IDENT}(?:\\.${IDENT})?)\\s*(?:\`.*)?$`, "u").exec(line);
    if (embedded) out.push(embedded[1]!);
  }
  return out;
}

function accessed(type: TypeExpr): TypeExpr | undefined {
  if (type.kind === "ref") return accessed(type.of);
  return type.kind === "named" ? type : undefined;
}

function element(type: TypeExpr): TypeExpr | undefined {
  if (type.kind === "array") return type.of;
  if (type.kind === "ref") return element(type.of);
  return undefined;
}

/** Go. */
export const GO_RULES: TypingRules = {
  family: "go",
  expressions: {
    dialect: "go",
    selfWords: [],
    keywords: KEYWORDS,
    structLiterals: true,
    typeAssertions: true,
    referencePrefixes: true,
  },
  types: { generics: "[", separators: ["."], go: true },
  outline: { dialect: "go", body: "brace" },
  binding,
  selfType: () => undefined,
  declared,
  returns,
  aliased,
  bases,
  awaited: (type) => type,
  accessed,
  element,
  hidden: () => false,
};
