// Python's typing rules: annotations (PEP 484, `X | None`, quoted forward references), `x = X(…)`, `self.f` from
// `__init__`, `with … as x`, `for x in …`. Pure.
import { annotated, type DeclarationSyntax, inParameters, nearest } from "../bindings.js";
import type { Binding, TypingRules } from "../rules.js";
import { escapeName, type ScopeText, signatureReturn } from "../scope-text.js";
import type { TypeExpr } from "../type-expr.js";

const KEYWORDS = new Set(
  (
    "and as assert async await break class continue def del elif else except finally for from global if import " +
    "in is lambda nonlocal not or pass raise return try while with yield None True False match case"
  ).split(" "),
);

const LOCAL: DeclarationSyntax = { typeStops: "", valueStops: ";", lineBreaks: true, angles: false };
const PARAMETER: DeclarationSyntax = { typeStops: ",", valueStops: ",", lineBreaks: false, angles: false };
/** What follows a `def`'s parameters: a return annotation or the colon. */
const AFTER_PARAMETERS = /^\s*(?:->|:)/;
/** Wrappers whose members are the wrapped type's. */
const TRANSPARENT = new Set([
  "Optional",
  "Final",
  "ClassVar",
  "Annotated",
  "Type",
  "type",
  "Required",
  "NotRequired",
]);
const AWAITABLE = new Set(["Awaitable", "Coroutine", "Future", "Task", "asyncio.Future", "asyncio.Task"]);
const ITERABLE = new Set(
  (
    "List list Sequence MutableSequence Iterable Iterator Set set FrozenSet frozenset AbstractSet MutableSet " +
    "Collection Generator AsyncIterator AsyncIterable AsyncGenerator Deque deque Dict dict Mapping MutableMapping " +
    "KeysView typing.List typing.Iterable typing.Sequence typing.Iterator"
  ).split(" "),
);
/** Bases that add no members a completion wants. */
const NO_BASE = /^(?:object|Generic|Protocol|ABC|NamedTuple|TypedDict|Enum|Exception)\b/;

/** `x: T = v`, `x = v`, a parameter, `with v as x`, `for x in v`. */
function binding(scope: ScopeText, name: string): Binding | undefined {
  const n = escapeName(name);
  // Not a keyword argument of a call written over several lines (`f(\n    x=…,`).
  const assignment = scope
    .matches(new RegExp(`^[ \\t]*${n}[ \\t]*(?=:[^=]|=(?!=))`, "gmu"))
    .find((m) => scope.openerAt(m.index) === -1);
  // Where the name starts (its line's indentation kept in the code above it: the class around is read from it).
  const at = assignment ? assignment.index + assignment[0].length - assignment[0].trimStart().length : 0;
  const local = assignment && annotated(scope, assignment.index + assignment[0].length, at, LOCAL);
  let parameter: Binding | undefined;
  for (const m of scope.matches(new RegExp(`[(,]\\s*\\*{0,2}${n}\\s*:`, "gu"))) {
    const at = m.index + m[0].lastIndexOf(name);
    if (!inParameters(scope, at, AFTER_PARAMETERS)) continue;
    parameter = annotated(scope, at + name.length, at, PARAMETER);
    break;
  }
  let context: Binding | undefined;
  const managed = scope.matches(new RegExp(`\\bwith\\s+([^\\n:]*?)\\s+as\\s+${n}\\s*[:,)]`, "gu"))[0];
  if (managed?.[1] && !managed[1].includes(",")) {
    const from = managed.index + managed[0].indexOf(managed[1]);
    context = { value: scope.text.slice(from, from + managed[1].length), at: managed.index };
  }
  let iterated: Binding | undefined;
  const loop = scope.matches(new RegExp(`\\bfor\\s+${n}\\s+in\\b`, "gu"))[0];
  if (loop) {
    const value = scope.read(loop.index + loop[0].length, ":").text;
    if (value) iterated = { value, inner: true, at: loop.index };
  }
  return nearest(local, parameter, context, iterated);
}

/** The class around the end of the scope: the nearest `class` line above, less indented than each line between. */
function selfType(scope: ScopeText): string | undefined {
  const lines = scope.code.split("\n");
  let limit = indentation(lines.at(-1) ?? "");
  for (let k = lines.length - 2; k >= 0 && limit > 0; k--) {
    const line = lines[k]!;
    if (line.trim() === "") continue;
    const indent = indentation(line);
    if (indent >= limit) continue;
    const m = /^\s*class\s+([\p{L}_][\p{L}\p{N}_]*)/u.exec(line);
    if (m) return m[1];
    limit = indent;
  }
  return undefined;
}

function indentation(line: string): number {
  return line.length - line.trimStart().length;
}

/** A class attribute (`x: T = v`, `x = v`) or a property's return type. */
function declared(lines: ScopeText, name: string): Binding | undefined {
  const n = escapeName(name);
  if (new RegExp(`\\bdef\\s+${n}\\b`, "u").test(lines.code)) {
    const type = returns(lines, name);
    return type === undefined ? undefined : { type };
  }
  const m = new RegExp(`^[ \\t]*${n}[ \\t]*(?=:[^=]|=(?!=))`, "mu").exec(lines.code);
  return m ? annotated(lines, m.index + m[0].length, m.index, LOCAL) : undefined;
}

/** `def f(…) -> T:`. */
function returns(lines: ScopeText, name: string): string | undefined {
  const m = new RegExp(`\\bdef\\s+${escapeName(name)}\\b`, "u").exec(lines.code);
  if (!m) return undefined;
  return signatureReturn(lines, m.index + m[0].length, { marker: "->", typeParameters: "[", stops: ":" });
}

/** `self.f: T = v` or `self.f = v` in a method of the class (the annotated one first, else the first assigned). */
function assigned(body: ScopeText, name: string): Binding | undefined {
  const n = escapeName(name);
  const annotation = new RegExp(`\\bself\\s*\\.\\s*${n}\\s*(?=:[^=])`, "u").exec(body.code);
  if (annotation) {
    const found = annotated(body, annotation.index + annotation[0].length, annotation.index, LOCAL);
    if (found?.type) return found;
  }
  const assignment = new RegExp(`\\bself\\s*\\.\\s*${n}\\s*=(?!=)`, "u").exec(body.code);
  if (!assignment) return undefined;
  const value = body.read(assignment.index + assignment[0].length, ";", { lineBreaks: true }).text;
  return value ? { value, at: assignment.index } : undefined;
}

/** `type X = Y` (3.12), `X: TypeAlias = Y`. */
function aliased(lines: ScopeText, name: string): string | undefined {
  const n = escapeName(name);
  const m = new RegExp(`^(?:type\\s+${n}\\s*(?:\\[[^\\]]*\\])?|${n}\\s*:\\s*TypeAlias)\\s*=`, "mu").exec(
    lines.code,
  );
  return m ? lines.read(m.index + m[0].length, "", { lineBreaks: true }).text || undefined : undefined;
}

/** `class X(A, B[T], metaclass=M):` → A, B[T]. */
function bases(lines: ScopeText, name: string): string[] {
  const m = new RegExp(`\\bclass\\s+${escapeName(name)}\\s*(?:\\[[^\\]]*\\])?\\s*\\(`, "u").exec(lines.code);
  if (!m) return [];
  const open = m.index + m[0].length - 1;
  const close = lines.closerOf(open);
  const out: string[] = [];
  let from = open + 1;
  let depth = 0;
  for (let i = open + 1; i <= close; i++) {
    const c = lines.code[i];
    if (c === "[" || c === "(") depth++;
    else if ((c === "]" || c === ")") && i !== close) depth--;
    else if ((c === "," && depth === 0) || i === close) {
      const base = lines.text.slice(from, i).trim();
      if (base !== "" && !base.includes("=") && !NO_BASE.test(base)) out.push(base);
      from = i + 1;
    }
  }
  return out;
}

function awaited(type: TypeExpr): TypeExpr | undefined {
  if (type.kind === "named" && AWAITABLE.has(type.name)) return type.args.at(-1);
  return type;
}

function accessed(type: TypeExpr): TypeExpr | undefined {
  if (type.kind === "union") {
    const real = type.of.filter((t) => !(t.kind === "named" && t.name === "None"));
    return real.length === 1 ? accessed(real[0]!) : undefined;
  }
  if (type.kind === "named" && type.name === "Union") {
    const real = type.args.filter((t) => !(t.kind === "named" && t.name === "None"));
    return real.length === 1 ? accessed(real[0]!) : undefined;
  }
  const bare = type.kind === "named" ? type.name.replace(/^typing\./, "") : "";
  if (type.kind === "named" && TRANSPARENT.has(bare) && type.args[0]) return accessed(type.args[0]);
  return type.kind === "named" ? type : undefined;
}

function element(type: TypeExpr): TypeExpr | undefined {
  if (type.kind === "named" && ITERABLE.has(type.name)) return type.args[0];
  return undefined;
}

/** Python. */
export const PYTHON_RULES: TypingRules = {
  family: "python",
  expressions: {
    dialect: "python",
    selfWords: ["self", "cls"],
    keywords: KEYWORDS,
    prefixAwait: true,
    alternatives: "python",
  },
  types: { generics: "[", separators: ["."], quoted: true },
  outline: {
    dialect: "python",
    body: "colon",
    decorators:
      /^\s*@(?:property|[\p{L}_][\p{L}\p{N}_]*\.setter|staticmethod|classmethod|cached_property|abstractmethod)\b/u,
  },
  binding,
  selfType,
  declared,
  returns,
  assigned,
  aliased,
  bases,
  awaited,
  accessed,
  element,
  callMember: "__call__",
  hidden: (name) => /^__\w+__$/.test(name),
};
