import { createConnection as createServerConnection, type WatchDog } from "vscode-languageserver";
import { createProtocolConnection } from "vscode-languageserver/node";
import { InfillServer } from "./infill-server.js";
import { initializeOnce } from "./initialize-once.js";
import { FramedMessageReader } from "./message-reader.js";
import { FramedMessageWriter } from "./message-writer.js";

export { SERVER_VERSION } from "./server-version.js";

/** How to run a server. */
export interface ServerOptions {
  input: NodeJS.ReadableStream;
  output: NodeJS.WritableStream;
  /**
   * Environment to read the key (`DEEPSEEK_API_KEY`, `CODESTRAL_API_KEY`, the `apiKeyEnv` setting's variable),
   * `INFILL_BASE_URL` and `INFILL_MODEL` from. Default `process.env`.
   */
  env?: NodeJS.ProcessEnv;
  /** Called on the `exit` notification with the exit code (0 after `shutdown`, else 1). */
  onExit?: (code: number) => void;
}

/** A running server. */
export interface RunningServer {
  /** Stop streaming, close the embedded sim if any, and close the connection. */
  dispose(): Promise<void>;
  /** Write the usage totals not written yet, synchronously: for the moment the process exits. */
  flushUsage(): void;
}

/**
 * Start an infill language server on a pair of streams: the transport (our framed reader and writer, see the
 * README), and each LSP message forwarded to the {@link InfillServer} method named after it. Nothing else lives
 * here.
 */
export function startServer(options: ServerOptions): RunningServer {
  let shutdownReceived = false;
  const watchDog: WatchDog = {
    get shutdownReceived() {
      return shutdownReceived;
    },
    set shutdownReceived(value: boolean) {
      shutdownReceived = value;
    },
    initialize: () => {},
    exit: (code) => options.onExit?.(code),
  };
  const connection = createServerConnection(
    (logger) =>
      initializeOnce(
        createProtocolConnection(
          new FramedMessageReader(options.input),
          new FramedMessageWriter(options.output),
          logger,
        ),
      ),
    watchDog,
  );

  const server = new InfillServer({ env: options.env ?? process.env, client: connection });

  connection.onInitialize((params) => server.initialize(params));
  connection.onInitialized(() => {
    server.initialized();
    if (server.followsWorkspaceFolders)
      connection.workspace.onDidChangeWorkspaceFolders((event) => server.didChangeWorkspaceFolders(event));
  });
  connection.onDidChangeConfiguration((params) => server.didChangeConfiguration(params));
  connection.onDidChangeWatchedFiles((params) => server.didChangeWatchedFiles(params));
  connection.onDidOpenTextDocument((params) => server.didOpen(params));
  connection.onDidChangeTextDocument((params) => server.didChange(params));
  connection.onDidSaveTextDocument((params) => server.didSave(params));
  connection.onDidCloseTextDocument((params) => server.didClose(params));
  connection.onCompletion((params, token) => server.completion(params, token));
  connection.languages.inlineCompletion.on((params, token) => server.inlineCompletion(params, token));
  connection.onRequest("textDocument/copilotInlineEdit", (params, token) =>
    server.copilotInlineEdit(params, token),
  );
  connection.onNotification("textDocument/didShowInlineEdit", (params) => server.didShowInlineEdit(params));
  connection.onCodeAction((params, token) => server.codeAction(params, token));
  connection.onExecuteCommand((params) => server.executeCommand(params));
  connection.onRequest("infill/probe", () => server.probe());
  connection.onRequest("infill/providers", () => server.providers());
  connection.onShutdown(() => server.shutdown());
  connection.listen();

  return {
    async dispose() {
      await server.shutdown();
      connection.dispose();
    },
    flushUsage: () => server.flushUsage(),
  };
}
