// The editor side: the built infill-lsp as a child process over stdio, opened on a workspace folder.
import { spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import {
  createMessageConnection,
  type InlineCompletionList,
  type MessageConnection,
  type Position,
  type Range,
  StreamMessageReader,
  StreamMessageWriter,
} from "vscode-languageserver-protocol/node";

/** What `$/infill/metrics` carries that the eval reads; `context` is absent from servers without it. */
export interface CompletionMetrics {
  uri: string;
  source: string;
  usage: { prompt_tokens: number; prompt_cache_hit_tokens: number } | null;
  /**
   * Time spent choosing the context (ms), snippets and estimated tokens, those of member outlines among them
   * (absent from servers without outlines); null when none was chosen.
   */
  context?: { ms: number; snippets: number; tokens: number; outlineTokens?: number } | null;
}

/** How to start a server. */
export interface LaunchOptions {
  /** Path of the built `infill-lsp.js`. */
  bin: string;
  /** The upstream base URL (a sim). */
  baseUrl: string;
  /** The workspace folder (absolute). */
  root: string;
  /** The LSP language id of a workspace-relative file, as an editor sends it in `didOpen`. */
  languageId: (file: string) => string;
  initializationOptions: Record<string, unknown>;
  /**
   * The editor's answer to `infill/typeDefinitions` (workspace-relative file, positions as sent; per position a
   * declaration's file and line, or null): given, the client advertises the capability at `initialize` and answers
   * with it; absent, it neither advertises nor answers.
   */
  typeDefinitions?: (
    file: string,
    positions: readonly Position[],
  ) => ReadonlyArray<{ file: string; line: number } | null>;
}

/** One edit of a `textDocument/copilotInlineEdit` answer, as copilot-lsp reads it. */
export interface InlineEdit {
  range: Range;
  text: string;
  textDocument: { uri: string; version: number };
  command?: { title: string; command: string; arguments?: unknown[] };
}

/** A running server and what it told the client. */
export interface EditorSession {
  /** Every `$/infill/metrics` notification, in order. */
  readonly metrics: CompletionMetrics[];
  /** `window/showMessage` texts (settings refused, failures), in order. */
  readonly messages: string[];
  /** `window/logMessage` texts of type Error (1), in order: what went wrong inside the server. */
  readonly errors: string[];
  /** Whether the server process has exited (a crash, before `shutdown`). */
  readonly exited: () => boolean;
  open(file: string, text: string): Promise<void>;
  /** Insert `text` at `at` (an incremental change); returns the position after it. */
  insert(file: string, at: Position, text: string): Promise<Position>;
  /** Replace `range` of an open file by `text` (an incremental change, the next version). */
  change(file: string, range: Range, text: string): Promise<void>;
  /** The version of an open file the client last sent. */
  version(file: string): number;
  close(file: string): Promise<void>;
  /**
   * `textDocument/copilotInlineEdit` at `at`, for the version last sent, as copilot-lsp asks; resolves with the
   * answer's edits.
   */
  inlineEdit(file: string, at: Position): Promise<InlineEdit[]>;
  /** `textDocument/inlineCompletion` at `at`; resolves when the server answered. */
  inline(file: string, at: Position): Promise<InlineCompletionList | null>;
  shutdown(): Promise<void>;
}

/** How long `inline` waits for a suggestion's `$/infill/metrics`, at most, ms. */
const METRICS_WAIT_MS = 10_000;

/**
 * Spawn the built server (the file itself, as an editor does, so its shebang's Node flags apply) with a fake key
 * and `INFILL_BASE_URL`, and initialize it on `root` as both `rootUri` and the one workspace folder.
 */
export async function launch(options: LaunchOptions): Promise<EditorSession> {
  const child = spawn(options.bin, ["--stdio"], {
    env: { PATH: process.env.PATH, DEEPSEEK_API_KEY: "sk-eval", INFILL_BASE_URL: options.baseUrl },
    stdio: ["pipe", "pipe", "inherit"],
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const rpc: MessageConnection = createMessageConnection(
    new StreamMessageReader(child.stdout),
    new StreamMessageWriter(child.stdin),
  );
  const metrics: CompletionMetrics[] = [];
  const messages: string[] = [];
  const errors: string[] = [];
  let hasExited = false;
  child.once("exit", () => {
    hasExited = true;
  });
  /** Who waits for the next `$/infill/metrics` (see `inline`). */
  let metricsWaiter: (() => void) | undefined;
  rpc.onNotification("$/infill/metrics", (m: CompletionMetrics) => {
    metrics.push(m);
    metricsWaiter?.();
  });
  const metricsOn = options.initializationOptions.metrics === true;
  rpc.onNotification("window/showMessage", (m: { message: string }) => {
    messages.push(m.message);
  });
  rpc.onNotification("window/logMessage", (m: { type: number; message: string }) => {
    if (m.type === 1) errors.push(m.message);
  });
  const rootUri = pathToFileURL(options.root).href;
  const uriOf = (file: string) => pathToFileURL(path.join(options.root, file)).href;
  const answer = options.typeDefinitions;
  if (answer) {
    rpc.onRequest(
      "infill/typeDefinitions",
      (params: { textDocument: { uri: string }; positions: Position[] }) => {
        const file = path
          .relative(options.root, fileURLToPath(params.textDocument.uri))
          .split(path.sep)
          .join("/");
        // As Neovim answers: one `Location` or null per position (only the line matters to the server).
        return answer(file, params.positions).map((found) =>
          found
            ? {
                uri: uriOf(found.file),
                range: {
                  start: { line: found.line, character: 0 },
                  end: { line: found.line, character: 0 },
                },
              }
            : null,
        );
      },
    );
  }
  rpc.onRequest(() => null);
  rpc.listen();

  const versions = new Map<string, number>();
  await rpc.sendRequest("initialize", {
    processId: process.pid,
    rootUri,
    workspaceFolders: [{ uri: rootUri, name: path.basename(options.root) }],
    capabilities: {
      workspace: { workspaceFolders: true },
      ...(answer ? { experimental: { infill: { typeDefinitions: true } } } : {}),
    },
    initializationOptions: options.initializationOptions,
  });
  await rpc.sendNotification("initialized", {});

  return {
    metrics,
    messages,
    errors,
    exited: () => hasExited,
    async open(file, text) {
      versions.set(file, 1);
      await rpc.sendNotification("textDocument/didOpen", {
        textDocument: { uri: uriOf(file), languageId: options.languageId(file), version: 1, text },
      });
    },
    async insert(file, at, text) {
      const version = (versions.get(file) ?? 0) + 1;
      versions.set(file, version);
      await rpc.sendNotification("textDocument/didChange", {
        textDocument: { uri: uriOf(file), version },
        contentChanges: [{ range: { start: at, end: at }, text }],
      });
      const lines = text.split("\n");
      return lines.length === 1
        ? { line: at.line, character: at.character + text.length }
        : { line: at.line + lines.length - 1, character: lines.at(-1)!.length };
    },
    async change(file, range, text) {
      const version = (versions.get(file) ?? 0) + 1;
      versions.set(file, version);
      await rpc.sendNotification("textDocument/didChange", {
        textDocument: { uri: uriOf(file), version },
        contentChanges: [{ range, text }],
      });
    },
    version: (file) => versions.get(file) ?? 0,
    async close(file) {
      versions.delete(file);
      await rpc.sendNotification("textDocument/didClose", { textDocument: { uri: uriOf(file) } });
    },
    async inlineEdit(file, at) {
      const result = (await rpc.sendRequest("textDocument/copilotInlineEdit", {
        textDocument: { uri: uriOf(file), version: versions.get(file) ?? 0 },
        position: at,
      })) as { edits: InlineEdit[] };
      return result.edits;
    },
    async inline(file, at) {
      const before = metrics.length;
      const list = (await rpc.sendRequest("textDocument/inlineCompletion", {
        textDocument: { uri: uriOf(file) },
        position: at,
        context: { triggerKind: 2 },
      })) as InlineCompletionList | null;
      // A suggestion's metrics come just after its answer (once Node has reported the request's collections): wait
      // for them, so that they are this request's; a deadline in case a server never sends them.
      if (metricsOn && (list?.items.length ?? 0) > 0 && metrics.length === before) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, METRICS_WAIT_MS);
          metricsWaiter = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        metricsWaiter = undefined;
      }
      return list;
    },
    async shutdown() {
      await rpc.sendRequest("shutdown");
      await rpc.sendNotification("exit");
      await exited;
      rpc.dispose();
    },
  };
}
