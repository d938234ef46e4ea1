import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { PassThrough } from "node:stream";
import { fileURLToPath } from "node:url";
import { type Sim, type SimOptions, startSim } from "@infill/sim";
import { afterEach } from "vitest";
import {
  CancellationTokenSource,
  type ClientCapabilities,
  type CompletionList,
  createMessageConnection,
  type InitializeResult,
  type InlineCompletionList,
  type MessageConnection,
  type Position,
  StreamMessageReader,
  StreamMessageWriter,
} from "vscode-languageserver-protocol/node";
import { TextBuffer } from "../../src/documents/text-buffer.js";
import { startServer } from "../../src/protocol/connection.js";

/** A TypeScript file with the cursor on the empty line of a function body; the sim suggests `return a + b;`. */
export const ADD_TS = `function add(a: number, b: number): number {
  return a + b;
}

function sub(a: number, b: number): number {
  │
}
`;

/** Sessions for a test file: returns `start(options)`, and closes every session a test started after it. */
export function sessions(): (options?: SessionOptions) => Promise<Session> {
  const started: Session[] = [];
  afterEach(async () => {
    await Promise.all(started.splice(0).map((session) => session.close()));
  });
  return async (options = {}) => {
    const session = await Session.start(options);
    started.push(session);
    return session;
  };
}

/** The cursor marker in fixtures. */
export const CURSOR = "│";

/** Split a fixture at its cursor marker. */
export function fixture(source: string): { text: string; position: Position } {
  const at = source.indexOf(CURSOR);
  if (at === -1) throw new Error("fixture has no cursor marker");
  const text = source.slice(0, at) + source.slice(at + CURSOR.length);
  const before = text.slice(0, at).split("\n");
  return { text, position: { line: before.length - 1, character: before.at(-1)!.length } };
}

export interface Notification {
  method: string;
  params: unknown;
}

export interface SessionOptions {
  sim?: SimOptions;
  /** Extra environment; DEEPSEEK_API_KEY and INFILL_BASE_URL (the sim) are set unless overridden. */
  env?: NodeJS.ProcessEnv;
  initializationOptions?: unknown;
  capabilities?: ClientCapabilities;
  /** What the client answers to `workspace/configuration` for the `infill` section. */
  configuration?: unknown;
  /**
   * Answers the server's other requests (`infill/typeDefinitions`…): a value, a promise, or a thrown error (a
   * JSON-RPC error answer). Default null.
   */
  onRequest?: (method: string, params: unknown) => unknown;
  /** Workspace folders sent at `initialize` (the first one is also the `rootUri`). Default none. */
  workspaceFolders?: Array<{ uri: string; name: string }>;
  /**
   * Run the built server (dist/infill-lsp.js) as a child process over stdio, as editors do, instead of in this
   * process. Its environment is `env` and the sim's URL and a key, plus PATH; nothing else is inherited.
   */
  built?: boolean;
}

/** The server of a session: in this process, or the built one as a child process (`child`). */
export interface RunningServer {
  dispose(): Promise<void>;
  child?: ChildProcess;
}

/** The built server. */
export const BUILT_SERVER = fileURLToPath(new URL("../../dist/infill-lsp.js", import.meta.url));

/** A test editor: a real JSON-RPC client talking to a real server over in-memory streams, against a real sim. */
export class Session {
  readonly notifications: Notification[] = [];
  readonly requests: Notification[] = [];
  configuration: unknown;
  #listeners = new Set<() => void>();
  #versions = new Map<string, number>();
  #texts = new Map<string, TextBuffer>();

  private constructor(
    readonly client: MessageConnection,
    readonly sim: Sim,
    readonly server: RunningServer,
    readonly initializeResult: InitializeResult,
  ) {}

  static async start(options: SessionOptions = {}): Promise<Session> {
    const sim = await startSim(options.sim);
    const env = { DEEPSEEK_API_KEY: "sk-test-0123456789abcdef", INFILL_BASE_URL: sim.url, ...options.env };
    let toServer: NodeJS.WritableStream;
    let toClient: NodeJS.ReadableStream;
    let server: RunningServer;
    if (options.built) {
      const child = spawn(process.execPath, [BUILT_SERVER, "--stdio"], {
        env: { PATH: process.env.PATH, ...env },
        stdio: ["pipe", "pipe", "inherit"],
      });
      toServer = child.stdin;
      toClient = child.stdout;
      server = {
        child,
        async dispose() {
          // The editor went away: stdin closes, and the server exits.
          if (child.exitCode === null && child.signalCode === null) {
            child.stdin.end();
            await once(child, "exit");
          }
        },
      };
    } else {
      const input = new PassThrough();
      const output = new PassThrough();
      server = startServer({ input, output, env });
      toServer = input;
      toClient = output;
    }
    const client = createMessageConnection(
      new StreamMessageReader(toClient),
      new StreamMessageWriter(toServer),
    );
    let session: Session | undefined;
    const pending: Notification[] = [];
    const record = (list: "notifications" | "requests", method: string, params: unknown) => {
      const entry = { method, params };
      if (session) {
        session[list].push(entry);
        for (const listener of session.#listeners) listener();
      } else pending.push(entry);
    };
    client.onNotification((method: string, params: unknown) => record("notifications", method, params));
    // JSON-RPC routes `$/progress` by token, not by method: progress for tokens nobody registered lands here.
    client.onUnhandledProgress((params) => record("notifications", "$/progress", params));
    client.onRequest((method: string, params: unknown) => {
      record("requests", method, params);
      if (method === "workspace/configuration")
        return [session?.configuration ?? options.configuration ?? null];
      return options.onRequest ? options.onRequest(method, params) : null;
    });
    client.listen();
    const initializeResult = (await client.sendRequest("initialize", {
      processId: null,
      rootUri: options.workspaceFolders?.[0]?.uri ?? null,
      ...(options.workspaceFolders ? { workspaceFolders: options.workspaceFolders } : {}),
      capabilities: options.capabilities ?? {},
      initializationOptions: options.initializationOptions ?? { debounceMs: 0 },
    })) as InitializeResult;
    session = new Session(client, sim, server, initializeResult);
    session.configuration = options.configuration;
    session.notifications.push(...pending);
    await client.sendNotification("initialized", {});
    return session;
  }

  /** Wait until `predicate` holds, re-checking on every message from the server; fails after `timeoutMs`. */
  until(predicate: () => boolean, what: string, timeoutMs = 5_000): Promise<void> {
    if (predicate()) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const poll = setInterval(check, 5);
      const timer = setTimeout(() => {
        cleanup();
        reject(new Error(`timed out waiting for ${what}`));
      }, timeoutMs);
      const cleanup = () => {
        clearInterval(poll);
        clearTimeout(timer);
        this.#listeners.delete(check);
      };
      function check() {
        if (!predicate()) return;
        cleanup();
        resolve();
      }
      this.#listeners.add(check);
    });
  }

  messages(method: string): Notification[] {
    return [...this.notifications, ...this.requests].filter((n) => n.method === method);
  }

  async open(uri: string, source: string, languageId = "typescript"): Promise<Position> {
    const { text, position } = source.includes(CURSOR)
      ? fixture(source)
      : { text: source, position: { line: 0, character: 0 } };
    this.#versions.set(uri, 1);
    this.#texts.set(uri, new TextBuffer(text));
    await this.client.sendNotification("textDocument/didOpen", {
      textDocument: { uri, languageId, version: 1, text },
    });
    return position;
  }

  /** The text of `uri` as the editor has it (what it opened, and the changes it sent since). */
  text(uri: string): string {
    return this.#texts.get(uri)?.getText() ?? "";
  }

  /** The version of `uri` the editor last sent. */
  version(uri: string): number {
    return this.#versions.get(uri) ?? 0;
  }

  /** Insert `text` at `position` (an incremental change) and return the position after it. */
  async type(uri: string, position: Position, text: string): Promise<Position> {
    const version = (this.#versions.get(uri) ?? 0) + 1;
    this.#versions.set(uri, version);
    await this.client.sendNotification("textDocument/didChange", {
      textDocument: { uri, version },
      contentChanges: [{ range: { start: position, end: position }, text }],
    });
    this.#texts.get(uri)?.applyChange({ range: { start: position, end: position }, text });
    const lines = text.split("\n");
    return lines.length === 1
      ? { line: position.line, character: position.character + text.length }
      : { line: position.line + lines.length - 1, character: lines.at(-1)!.length };
  }

  /** Replace `range` with `text` (an incremental change), as an editor applies an item's edit. */
  async replace(uri: string, range: { start: Position; end: Position }, text: string): Promise<void> {
    const version = (this.#versions.get(uri) ?? 0) + 1;
    this.#versions.set(uri, version);
    await this.client.sendNotification("textDocument/didChange", {
      textDocument: { uri, version },
      contentChanges: [{ range, text }],
    });
    this.#texts.get(uri)?.applyChange({ range, text });
  }

  /** Ask for ghost text as an editor does while the user types (`automatic`), or on a key (`invoked`). */
  inline(
    uri: string,
    position: Position,
    token?: CancellationTokenSource,
    trigger: "automatic" | "invoked" = "automatic",
  ): Promise<InlineCompletionList> {
    const params = {
      textDocument: { uri },
      position,
      context: { triggerKind: trigger === "invoked" ? 1 : 2 },
    };
    return (
      token
        ? this.client.sendRequest("textDocument/inlineCompletion", params, token.token)
        : this.client.sendRequest("textDocument/inlineCompletion", params)
    ) as Promise<InlineCompletionList>;
  }

  /** Ask for popup items: with no context, as some clients do; `invoked` as a completion key does. */
  completion(uri: string, position: Position, trigger?: "automatic" | "invoked"): Promise<CompletionList> {
    return this.client.sendRequest("textDocument/completion", {
      textDocument: { uri },
      position,
      ...(trigger ? { context: { triggerKind: trigger === "invoked" ? 1 : 3 } } : {}),
    }) as Promise<CompletionList>;
  }

  async close(): Promise<void> {
    this.client.dispose();
    await this.server.dispose();
    await this.sim.close();
  }
}

export { CancellationTokenSource };
