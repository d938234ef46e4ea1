import { classify } from "@infill/core/failure";
import {
  acceptanceRate,
  addTotals,
  appendUsageRecords,
  type ContextArm,
  cacheHitRatio,
  emptyTotals,
  localDay,
  type ModelPrice,
  PRICES_AS_OF,
  priceOf,
  type UsageKind,
  type UsageRecord,
  type UsageTotals,
  usageFile,
  usageLanguage,
  usageYield,
} from "@infill/core/usage";
import type { Position } from "vscode-languageserver";
import type { NoSuggestionReason } from "../completion/answer.js";
import { LatencyWindow } from "../completion/latency-window.js";
import type { Suggestion } from "../completion/type-through.js";
import { loadedGrammars } from "../context/syntax/runtime.js";
import type { AppliedChange } from "../documents/position-map.js";
import type { TextBuffer } from "../documents/text-buffer.js";
import type { Logger } from "../log/logger.js";
import type { UpstreamEnd } from "../upstream/upstream.js";
import type { Figures, Status } from "./status-schema.js";
import { SHOWN_AFTER_MS, type ShownSuggestion, SuggestionOutcomes } from "./suggestion-outcomes.js";
import type { Timers } from "./timers.js";
import { upstreamDelta } from "./usage-delta.js";

export type { ShownSuggestion } from "./suggestion-outcomes.js";

/** What the tracker reads from the settings, at each event. */
export interface UsageSettings {
  provider: string;
  model: string;
  /** Prices per million tokens that replace or add to the built-in ones, by model id. */
  prices: Readonly<Record<string, ModelPrice>>;
  /** Whether to write the day's totals to the usage log. */
  persist: boolean;
  /** When to check how much of a suggestion taken is still there, in seconds after it was first taken. */
  retentionChecks: readonly number[];
  /** The share of requests `context.holdout` sends without repository context (for the status). */
  contextHoldout: number;
}

/** Collaborators and knobs of a {@link UsageTracker}. */
export interface UsageTrackerOptions {
  settings: () => UsageSettings;
  /** The workspace folder (URI) a document belongs to; undefined when it is in none. */
  workspaceOf: (uri: string) => string | undefined;
  /** The text of an open document (accept inference and retention read it); undefined when it is not open. */
  buffer: (uri: string) => TextBuffer | undefined;
  /**
   * Whether the client says when it shows a suggestion (`infill.shown`; the Neovim plugin's ghost text). Otherwise a
   * suggestion counts as shown once it stayed answered and not replaced for {@link SHOWN_AFTER_MS}. Default false.
   */
  clientReportsShown?: () => boolean;
  /** The folder of the usage log; undefined: there is none (the environment names no home). */
  directory: string | undefined;
  /** The server's version, for the status. */
  serverVersion: string;
  log: Logger;
  /** The clock. Default `() => new Date()`. */
  now?: () => Date;
  /** How often pending totals are written, in ms. Default 5 minutes. */
  flushEveryMs?: number;
  /** The timers of the shown rule and the retention checks. Default: Node's, unref'ed. */
  timers?: Timers;
}

/** The arguments of `infill.accepted`: `[{ id, chars }]`, `chars` being how far into the suggestion it was taken. */
export interface AcceptedArguments {
  id: string;
  chars: number;
}

/** Counters of one scope: the process, a workspace folder, a model, a language, a context arm. */
class Bucket {
  readonly totals = emptyTotals();
  readonly failures: Record<string, number> = {};
  readonly endToEnd = new LatencyWindow();
  readonly upstream = new LatencyWindow();

  /** The figures, listing the retention `horizons` (seconds) even before any check ran. */
  figures(horizons: readonly number[]): Figures {
    const { retention: _byHorizon, acceptedCharsSq: _squares, ...totals } = this.totals;
    return {
      ...totals,
      cacheHitRatio: cacheHitRatio(this.totals),
      acceptanceRate: acceptanceRate(this.totals),
      ...usageYield(this.totals, horizons),
      failures: { ...this.failures },
      latency: { endToEnd: this.endToEnd.summary(), upstream: this.upstream.summary() },
    };
  }
}

/** Where a count goes: the scopes it is counted in. */
interface Scope {
  provider: string;
  model: string;
  workspace: string | undefined;
  /** The document's language (see `usageLanguage`). */
  language: string;
  /** Whether the request carried repository context. */
  context: ContextArm;
}

const FLUSH_EVERY_MS = 5 * 60_000;
/** Usage of the embedded simulator cost nothing and is not written to the log. */
const UNBILLED_PROVIDERS = new Set(["sim"]);

/**
 * The usage counters of one server: per process, per workspace folder, per model, per language and per context arm,
 * and the day's totals for the usage log. The rules of what counts how are the pure functions of usage-delta.ts,
 * and what becomes of each suggestion (shown, taken, kept) is followed by suggestion-outcomes.ts; this class routes
 * the counts to scopes and writes the log (every few minutes, when asked for the status, and when the server stops).
 */
export class UsageTracker {
  readonly #total = new Bucket();
  readonly #workspaces = new Map<string | undefined, Bucket>();
  readonly #models = new Map<string, { provider: string; model: string; bucket: Bucket }>();
  readonly #languages = new Map<string, Bucket>();
  readonly #contexts = new Map<ContextArm, Bucket>();
  /** Totals not yet written, by day, provider, model, language and context arm. */
  readonly #pending = new Map<string, UsageRecord>();
  readonly #outcomes: SuggestionOutcomes<Scope>;
  readonly #startedAt: Date;
  readonly #now: () => Date;
  readonly #timer: NodeJS.Timeout;
  #writeError: string | null = null;

  constructor(private readonly options: UsageTrackerOptions) {
    this.#now = options.now ?? (() => new Date());
    this.#startedAt = this.#now();
    this.#timer = setInterval(() => this.flush(), options.flushEveryMs ?? FLUSH_EVERY_MS);
    this.#timer.unref?.();
    this.#outcomes = new SuggestionOutcomes<Scope>({
      count: (scope, delta, latencyMs) => {
        const buckets = this.#add(scope, delta);
        if (latencyMs !== undefined) for (const bucket of buckets) bucket.endToEnd.add(latencyMs);
      },
      buffer: options.buffer,
      horizons: () => options.settings().retentionChecks,
      clientReportsShown: options.clientReportsShown ?? (() => false),
      ...(options.timers ? { timers: options.timers } : {}),
    });
  }

  /**
   * An upstream request for `uri` (a document of `languageId`) starts, with or without repository context; the
   * returned function records how it ended.
   */
  upstream(uri: string, languageId: string, arm: ContextArm): (end: UpstreamEnd) => void {
    const scope = this.#scope(uri, languageId, arm);
    const price = priceOf(scope.model, this.options.settings().prices);
    return (end) => {
      const buckets = this.#add(scope, upstreamDelta(end, price));
      for (const bucket of buckets) {
        if (end.outcome === "completed") bucket.upstream.add(end.ms);
        if (end.outcome === "failed") {
          const kind = classify(end.error)?.kind ?? "other";
          bucket.failures[kind] = (bucket.failures[kind] ?? 0) + 1;
        }
      }
    };
  }

  /**
   * Next edits' usage, for the log only (their figures are `NextEditStats`', beside the completion ones): what `delta`
   * adds for a document of `languageId` asked of the next-edit `provider` and `model`, under kind `next-edit`.
   */
  nextEdit(languageId: string, provider: string, model: string, delta: UsageTotals): void {
    this.#log({ provider, model, language: usageLanguage(languageId), context: "off" }, delta, "next-edit");
  }

  /**
   * An answer for `uri` (a document of `languageId`) shows `text`, the rest of `suggestion`, with the cursor at `at`
   * (UTF-16), after `latencyMs`. A suggestion is counted shown once, however many answers (type-through) show it:
   * when the client says it showed it, or else once it stayed answered for a moment (see suggestion-outcomes.ts).
   */
  answered(
    uri: string,
    languageId: string,
    suggestion: Suggestion,
    text: string,
    at: Position,
    latencyMs: number,
  ): ShownSuggestion {
    return this.#outcomes.answered(uri, suggestion, text, at, latencyMs, () =>
      this.#scope(uri, languageId, suggestion.contextArm ?? "off"),
    );
  }

  /** A request for `uri` got no suggestion, for `reason`. */
  noAnswer(uri: string, reason: NoSuggestionReason): void {
    this.#outcomes.noAnswer(uri, reason);
  }

  /** A request found `chars` characters of `suggestion` typed: that much was taken. */
  typedThrough(suggestion: Suggestion, chars: number): void {
    this.#outcomes.typedThrough(suggestion, chars);
  }

  /** `uri` changed: the changes of one notification, as applied (accepts are inferred from them). */
  changed(uri: string, changes: readonly AppliedChange[]): void {
    this.#outcomes.changed(uri, changes);
  }

  /** `uri` is about to close: what was taken there is checked against its last text. */
  closing(uri: string): void {
    this.#outcomes.closed(uri);
  }

  /**
   * `infill.accepted` with the arguments the client sent. Arguments that are not `{ id, chars }` are refused with a
   * message naming the field; an id no longer remembered (an old suggestion, another server's) is ignored.
   */
  accepted(args: unknown): void {
    const parsed = parseAccepted(args);
    if (typeof parsed === "string") throw new Error(`infill.accepted: ${parsed}`);
    if (!this.#outcomes.acceptedById(parsed.id, parsed.chars))
      this.options.log.debug(`infill.accepted: no suggestion ${parsed.id} (forgotten, or not this server's)`);
  }

  /**
   * `infill.shown` with the arguments the client sent, `[{ id }]`: the client showed that suggestion. Arguments
   * without an id are refused with a message; an id no longer remembered is ignored.
   */
  reportedShown(args: unknown): void {
    const value = Array.isArray(args) ? args[0] : args;
    const id = typeof value === "object" && value !== null ? (value as { id?: unknown }).id : undefined;
    if (typeof id !== "string" || id === "") {
      throw new Error("infill.shown: id: expected the suggestion's id (a string), as [{ id }]");
    }
    if (!this.#outcomes.reportedShown(id))
      this.options.log.debug(`infill.shown: no suggestion ${id} (forgotten, or not this server's)`);
  }

  /** The figures of this server, after writing what is pending (so `infill usage` shows the same). */
  status(): Status {
    this.flush();
    const settings = this.options.settings();
    const override = Object.hasOwn(settings.prices, settings.model);
    const price = priceOf(settings.model, settings.prices);
    const now = this.#now();
    const directory = UNBILLED_PROVIDERS.has(settings.provider) ? undefined : this.#logDirectory();
    const horizons = settings.retentionChecks;
    return {
      version: 1,
      server: {
        name: "infill-lsp",
        version: this.options.serverVersion,
        pid: process.pid,
        startedAt: this.#startedAt.toISOString(),
        uptimeMs: now.getTime() - this.#startedAt.getTime(),
        memory: memoryNow(),
        grammars: loadedGrammars(),
      },
      provider: settings.provider,
      model: settings.model,
      price: price ? { ...price, source: override ? "setting" : "built-in" } : null,
      pricesAsOf: PRICES_AS_OF,
      costsAreEstimates: true,
      currency: "USD",
      retentionChecks: [...horizons],
      retentionQueue: this.#outcomes.retentionQueue(),
      contextHoldout: settings.contextHoldout,
      shownBy: this.options.clientReportsShown?.() ? "client" : "timer",
      shownAfterMs: SHOWN_AFTER_MS,
      total: this.#total.figures(horizons),
      workspaces: [...this.#workspaces].map(([folder, bucket]) => ({
        folder: folder ?? null,
        figures: bucket.figures(horizons),
      })),
      models: [...this.#models.values()].map(({ provider, model, bucket }) => ({
        provider,
        model,
        figures: bucket.figures(horizons),
      })),
      languages: [...this.#languages].map(([language, bucket]) => ({
        language,
        figures: bucket.figures(horizons),
      })),
      contexts: [...this.#contexts].map(([context, bucket]) => ({
        context,
        figures: bucket.figures(horizons),
      })),
      log: {
        enabled: directory !== undefined,
        file: directory ? usageFile(directory, localDay(now).slice(0, 7)) : null,
        error: this.#writeError,
      },
    };
  }

  /** Write the pending totals to the usage log (one append per month). A failure is logged and retried later. */
  flush(): void {
    if (this.#pending.size === 0) return;
    const directory = this.#logDirectory();
    if (!directory) {
      this.#pending.clear();
      return;
    }
    const byMonth = new Map<string, UsageRecord[]>();
    for (const record of this.#pending.values()) {
      const month = record.day.slice(0, 7);
      byMonth.set(month, [...(byMonth.get(month) ?? []), record]);
    }
    for (const [month, records] of byMonth) {
      const file = usageFile(directory, month);
      try {
        appendUsageRecords(file, records);
        for (const record of records) this.#pending.delete(pendingKey(record));
        this.#writeError = null;
      } catch (error) {
        const message = `cannot write the usage log ${file}: ${(error as Error).message}`;
        if (message !== this.#writeError) this.options.log.warn(`infill: ${message}`);
        this.#writeError = message;
      }
    }
  }

  /**
   * Stop the timers and write what is pending: the retention checks still to come are made now, on the documents'
   * last state.
   */
  dispose(): void {
    clearInterval(this.#timer);
    this.#outcomes.dispose();
    this.flush();
  }

  #logDirectory(): string | undefined {
    return this.options.settings().persist ? this.options.directory : undefined;
  }

  #scope(uri: string, languageId: string, context: ContextArm): Scope {
    const { provider, model } = this.options.settings();
    return {
      provider,
      model,
      workspace: this.options.workspaceOf(uri),
      language: usageLanguage(languageId),
      context,
    };
  }

  /**
   * Count `delta` in the process, the workspace, the model, the language and the context arm, and in the day's
   * pending totals; the buckets.
   */
  #add(scope: Scope, delta: UsageTotals): Bucket[] {
    const modelKey = `${scope.provider}\0${scope.model}`;
    let model = this.#models.get(modelKey);
    if (!model) {
      model = { provider: scope.provider, model: scope.model, bucket: new Bucket() };
      this.#models.set(modelKey, model);
    }
    const buckets = [
      this.#total,
      entry(this.#workspaces, scope.workspace),
      model.bucket,
      entry(this.#languages, scope.language),
      entry(this.#contexts, scope.context),
    ];
    for (const bucket of buckets) addTotals(bucket.totals, delta);
    this.#log(scope, delta, "completion");
    return buckets;
  }

  /** Add `delta` to the day's pending totals of the scope and kind (what the usage log gets). */
  #log(scope: Omit<Scope, "workspace">, delta: UsageTotals, kind: UsageKind): void {
    if (!this.#logDirectory() || UNBILLED_PROVIDERS.has(scope.provider)) return;
    const day = localDay(this.#now());
    const { provider, model, language, context } = scope;
    const key = pendingKey({ day, provider, model, language, context, kind });
    let record = this.#pending.get(key);
    if (!record) {
      record = { day, provider, model, language, context, kind, ...emptyTotals() };
      this.#pending.set(key, record);
    }
    addTotals(record, delta);
  }
}

/** The bucket of `key`, made when missing. */
function entry<K>(buckets: Map<K, Bucket>, key: K): Bucket {
  let bucket = buckets.get(key);
  if (!bucket) {
    bucket = new Bucket();
    buckets.set(key, bucket);
  }
  return bucket;
}

function pendingKey(
  record: Pick<UsageRecord, "day" | "provider" | "model" | "language" | "context" | "kind">,
): string {
  return [record.day, record.provider, record.model, record.language, record.context, record.kind].join("\0");
}

/** `[{ id, chars }]` (or the object alone), or what is wrong with it. */
function parseAccepted(args: unknown): AcceptedArguments | string {
  const value = Array.isArray(args) ? args[0] : args;
  if (typeof value !== "object" || value === null) return "expected the arguments [{ id, chars }]";
  const { id, chars } = value as Record<string, unknown>;
  if (typeof id !== "string" || id === "") return "id: expected the suggestion's id (a string)";
  if (typeof chars !== "number" || !Number.isFinite(chars) || chars < 0) {
    return "chars: expected how many characters of the suggestion were taken (a number ≥ 0)";
  }
  return { id, chars: Math.floor(chars) };
}

/** The process's memory for `infill.status`, in bytes. */
function memoryNow(): { rss: number; heapUsed: number; heapTotal: number; external: number } {
  const { rss, heapUsed, heapTotal, external } = process.memoryUsage();
  return { rss, heapUsed, heapTotal, external };
}
