// The member outline of a receiver's type through the real server (issue 24): a workspace on disk, the current
// file opened as an editor would, and the prompt the sim received.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { CURSOR, type Session, sessions } from "../support/session.js";

const start = sessions();
let root: string;

const MESSAGE_TS = `export interface Message {
  to: string;
  body: string;
}
`;

const CLIENT_TS = `import type { Message } from "./message.js";

/** A connection to a mail server. */
export class MailClient {
  #sent = 0;

  constructor(private readonly host: string) {}

  /** Sends a message; resolves to the server's id for it. */
  async deliver(message: Message, retries = 3): Promise<string> {
    for (let attempt = 0; attempt <= retries; attempt++) {
      this.#sent++;
    }
    return \`\${this.host}:\${this.#sent}\`;
  }

  close(): void {
    this.#sent = 0;
  }
}
`;

const FACTORY_TS = `import { MailClient } from "./client.js";

export function connect(host: string): MailClient {
  return new MailClient(host);
}
`;

const APP_TS = `import { connect } from "./factory.js";

export async function notify(to: string): Promise<void> {
  const mail = connect("smtp.example.com");
  await mail.${CURSOR}
}
`;

const write = (rel: string, text: string) => {
  const path = join(root, rel);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
};
const uri = (rel: string) => pathToFileURL(join(root, rel)).href;
const prompts = (s: Session) => s.sim.requests.map((r) => (r.body as { prompt: string }).prompt);

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "infill-typed-"));
  write("src/message.ts", MESSAGE_TS);
  write("src/client.ts", CLIENT_TS);
  write("src/factory.ts", FACTORY_TS);
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

function workspaceSession(init: Record<string, unknown> = {}): Promise<Session> {
  return start({
    workspaceFolders: [{ uri: pathToFileURL(root).href, name: "mail" }],
    initializationOptions: { debounceMs: 0, ...init },
  });
}

describe("the member outline of a receiver's type", () => {
  it("carries MailClient's members when the cursor follows `mail.`, a local from connect() in another file", async () => {
    const s = await workspaceSession();
    const at = await s.open(uri("src/app.ts"), APP_TS);
    await s.inline(uri("src/app.ts"), at);
    const prompt = prompts(s).at(-1)!;
    const [block] = prompt.split("// src/app.ts\n");
    expect(block).toContain("// src/client.ts\nexport class MailClient {");
    expect(block).toContain("  async deliver(message: Message, retries = 3): Promise<string> { … }");
    expect(block).toContain("  close(): void { … }");
    // Signatures only: no body, no constructor.
    expect(block).not.toContain("attempt");
    expect(block).not.toContain("constructor(");
  });

  it("adds the outline at the end of the block when `mail.` is typed in a region already chosen", async () => {
    const s = await workspaceSession();
    const text = APP_TS.replace(`await mail.${CURSOR}`, CURSOR);
    const at = await s.open(uri("src/app.ts"), text);
    await s.inline(uri("src/app.ts"), at);
    const before = prompts(s).at(-1)!.split("// src/app.ts\n")[0]!;
    expect(before).toContain("export function connect(host: string): MailClient {");
    expect(before).not.toContain("deliver(");
    const after = await s.type(uri("src/app.ts"), at, "await mail.");
    await s.inline(uri("src/app.ts"), after);
    const grown = prompts(s).at(-1)!.split("// src/app.ts\n")[0]!;
    // The block chosen before is kept byte for byte, the outline after it: the prompt cache still holds the start.
    expect(grown.startsWith(before.slice(0, before.lastIndexOf("\n", before.length - 2)))).toBe(true);
    expect(grown).toContain("deliver(message: Message, retries = 3)");
    expect(grown).toContain("close(): void");
    // The next keystrokes of the member name reuse it as it is.
    const typed = await s.type(uri("src/app.ts"), after, "de");
    await s.inline(uri("src/app.ts"), typed);
    expect(prompts(s).at(-1)!.split("// src/app.ts\n")[0]).toBe(grown);
  });

  it("keeps the block byte for byte at a receiver whose type the declarations do not tell", async () => {
    const s = await workspaceSession();
    const text = APP_TS.replace(`await mail.${CURSOR}`, CURSOR);
    const at = await s.open(uri("src/app.ts"), text);
    await s.inline(uri("src/app.ts"), at);
    const before = prompts(s).at(-1)!.split("// src/app.ts\n")[0];
    const after = await s.type(uri("src/app.ts"), at, "JSON.parse(to).");
    await s.inline(uri("src/app.ts"), after);
    expect(prompts(s).at(-1)!.split("// src/app.ts\n")[0]).toBe(before);
  });

  it("reads the class around an unfinished line for this.#field", async () => {
    const s = await workspaceSession();
    const at = await s.open(
      uri("src/service.ts"),
      `import type { MailClient } from "./client.js";\n\nexport class Service {\n  readonly #mail: MailClient;\n\n  constructor(mail: MailClient) {\n    this.#mail = mail;\n  }\n\n  run(): string {\n    return JSON.stringify(this.#mail.${CURSOR}\n  }\n}\n`,
    );
    await s.inline(uri("src/service.ts"), at);
    expect(prompts(s).at(-1)).toContain("  close(): void { … }");
  });

  it("has none with context off", async () => {
    const s = await workspaceSession({ context: { enabled: false } });
    const at = await s.open(uri("src/app.ts"), APP_TS);
    await s.inline(uri("src/app.ts"), at);
    expect(prompts(s).at(-1)).not.toContain("deliver(");
  });
});
