import { basename } from "node:path";
import { PROVIDER_INFO } from "@infill/core/provider-info";
import type { UsageTotals } from "@infill/core/usage";
import {
  type CancellationToken,
  CancellationTokenSource,
  type ClientCapabilities,
  type CodeAction,
  type CodeActionParams,
  CodeActionTriggerKind,
  ErrorCodes,
  type Position,
  ResponseError,
} from "vscode-languageserver";
import type { ContextLoader } from "../context/context-loader.js";
import type { Documents } from "../documents/documents.js";
import type { AppliedChange } from "../documents/position-map.js";
import type { Logger } from "../log/logger.js";
import { EditHistory } from "../next-edit/history/edit-history.js";
import type { NextEditEngine } from "../next-edit/next-edit-engine.js";
import { isEnabledFor, type Settings } from "../settings/settings.js";
import { NextEditStats } from "../stats/next-edit-stats.js";
import type { NextEditFigures } from "../stats/status-schema.js";
import { EditSession, type EditSessionOptions } from "../upstream/edit-session.js";
import type { FailureNotice } from "../upstream/failure-notice.js";
import { uriToPath, type Workspace } from "../workspace/workspace.js";
import { type InlineEditList, inlineEditList } from "./inline-edits.js";
import { type ParamsShape, paramsProblem } from "./lsp-params.js";
import { NEXT_EDIT_ACTION_KIND, nextEditActions, offeredEdits } from "./next-edit-actions.js";

/** How long a code action the user may have asked for waits for the next edit's request, ms (Helix and Eglot wait). */
const INVOKED_ACTION_WAIT_MS = 5000;

/** Collaborators of {@link NextEdits}. */
export interface NextEditsOptions {
  documents: Documents;
  workspace: Workspace;
  /** The repository context, for its file policy (the history and the requests leave excluded files out). */
  context: ContextLoader;
  settings: () => Settings;
  keyOf: EditSessionOptions["keyOf"];
  userAgent: string;
  tell: (notice: FailureNotice) => void;
  log: Logger;
  capabilities: () => ClientCapabilities;
  /** Whether a completion is showing or in flight at this place (the completion engine knows). */
  completionBusy: (uri: string, position: Position) => boolean;
  /** The `prices` setting. */
  prices: () => Settings["prices"];
  /** Settles once the settings are read (requests wait for it). */
  ready: () => Promise<unknown>;
  /** Writes next edits' usage to the usage log (`UsageTracker.nextEdit`). */
  usage: (languageId: string, provider: string, model: string, delta: UsageTotals) => void;
}

/**
 * Next-edit suggestions at the LSP edge: the history fed from `didChange`, the engine, the edit model's session and
 * the counts, and the messages clients send for them — `textDocument/copilotInlineEdit` (copilot-lsp, sidekick.nvim),
 * `textDocument/didShowInlineEdit`, the accept command, and code actions for editors that render none of that.
 * `InfillServer` forwards each message here.
 */
export class NextEdits {
  readonly #history: EditHistory;
  readonly #session: EditSession;
  readonly #stats: NextEditStats;
  /** The engine, formats and regions: loaded once next edits are on (they are off by default). */
  #engine: NextEditEngine | undefined;
  #loading: Promise<NextEditEngine> | undefined;

  constructor(private readonly options: NextEditsOptions) {
    const { workspace, settings } = options;
    this.#history = new EditHistory({
      pathOf: (uri) => {
        const path = uriToPath(uri);
        return path === undefined ? undefined : workspace.relative(path);
      },
      mayUse: async (uri) => (await options.context.load()).mayUse(uri),
    });
    this.#session = new EditSession({
      settings,
      keyOf: options.keyOf,
      userAgent: options.userAgent,
      tell: options.tell,
    });
    const model = () => this.#session.subject().model ?? PROVIDER_INFO.deepseek.defaultModel!;
    this.#stats = new NextEditStats(
      () => ({ model: model(), prices: options.prices(), horizons: settings().usage.retentionChecks }),
      (delta, uri) => {
        const languageId = (uri && options.documents.get(uri)?.languageId) ?? "unknown";
        options.usage(languageId, this.#session.subject().provider, model(), delta);
      },
      (uri) => options.documents.get(uri)?.buffer,
    );
    void options.ready().then(() => this.#loadIfOn());
  }

  /** A `didChange` was applied to `uri`, making `version`: the history and the engine follow it. */
  didChange(uri: string, version: number, changes: readonly AppliedChange[]): void {
    const doc = this.options.documents.get(uri);
    if (!doc) return;
    this.#history.record(uri, changes, doc.buffer);
    // The places of edits applied before this change follow it first; the engine may report new ones after it.
    this.#stats.changed(uri, changes);
    if (this.#engine) this.#engine.didChange(uri, version, changes);
    else this.#loadIfOn();
  }

  /**
   * `uri` is closing or opened again (its old text still readable): its request is aborted and its answer dropped;
   * the history keeps its edits, but no later change joins them (the text may be another now); the edits applied
   * there are checked on that text.
   */
  forget(uri: string): void {
    this.#engine?.forget(uri);
    this.#history.documentGone(uri);
    this.#stats.closed(uri);
  }

  /** The settings changed: a fresh try upstream, and the file policy asked again. */
  settingsChanged(): void {
    this.#session.settingsChanged();
    this.#history.policyChanged();
    this.#loadIfOn();
  }

  /** The workspace folders or ignore files changed: the file policy is asked again. */
  policyChanged(): void {
    this.#history.policyChanged();
  }

  /**
   * `textDocument/copilotInlineEdit`: the edits for the document at the version the client names, nearest its
   * cursor first (copilot-lsp shows the first); `{ edits: [] }` for none, never null. The first edit counts as shown.
   */
  async inlineEdit(params: unknown, token?: CancellationToken): Promise<InlineEditList> {
    const checked = checkedParams("inlineEdit", "textDocument/copilotInlineEdit", params) as {
      textDocument: { uri: string; version?: number };
      position: Position;
    };
    await this.options.ready();
    const { uri, version } = checked.textDocument;
    const doc = this.options.documents.get(uri);
    const position = doc && this.options.documents.toUtf16(doc, checked.position);
    if (!doc || !position) return { edits: [] };
    if (!this.options.settings().nextEdit.enabled) return { edits: [] };
    const edits = await (await this.#load()).editsAt(uri, version, position, token);
    const now = this.options.documents.get(uri);
    if (!now || edits.length === 0) return { edits: [] };
    this.#stats.event(edits[0]!.id, "shown", uri);
    return inlineEditList(now, edits, this.options.documents.encoding);
  }

  /** `textDocument/didShowInlineEdit` (copilot-lsp): `{ item: { command } }`, the shown edit's command. */
  didShow(params: unknown): void {
    const id = (params as { item?: { command?: { arguments?: unknown[] } } } | null)?.item?.command
      ?.arguments?.[0];
    if (typeof id === "string") this.#stats.event(id, "shown");
    else this.options.log.debug("textDocument/didShowInlineEdit without an edit's command: ignored");
  }

  /** The accept command, with `[id]`. @throws Error naming what is wrong with the arguments. */
  accepted(args: unknown): void {
    const value = Array.isArray(args) ? args[0] : args;
    const id = typeof value === "object" && value !== null ? (value as { id?: unknown }).id : value;
    if (typeof id !== "string" || id === "")
      throw new Error("infill.nextEditAccepted: expected the edit's id, as [id]");
    this.#stats.event(id, "accepted");
  }

  /**
   * `textDocument/codeAction`: next edits as `refactor.rewrite` actions, by the request's `triggerKind`.
   * - Automatic (an editor asking by itself as the cursor moves): from memory, never a request, and only the edits
   *   on the lines asked about.
   * - Invoked (Helix's `space a`): waits, a few seconds at most, for the request of this version (asking it if nobody
   *   has); the edits on the lines, else the nearest one when the lines are in the region the model rewrote. They
   *   count as shown.
   * - Not said (Eglot 1.17 and lsp-mode send none, whether the user asked or not): waits as long for the pause and a
   *   request already under way, asking nothing of its own; then as invoked.
   */
  async codeActions(params: CodeActionParams, token?: CancellationToken): Promise<CodeAction[]> {
    checkedParams("textDocument/codeAction", "textDocument/codeAction", params);
    await this.options.ready();
    const { uri } = params.textDocument;
    const doc = this.options.documents.get(uri);
    const start = doc && this.options.documents.toUtf16(doc, params.range.start);
    if (!doc || !start || !this.options.settings().nextEdit.enabled) return [];
    const only = params.context?.only;
    if (only && !only.some((kind) => NEXT_EDIT_ACTION_KIND.startsWith(kind))) return [];
    const trigger = params.context?.triggerKind;
    const automatic = trigger === CodeActionTriggerKind.Automatic;
    const answer =
      this.#engine?.remembered(uri) ??
      (automatic
        ? undefined
        : await this.#waited(uri, start, token, trigger === CodeActionTriggerKind.Invoked));
    const now = this.options.documents.get(uri);
    if (!now || now.version !== doc.version) return [];
    const offered = offeredEdits(answer, start, params.range.end.line, automatic ? "lines" : "region");
    if (trigger === CodeActionTriggerKind.Invoked) {
      for (const { edit } of offered) this.#stats.event(edit.id, "shown", uri);
    }
    const documentChanges = Boolean(this.options.capabilities().workspace?.workspaceEdit?.documentChanges);
    return nextEditActions(now, offered, this.options.documents.encoding, documentChanges);
  }

  /** Next edits' figures for `infill.status`: while they are on, or once any was asked for. */
  figures(): NextEditFigures | undefined {
    const figures = this.#stats.figures();
    return this.options.settings().nextEdit.enabled || figures.requests > 0 ? figures : undefined;
  }

  /** Stop everything and close the edit model's client. */
  async shutdown(): Promise<void> {
    this.#engine?.dispose();
    this.#stats.dispose();
    await this.#session.close();
  }

  /** Load the engine when next edits are on (the first request also waits for it). */
  #loadIfOn(): void {
    if (!this.#loading && this.options.settings().nextEdit.enabled) void this.#load();
  }

  #load(): Promise<NextEditEngine> {
    this.#loading ??= Promise.all([
      import("../next-edit/next-edit-engine.js"),
      import("../next-edit/prompt/formats.js"),
    ]).then(([engine, formats]) => {
      this.#engine = this.#create(engine.NextEditEngine, formats.NEXT_EDIT_FORMATS);
      return this.#engine;
    });
    return this.#loading;
  }

  /** The engine, with the history, the edit model's session, the file policy and the counts. */
  #create(
    NextEditEngine: typeof import("../next-edit/next-edit-engine.js").NextEditEngine,
    NEXT_EDIT_FORMATS: typeof import("../next-edit/prompt/formats.js").NEXT_EDIT_FORMATS,
  ): NextEditEngine {
    const { documents, workspace, context, settings, log } = this.options;
    const stats = this.#stats;
    return new NextEditEngine({
      documents,
      events: () => this.#history.events(),
      settings: () => {
        const current = settings();
        return {
          enabled: current.nextEdit.enabled && current.enable,
          debounceMs: current.nextEdit.debounceMs,
          adaptive: current.adaptiveDebounce,
          maxRegionLines: current.nextEdit.maxRegionLines,
        };
      },
      target: () => {
        const target = this.#session.target();
        return target && { upstream: target.upstream, format: NEXT_EDIT_FORMATS[target.config.format] };
      },
      health: this.#session.health,
      onFailure: this.options.tell,
      excluded: async (uri) => {
        const doc = documents.get(uri);
        if (!doc || !isEnabledFor(settings(), doc.languageId)) return true;
        return (await context.load()).excludes(uri);
      },
      pathOf: (uri) => {
        const path = uriToPath(uri);
        return (path && (workspace.relative(path) ?? basename(path))) || uri;
      },
      completionBusy: this.options.completionBusy,
      hooks: {
        upstream: (uri) => stats.upstream(uri),
        malformed: (problem) => stats.malformed(problem),
        applied: (uri, edits) => {
          for (const edit of edits) stats.event(edit.id, "accepted", uri);
          stats.applied(uri, edits);
        },
        dropped: (uri, edits) => {
          for (const edit of edits) stats.event(edit.id, "dropped", uri);
        },
      },
      log,
    });
  }

  /**
   * The answer a code action waits for, at most {@link INVOKED_ACTION_WAIT_MS}: the pause's and its request's (asked
   * now if it gave way to a completion), or, when `ask`, one asked at once if nobody asked for this version.
   */
  async #waited(uri: string, position: Position, token: CancellationToken | undefined, ask: boolean) {
    const bounded = new CancellationTokenSource();
    const timer = setTimeout(() => bounded.cancel(), INVOKED_ACTION_WAIT_MS);
    const listener = token?.onCancellationRequested(() => bounded.cancel());
    try {
      const engine = await this.#load();
      return await engine.settled(
        uri,
        ask
          ? { token: bounded.token, ask: { position, invoked: true } }
          : { token: bounded.token, deferred: { position } },
      );
    } finally {
      clearTimeout(timer);
      listener?.dispose();
      bounded.dispose();
    }
  }
}

/** The params, when they have the shape the server reads. @throws ResponseError InvalidParams naming the field. */
function checkedParams(shape: ParamsShape, method: string, params: unknown): unknown {
  const problem = paramsProblem(shape, params);
  if (problem) throw new ResponseError(ErrorCodes.InvalidParams, `infill: ${method}: ${problem}`);
  return params;
}
