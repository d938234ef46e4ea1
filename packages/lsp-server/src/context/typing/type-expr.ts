// A type as a language writes it, parsed just enough to find the type a member access is on: its name, its type
// arguments (a wrapper's `Promise<X>`, `Optional[X]`, `Option<X>`), references, unions, tuples. Pure.

/** A type as written. Names keep their qualifiers as written (`ns.X`, `pkg.X`, `crate::a::X`). */
export type TypeExpr =
  /** `X`, `ns.X<A>`, `Optional[X]`, `crate::a::X<T>`; `dyn Trait`/`impl Trait` are their trait. */
  | { readonly kind: "named"; readonly name: string; readonly args: readonly TypeExpr[] }
  /** `&X`, `&mut X`, `&'a X` (Rust), `*X` (Go, Rust). */
  | { readonly kind: "ref"; readonly of: TypeExpr }
  /** `X[]`, `readonly X[]` (TypeScript), `[]X`, `[N]X` (Go), `[X]`, `[X; N]` (Rust). */
  | { readonly kind: "array"; readonly of: TypeExpr }
  /** `A | B` (TypeScript, Python). */
  | { readonly kind: "union"; readonly of: readonly TypeExpr[] }
  /** `A & B` (TypeScript), `impl A + B` bounds (Rust: the first one is kept as named). */
  | { readonly kind: "intersection"; readonly of: readonly TypeExpr[] }
  /** `(A, B)` (Go results, Rust), `[A, B]` (TypeScript). */
  | { readonly kind: "tuple"; readonly of: readonly TypeExpr[] }
  /**
   * `(a: A) => R`, `fn(A) -> R`, `func(A) R`, `Callable[[A], R]`: what calling it gives, and its parameters' types
   * where they are read (TypeScript's; `other` for one without a type).
   */
  | {
      readonly kind: "function";
      readonly returns: TypeExpr | undefined;
      readonly params?: readonly TypeExpr[];
    }
  /** `Output = X` among Rust's type arguments (`impl Future<Output = X>`). */
  | { readonly kind: "assoc"; readonly name: string; readonly value: TypeExpr }
  /** Anything else: a literal, `keyof X`, `map[K]V`, a mapped type. */
  | { readonly kind: "other"; readonly text: string };

/** How a language writes types. */
export interface TypeSyntax {
  /** The bracket of type arguments: `<` (TypeScript, Rust) or `[` (Python, Go). */
  readonly generics: "<" | "[";
  /** Separators of a qualified name: `.` and, in Rust, `::`. */
  readonly separators: readonly string[];
  /** Go: `[]X`, `[N]X`, `map[K]V`, `chan X`, `func(…) R`. */
  readonly go?: boolean;
  /** Rust: `&'a mut X`, `*const X`, `dyn`/`impl` bounds, `fn(A) -> R`, lifetimes among type arguments. */
  readonly rust?: boolean;
  /** A string is the type it spells (Python's forward references `"Console"`). */
  readonly quoted?: boolean;
}

const OTHER = (text: string): TypeExpr => ({ kind: "other", text });

/** A tokenizer over a type's text: identifiers, strings and single characters (`::`, `=>`, `->` as one). */
class Tokens {
  readonly list: string[] = [];
  i = 0;

  constructor(text: string) {
    const re =
      /\s*('[\p{L}_][\p{L}\p{N}_]*(?![\p{L}\p{N}_'])|'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"|`[^`]*`|[\p{L}\p{N}_$]+|::|=>|->|\.\.\.|\S)/uy;
    for (let m = re.exec(text); m; m = re.exec(text)) this.list.push(m[1]!);
  }

  get peek(): string | undefined {
    return this.list[this.i];
  }

  at(offset: number): string | undefined {
    return this.list[this.i + offset];
  }

  next(): string | undefined {
    return this.list[this.i++];
  }

  eat(token: string): boolean {
    if (this.list[this.i] !== token) return false;
    this.i++;
    return true;
  }

  /** Skips to past the bracket that closes the one just read (`(`, `[`, `{`, `<`), counting only its own kind. */
  skipGroup(open: string): void {
    const close = CLOSERS[open]!;
    let depth = 1;
    while (depth > 0 && this.i < this.list.length) {
      const t = this.list[this.i++];
      if (t === open) depth++;
      else if (t === close) depth--;
    }
  }
}

const CLOSERS: Readonly<Record<string, string>> = { "(": ")", "[": "]", "{": "}", "<": ">" };
const IDENT = /^[\p{L}_$][\p{L}\p{N}_$]*$/u;

/** Parses a type as written; `other` when it is none of the shapes above (never throws). */
export function parseType(text: string, syntax: TypeSyntax): TypeExpr {
  try {
    const tokens = new Tokens(text);
    const type = union(tokens, syntax);
    return type ?? OTHER(text.trim());
  } catch {
    return OTHER(text.trim());
  }
}

function union(t: Tokens, s: TypeSyntax): TypeExpr | undefined {
  t.eat("|");
  const parts: TypeExpr[] = [];
  for (;;) {
    const part = intersection(t, s);
    if (!part) return undefined;
    parts.push(part);
    if (!t.eat("|")) break;
  }
  return parts.length === 1 ? parts[0] : { kind: "union", of: parts };
}

function intersection(t: Tokens, s: TypeSyntax): TypeExpr | undefined {
  // A leading `&` (TypeScript's `& A & B` over several lines); in Rust a reference.
  if (!s.rust) t.eat("&");
  const parts: TypeExpr[] = [];
  for (;;) {
    const part = postfix(t, s);
    if (!part) return undefined;
    parts.push(part);
    // `&` is a reference in Rust, never an intersection.
    if (s.rust || !t.eat("&")) break;
  }
  return parts.length === 1 ? parts[0] : { kind: "intersection", of: parts };
}

function postfix(t: Tokens, s: TypeSyntax): TypeExpr | undefined {
  let type = primary(t, s);
  // `X[]`, `X[][]` (TypeScript); an indexed access `X["a"]` is something else.
  while (type && !s.go && !s.rust && s.generics === "<" && t.peek === "[") {
    if (t.at(1) !== "]") {
      t.next();
      t.skipGroup("[");
      type = OTHER("indexed");
      continue;
    }
    t.i += 2;
    type = { kind: "array", of: type };
  }
  // Python's `X | None` is a union; `Optional` is handled by the rules. A trailing `?` (nullable) is dropped.
  t.eat("?");
  return type;
}

function primary(t: Tokens, s: TypeSyntax): TypeExpr | undefined {
  const token = t.next();
  if (token === undefined) return undefined;
  if (token === "(") return parenthesized(t, s);
  if (token === "[") return bracketed(t, s);
  if (token === "{") {
    t.skipGroup("{");
    return OTHER("{…}");
  }
  if (token === "&" || (token === "*" && (s.go || s.rust))) {
    // Rust: `&'a mut X`, `*const X`, `*mut X`.
    if (s.rust) {
      if (t.peek?.startsWith("'")) t.next();
      if (t.peek === "mut" || t.peek === "const") t.next();
    }
    const of = postfix(t, s);
    return of && { kind: "ref", of };
  }
  if (token.startsWith("'") && s.rust) return OTHER(token); // a lifetime
  if (/^["'`]/.test(token)) return s.quoted ? parseType(token.slice(1, -1), s) : OTHER(token);
  if (!IDENT.test(token)) return OTHER(token);
  return word(token, t, s);
}

/** A type starting with an identifier: a keyword form, or a qualified name with its type arguments. */
function word(token: string, t: Tokens, s: TypeSyntax): TypeExpr | undefined {
  if (s.rust && (token === "dyn" || token === "impl")) {
    const bound = postfix(t, s);
    while (t.eat("+")) postfix(t, s);
    return bound;
  }
  if ((s.rust && token === "fn") || (s.go && token === "func")) {
    if (t.eat("(")) t.skipGroup("(");
    t.eat("->");
    const rest = t.peek;
    if (rest === undefined || rest === "," || rest === ")" || rest === ">" || rest === "]" || rest === "{")
      return { kind: "function", returns: undefined };
    return { kind: "function", returns: union(t, s) };
  }
  if (s.go && token === "map" && t.eat("[")) {
    t.skipGroup("[");
    postfix(t, s);
    return OTHER("map");
  }
  if (s.go && token === "chan") {
    postfix(t, s);
    return OTHER("chan");
  }
  if (!s.go && !s.rust && (token === "readonly" || token === "unique")) return postfix(t, s);
  if (!s.go && !s.rust && (token === "keyof" || token === "typeof" || token === "infer")) {
    postfix(t, s);
    return OTHER(token);
  }
  if (token === "new" && s.generics === "<" && !s.rust && t.peek === "(") {
    t.next();
    t.skipGroup("(");
    if (t.eat("=>")) union(t, s);
    return OTHER("constructor");
  }
  let name = token;
  for (;;) {
    const sep = t.peek;
    if (sep === undefined || !s.separators.includes(sep) || !IDENT.test(t.at(1) ?? "")) break;
    // Rust's turbofish `Vec::<T>` is a separator before type arguments: left to the arguments below.
    t.next();
    name += sep + t.next()!;
  }
  if (s.rust && t.peek === "::" && t.at(1) === "<") t.next();
  // Rust's `Fn(A) -> R` bounds.
  if (s.rust && t.peek === "(") {
    t.next();
    t.skipGroup("(");
    if (t.eat("->")) postfix(t, s);
    return { kind: "named", name, args: [] };
  }
  const args: TypeExpr[] = [];
  if (t.peek === s.generics) {
    t.next();
    args.push(...typeArguments(t, s, s.generics === "<" ? ">" : "]"));
  }
  return { kind: "named", name, args };
}

/** Type arguments up to the closer (which is consumed): types, `Output = X`, lifetimes skipped. */
function typeArguments(t: Tokens, s: TypeSyntax, close: string): TypeExpr[] {
  const args: TypeExpr[] = [];
  while (t.peek !== undefined && !t.eat(close)) {
    if (t.eat(",")) continue;
    if (s.rust && t.peek.startsWith("'")) {
      t.next();
      continue;
    }
    if (s.rust && IDENT.test(t.peek) && t.at(1) === "=") {
      const name = t.next()!;
      t.next();
      const value = union(t, s);
      if (value) args.push({ kind: "assoc", name, value });
      continue;
    }
    // Python's `Callable[[A, B], R]`: a list of parameters.
    if (t.peek === "[" && close === "]") {
      t.next();
      t.skipGroup("[");
      args.push(OTHER("[…]"));
      continue;
    }
    const before = t.i;
    const arg = union(t, s);
    if (arg) args.push(arg);
    if (t.i === before) t.next();
  }
  return args;
}

/** After `(`: a TypeScript function type `(a: A) => R`, a tuple `(A, B)`, or a parenthesized type. */
function parenthesized(t: Tokens, s: TypeSyntax): TypeExpr | undefined {
  const start = t.i;
  t.skipGroup("(");
  if (t.peek === "=>") {
    const params = parameterTypes(t.list.slice(start, t.i - 1), s);
    t.next();
    return { kind: "function", returns: union(t, s), params };
  }
  const end = t.i;
  t.i = start;
  const items: TypeExpr[] = [];
  while (t.i < end - 1) {
    if (t.eat(",")) continue;
    const before = t.i;
    const item = union(t, s);
    if (item) items.push(item);
    if (t.i === before) t.next();
  }
  t.i = end;
  return items.length === 1 ? items[0] : { kind: "tuple", of: items };
}

/** The types of a TypeScript function type's parameters (`a: A, b?: B, ...c: C[]`), from their tokens. */
function parameterTypes(tokens: readonly string[], s: TypeSyntax): TypeExpr[] {
  const entries: string[][] = [[]];
  let depth = 0;
  for (const token of tokens) {
    if ("([{<".includes(token)) depth++;
    else if (")]}>".includes(token)) depth--;
    if (token === "," && depth === 0) entries.push([]);
    else entries.at(-1)!.push(token);
  }
  return entries
    .filter((entry) => entry.length > 0)
    .map((entry) => {
      const colon = entry.indexOf(":");
      return colon === -1 ? OTHER("") : parseType(entry.slice(colon + 1).join(" "), s);
    });
}

/** After `[`: a TypeScript tuple `[A, B]`, Go's `[]X` and `[N]X`, Rust's `[X]` and `[X; N]`. */
function bracketed(t: Tokens, s: TypeSyntax): TypeExpr | undefined {
  if (s.go) {
    t.skipGroup("[");
    const of = postfix(t, s);
    return of && { kind: "array", of };
  }
  const items: TypeExpr[] = [];
  while (t.peek !== undefined && !t.eat("]")) {
    if (t.eat(",")) continue;
    if (t.eat(";")) {
      while (t.peek !== undefined && t.peek !== "]") t.next();
      continue;
    }
    const before = t.i;
    const item = union(t, s);
    if (item) items.push(item);
    if (t.i === before) t.next();
  }
  if (s.rust) return items[0] && { kind: "array", of: items[0] };
  return { kind: "tuple", of: items };
}

/** A type written back, for keys and messages: `Promise<MailClient>`, `&Option<X>`, `A | B`. */
export function printType(type: TypeExpr): string {
  switch (type.kind) {
    case "named":
      return type.args.length === 0 ? type.name : `${type.name}<${type.args.map(printType).join(", ")}>`;
    case "ref":
      return `&${printType(type.of)}`;
    case "array":
      return `${printType(type.of)}[]`;
    case "union":
      return type.of.map(printType).join(" | ");
    case "intersection":
      return type.of.map(printType).join(" & ");
    case "tuple":
      return `(${type.of.map(printType).join(", ")})`;
    case "function":
      return `fn -> ${type.returns ? printType(type.returns) : "?"}`;
    case "assoc":
      return `${type.name} = ${printType(type.value)}`;
    case "other":
      return type.text;
  }
}

/** The last segment of a qualified name: `ns.X` → `X`, `crate::a::X` → `X`. */
export function lastSegment(name: string): string {
  return name.split(/::|\./).at(-1) ?? name;
}
