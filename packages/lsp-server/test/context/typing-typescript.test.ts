// TypeScript's and JavaScript's typing rule table, row by row, then the member outline of a receiver's type across
// files (issue 24).
import { describe, expect, it } from "vitest";
import { parseType, printType } from "../../src/context/typing/type-expr.js";
import { code } from "./helpers.js";
import { bindingRow, HERE, outlinesAt, rules, scope } from "./typing-helpers.js";

const ts = rules("typescript");

describe("TypeScript: how a name is bound above the cursor", () => {
  it.each([
    { text: "const mail = connect('smtp');\nmail.│", name: "mail", want: "value connect('smtp')" },
    { text: "let mail: MailClient | undefined;\nmail?.│", name: "mail", want: "type MailClient | undefined" },
    { text: "const m: Map<string, X> = new Map();\n│", name: "m", want: "type Map<string, X>" },
    {
      text: "const c = await open(\n  'x',\n  2,\n);\nc.│",
      name: "c",
      want: "value await open(\n  'x',\n  2,\n)",
    },
    {
      text: "function send(mail: MailClient, n = 3) {\n  mail.│",
      name: "mail",
      want: "type MailClient",
    },
    { text: "const f = async (req?: Request) => {\n  req.│", name: "req", want: "type Request" },
    { text: "class A {\n  run(opts: Options): void {\n    opts.│", name: "opts", want: "type Options" },
    { text: "for (const item of cart.items) {\n  item.│", name: "item", want: "value cart.items inner" },
    {
      text: "/** @param {MailClient} mail the client */\nfunction send(mail) {\n  mail.│",
      name: "mail",
      want: "type MailClient",
    },
    { text: "/** @type {Registry} */\nconst r = make();\nr.│", name: "r", want: "type Registry" },
    {
      text: "const { symbols, memo: m } = this.parts;\nsymbols.│",
      name: "symbols",
      want: "value this.parts .symbols",
    },
    { text: "const { symbols, memo: m } = this.parts;\nm.│", name: "m", want: "value this.parts .memo" },
    { text: "function f({ a, b = 2 }: Options) {\n  b.│", name: "b", want: "type Options .b" },
    // An object literal's key and a call's argument are no bindings.
    { text: "send({ mail: other });\nmail.│", name: "mail", want: undefined },
    { text: "const x = 1;\nfoo(x);\n│", name: "mail", want: undefined },
    // The nearest declaration wins.
    { text: "const a: A = x;\nfunction f(a: B) {\n  a.│", name: "a", want: "type B" },
  ])("$name in $text", ({ text, name, want }) => {
    expect(bindingRow(ts.binding(scope(ts, text), name))).toBe(want);
  });
});

describe("TypeScript: a callback's parameter, by where the callback is written", () => {
  it.each([
    {
      text: "operate((source, subscriber) => {\n  subscriber.│",
      name: "subscriber",
      want: "call operate (0) [1]",
    },
    { text: "x.pipe(1, async (v) => v.│", name: "v", want: "call x.pipe (1) [0]" },
    { text: "items.map(function (item, i) {\n  item.│", name: "item", want: "call items.map (0) [0]" },
    { text: "holes.filter(h => h.│", name: "h", want: "call holes.filter (0) [0]" },
    {
      text: "const rules: Rules = {\n  nameOf: (definition) => definition.│",
      name: "definition",
      want: "property nameOf [0]",
    },
    // Closed already, typed, or no call around: no callback binding.
    { text: "run((a) => a.x);\na.│", name: "a", want: undefined },
    { text: "run((a: A) => a.│", name: "a", want: "type A" },
    { text: "if (a) {\n  a.│", name: "a", want: undefined },
  ])("$name in $text", ({ text, name, want }) => {
    expect(bindingRow(ts.binding(scope(ts, text), name))).toBe(want);
  });

  it.each([
    {
      lines:
        "export function operate<T, R>(\n  init: (source: Observable<T>, sub: Subscriber<R>) => void,\n  n = 3,\n): X {",
      name: "operate",
      want: ["(source: Observable<T>, sub: Subscriber<R>) => void", undefined],
    },
    { lines: "  nameOf?(definition: Definition): string | undefined;", name: "nameOf", want: ["Definition"] },
    { lines: "export const pipe = (a: A, ...rest: B[]) => a;", name: "pipe", want: ["A", "B[]"] },
  ])("parameters: $lines", ({ lines, name, want }) => {
    expect(ts.parameters!(scope(ts, lines), name)).toEqual(want);
  });
});

describe("TypeScript: the rest of the table", () => {
  it("reads `this` as the class whose body is open", () => {
    expect(ts.selfType(scope(ts, "class A {}\nexport class B<T> extends A {\n  go() {\n    this.│"))).toBe(
      "B",
    );
    expect(ts.selfType(scope(ts, "class A {\n}\nfunction f() {\n  this.│"))).toBeUndefined();
  });

  it.each([
    { lines: "  private readonly transport: Transport;", name: "transport", want: "type Transport" },
    { lines: "  items = new Map<string, Item>();", name: "items", want: "value new Map<string, Item>()" },
    { lines: "  get size(): number {\n    return 1;\n  }", name: "size", want: "type number" },
    { lines: "  /** @type {Cache} */\n  cache = null;", name: "cache", want: "type Cache" },
    { lines: "export const registry: Registry = create();", name: "registry", want: "type Registry" },
    { lines: "  optional?: Settings;", name: "optional", want: "type Settings" },
  ])("declared: $lines", ({ lines, name, want }) => {
    expect(bindingRow(ts.declared(scope(ts, lines), name))).toBe(want);
  });

  it.each([
    { lines: "export function connect(host: string): MailClient {", name: "connect", want: "MailClient" },
    {
      lines: "  async deliver(m: Message, retries = 3): Promise<string> {",
      name: "deliver",
      want: "Promise<string>",
    },
    { lines: "  close(): void;", name: "close", want: "void" },
    { lines: "export const make = (a: A): Box<A> => ({ a });", name: "make", want: "Box<A>" },
    { lines: "export const make = async <T>(a: T): Promise<T> => a;", name: "make", want: "Promise<T>" },
    { lines: "function f<T extends { a: 1 }>(x: T): Map<K, V> {", name: "f", want: "Map<K, V>" },
    { lines: "/**\n * @returns {Client} a client\n */\nfunction open(url) {", name: "open", want: "Client" },
    { lines: "function none(x) {", name: "none", want: undefined },
  ])("returns: $lines", ({ lines, name, want }) => {
    expect(ts.returns(scope(ts, lines), name)).toBe(want);
  });

  it.each([
    {
      body: "class A {\n  constructor(private readonly transport: Transport) {}\n}",
      name: "transport",
      want: "type Transport",
    },
    {
      body: "class A {\n  constructor(opts) {\n    this.pool = new Pool(opts);\n  }\n}",
      name: "pool",
      want: "value new Pool(opts)",
    },
    {
      body: "class A {\n  init() {\n    /** @type {Pool} */\n    this.pool = make();\n  }\n}",
      name: "pool",
      want: "type Pool",
    },
    { body: "class A {\n  x = this.pool === other;\n}", name: "pool", want: undefined },
  ])("assigned: $name", ({ body, name, want }) => {
    expect(bindingRow(ts.assigned!(scope(ts, body), name))).toBe(want);
  });

  it.each([
    {
      lines: "export class A<T> extends Base<T> implements I, J<K> {",
      name: "A",
      want: ["Base<T>", "I", "J<K>"],
    },
    { lines: "export interface P extends Q, R<S> {", name: "P", want: ["Q", "R<S>"] },
    { lines: "export type T = U & V<W> & { extra: string };", name: "T", want: ["U", "V<W>"] },
    { lines: "class Plain {", name: "Plain", want: [] },
  ])("bases: $lines", ({ lines, name, want }) => {
    expect(ts.bases(scope(ts, lines), name)).toEqual(want);
  });

  it.each([
    { lines: "export type Handler<T> = Base<T>;", name: "Handler", want: "Base<T>" },
    { lines: "export type Shape = { a: string };", name: "Shape", want: undefined },
  ])("aliased: $lines", ({ lines, name, want }) => {
    expect(ts.aliased!(scope(ts, lines), name)).toBe(want);
  });

  it.each([
    { type: "Promise<MailClient>", awaited: "MailClient", accessed: "Promise<MailClient>" },
    { type: "MailClient | undefined", awaited: "MailClient | undefined", accessed: "MailClient" },
    { type: "Readonly<Config> | null", awaited: "Readonly<Config> | null", accessed: "Config" },
    { type: "A | B", awaited: "A | B", accessed: "none" },
    { type: "Item[]", awaited: "Item[]", accessed: "none" },
    { type: "(a: A) => B", awaited: "fn -> B", accessed: "none" },
  ])("wrappers of $type", ({ type, awaited, accessed }) => {
    const parsed = parseType(type, ts.types);
    const show = (t: ReturnType<typeof ts.accessed>) => (t ? printType(t) : "none");
    expect(show(ts.awaited(parsed))).toBe(awaited);
    expect(show(ts.accessed(parsed))).toBe(accessed);
  });

  it("reads an element of an array or an iterable", () => {
    const show = (text: string) => {
      const t = ts.element(parseType(text, ts.types));
      return t && printType(t);
    };
    expect([show("Item[]"), show("ReadonlyArray<Item>"), show("Set<Tag>"), show("Item")]).toEqual([
      "Item",
      "Item",
      "Tag",
      undefined,
    ]);
  });
});

const CLIENT = code`
  import type { Message } from "./message.js";
  import { Base } from "./base.js";

  /** Sends mail. */
  export class MailClient extends Base {
    #sent = 0;
    constructor(private readonly transport: Transport) {
      super();
    }
    /** Delivers a message. */
    async deliver(message: Message, retries = 3): Promise<string> {
      this.#sent++;
      return "";
    }
    close(): void {}
  }

  export interface Transport {
    send(raw: string): Promise<void>;
  }
`;

const BASE = code`
  export abstract class Base {
    protected log(line: string): void {
      console.log(line);
    }
    get ready(): boolean {
      return true;
    }
  }
`;

const FACTORY = code`
  import { MailClient } from "./client.js";
  export function connect(host: string): MailClient {
    return new MailClient(host);
  }
  export const pool = {
    async acquire(): Promise<MailClient> {
      return connect("x");
    },
  };
`;

describe("TypeScript: the member outline of a receiver's type", () => {
  const files = (app: string) => ({
    "/w/src/client.ts": CLIENT,
    "/w/src/base.ts": BASE,
    "/w/src/factory.ts": FACTORY,
    "/w/src/app.ts": app,
  });

  it("types a local from the return type of a function imported from another file, and outlines its bases", async () => {
    const out = await outlinesAt(
      "typescript",
      files(`import { connect } from "./factory.js";\nconst mail = connect("smtp");\nawait mail.${HERE}`),
      "/w/src/app.ts",
    );
    expect(out).toEqual([
      "/w/src/client.ts:\n" +
        "export class MailClient extends Base {\n" +
        "  async deliver(message: Message, retries = 3): Promise<string> { … }\n" +
        "  close(): void {}\n" +
        "}",
      "/w/src/base.ts:\n" + "export abstract class Base {\n" + "  get ready(): boolean { … }\n" + "}",
    ]);
  });

  it.each([
    {
      name: "new X()",
      app: `import { MailClient } from "./client.js";\nconst m = new MailClient(t);\nm.${HERE}`,
    },
    {
      name: "an annotated parameter",
      app: `import type { MailClient } from "./client.js";\nfunction f(m: MailClient) {\n  m.${HERE}`,
    },
    {
      name: "await of a method's Promise",
      app: `import { pool } from "./factory.js";\nasync function f() {\n  const m = await pool.acquire();\n  m.${HERE}`,
    },
    {
      name: "an optional chain on X | undefined",
      app: `import type { MailClient } from "./client.js";\nlet m: MailClient | undefined;\nm?.${HERE}`,
    },
    {
      name: "a call right before the dot",
      app: `import { connect } from "./factory.js";\nconnect("x").${HERE}`,
    },
  ])("types $name", async ({ app }) => {
    const [own] = await outlinesAt("typescript", files(app), "/w/src/app.ts");
    expect(own).toContain("async deliver(message: Message, retries = 3)");
  });

  it("shows the member whose signature spells a literal type out, first", async () => {
    const app = code`
      import { Registry } from "./registry.js";
      function f(r: Registry) {
        const snap = r.snapshot();
        snap.${HERE}
    `;
    const registry = code`
      export class Registry {
        size(): number {
          return 0;
        }
        snapshot(): { readonly revision: number; text: string } {
          return { revision: 0, text: "" };
        }
      }
    `;
    const out = await outlinesAt(
      "typescript",
      { ...files(app), "/w/src/registry.ts": registry },
      "/w/src/app.ts",
      {
        maxChars: 100,
      },
    );
    expect(out).toEqual([
      "/w/src/registry.ts:\nexport class Registry {\n  snapshot(): { readonly revision: number; text: string } { … }\n}",
    ]);
  });

  it("reads a class the cursor's unfinished line would break, its private fields for this", async () => {
    const app = code`
      import type { Transport } from "./client.js";
      export class Service {
        readonly #transport: Transport;
        run() {
          return JSON.stringify(this.#transport.${HERE}
        }
      }
    `;
    const [own] = await outlinesAt("typescript", files(app), "/w/src/app.ts");
    expect(own).toContain("send(raw: string): Promise<void>;");
  });

  it.each([
    {
      name: "an argument's callback, through the called function's parameter type",
      app: code`
        import { operate } from "./lift.js";
        export function map() {
          return operate((source, client) => {
            client.${HERE}
      `,
    },
    {
      name: "an array method's callback",
      app: code`
        import type { MailClient } from "./client.js";
        export function all(clients: MailClient[]) {
          clients.forEach((c) => c.${HERE}
      `,
    },
    {
      name: "a property of an annotated object literal",
      app: code`
        import type { Hooks } from "./lift.js";
        const hooks: Hooks = {
          opened(client) {
            return 1;
          },
          closed: (client) => client.${HERE}
      `,
    },
  ])("types $name", async ({ app }) => {
    const lift = code`
      import type { MailClient } from "./client.js";
      export function operate(init: (source: string, client: MailClient) => void): void {}
      export interface Hooks {
        opened?(client: MailClient): number;
        closed: (client: MailClient) => void;
      }
    `;
    const [own] = await outlinesAt("typescript", { ...files(app), "/w/src/lift.ts": lift }, "/w/src/app.ts");
    expect(own).toContain("async deliver(message: Message, retries = 3)");
  });

  it("types this.f through a constructor's parameter property, and ranks by the typed prefix", async () => {
    const app = code`
      import type { Transport } from "./client.js";
      export class Service {
        constructor(private readonly transport: Transport) {}
        run() {
          this.transport.se${HERE}
    `;
    const out = await outlinesAt("typescript", files(app), "/w/src/app.ts");
    expect(out).toEqual([
      "/w/src/client.ts:\nexport interface Transport {\n  send(raw: string): Promise<void>;\n}",
    ]);
  });

  it("keeps members that start with the typed prefix when the budget is short", async () => {
    const app = `import { connect } from "./factory.js";\nconst mail = connect("smtp");\nmail.cl${HERE}`;
    const [own] = await outlinesAt("typescript", files(app), "/w/src/app.ts", { maxChars: 70 });
    expect(own).toBe("/w/src/client.ts:\nexport class MailClient extends Base {\n  close(): void {}\n}");
  });

  it.each([
    { name: "an untyped parameter", app: `function f(m) {\n  m.${HERE}` },
    {
      name: "a value of two types",
      app: `import type { MailClient } from "./client.js";\nlet m: MailClient | Other;\nm.${HERE}`,
    },
    { name: "an imported namespace", app: `import * as f from "./factory.js";\nf.${HERE}` },
    { name: "a number", app: `const x = 1.${HERE}` },
  ])("goes without for $name", async ({ app }) => {
    expect(await outlinesAt("typescript", files(app), "/w/src/app.ts")).toEqual([]);
  });
});
