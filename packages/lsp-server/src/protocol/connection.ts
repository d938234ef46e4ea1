import { homedir } from "node:os";
import { PROVIDER_INFO } from "@infill/core/provider-info";
import { usageDirectory } from "@infill/core/usage";
import {
  type CancellationToken,
  type ClientCapabilities,
  type CompletionList,
  type CompletionParams,
  CompletionTriggerKind,
  createConnection as createServerConnection,
  DidChangeConfigurationNotification,
  DidChangeWatchedFilesNotification,
  ErrorCodes,
  type InitializeParams,
  type InitializeResult,
  type InlineCompletionList,
  type InlineCompletionParams,
  InlineCompletionTriggerKind,
  LogMessageNotification,
  MessageType,
  type Position,
  ResponseError,
  ShowMessageNotification,
  TextDocumentSyncKind,
  type WatchDog,
} from "vscode-languageserver";
import { createProtocolConnection } from "vscode-languageserver/node";
import pkg from "../../package.json" with { type: "json" };
import {
  type Answer,
  CompletionEngine,
  type ContextSource,
  type RequestKind,
  type Trigger,
} from "../completion/engine.js";
import {
  PARTIAL_CAPABILITY,
  PARTIAL_NOTIFICATION,
  type PartialListener,
  partialResultToken,
} from "../completion/partial-results.js";
import { EMPTY_BLOCK } from "../context/block.js";
import type { RepositoryContext } from "../context/repository-context.js";
import { initialFolders, type WorkspaceFolderParam } from "../context/workspace.js";
import { Documents } from "../documents/documents.js";
import { negotiateEncoding, toClientCharacter } from "../documents/position-encoding.js";
import { createLogger, redactor } from "../log/logger.js";
import { defaultSettings, mergeSettings, type Settings, type SettingsLayer } from "../settings/settings.js";
import { ACCEPTED_COMMAND, STATUS_COMMAND } from "../stats/commands.js";
import { statusLine } from "../stats/status-line.js";
import { UsageTracker } from "../stats/usage-tracker.js";
import { workspaceOf } from "../stats/workspace-scope.js";
import {
  type FailureNotice,
  type FailureSubject,
  missingKeyNotice,
  UpstreamHealth,
} from "../upstream/health.js";
import { probe } from "../upstream/probe.js";
import {
  type ClosableUpstream,
  preloadClient,
  providerUpstream,
  simUpstream,
} from "../upstream/upstreams.js";
import { completionList, inlineItems, type Placement, wordBefore } from "./completion-items.js";
import { initializeOnce } from "./initialize-once.js";
import { folderParams, type ParamsShape, paramsProblem } from "./lsp-params.js";
import { FramedMessageReader } from "./message-reader.js";
import { FramedMessageWriter } from "./message-writer.js";

/** The server's version (the bundler inlines package.json). */
export const SERVER_VERSION: string = pkg.version;

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

/** Only start a `$/progress` report for upstream requests still running after this long, in ms (no flicker). */
const PROGRESS_DELAY_MS = 150;

/**
 * Start an infill language server on a pair of streams. All LSP handler wiring lives here; the work is done by
 * `Documents` (sync), `CompletionEngine` (requests) and the pure functions they call.
 */
export function startServer(options: ServerOptions): RunningServer {
  const env = options.env ?? process.env;
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

  const base = defaultSettings(env);
  let initLayer: SettingsLayer = {};
  let workspaceLayer: SettingsLayer = {};
  let settings: Settings = base;
  const reported = new Set<string>();
  // Every key the server has read: a message about an earlier provider may still be on its way.
  const keys = new Set<string>();
  const redact = redactor(() => [...keys]);
  const log = createLogger(
    (level, message) => {
      connection
        .sendNotification(LogMessageNotification.type, { type: LOG_TYPES[level], message })
        .catch(() => {});
    },
    () => settings.logLevel,
    redact,
  );
  // A notification, not `window/showMessageRequest`: nothing to answer, and no editor blocks on a prompt.
  const showMessage = (type: MessageType, message: string) => {
    connection.sendNotification(ShowMessageNotification.type, { type, message }).catch(() => {});
  };
  const tell = (notice: FailureNotice) => {
    const message = redact(notice.message);
    log.error(message);
    showMessage(notice.severity === "error" ? MessageType.Error : MessageType.Warning, message);
  };

  const documents = new Documents((message) => log.warn(message));
  const health = new UpstreamHealth(Date.now, () => subjectOf(settings));
  let clientCapabilities: ClientCapabilities = {};
  let upstream: { key: string; value: ClosableUpstream | undefined } | undefined;

  /** The key of the provider in use and the variable it comes from; none for the sim or a keyless provider. */
  const keyOf = (s: Settings): { variable: string | undefined; key: string | undefined } => {
    if (s.provider === "sim") return { variable: undefined, key: undefined };
    const variable = s.apiKeyEnv ?? PROVIDER_INFO[s.provider].apiKeyEnv;
    const key = variable === undefined ? undefined : env[variable]?.trim() || undefined;
    if (key) keys.add(key);
    return { variable, key };
  };

  const currentUpstream = (): ClosableUpstream | undefined => {
    const { provider, baseUrl, model, apiKeyEnv, allowInsecureHttp, timeoutMs } = settings;
    const key = JSON.stringify([provider, baseUrl, model, apiKeyEnv, allowInsecureHttp, timeoutMs]);
    if (upstream?.key === key) return upstream.value;
    void upstream?.value?.close();
    let value: ClosableUpstream | undefined;
    if (provider === "sim") value = simUpstream(timeoutMs);
    else {
      const { variable, key: apiKey } = keyOf(settings);
      // A provider that takes a key gets no upstream without one: the user is told once (checkKey).
      if (apiKey || variable === undefined) {
        value = providerUpstream({
          provider,
          // Always given, so the client never reads process.env behind the server's own environment.
          apiKey: apiKey ?? "",
          timeoutMs,
          // Interactive: the next keystroke is the retry. One quick retry still covers a stale pooled socket.
          maxRetries: 1,
          userAgent: `infill-lsp/${SERVER_VERSION}`,
          allowInsecureHttp,
          ...(baseUrl ? { baseURL: baseUrl } : {}),
          ...(model ? { model } : {}),
        });
      }
    }
    upstream = { key, value };
    return value;
  };

  const checkKey = () => {
    const { variable, key } = keyOf(settings);
    if (variable !== undefined && !key) {
      const notice = health.block(missingKeyNotice(subjectOf(settings)));
      if (notice) tell(notice);
    }
  };

  const applySettings = () => {
    const next = mergeSettings(base, initLayer, workspaceLayer);
    const changed = JSON.stringify(next) !== JSON.stringify(settings);
    settings = next;
    if (changed) {
      log.debug(`settings: ${JSON.stringify({ ...next, baseUrl: next.baseUrl ?? "(default)" })}`);
      health.reset();
      checkKey();
    }
  };

  // Settings are validated by a module loaded once `initialize` is answered (zod is the largest part of the
  // start-up otherwise); completions wait for the first settings to be read.
  let schema: Promise<typeof import("../settings/settings-schema.js")> | undefined;
  const loadSchema = () => {
    schema ??= import("../settings/settings-schema.js");
    return schema;
  };
  let settingsRead: Promise<void> = Promise.resolve();

  /** Read a layer; a known key with a bad value keeps its value from `previous` (the last good one). */
  const readLayer = async (
    raw: unknown,
    source: string,
    previous: SettingsLayer = {},
  ): Promise<SettingsLayer> => {
    const { parseLayer } = await loadSchema();
    const { layer, problems, rejected } = parseLayer(raw, source);
    for (const key of rejected) {
      const kept = previous[key as keyof SettingsLayer];
      if (kept !== undefined) (layer as Record<string, unknown>)[key] = kept;
    }
    for (const problem of problems) {
      log.warn(problem);
      if (reported.has(problem)) continue;
      reported.add(problem);
      showMessage(MessageType.Warning, problem);
    }
    return layer;
  };

  const pullConfiguration = async (pushed?: unknown) => {
    let raw: unknown = pushed;
    if (clientCapabilities.workspace?.configuration) {
      raw = await connection.workspace.getConfiguration({ section: "infill" }).catch(() => undefined);
    }
    workspaceLayer = await readLayer(raw ?? null, "workspace settings", workspaceLayer);
    applySettings();
  };

  // Repository context is loaded once `initialize` is answered (it brings the parsers and the file rules);
  // until then nothing depends on it, so document events before it only matter to the documents themselves.
  let workspaceFolders: WorkspaceFolderParam[] = [];
  let repository: RepositoryContext | undefined;
  let repositoryLoading: Promise<RepositoryContext> | undefined;
  const loadRepository = () => {
    repositoryLoading ??= import("../context/repository-context.js").then(({ RepositoryContext }) => {
      repository = new RepositoryContext({ documents, settings: () => settings.context, log });
      repository.workspace.set(workspaceFolders);
      // Documents opened while it loaded (an editor restores its tabs right after `initialize`).
      for (const doc of documents.all()) repository.didOpen(doc.uri);
      return repository;
    });
    return repositoryLoading;
  };
  // Context that cannot be had (its module failed to load) means prompts without it, never no completion.
  let contextBroken = false;
  const context: ContextSource = {
    block: async (doc, position, budget) => {
      try {
        return await (await loadRepository()).block(doc, position, budget);
      } catch (error) {
        if (!contextBroken) log.error(`repository context is off: ${String(error)}`);
        contextBroken = true;
        return { block: EMPTY_BLOCK, ms: 0, recomputed: false };
      }
    },
  };

  const usage = new UsageTracker({
    settings: () => ({
      provider: settings.provider,
      model: modelOf(settings),
      prices: settings.prices,
      persist: settings.usage.persist,
    }),
    workspaceOf: (uri) => workspaceOf(workspaceFolders, uri),
    directory: usageDirectory(env),
    serverVersion: SERVER_VERSION,
    log,
  });

  const engine = new CompletionEngine({
    documents,
    upstream: currentUpstream,
    settings: () => settings,
    health,
    onFailure: tell,
    log,
    onUpstream: (uri) => {
      const progressDone = startProgress();
      const counted = usage.upstream(uri);
      return (end) => {
        progressDone();
        counted(end);
      };
    },
    onTypedThrough: (suggestion, chars) => usage.typedThrough(suggestion, chars),
    context,
  });

  const startProgress = (): (() => void) => {
    if (!clientCapabilities.window?.workDoneProgress) return () => {};
    let finished = false;
    let end: (() => void) | undefined;
    const timer = setTimeout(() => {
      connection.window
        .createWorkDoneProgress()
        .then((progress) => {
          progress.begin("infill", undefined, "completing…");
          // Finished while the client was creating the token: still a well-formed begin/end pair.
          if (finished) progress.done();
          else end = () => progress.done();
        })
        .catch(() => {});
    }, PROGRESS_DELAY_MS);
    timer.unref?.();
    return () => {
      finished = true;
      clearTimeout(timer);
      end?.();
    };
  };

  connection.onInitialize((params: InitializeParams): InitializeResult => {
    // What a client sends is not always what LSP says: anything but an object means no capabilities.
    clientCapabilities = isObject(params.capabilities) ? params.capabilities : {};
    workspaceFolders = initialFolders(folderParams(params), homedir());
    documents.encoding = negotiateEncoding(clientCapabilities.general?.positionEncodings);
    const init = params.initializationOptions as Record<string, unknown> | null | undefined;
    // Editors put their own keys next to ours; the server's keys may also sit under an `infill` section.
    const ours = init && typeof init === "object" && "infill" in init ? init.infill : init;
    settingsRead = readLayer(ours ?? null, "initializationOptions").then((layer) => {
      initLayer = layer;
      applySettings();
    });
    return {
      capabilities: {
        positionEncoding: documents.encoding,
        textDocumentSync: {
          openClose: true,
          change: TextDocumentSyncKind.Incremental,
          // Saves refresh the repository context that depends on the saved file.
          save: { includeText: false },
        },
        workspace: { workspaceFolders: { supported: true, changeNotifications: true } },
        completionProvider: { resolveProvider: false },
        inlineCompletionProvider: true,
        executeCommandProvider: { commands: [ACCEPTED_COMMAND, STATUS_COMMAND] },
        experimental: PARTIAL_CAPABILITY,
      },
      serverInfo: { name: "infill-lsp", version: SERVER_VERSION },
    };
  });

  connection.onInitialized(() => {
    if (clientCapabilities.workspace?.didChangeConfiguration?.dynamicRegistration) {
      connection.client
        .register(DidChangeConfigurationNotification.type, { section: "infill" })
        .catch(() => {});
    }
    settingsRead = settingsRead.then(async () => {
      checkKey();
      if (clientCapabilities.workspace?.configuration) await pullConfiguration();
      // With a key (or the embedded sim), the first completion should not wait for the connection's set-up.
      if (settings.preconnect && !health.isBlocked()) currentUpstream()?.warm?.();
    });
    preloadClient();
    loadRepository().catch(() => {});
    if (clientCapabilities.workspace?.workspaceFolders) {
      connection.workspace.onDidChangeWorkspaceFolders(({ added, removed }) => {
        const gone = new Set(removed.map((folder) => folder.uri));
        workspaceFolders = [...workspaceFolders.filter((folder) => !gone.has(folder.uri)), ...added];
        repository?.workspace.change(added, removed);
        repository?.foldersChanged();
      });
    }
    if (clientCapabilities.workspace?.didChangeWatchedFiles?.dynamicRegistration) {
      connection.client
        .register(DidChangeWatchedFilesNotification.type, { watchers: WATCHED_FILES })
        .catch(() => {});
    }
  });

  connection.onDidChangeWatchedFiles(({ changes }) => {
    repository?.filesChanged(changes.map((change) => change.uri));
  });

  connection.onDidChangeConfiguration((params) => {
    // Like initializationOptions: our keys at the top, or under an `infill` section.
    const settings = params.settings as Record<string, unknown> | null | undefined;
    void pullConfiguration(
      settings && typeof settings === "object" && "infill" in settings ? settings.infill : settings,
    );
  });

  /** Whether a notification's params lack what the server reads (it is then ignored, with a warning). */
  const malformed = (method: string, shape: ParamsShape, params: unknown): boolean => {
    const problem = paramsProblem(shape, params);
    if (problem) log.warn(`infill: ignoring ${method}: ${problem}`);
    return problem !== undefined;
  };

  connection.onDidOpenTextDocument((params) => {
    if (malformed("textDocument/didOpen", "textDocument/didOpen", params)) return;
    // Opened again (e.g. reloaded from disk): nothing remembered for the old text applies.
    engine.forget(params.textDocument.uri);
    documents.didOpen(params);
    repository?.didOpen(params.textDocument.uri);
  });
  connection.onDidChangeTextDocument((params) => {
    if (malformed("textDocument/didChange", "textDocument/didChange", params)) return;
    const from = documents.didChange(params);
    if (from) {
      engine.didChange(params.textDocument.uri, from);
      repository?.didChange(params.textDocument.uri, from.line);
    } else log.debug(`change for a document that is not open: ${params.textDocument.uri}`);
  });
  connection.onDidSaveTextDocument((params) => {
    if (!malformed("textDocument/didSave", "document", params)) repository?.didSave(params.textDocument.uri);
  });
  connection.onDidCloseTextDocument((params) => {
    if (malformed("textDocument/didClose", "document", params)) return;
    const { textDocument } = params;
    engine.forget(textDocument.uri);
    repository?.didClose(textDocument.uri, documents.get(textDocument.uri));
    documents.didClose(textDocument.uri);
  });

  const answer = async (
    uri: string,
    position: Position,
    token: CancellationToken,
    kind: RequestKind,
    trigger: Trigger,
    onPartial?: PartialListener,
  ) => {
    await settingsRead;
    const result = await engine.complete(uri, position, token, kind, trigger, onPartial);
    if (result.kind === "none") {
      log.debug(`no suggestion: ${result.reason}`);
      return undefined;
    }
    if (settings.metrics) sendMetrics(uri, result);
    const shown = usage.shown(uri, result.suggestion, result.text, result.latencyMs);
    const place = placement(uri, result);
    return place && { ...place, accept: shown };
  };

  const placement = (
    uri: string,
    result: Pick<Extract<Answer, { kind: "suggestion" }>, "text" | "replaceEnd" | "position">,
  ): Placement | undefined => {
    const doc = documents.get(uri);
    if (!doc || result.position.line >= doc.buffer.lineCount) return undefined;
    const line = doc.buffer.lineAt(result.position.line);
    const { character } = result.position;
    const word = wordBefore(line.slice(0, character));
    const encode = (utf16: number) => toClientCharacter(line, utf16, documents.encoding);
    const cursor = encode(character);
    return {
      text: result.text,
      position: { line: result.position.line, character: cursor },
      end: {
        line: result.position.line,
        character: encode(Math.min(line.length, character + result.replaceEnd)),
      },
      wordBefore: word,
      wordBeforeLength: cursor - encode(character - word.length),
    };
  };

  const sendMetrics = (uri: string, result: Extract<Answer, { kind: "suggestion" }>) => {
    connection
      .sendNotification("$/infill/metrics", {
        uri,
        source: result.source,
        latencyMs: Math.round(result.latencyMs * 100) / 100,
        upstreamMs: result.upstreamMs === undefined ? null : Math.round(result.upstreamMs * 100) / 100,
        usage: result.usage ?? null,
        context: result.context ?? null,
        debounceMs: result.debounceMs ?? null,
      })
      .catch(() => {});
  };

  /** Refuse a completion request whose params lack what the server reads, naming the field. */
  const checkPositionParams = (method: string, params: unknown) => {
    const problem = paramsProblem("position", params);
    if (problem) throw new ResponseError(ErrorCodes.InvalidParams, `infill: ${method}: ${problem}`);
  };

  connection.onCompletion(async (params: CompletionParams, token): Promise<CompletionList> => {
    checkPositionParams("textDocument/completion", params);
    // LSP's Invoked also covers "typing an identifier" in some clients; they debounce before asking anyway.
    const trigger = params.context?.triggerKind === CompletionTriggerKind.Invoked ? "invoked" : "automatic";
    const place = await answer(params.textDocument.uri, params.position, token, "completion", trigger);
    return place ? completionList(place) : { isIncomplete: true, items: [] };
  });

  connection.languages.inlineCompletion.on(
    async (params: InlineCompletionParams, token): Promise<InlineCompletionList> => {
      checkPositionParams("textDocument/inlineCompletion", params);
      const { uri } = params.textDocument;
      const trigger =
        params.context?.triggerKind === InlineCompletionTriggerKind.Invoked ? "invoked" : "automatic";
      // Partial results (opt-in): the lines settled so far, inserted at the cursor (what they replace comes with
      // the answer).
      const partialToken = partialResultToken(clientCapabilities, params);
      const onPartial: PartialListener | undefined =
        partialToken === undefined
          ? undefined
          : (partial) => {
              const place = placement(uri, { ...partial, replaceEnd: 0 });
              if (!place) return;
              connection
                .sendNotification(PARTIAL_NOTIFICATION, { token: partialToken, items: inlineItems(place) })
                .catch(() => {});
            };
      const place = await answer(uri, params.position, token, "inline", trigger, onPartial);
      return { items: place ? inlineItems(place) : [] };
    },
  );

  // `:checkhealth infill` (and any client that wants to know): the provider, where requests go, and whether a
  // tiny request succeeds. A success clears any backoff, so completions resume at once.
  connection.onRequest("infill/probe", async () => {
    await settingsRead;
    const result = await probe(currentUpstream(), subjectOf(settings), settings.baseUrl);
    if (result.ok) health.success();
    return { ...result, error: result.error === null ? null : redact(result.error) };
  });

  connection.onExecuteCommand(({ command, arguments: args }) => {
    if (command === ACCEPTED_COMMAND) {
      try {
        usage.accepted(args);
      } catch (error) {
        return new ResponseError(ErrorCodes.InvalidParams, (error as Error).message);
      }
      return null;
    }
    if (command === STATUS_COMMAND) {
      const status = usage.status();
      const quiet = (args?.[0] as { message?: unknown } | undefined)?.message === false;
      if (!quiet) showMessage(MessageType.Info, statusLine(status));
      return status;
    }
    return new ResponseError(
      ErrorCodes.InvalidParams,
      `infill-lsp has no command ${JSON.stringify(command)}`,
    );
  });

  connection.onShutdown(async () => {
    engine.dispose();
    usage.dispose();
    repository?.dispose();
    await upstream?.value?.close();
    upstream = undefined;
  });

  connection.listen();

  return {
    async dispose() {
      engine.dispose();
      usage.dispose();
      repository?.dispose();
      await upstream?.value?.close();
      upstream = undefined;
      connection.dispose();
    },
    flushUsage: () => usage.flush(),
  };
}

/** Files whose changes on disk matter to repository context: sources of the resolved languages and their
 * project files. */
const WATCHED_FILES = [
  { globPattern: "**/*.{ts,tsx,mts,cts,js,jsx,mjs,cjs,py,pyi,go,rs,lua}" },
  {
    globPattern:
      "**/{tsconfig.json,jsconfig.json,go.mod,Cargo.toml,package.json,pnpm-workspace.yaml,lerna.json,.gitignore}",
  },
];

/** The provider in use, as the notices name it. */
function subjectOf(settings: Settings): FailureSubject {
  if (settings.provider === "sim") {
    return { provider: "sim", label: "the embedded simulator", model: settings.model, apiKeyEnv: undefined };
  }
  const info = PROVIDER_INFO[settings.provider];
  return {
    provider: settings.provider,
    label: info.label,
    model: settings.model ?? info.defaultModel,
    apiKeyEnv: settings.apiKeyEnv ?? info.apiKeyEnv,
  };
}

/** The model requests go to, as the usage figures name it: the setting, else the provider's default. */
function modelOf(settings: Settings): string {
  // The embedded simulator is asked as DeepSeek, with DeepSeek's default model.
  if (settings.provider === "sim") return PROVIDER_INFO.deepseek.defaultModel!;
  return (
    settings.model ?? PROVIDER_INFO[settings.provider].defaultModel ?? `(${settings.provider}'s own model)`
  );
}

function isObject(value: unknown): value is object {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

const LOG_TYPES = {
  error: MessageType.Error,
  warn: MessageType.Warning,
  info: MessageType.Info,
  debug: MessageType.Log,
} as const;
