import {
  type CancellationToken,
  type ClientCapabilities,
  type CompletionList,
  type CompletionParams,
  CompletionTriggerKind,
  ErrorCodes,
  type InlineCompletionList,
  type InlineCompletionParams,
  InlineCompletionTriggerKind,
  type Position,
  ResponseError,
} from "vscode-languageserver";
import type { RequestKind, Trigger } from "../completion/answer.js";
import { CompletionEngine } from "../completion/engine.js";
import type { PartialListener } from "../completion/partial-feed.js";
import type { Suggestion } from "../completion/type-through.js";
import type { ContextLoader } from "../context/context-loader.js";
import type { Documents } from "../documents/documents.js";
import type { Logger } from "../log/logger.js";
import type { Settings } from "../settings/settings.js";
import type { RequestCosts } from "../stats/request-cost.js";
import type { UsageTracker } from "../stats/usage-tracker.js";
import type { FailureNotice } from "../upstream/failure-notice.js";
import type { ProviderSession } from "../upstream/provider-session.js";
import type { ClientChannel } from "./client-channel.js";
import { completionList, inlineItems, type Placement } from "./completion-items.js";
import { paramsProblem } from "./lsp-params.js";
import { partialResultToken } from "./partial-results.js";
import { placementIn } from "./placement.js";

/** Collaborators of {@link Completions}. */
export interface CompletionsOptions {
  documents: Documents;
  settings: () => Settings;
  /** Settles once the settings are read (requests wait for it). */
  ready: () => Promise<unknown>;
  provider: ProviderSession;
  channel: ClientChannel;
  usage: UsageTracker;
  context: ContextLoader;
  costs: RequestCosts;
  capabilities: () => ClientCapabilities;
  log: Logger;
}

/**
 * Completions at the LSP edge: `textDocument/completion` and `textDocument/inlineCompletion` checked, run through
 * the completion engine (metered when `metrics` is on), counted, and placed in LSP's terms. `InfillServer` forwards
 * each message here, and each document change to {@link engine}.
 */
export class Completions {
  readonly engine: CompletionEngine;
  readonly #options: CompletionsOptions;

  constructor(options: CompletionsOptions) {
    this.#options = options;
    const { documents, provider, channel, usage, settings } = options;
    this.engine = new CompletionEngine({
      documents,
      upstream: () => provider.upstream(),
      settings,
      health: provider.health,
      onFailure: (notice: FailureNotice) => channel.tell(notice),
      log: options.log,
      onUpstream: (uri, arm) => {
        const progressDone = channel.progress();
        const counted = usage.upstream(uri, documents.get(uri)?.languageId ?? "", arm);
        return (end) => {
          progressDone();
          counted(end);
        };
      },
      onTypedThrough: (suggestion, chars) => usage.typedThrough(suggestion, chars),
      context: options.context,
    });
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
    const { documents, channel } = this.#options;
    const trigger =
      params.context?.triggerKind === InlineCompletionTriggerKind.Invoked ? "invoked" : "automatic";
    // Partial results (opt-in): the lines settled so far, inserted at the cursor (what they replace comes with the
    // answer).
    const partialToken = partialResultToken(this.#options.capabilities(), params);
    const onPartial: PartialListener | undefined =
      partialToken === undefined
        ? undefined
        : (partial) => {
            const doc = documents.get(uri);
            const place = doc && placementIn(doc, { ...partial, replaceEnd: 0 }, documents.encoding);
            if (place) channel.partial(partialToken, inlineItems(place));
          };
    const placed = await this.#answer(uri, params.position, token, "inline", trigger, onPartial);
    return { items: placed ? inlineItems(placed.place, placed.alternatives) : [] };
  }

  async #answer(
    uri: string,
    position: Position,
    token: CancellationToken,
    kind: RequestKind,
    trigger: Trigger,
    onPartial?: PartialListener,
  ): Promise<{ place: Placement; alternatives: Placement[] } | undefined> {
    const { documents, usage, channel } = this.#options;
    await this.#options.ready();
    const metered = this.#options.settings().metrics ? this.#options.costs.begin() : undefined;
    const result = await this.engine.complete(uri, position, token, kind, trigger, onPartial);
    const cost = metered?.();
    if (result.kind === "none") {
      this.#options.log.debug(`no suggestion: ${result.reason}`);
      usage.noAnswer(uri, result.reason);
      return undefined;
    }
    if (cost) channel.metrics(uri, result, cost);
    const doc = documents.get(uri);
    if (!doc) return undefined;
    const placed = (text: string, replaceEnd: number, suggestion: Suggestion): Placement | undefined => {
      const { position, latencyMs } = result;
      const accept = usage.answered(uri, doc.languageId, suggestion, text, position, latencyMs);
      const place = placementIn(doc, { text, position, replaceEnd }, documents.encoding);
      return place && { ...place, accept };
    };
    const place = placed(result.text, result.replaceEnd, result.suggestion);
    if (!place) return undefined;
    const alternatives = (result.alternatives ?? []).flatMap(
      (a) => placed(a.text, a.replaceEnd, a.suggestion) ?? [],
    );
    return { place, alternatives };
  }
}

/** Refuse a completion request whose params lack what the server reads, naming the field. */
function checkPosition(method: string, params: unknown): void {
  const problem = paramsProblem("position", params);
  if (problem) throw new ResponseError(ErrorCodes.InvalidParams, `infill: ${method}: ${problem}`);
}
