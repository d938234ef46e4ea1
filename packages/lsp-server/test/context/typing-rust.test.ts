// Rust's typing rule table, row by row, then the member outline of a receiver's type across modules (issue 24).
import { describe, expect, it } from "vitest";
import { parseType, printType } from "../../src/context/typing/type-expr.js";
import { code } from "./helpers.js";
import { bindingRow, HERE, outlinesAt, rules, scope } from "./typing-helpers.js";

const rs = rules("rust");

describe("Rust: how a name is bound above the cursor", () => {
  it.each([
    {
      text: "let pool = ThreadPoolBuilder::new().build()?;\npool.│",
      name: "pool",
      want: "value ThreadPoolBuilder::new().build()?",
    },
    { text: "let mut cmd: Command = make();\ncmd.│", name: "cmd", want: "type Command" },
    { text: "if let Some(arg) = self.find(id) {\n    arg.│", name: "arg", want: "value self.find(id) inner" },
    { text: "for job in self.jobs.iter() {\n    job.│", name: "job", want: "value self.jobs.iter() inner" },
    {
      text: "fn run(&self, cmd: &mut Command, n: usize) -> bool {\n    cmd.│",
      name: "cmd",
      want: "type &mut Command",
    },
    {
      text: "pub fn new<T: Into<String>>(name: T) -> Self where T: Clone {\n    name.│",
      name: "name",
      want: "type T",
    },
    { text: "foo(cmd: x);\ncmd.│", name: "cmd", want: undefined },
    { text: "let n = args.filter(|a: &Arg| a.│", name: "a", want: "type &Arg" },
    { text: "self.args.iter().map(move |(k, v)| {\n    v.│", name: "v", want: undefined },
    { text: "self.args.iter().fold(0, |acc, a| a.│", name: "a", want: "call self.args.iter().fold (1) [1]" },
    { text: "let b = x.map(|a| a.is_set()).count();\na.│", name: "a", want: undefined },
  ])("$name in $text", ({ text, name, want }) => {
    expect(bindingRow(rs.binding(scope(rs, text), name))).toBe(want);
  });
});

describe("Rust: the rest of the table", () => {
  it("reads self as the type of the impl block around", () => {
    expect(rs.selfType(scope(rs, "impl<T: Send> Registry<T> {\n    fn f(&self) {\n        self.│"))).toBe(
      "Registry<T>",
    );
    expect(rs.selfType(scope(rs, "impl fmt::Display for Arg {\n    fn fmt(&self) {\n        self.│"))).toBe(
      "Arg",
    );
    expect(rs.selfType(scope(rs, "impl A {}\nfn f() {\n    x.│"))).toBeUndefined();
    expect(
      rs.selfType(
        scope(rs, "impl Cmd {\n    fn args(&self) -> impl Iterator<Item = &Arg> {\n        self.│"),
      ),
    ).toBe("Cmd");
  });

  it.each([
    { lines: "    pub(crate) registry: Arc<Registry>,", name: "registry", want: "type Arc<Registry>" },
    { lines: "    settings: Vec<AppSettings>", name: "settings", want: "type Vec<AppSettings>" },
    { lines: "pub static GLOBAL: Lazy<Pool> = Lazy::new(make);", name: "GLOBAL", want: "type Lazy<Pool>" },
  ])("declared: $lines", ({ lines, name, want }) => {
    expect(bindingRow(rs.declared(scope(rs, lines), name))).toBe(want);
  });

  it.each([
    { lines: "    pub fn new(name: &str) -> Self {", name: "new", want: "Self" },
    {
      lines: "    pub fn get_matches(self) -> Result<ArgMatches, Error>\n    where\n        T: Clone,\n    {",
      name: "get_matches",
      want: "Result<ArgMatches, Error>",
    },
    { lines: "    async fn fetch(&self) -> io::Result<Page>;", name: "fetch", want: "io::Result<Page>" },
    { lines: "    fn nothing(&self) {", name: "nothing", want: undefined },
  ])("returns: $lines", ({ lines, name, want }) => {
    expect(rs.returns(scope(rs, lines), name)).toBe(want);
  });

  it("reads supertraits and aliases", () => {
    expect(
      rs.bases(scope(rs, "pub trait ParallelIterator: Sized + Send + Producer<Item> {"), "ParallelIterator"),
    ).toEqual(["Producer<Item>"]);
    expect(rs.aliased!(scope(rs, "pub type Result<T> = std::result::Result<T, Error>;"), "Result")).toBe(
      "std::result::Result<T, Error>",
    );
  });

  it.each([
    { type: "&mut Command", accessed: "Command", tried: "none", awaited: "&Command" },
    {
      type: "Arc<Mutex<Registry>>",
      accessed: "Mutex<Registry>",
      tried: "none",
      awaited: "Arc<Mutex<Registry>>",
    },
    {
      type: "Result<Pool, Error>",
      accessed: "Result<Pool, Error>",
      tried: "Pool",
      awaited: "Result<Pool, Error>",
    },
    { type: "io::Result<Page>", accessed: "io::Result<Page>", tried: "Page", awaited: "io::Result<Page>" },
    {
      type: "impl Future<Output = Page> + Send",
      accessed: "Future<Output = Page>",
      tried: "none",
      awaited: "Page",
    },
    { type: "&'a [Item]", accessed: "none", tried: "none", awaited: "&Item[]" },
  ])("$type", ({ type, accessed, tried, awaited }) => {
    const parsed = parseType(type, rs.types);
    const show = (t: ReturnType<typeof rs.accessed>) => (t ? printType(t) : "none");
    expect(show(rs.accessed(parsed))).toBe(accessed);
    expect(show(rs.tried!(parsed))).toBe(tried);
    expect(show(rs.awaited(parsed))).toBe(awaited);
  });
});

const POOL = code`
  use crate::registry::Registry;

  /// A pool of worker threads.
  pub struct ThreadPool {
      registry: Arc<Registry>,
  }

  impl ThreadPool {
      /// Creates a pool.
      pub fn new(n: usize) -> Self {
          ThreadPool { registry: Registry::new(n) }
      }

      pub fn install<OP, R>(&self, op: OP) -> R
      where
          OP: FnOnce() -> R + Send,
      {
          self.registry.in_worker(op)
      }
  }

  impl fmt::Debug for ThreadPool {
      fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
          Ok(())
      }
  }

  pub fn global() -> Option<&'static ThreadPool> {
      None
  }
`;

describe("Rust: the member outline of a receiver's type", () => {
  const env = { root: "/w", crateDir: "/w" };
  const files = (app: string) => ({
    "/w/src/lib.rs": "pub mod pool;\npub mod app;\n",
    "/w/src/pool.rs": POOL,
    "/w/src/app.rs": app,
  });

  it("types X::new(…) as Self, and groups methods under their impl lines", async () => {
    const app = `use crate::pool::ThreadPool;\n\nfn main() {\n    let pool = ThreadPool::new(4);\n    pool.${HERE}`;
    expect(await outlinesAt("rust", files(app), "/w/src/app.rs", { env })).toEqual([
      "/w/src/pool.rs:\n" +
        "pub struct ThreadPool {\n" +
        "    registry: Arc<Registry>,\n" +
        "}\n" +
        "impl ThreadPool {\n" +
        "    pub fn new(n: usize) -> Self { … }\n" +
        "    pub fn install<OP, R>(&self, op: OP) -> R\n" +
        "    where\n" +
        "        OP: FnOnce() -> R + Send,\n" +
        "    { … }\n" +
        "}\n" +
        "impl fmt::Debug for ThreadPool {\n" +
        "    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result { … }\n" +
        "}",
    ]);
  });

  it.each([
    {
      name: "an annotated let",
      app: `use crate::pool::ThreadPool;\nfn f() {\n    let p: &ThreadPool = get();\n    p.${HERE}`,
    },
    {
      name: "a struct literal",
      app: `use crate::pool::ThreadPool;\nfn f() {\n    let p = ThreadPool { registry };\n    p.${HERE}`,
    },
    {
      name: "unwrap of an Option",
      app: `use crate::pool::global;\nfn f() {\n    let p = global().unwrap();\n    p.${HERE}`,
    },
    {
      name: "a parameter by reference",
      app: `use crate::pool::ThreadPool;\nfn f(p: &ThreadPool) {\n    p.${HERE}`,
    },
    {
      name: "a field of self",
      app: `use crate::pool::ThreadPool;\npub struct App {\n    pool: Box<ThreadPool>,\n}\nimpl App {\n    fn run(&self) {\n        self.pool.${HERE}`,
    },
  ])("types $name", async ({ app }) => {
    const [own] = await outlinesAt("rust", files(app), "/w/src/app.rs", { env });
    expect(own).toContain("pub fn install<OP, R>(&self, op: OP) -> R");
  });
});
