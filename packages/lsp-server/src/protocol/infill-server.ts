import { homedir } from "node:os";
import { usageDirectory } from "@infill/core/usage";
import {
  type CancellationToken,
  type ClientCapabilities,
  type CompletionList,
  type CompletionParams,
  CompletionTriggerKind,
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
  InlineCompletionTriggerKind,
  MessageType,
  type Position,
  type ProtocolNotificationType,
  ResponseError,
  type WorkspaceFoldersChangeEvent,
} from "vscode-languageserver";
import type { RequestKind, Trigger } from "../completion/answer.js";
import { CompletionEngine } from "../completion/engine.js";
import type { PartialListener } from "../completion/partial-feed.js";
import type { Suggestion } from "../completion/type-through.js";
import { ContextLoader } from "../context/context-loader.js";
import { WATCHED_FILES } from "../context/files/watched-files.js";
import { configureGrammarIdle } from "../context/syntax/idle-grammars.js";
import { Documents } from "../documents/documents.js";
import { negotiateEncoding } from "../documents/position-encoding.js";
import { SettingsStore } from "../settings/settings-store.js";
import { ACCEPTED_COMMAND, SHOWN_COMMAND, STATUS_COMMAND } from "../stats/commands.js";
import { statusLine } from "../stats/status-line.js";
import { UsageTracker } from "../stats/usage-tracker.js";
import { type CatalogueEntry, providerCatalogue } from "../upstream/provider-catalogue.js";
import { type ProbeAnswer, ProviderSession } from "../upstream/provider-session.js";
import { preloadClient } from "../upstream/upstreams.js";
import { initialFolders, Workspace } from "../workspace/workspace.js";
import { initializeResult } from "./capabilities.js";
import { ClientChannel, type ClientConnection } from "./client-channel.js";
import { completionList, inlineItems, type Placement } from "./completion-items.js";
import { GarbageCollector } from "./garbage-collector.js";
import { folderParams, type ParamsShape, paramsProblem } from "./lsp-params.js";
import { partialResultToken } from "./partial-results.js";
import { placementIn } from "./placement.js";
import { SERVER_VERSION } from "./server-version.js";
import { clientReportsShown } from "./shown-reports.js";

/**
 * The connection to the client as the server uses it (vscode-languageserver's `Connection` fits): notifications
 * and progress (through {@link ClientChannel}), registrations, and its configuration.
 */
export interface LspClient extends ClientConnection {
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
  readonly #engine: CompletionEngine;
  readonly #garbage = new GarbageCollector();
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
        configureGrammarIdle({ idleMs: next.grammarIdleSeconds * 1000 });
      },
    });
    // Idle grammars are let go with the tree-sitter runtime's memory, which a collection then returns.
    configureGrammarIdle({
      idleMs: this.#settings.current.grammarIdleSeconds * 1000,
      afterRelease: () => this.#garbage.soon(),
    });
    this.#documents = new Documents((message) => log.warn(message));
    this.#context = new ContextLoader({
      documents: this.#documents,
      workspace: this.#workspace,
      settings: () => settings().context,
      log,
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
    this.#engine = new CompletionEngine({
      documents: this.#documents,
      upstream: () => this.#provider.upstream(),
      settings,
      health: this.#provider.health,
      onFailure: (notice) => this.#channel.tell(notice),
      log,
      onUpstream: (uri, arm) => {
        const progressDone = this.#channel.progress();
        const counted = this.#usage.upstream(uri, this.#documents.get(uri)?.languageId ?? "", arm);
        return (end) => {
          progressDone();
          counted(end);
        };
      },
      onTypedThrough: (suggestion, chars) => this.#usage.typedThrough(suggestion, chars),
      context: this.#context,
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
  }

  didChangeWatchedFiles({ changes }: DidChangeWatchedFilesParams): void {
    this.#context.loaded?.filesChanged(changes.map((change) => change.uri));
  }

  didOpen(params: DidOpenTextDocumentParams): void {
    if (this.#malformed("textDocument/didOpen", "textDocument/didOpen", params)) return;
    const { uri } = params.textDocument;
    // Opened again (e.g. reloaded from disk): nothing remembered for the old text applies.
    this.#engine.forget(uri);
    const reload = this.#documents.didOpen(params);
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
    this.#engine.didChange(uri, from);
    this.#usage.changed(uri, changes);
    this.#context.loaded?.didChange(uri, from.line);
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
    this.#usage.closing(uri);
    this.#context.loaded?.didClose(uri, closing);
    this.#documents.didClose(uri);
    // A big buffer's text and what was made of it are garbage now, in the old generation: collect it.
    if (closing && closing.buffer.length >= BIG_BUFFER_CHARS) this.#garbage.soon();
  }

  async completion(params: CompletionParams, token: CancellationToken): Promise<CompletionList> {
    checkPosition("textDocument/completion", params);
    // LSP's Invoked also covers "typing an identifier" in some clients; they debounce before asking anyway.
    const trigger = params.context?.triggerKind === CompletionTriggerKind.Invoked ? "invoked" : "automatic";
    const placed = await this.#answer(params.textDocument.uri, params.position, token, "completion", trigger);
    return placed ? completionList(placed.place, placed.alternatives) : { isIncomplete: true, items: [] };
  }

  async inlineCompletion(
    params: InlineCompletionParams,
    token: CancellationToken,
  ): Promise<InlineCompletionList> {
    checkPosition("textDocument/inlineCompletion", params);
    const { uri } = params.textDocument;
    const trigger =
      params.context?.triggerKind === InlineCompletionTriggerKind.Invoked ? "invoked" : "automatic";
    // Partial results (opt-in): the lines settled so far, inserted at the cursor (what they replace comes with the
    // answer).
    const partialToken = partialResultToken(this.#capabilities, params);
    const onPartial: PartialListener | undefined =
      partialToken === undefined
        ? undefined
        : (partial) => {
            const doc = this.#documents.get(uri);
            const place = doc && placementIn(doc, { ...partial, replaceEnd: 0 }, this.#documents.encoding);
            if (place) this.#channel.partial(partialToken, inlineItems(place));
          };
    const placed = await this.#answer(uri, params.position, token, "inline", trigger, onPartial);
    return { items: placed ? inlineItems(placed.place, placed.alternatives) : [] };
  }

  executeCommand({ command, arguments: args }: ExecuteCommandParams): unknown {
    if (command === ACCEPTED_COMMAND || command === SHOWN_COMMAND) {
      try {
        if (command === ACCEPTED_COMMAND) this.#usage.accepted(args);
        else this.#usage.reportedShown(args);
      } catch (error) {
        return new ResponseError(ErrorCodes.InvalidParams, (error as Error).message);
      }
      return null;
    }
    if (command === STATUS_COMMAND) {
      const status = this.#usage.status();
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
    this.#usage.dispose();
    this.#context.loaded?.dispose();
    await this.#provider.close();
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

  async #answer(
    uri: string,
    position: Position,
    token: CancellationToken,
    kind: RequestKind,
    trigger: Trigger,
    onPartial?: PartialListener,
  ): Promise<{ place: Placement; alternatives: Placement[] } | undefined> {
    await this.#settings.ready;
    const result = await this.#engine.complete(uri, position, token, kind, trigger, onPartial);
    if (result.kind === "none") {
      this.#channel.log.debug(`no suggestion: ${result.reason}`);
      this.#usage.noAnswer(uri, result.reason);
      return undefined;
    }
    if (this.#settings.current.metrics) this.#channel.metrics(uri, result);
    const doc = this.#documents.get(uri);
    if (!doc) return undefined;
    const placed = (text: string, replaceEnd: number, suggestion: Suggestion): Placement | undefined => {
      const { position, latencyMs } = result;
      const accept = this.#usage.answered(uri, doc.languageId, suggestion, text, position, latencyMs);
      const place = placementIn(doc, { text, position, replaceEnd }, this.#documents.encoding);
      return place && { ...place, accept };
    };
    const place = placed(result.text, result.replaceEnd, result.suggestion);
    if (!place) return undefined;
    const alternatives = (result.alternatives ?? []).flatMap(
      (a) => placed(a.text, a.replaceEnd, a.suggestion) ?? [],
    );
    return { place, alternatives };
  }

  /** Whether a notification's params lack what the server reads (it is then ignored, with a warning). */
  #malformed(method: string, shape: ParamsShape, params: unknown): boolean {
    const problem = paramsProblem(shape, params);
    if (problem) this.#channel.log.warn(`infill: ignoring ${method}: ${problem}`);
    return problem !== undefined;
  }
}

/** Refuse a completion request whose params lack what the server reads, naming the field. */
function checkPosition(method: string, params: unknown): void {
  const problem = paramsProblem("position", params);
  if (problem) throw new ResponseError(ErrorCodes.InvalidParams, `infill: ${method}: ${problem}`);
}

function isObject(value: unknown): value is object {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
