// The project of the types-from-the-editor test in a real Neovim (test/e2e/type_definitions_spec.lua): issue 24's
// example. `connect()` in factory.ts returns a `MailClient` declared in client.ts; app.ts imports only `connect`, so
// nothing of `MailClient` reaches the prompt unless the editor's language server says where `mail`'s type is
// declared. The spec types `.` at the end of `await mail`.

/** The project's files, by path relative to its root. */
export const TYPE_DEFINITIONS_PROJECT: Record<string, string> = {
  "package.json": '{ "name": "mailer", "type": "module", "private": true }\n',
  "tsconfig.json": `{
  "compilerOptions": { "target": "ES2022", "module": "NodeNext", "moduleResolution": "NodeNext", "strict": true },
  "include": ["src"]
}
`,
  "src/client.ts": `/** A message to send. */
export interface Message {
  to: string;
  subject: string;
  body: string;
}

/** A connection to a mail server. */
export class MailClient {
  private open = true;

  constructor(private readonly host: string) {}

  /** Sends a message; resolves to the id the server gave it. */
  async deliver(message: Message, retries = 3): Promise<string> {
    for (let attempt = 0; attempt < retries; attempt++) {
      if (this.open) return \`\${message.to}@\${this.host}\`;
    }
    throw new Error(\`\${this.host} did not take the message\`);
  }

  /** Closes the connection. */
  close(): void {
    this.open = false;
  }
}
`,
  "src/factory.ts": `import { MailClient } from "./client.js";

/** Opens a client for the host. */
export function connect(host: string): MailClient {
  return new MailClient(host);
}
`,
  "src/app.ts": `import { connect } from "./factory.js";

export async function main(): Promise<void> {
  const mail = connect("smtp.example.com");
  await mail
}
`,
};

/** What the request must carry of `MailClient`: its members' signatures. */
export const MAIL_CLIENT_MEMBERS = [
  "async deliver(message: Message, retries = 3): Promise<string> {",
  "close(): void {",
];
