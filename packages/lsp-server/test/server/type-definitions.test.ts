// `infill/typeDefinitions` through the real server: a client that answers it as the Neovim plugin does (from the
// editor's other language server), one that answers late, one that fails, and one that never offered it.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ResponseError } from "vscode-languageserver-protocol";
import { CURSOR, type Session, type SessionOptions, sessions } from "../support/session.js";

const start = sessions();
let root: string;

/**
 * The issue's example, with `mail`'s type beyond what the code declares near it: `clients.get()` returns the `T`
 * of a `Registry<T>` built from a lambda, so only the editor's language server knows it is a `MailClient` (declared
 * in a file app.ts does not import); the declarations alone do not tell it.
 */
const FILES: Record<string, string> = {
  "src/client.ts": `export interface Message {
  to: string;
  body: string;
}

export class MailClient {
  constructor(private readonly host: string) {}

  /** Sends a message; resolves to its id. */
  async deliver(message: Message, retries = 3): Promise<string> {
    return \`\${message.to}@\${this.host}:\${retries}\`;
  }

  close(): void {}
}
`,
  "src/registry.ts": `export class Registry<T> {
  constructor(private readonly make: (key: string) => T) {}

  get(key: string): T {
    return this.make(key);
  }
}
`,
  "src/factory.ts": `import { MailClient } from "./client.js";
import { Registry } from "./registry.js";

export const clients = new Registry((host: string) => new MailClient(host));
`,
};
const APP = `import { clients } from "./factory.js";

export async function main(): Promise<void> {
  const mail = clients.get("smtp.example.com");
  await mail.${CURSOR}
}
`;
/** Where tsserver says `mail`'s type is declared: `class MailClient` in client.ts (0-based line 5). */
const CLASS_LINE = 5;
/** Where the receiver `mail` starts on the cursor's line. */
const MAIL = { line: 4, character: "  await ".length };

const uri = (rel: string) => pathToFileURL(join(root, rel)).href;
const located = (line = CLASS_LINE) => ({
  uri: uri("src/client.ts"),
  range: { start: { line, character: 13 }, end: { line, character: 23 } },
});

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "infill-typedef-"));
  for (const [rel, text] of Object.entries(FILES)) {
    mkdirSync(dirname(join(root, rel)), { recursive: true });
    writeFileSync(join(root, rel), text);
  }
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

/**
 * A session whose client offers `infill/typeDefinitions` (unless `offered` is false) and answers it with `answer`.
 * The server waits up to 2 s for an answer (`context.typeDefinitionMs`), so that one given at once arrives in time
 * however busy the machine; the budget's own test sets it back to 50 ms.
 */
function session(
  answer: SessionOptions["onRequest"],
  init: Record<string, unknown> = {},
  offered = true,
): Promise<Session> {
  return start({
    workspaceFolders: [{ uri: pathToFileURL(root).href, name: "mail" }],
    initializationOptions: { debounceMs: 0, context: { typeDefinitionMs: 2000 }, ...init },
    capabilities: offered ? { experimental: { infill: { typeDefinitions: true } } } : {},
    ...(answer ? { onRequest: answer } : {}),
  });
}

const prompts = (s: Session) => s.sim.requests.map((r) => (r.body as { prompt: string }).prompt);
const asked = (s: Session) => s.messages("infill/typeDefinitions");

describe("infill/typeDefinitions", () => {
  it("puts the type the client locates for the receiver into the request", async () => {
    const s = await session((method) => (method === "infill/typeDefinitions" ? [located()] : null));
    const at = await s.open(uri("src/app.ts"), APP);
    await s.inline(uri("src/app.ts"), at);
    expect(asked(s).map((m) => m.params)).toEqual([
      { textDocument: { uri: uri("src/app.ts") }, positions: [MAIL] },
    ]);
    const [block = ""] = prompts(s).at(-1)!.split("// src/app.ts\n");
    expect(block).toContain("// src/client.ts\n");
    expect(block).toContain("async deliver(message: Message, retries = 3): Promise<string> {");
    expect(block).toContain("close(): void {}");
  });

  it("asks nothing of a client that did not offer it, and the type is not in the request", async () => {
    const s = await session(() => [located()], {}, false);
    const at = await s.open(uri("src/app.ts"), APP);
    await s.inline(uri("src/app.ts"), at);
    expect(asked(s)).toEqual([]);
    expect(prompts(s).at(-1)).not.toContain("deliver(");
  });

  it("goes without a late answer, which then serves the next request from memory", async () => {
    let answer: (value: unknown) => void = () => {};
    const s = await session(
      (method) => (method === "infill/typeDefinitions" ? new Promise((resolve) => (answer = resolve)) : null),
      { context: { typeDefinitionMs: 50 } },
    );
    const app = uri("src/app.ts");
    const at = await s.open(app, APP);
    await s.inline(app, at);
    // The request went upstream before the client answered (the budget ran out).
    expect(s.sim.requests).toHaveLength(1);
    expect(prompts(s)[0]).not.toContain("deliver(");
    answer([located()]);
    // The answer comes after the request: the next one at this receiver finds it without asking again. A name
    // typed after the receiver keeps the answer.
    const typed = await s.type(app, at, "q");
    await s.inline(app, typed, undefined, "invoked");
    expect(prompts(s).at(-1)).toContain("async deliver(message: Message, retries = 3): Promise<string> {");
    expect(asked(s)).toHaveLength(1);
  });

  it("completes as usual when the client answers errors, and stops asking it after three in a row", async () => {
    const s = await session((method) => {
      if (method === "infill/typeDefinitions") throw new ResponseError(-32603, "no language server");
      return null;
    });
    const app = uri("src/app.ts");
    let at = await s.open(app, APP);
    for (const member of ["a", "b", "c", "d"]) {
      // A new receiver each time (`mail.a.`, `mail.a.b.`…): each would be a new question.
      at = await s.type(app, at, `${member}.`);
      const { items } = await s.inline(app, at, undefined, "invoked");
      expect(items.length).toBeGreaterThan(0);
    }
    expect(asked(s)).toHaveLength(3);
    expect(s.sim.requests).toHaveLength(4);
  });

  it.each([
    ["a file outside the workspace", () => pathToFileURL(join(tmpdir(), "elsewhere", "client.ts")).href, {}],
    [
      "an excluded file",
      () => uri("src/client.ts"),
      { context: { typeDefinitionMs: 2000, exclude: ["src/client.ts"] } },
    ],
  ])("never reads %s", async (_, target, init) => {
    const s = await session(
      (method) => (method === "infill/typeDefinitions" ? [{ ...located(), uri: target() }] : null),
      init,
    );
    const at = await s.open(uri("src/app.ts"), APP);
    await s.inline(uri("src/app.ts"), at);
    expect(asked(s)).toHaveLength(1);
    expect(prompts(s).at(-1)).not.toContain("deliver(");
  });

  it("adds nothing for a type declared in the document itself (the prompt has it)", async () => {
    const s = await session((method) =>
      method === "infill/typeDefinitions" ? [{ ...located(3), uri: uri("src/app.ts") }] : null,
    );
    const at = await s.open(uri("src/app.ts"), APP);
    await s.inline(uri("src/app.ts"), at);
    expect(asked(s)).toHaveLength(1);
    expect(prompts(s).at(-1)!.split("// src/app.ts\n")).toHaveLength(2);
  });

  it("asks nothing with context.typeDefinitionMs 0", async () => {
    const s = await session(() => [located()], { context: { typeDefinitionMs: 0 } });
    const at = await s.open(uri("src/app.ts"), APP);
    await s.inline(uri("src/app.ts"), at);
    expect(asked(s)).toEqual([]);
  });
});
