import { homedir } from "node:os";
import { usageDirectory } from "@infill/core/usage";
import {
  type CancellationToken,
  type CancellationTokenSource,
  type ClientCapabilities,
  type CodeAction,
  type CodeActionParams,
  type CompletionList,
  type CompletionParams,
  type ConfigurationItem,
  DidChangeConfigurationNotification,
  type DidChangeConfigurationParams,
  type DidChangeTextDocumentParams,
  DidChangeWatchedFilesNotification,
  type DidChangeWatchedFilesParams,
  type DidCloseTextDocumentParams,
  type DidOpenTextDocumentParams,
  type DidSaveTextDocumentParams,
  ErrorCodes,
  type ExecuteCommandParams,
  type InitializeParams,
  type InitializeResult,
  type InlineCompletionList,
  type InlineCompletionParams,
  MessageType,
  type ProtocolNotificationType,
  ResponseError,
  type WorkspaceFoldersChangeEvent,
} from "vscode-languageserver";
import {
  syntaxDocumentChanged,
  syntaxDocumentGone,
  syntaxDocumentOpened,
} from "../completion/document-syntax.js";
import type { CompletionEngine } from "../completion/engine.js";
import { ContextLoader } from "../context/context-loader.js";
import { WATCHED_FILES } from "../context/files/watched-files.js";
import { configureGrammarIdle } from "../context/syntax/idle-grammars.js";
import { Documents } from "../documents/documents.js";
import { negotiateEncoding } from "../documents/position-encoding.js";
import { lineDelta } from "../documents/position-map.js";
import { SettingsStore } from "../settings/settings-store.js";
import {
  ACCEPTED_COMMAND,
  NEXT_EDIT_ACCEPTED_COMMAND,
  SHOWN_COMMAND,
  STATUS_COMMAND,
} from "../stats/commands.js";
import { RequestCosts } from "../stats/request-cost.js";
import { statusLine } from "../stats/status-line.js";
import { UsageTracker } from "../stats/usage-tracker.js";
import { type CatalogueEntry, providerCatalogue } from "../upstream/provider-catalogue.js";
import { type ProbeAnswer, ProviderSession } from "../upstream/provider-session.js";
import { preloadClient } from "../upstream/upstreams.js";
import { initialFolders, Workspace } from "../workspace/workspace.js";
import { initializeResult } from "./capabilities.js";
import { ClientChannel, type ClientConnection } from "./client-channel.js";
import { Completions } from "./completions.js";
import { GarbageCollector } from "./garbage-collector.js";
import type { InlineEditList } from "./inline-edits.js";
import { folderParams, type ParamsShape, paramsProblem } from "./lsp-params.js";
import { NextEdits } from "./next-edits.js";
import { SERVER_VERSION } from "./server-version.js";
import { clientReportsShown } from "./shown-reports.js";
import { answersTypeDefinitions, typeDefinitionAsk } from "./type-definitions.js";

/**
 * The connection to the client as the server uses it (vscode-languageserver's `Connection` fits): notifications
 * and progress (through {@link ClientChannel}), registrations, and its configuration.
 */
export interface LspClient extends ClientConnection {
  /** A request to the client (`infill/typeDefinitions`). */
  sendRequest(method: string, params: unknown, token: CancellationTokenSource["token"]): Promise<unknown>;
  readonly client: {
    register<P, RO>(type: ProtocolNotificationType<P, RO>, options?: RO): Promise<unknown>;
  };
  readonly workspace: { getConfiguration(item: ConfigurationItem): Promise<unknown> };
}

/** Options of an {@link InfillServer}. */
export interface InfillServerOptions {
  client: LspClient;
  /** Where keys, `INFILL_BASE_URL`, `INFILL_MODEL` and the usage log's folder come from. */
  env: NodeJS.ProcessEnv;
}

/** A closed buffer at least this long (UTF-16 units) is collected at once (see garbage-collector.ts): 1 Mi. */
const BIG_BUFFER_CHARS = 1 << 20;

/**
 * The language server: one method per LSP request or notification it handles, named after it. It checks what the
 * client sent, hands the work to its collaborators (documents, settings, the provider session, repository context,
 * the completion engine, usage) and puts their answers in LSP's terms.
 */
export class InfillServer {
  readonly #client: LspClient;
  readonly #documents: Documents;
  readonly #workspace = new Workspace();
  readonly #settings: SettingsStore;
  readonly #provider: ProviderSession;
  readonly #channel: ClientChannel;
  readonly #context: ContextLoader;
  readonly #usage: UsageTracker;
  readonly #completions: Completions;
  readonly #engine: CompletionEngine;
  readonly #garbage = new GarbageCollector();
  readonly #nextEdits: NextEdits;
  readonly #costs = new RequestCosts();
  #capabilities: ClientCapabilities = {};

  constructor(options: InfillServerOptions) {
    const { client, env } = options;
    this.#client = client;
    const settings = () => this.#settings.current;
    this.#provider = new ProviderSession({
      env,
      settings,
      userAgent: `infill-lsp/${SERVER_VERSION}`,
      tell: (notice) => this.#channel.tell(notice),
    });
    this.#channel = new ClientChannel(client, {
      logLevel: () => settings().logLevel,
      redact: this.#provider.redact,
      capabilities: () => this.#capabilities,
    });
    const log = this.#channel.log;
    this.#settings = new SettingsStore({
      env,
      onProblem: (problem, firstTime) => {
        log.warn(problem);
        if (firstTime) this.#channel.show(MessageType.Warning, problem);
      },
      onChange: (next) => {
        log.debug(`settings: ${JSON.stringify({ ...next, baseUrl: next.baseUrl ?? "(default)" })}`);
        this.#provider.settingsChanged();
        this.#nextEdits.settingsChanged();
        if (!next.metrics) this.#costs.stop();
        configureGrammarIdle({ idleMs: next.grammarIdleSeconds * 1000 });
      },
    });
    // Idle grammars are let go with the tree-sitter runtime's memory, which a collection then returns.
    configureGrammarIdle({
      idleMs: this.#settings.current.grammarIdleSeconds * 1000,
      afterRelease: () => this.#garbage.soon(),
    });
    this.#documents = new Documents((message) => log.warn(message));
    const askTypes = typeDefinitionAsk(
      (method, params, token) => client.sendRequest(method, params, token),
      () => this.#documents.encoding,
    );
    this.#context = new ContextLoader({
      documents: this.#documents,
      workspace: this.#workspace,
      settings: () => settings().context,
      log,
      typeDefinitions: () => (answersTypeDefinitions(this.#capabilities) ? askTypes : undefined),
    });
    this.#usage = new UsageTracker({
      settings: () => ({
        provider: settings().provider,
        model: this.#provider.model(),
        prices: settings().prices,
        persist: settings().usage.persist,
        retentionChecks: settings().usage.retentionChecks,
        contextHoldout: settings().context.enabled ? settings().context.holdout : 0,
      }),
      workspaceOf: (uri) => this.#workspace.scopeOf(uri),
      buffer: (uri) => this.#documents.get(uri)?.buffer,
      clientReportsShown: () => clientReportsShown(this.#capabilities),
      directory: usageDirectory(env),
      serverVersion: SERVER_VERSION,
      log,
    });
    this.#completions = new Completions({
      documents: this.#documents,
      settings,
      ready: () => this.#settings.ready,
      provider: this.#provider,
      channel: this.#channel,
      usage: this.#usage,
      context: this.#context,
      costs: this.#costs,
      capabilities: () => this.#capabilities,
      log,
    });
    this.#engine = this.#completions.engine;
    this.#nextEdits = new NextEdits({
      documents: this.#documents,
      workspace: this.#workspace,
      context: this.#context,
      settings,
      keyOf: (provider, apiKeyEnv) => this.#provider.keyOf(provider, apiKeyEnv),
      userAgent: `infill-lsp/${SERVER_VERSION}`,
      tell: (notice) => this.#channel.tell(notice),
      log,
      capabilities: () => this.#capabilities,
      completionBusy: (uri, position) => this.#engine.busyAt(uri, position),
      prices: () => settings().prices,
      ready: () => this.#settings.ready,
      usage: (languageId, provider, model, delta) => this.#usage.nextEdit(languageId, provider, model, delta),
    });
  }

  /** Whether the client sends `workspace/didChangeWorkspaceFolders` (known once `initialize` is answered). */
  get followsWorkspaceFolders(): boolean {
    return Boolean(this.#capabilities.workspace?.workspaceFolders);
  }

  initialize(params: InitializeParams): InitializeResult {
    // What a client sends is not always what LSP says: anything but an object means no capabilities.
    this.#capabilities = isObject(params.capabilities) ? params.capabilities : {};
    this.#workspace.set(initialFolders(folderParams(params), homedir()));
    this.#documents.encoding = negotiateEncoding(this.#capabilities.general?.positionEncodings);
    this.#settings.initialize(params.initializationOptions);
    return initializeResult(this.#documents.encoding, SERVER_VERSION);
  }

  initialized(): void {
    const workspace = this.#capabilities.workspace;
    if (workspace?.didChangeConfiguration?.dynamicRegistration) {
      this.#client.client
        .register(DidChangeConfigurationNotification.type, { section: "infill" })
        .catch(() => {});
    }
    if (workspace?.didChangeWatchedFiles?.dynamicRegistration) {
      this.#client.client
        .register(DidChangeWatchedFilesNotification.type, { watchers: WATCHED_FILES })
        .catch(() => {});
    }
    this.#settings.after(async () => {
      this.#provider.checkKey();
      if (workspace?.configuration) await this.#pullSettings();
      // With a key (or the embedded sim), the first completion should not wait for the connection's set-up.
      this.#provider.warm();
    });
    preloadClient();
    this.#context.load().catch(() => {});
  }

  didChangeConfiguration(params: DidChangeConfigurationParams): void {
    void this.#pullSettings(params.settings);
  }

  didChangeWorkspaceFolders(event: WorkspaceFoldersChangeEvent): void {
    this.#workspace.change(event.added, event.removed);
    this.#nextEdits.policyChanged();
  }

  didChangeWatchedFiles({ changes }: DidChangeWatchedFilesParams): void {
    this.#context.loaded?.filesChanged(changes.map((change) => change.uri));
    this.#nextEdits.policyChanged();
  }

  didOpen(params: DidOpenTextDocumentParams): void {
    if (this.#malformed("textDocument/didOpen", "textDocument/didOpen", params)) return;
    const { uri } = params.textDocument;
    // Opened again (e.g. reloaded from disk): nothing remembered for the old text applies.
    this.#engine.forget(uri);
    syntaxDocumentGone(uri);
    this.#nextEdits.forget(uri);
    const reload = this.#documents.didOpen(params);
    syntaxDocumentOpened(this.#documents.get(uri)!);
    // What was taken there is followed into the new text.
    if (reload) this.#usage.changed(uri, [reload]);
    this.#context.loaded?.didOpen(uri);
  }

  didChange(params: DidChangeTextDocumentParams): void {
    if (this.#malformed("textDocument/didChange", "textDocument/didChange", params)) return;
    const { uri } = params.textDocument;
    const applied = this.#documents.didChange(params);
    if (!applied) {
      this.#channel.log.debug(`change for a document that is not open: ${uri}`);
      return;
    }
    const { from, changes } = applied;
    syntaxDocumentChanged(uri, changes);
    this.#engine.didChange(uri, from);
    this.#usage.changed(uri, changes);
    this.#context.loaded?.didChange(uri, from, lineDelta(changes));
    this.#nextEdits.didChange(uri, params.textDocument.version, changes);
  }

  didSave(params: DidSaveTextDocumentParams): void {
    if (!this.#malformed("textDocument/didSave", "document", params))
      this.#context.loaded?.didSave(params.textDocument.uri);
  }

  didClose(params: DidCloseTextDocumentParams): void {
    if (this.#malformed("textDocument/didClose", "document", params)) return;
    const { uri } = params.textDocument;
    const closing = this.#documents.get(uri);
    this.#engine.forget(uri);
    syntaxDocumentGone(uri);
    this.#nextEdits.forget(uri);
    this.#usage.closing(uri);
    this.#context.loaded?.didClose(uri, closing);
    this.#documents.didClose(uri);
    // A big buffer's text and what was made of it are garbage now, in the old generation: collect it.
    if (closing && closing.buffer.length >= BIG_BUFFER_CHARS) this.#garbage.soon();
  }

  completion(params: CompletionParams, token: CancellationToken): Promise<CompletionList> {
    return this.#completions.completion(params, token);
  }

  inlineCompletion(params: InlineCompletionParams, token: CancellationToken): Promise<InlineCompletionList> {
    return this.#completions.inlineCompletion(params, token);
  }

  /** `textDocument/copilotInlineEdit` (copilot-language-server's next edits, as copilot-lsp and sidekick.nvim ask). */
  copilotInlineEdit(params: unknown, token: CancellationToken): Promise<InlineEditList> {
    return this.#nextEdits.inlineEdit(params, token);
  }

  /** `textDocument/didShowInlineEdit`: the client showed a next edit. */
  didShowInlineEdit(params: unknown): void {
    this.#nextEdits.didShow(params);
  }

  /** `textDocument/codeAction`: next edits as `refactor.rewrite` actions, for editors that render no inline edits. */
  codeAction(params: CodeActionParams, token: CancellationToken): Promise<CodeAction[]> {
    return this.#nextEdits.codeActions(params, token);
  }

  executeCommand({ command, arguments: args }: ExecuteCommandParams): unknown {
    if (command === ACCEPTED_COMMAND || command === SHOWN_COMMAND || command === NEXT_EDIT_ACCEPTED_COMMAND) {
      try {
        if (command === ACCEPTED_COMMAND) this.#usage.accepted(args);
        else if (command === SHOWN_COMMAND) this.#usage.reportedShown(args);
        else this.#nextEdits.accepted(args);
      } catch (error) {
        return new ResponseError(ErrorCodes.InvalidParams, (error as Error).message);
      }
      return null;
    }
    if (command === STATUS_COMMAND) {
      const nextEdits = this.#nextEdits.figures();
      const status = { ...this.#usage.status(), ...(nextEdits ? { nextEdits } : {}) };
      const quiet = (args?.[0] as { message?: unknown } | undefined)?.message === false;
      if (!quiet) this.#channel.show(MessageType.Info, statusLine(status));
      return status;
    }
    return new ResponseError(
      ErrorCodes.InvalidParams,
      `infill-lsp has no command ${JSON.stringify(command)}`,
    );
  }

  /**
   * `infill/probe` (`:checkhealth infill`, and any client that wants to know): the provider, where requests go,
   * whether a tiny request succeeds, and the last failure. A success clears any backoff.
   */
  async probe(): Promise<ProbeAnswer> {
    await this.#settings.ready;
    return this.#provider.probe();
  }

  /** `infill/providers`: the providers the server knows and their defaults. */
  providers(): { providers: CatalogueEntry[] } {
    return { providers: providerCatalogue() };
  }

  /** `shutdown`: stop everything that runs on its own, write the usage counted, close the provider's client. */
  async shutdown(): Promise<void> {
    this.#engine.dispose();
    // Before usage is written: the next edits' last retention checks are counted there.
    const nextEdits = this.#nextEdits.shutdown();
    this.#usage.dispose();
    this.#costs.stop();
    this.#context.loaded?.dispose();
    await Promise.all([this.#provider.close(), nextEdits]);
  }

  /** Write the usage totals not written yet, synchronously: for the moment the process exits. */
  flushUsage(): void {
    this.#usage.flush();
  }

  async #pullSettings(pushed?: unknown): Promise<void> {
    const fetch = this.#capabilities.workspace?.configuration
      ? () => this.#client.workspace.getConfiguration({ section: "infill" })
      : undefined;
    await this.#settings.pull(fetch, pushed);
  }

  /** Whether a notification's params lack what the server reads (it is then ignored, with a warning). */
  #malformed(method: string, shape: ParamsShape, params: unknown): boolean {
    const problem = paramsProblem(shape, params);
    if (problem) this.#channel.log.warn(`infill: ignoring ${method}: ${problem}`);
    return problem !== undefined;
  }
}

function isObject(value: unknown): value is object {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
