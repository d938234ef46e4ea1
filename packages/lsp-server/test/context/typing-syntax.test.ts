// The receiver before the cursor's member operator, a binding's value, and a type as written, per language.
import { describe, expect, it } from "vitest";
import { parseValue, printValue, receiverAt } from "../../src/context/typing/expression.js";
import { parseType, printType } from "../../src/context/typing/type-expr.js";
import { rules } from "./typing-helpers.js";

const ts = rules("typescript");
const py = rules("python");
const go = rules("go");
const rs = rules("rust");

describe("the receiver at the cursor", () => {
  it.each([
    { rules: ts, text: "await mail.", want: "mail", prefix: "" },
    { rules: ts, text: "await mail.del", want: "mail", prefix: "del" },
    { rules: ts, text: "this.transport.se", want: "this.transport", prefix: "se" },
    { rules: ts, text: "(await pool.acquire()).", want: "await pool.acquire()", prefix: "" },
    { rules: ts, text: "connect(`a$" + "{b}`).", want: "connect()", prefix: "" },
    { rules: ts, text: "new Client(opts).", want: "new Client", prefix: "" },
    { rules: ts, text: "m?.de", want: "m", prefix: "de" },
    { rules: ts, text: "m!.x", want: "m", prefix: "x" },
    { rules: ts, text: "items[0].", want: undefined, prefix: "" },
    { rules: ts, text: "const x = 1.", want: undefined, prefix: "" },
    { rules: ts, text: "return.", want: undefined, prefix: "" },
    { rules: ts, text: "// see mail.", want: undefined, prefix: "" },
    { rules: ts, text: "make<Foo>(x).", want: "make()", prefix: "" },
    { rules: ts, text: "pool\n  .acquire()\n  .", want: "pool.acquire()", prefix: "" },
    { rules: py, text: "self.console.pri", want: "this.console", prefix: "pri" },
    { rules: py, text: "super().", want: "super()", prefix: "" },
    { rules: go, text: "reg.Reg", want: "reg", prefix: "Reg" },
    { rules: go, text: "v.(*Summary).", want: "(as *Summary)", prefix: "" },
    { rules: go, text: "(&Handler{x: 1}).", want: "new Handler", prefix: "" },
    { rules: rs, text: "ThreadPool::new(4).", want: "ThreadPool::new()", prefix: "" },
    { rules: rs, text: "self.fetch().await?.", want: "await this.fetch()?", prefix: "" },
    { rules: rs, text: "Vec::<u8>::new().", want: "Vec::new()", prefix: "" },
    { rules: rs, text: "0..n.", want: "n", prefix: "" },
  ])("$rules.family: $text", ({ rules, text, want, prefix }) => {
    const found = receiverAt(text, rules.expressions);
    expect(found?.key).toBe(want);
    if (found) expect(found.prefix).toBe(prefix);
  });
});

describe("a binding's value", () => {
  it.each([
    { rules: ts, text: "await connect('smtp')", want: "await connect()" },
    { rules: ts, text: "new Map<string, Item>()", want: "new Map<string, Item>" },
    { rules: ts, text: "load() as Config;", want: "(as Config)" },
    { rules: ts, text: "{ a: 1 } as const", want: undefined },
    { rules: ts, text: "a ? b : c", want: "b | c" },
    { rules: ts, text: "a ?? b.c()", want: "a | b.c()" },
    { rules: ts, text: "a ? b : c ?? d", want: "b | c | d" },
    { rules: ts, text: "text === undefined ? undefined : parseManifest(text)", want: "parseManifest()" },
    { rules: ts, text: "cart.items", want: "cart.items" },
    { rules: py, text: "Console(width=80)", want: "Console()" },
    { rules: py, text: "x if y else z", want: "x | z" },
    { rules: py, text: "self.text or Text(x)", want: "this.text | Text()" },
    { rules: py, text: "Console() if html else None", want: "Console()" },
    { rules: go, text: "&prometheus.Registry{}", want: "new prometheus.Registry" },
    { rules: go, text: "NewClient(addr)", want: "NewClient()" },
    { rules: rs, text: "ThreadPoolBuilder::new().build()?", want: "ThreadPoolBuilder::new().build()?" },
    { rules: rs, text: "Registry { jobs: vec![] }", want: "new Registry" },
    { rules: rs, text: "&mut self.pool", want: "this.pool" },
    { rules: rs, text: "x as u64", want: "(as u64)" },
    { rules: rs, text: "if a { b } else { c }", want: undefined },
  ])("$rules.family: $text", ({ rules, text, want }) => {
    const found = parseValue(text, rules.expressions);
    expect(found && printValue(found)).toBe(want);
  });
});

describe("a type as written", () => {
  it.each([
    { rules: ts, text: "Promise<Map<string, Item[]>>", want: "Promise<Map<string, Item[]>>" },
    { rules: ts, text: "ns.Client<T> | undefined", want: "ns.Client<T> | undefined" },
    { rules: ts, text: "(a: A, b?: B) => R", want: "fn -> R" },
    { rules: ts, text: "[A, B]", want: "(A, B)" },
    { rules: ts, text: "readonly Item[]", want: "Item[]" },
    { rules: ts, text: "A & { x: 1 }", want: "A & {…}" },
    { rules: ts, text: "keyof T", want: "keyof" },
    { rules: py, text: "Optional[Dict[str, 'Console']]", want: "Optional<Dict<str, Console>>" },
    { rules: py, text: "Callable[[int, str], Result]", want: "Callable<[…], Result>" },
    { rules: go, text: "(*Registry, error)", want: "(&Registry, error)" },
    { rules: go, text: "map[string][]*Desc", want: "map" },
    { rules: go, text: "func(w Writer) error", want: "fn -> error" },
    { rules: go, text: "Pool[T]", want: "Pool<T>" },
    { rules: rs, text: "&'a mut Vec<Box<dyn Fn(u8) -> u8 + Send>>", want: "&Vec<Box<Fn>>" },
    { rules: rs, text: "impl Iterator<Item = &'a str>", want: "Iterator<Item = &str>" },
    { rules: rs, text: "crate::error::Result<(), Error>", want: "crate::error::Result<(), Error>" },
    { rules: rs, text: "[u8; 32]", want: "u8[]" },
  ])("$rules.family: $text", ({ rules, text, want }) => {
    expect(printType(parseType(text, rules.types))).toBe(want);
  });
});
