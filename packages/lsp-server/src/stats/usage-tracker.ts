import { classify } from "@infill/core/failure";
import {
  acceptanceRate,
  addTotals,
  appendUsageRecords,
  cacheHitRatio,
  emptyTotals,
  isEmptyTotals,
  localDay,
  type ModelPrice,
  PRICES_AS_OF,
  priceOf,
  type UsageRecord,
  type UsageTotals,
  usageFile,
} from "@infill/core/usage";
import { LatencyWindow } from "../completion/latency-window.js";
import { codePoints, type Suggestion } from "../completion/type-through.js";
import type { Logger } from "../log/logger.js";
import type { UpstreamEnd } from "../upstream/upstream.js";
import type { Figures, Status } from "./status-schema.js";
import { shownDelta, takenDelta, upstreamDelta } from "./usage-delta.js";

/** What the tracker reads from the settings, at each event. */
export interface UsageSettings {
  provider: string;
  model: string;
  /** Prices per million tokens that replace or add to the built-in ones, by model id. */
  prices: Readonly<Record<string, ModelPrice>>;
  /** Whether to write the day's totals to the usage log. */
  persist: boolean;
}

/** Collaborators and knobs of a {@link UsageTracker}. */
export interface UsageTrackerOptions {
  settings: () => UsageSettings;
  /** The workspace folder (URI) a document belongs to; undefined when it is in none. */
  workspaceOf: (uri: string) => string | undefined;
  /** The folder of the usage log; undefined: there is none (the environment names no home). */
  directory: string | undefined;
  /** The server's version, for the status. */
  serverVersion: string;
  log: Logger;
  /** The clock. Default `() => new Date()`. */
  now?: () => Date;
  /** How often pending totals are written, in ms. Default 5 minutes. */
  flushEveryMs?: number;
}

/** What the editor needs to report taking an answer's text: the suggestion's id, and how much of it came before. */
export interface ShownSuggestion {
  /** Id of the suggestion, the argument of `infill.accepted`. */
  id: string;
  /** Characters (code points) of the suggestion before the answer's text: what was typed through already. */
  before: number;
}

/** The arguments of `infill.accepted`: `[{ id, chars }]`, `chars` being how far into the suggestion it was taken. */
export interface AcceptedArguments {
  id: string;
  chars: number;
}

/** Counters of one scope: the process, a workspace folder, a model. */
class Bucket {
  readonly totals = emptyTotals();
  readonly failures: Record<string, number> = {};
  readonly endToEnd = new LatencyWindow();
  readonly upstream = new LatencyWindow();

  figures(): Figures {
    return {
      ...this.totals,
      cacheHitRatio: cacheHitRatio(this.totals),
      acceptanceRate: acceptanceRate(this.totals),
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
}

/** A suggestion shown, and how far it was taken. */
interface Shown extends Scope {
  id: string;
  /** Its length, in code points. */
  total: number;
  /** How far into it was taken, in code points. */
  reached: number;
}

/** At most this many suggestions can still be reported taken by id (the most recent ones). */
const REMEMBERED_SUGGESTIONS = 500;
const FLUSH_EVERY_MS = 5 * 60_000;
/** Usage of the embedded simulator cost nothing and is not written to the log. */
const UNBILLED_PROVIDERS = new Set(["sim"]);

/**
 * The usage counters of one server: per process, per workspace folder and per model, and the day's totals for the
 * usage log. The rules of what counts how are the pure functions of usage-delta.ts; this class routes events to
 * scopes, keeps suggestion ids for `infill.accepted`, and writes the log (every few minutes, when asked for the
 * status, and when the server stops).
 */
export class UsageTracker {
  readonly #total = new Bucket();
  readonly #workspaces = new Map<string | undefined, Bucket>();
  readonly #models = new Map<string, { provider: string; model: string; bucket: Bucket }>();
  /** Totals not yet written, by day, provider and model. */
  readonly #pending = new Map<string, UsageRecord>();
  readonly #shown = new WeakMap<Suggestion, Shown>();
  /** By id, the oldest first: an accept comes soon after its suggestion is shown, so the oldest go first. */
  readonly #byId = new Map<string, Shown>();
  readonly #startedAt: Date;
  readonly #now: () => Date;
  readonly #timer: NodeJS.Timeout;
  #nextId = 0;
  #writeError: string | null = null;

  constructor(private readonly options: UsageTrackerOptions) {
    this.#now = options.now ?? (() => new Date());
    this.#startedAt = this.#now();
    this.#timer = setInterval(() => this.flush(), options.flushEveryMs ?? FLUSH_EVERY_MS);
    this.#timer.unref?.();
  }

  /** An upstream request for `uri` starts; the returned function records how it ended. */
  upstream(uri: string): (end: UpstreamEnd) => void {
    const scope = this.#scope(uri);
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
   * An answer for `uri` shows `text`, the rest of `suggestion`, after `latencyMs`. A suggestion is counted shown
   * once, however many answers (type-through) show it.
   */
  shown(uri: string, suggestion: Suggestion, text: string, latencyMs: number): ShownSuggestion {
    let shown = this.#shown.get(suggestion);
    if (!shown) {
      shown = {
        ...this.#scope(uri),
        id: `s${++this.#nextId}`,
        total: codePoints(suggestion.text),
        reached: 0,
      };
      this.#shown.set(suggestion, shown);
      this.#byId.set(shown.id, shown);
      if (this.#byId.size > REMEMBERED_SUGGESTIONS) this.#byId.delete(this.#byId.keys().next().value!);
      for (const bucket of this.#add(shown, shownDelta())) bucket.endToEnd.add(latencyMs);
    }
    return { id: shown.id, before: Math.max(0, shown.total - codePoints(text)) };
  }

  /** A request found `chars` characters of `suggestion` typed: that much was taken. */
  typedThrough(suggestion: Suggestion, chars: number): void {
    const shown = this.#shown.get(suggestion);
    if (shown) this.#take(shown, chars);
  }

  /**
   * `infill.accepted` with the arguments the client sent. Arguments that are not `{ id, chars }` are refused with a
   * message naming the field; an id no longer remembered (an old suggestion, another server's) is ignored.
   */
  accepted(args: unknown): void {
    const parsed = parseAccepted(args);
    if (typeof parsed === "string") throw new Error(`infill.accepted: ${parsed}`);
    const shown = this.#byId.get(parsed.id);
    if (shown) this.#take(shown, parsed.chars);
    else
      this.options.log.debug(`infill.accepted: no suggestion ${parsed.id} (forgotten, or not this server's)`);
  }

  /** The figures of this server, after writing what is pending (so `infill usage` shows the same). */
  status(): Status {
    this.flush();
    const settings = this.options.settings();
    const override = Object.hasOwn(settings.prices, settings.model);
    const price = priceOf(settings.model, settings.prices);
    const now = this.#now();
    const directory = UNBILLED_PROVIDERS.has(settings.provider) ? undefined : this.#logDirectory();
    return {
      version: 1,
      server: {
        name: "infill-lsp",
        version: this.options.serverVersion,
        pid: process.pid,
        startedAt: this.#startedAt.toISOString(),
        uptimeMs: now.getTime() - this.#startedAt.getTime(),
        memory: memoryNow(),
      },
      provider: settings.provider,
      model: settings.model,
      price: price ? { ...price, source: override ? "setting" : "built-in" } : null,
      pricesAsOf: PRICES_AS_OF,
      costsAreEstimates: true,
      currency: "USD",
      total: this.#total.figures(),
      workspaces: [...this.#workspaces].map(([folder, bucket]) => ({
        folder: folder ?? null,
        figures: bucket.figures(),
      })),
      models: [...this.#models.values()].map(({ provider, model, bucket }) => ({
        provider,
        model,
        figures: bucket.figures(),
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

  /** Stop the timer and write what is pending. */
  dispose(): void {
    clearInterval(this.#timer);
    this.flush();
  }

  #logDirectory(): string | undefined {
    return this.options.settings().persist ? this.options.directory : undefined;
  }

  #scope(uri: string): Scope {
    const { provider, model } = this.options.settings();
    return { provider, model, workspace: this.options.workspaceOf(uri) };
  }

  #take(shown: Shown, reached: number): void {
    const delta = takenDelta(shown.total, shown.reached, reached);
    shown.reached = Math.max(shown.reached, Math.min(reached, shown.total));
    if (!isEmptyTotals(delta)) this.#add(shown, delta);
  }

  /** Count `delta` in the process, the workspace and the model, and in the day's pending totals; the buckets. */
  #add(scope: Scope, delta: UsageTotals): Bucket[] {
    let workspace = this.#workspaces.get(scope.workspace);
    if (!workspace) {
      workspace = new Bucket();
      this.#workspaces.set(scope.workspace, workspace);
    }
    const modelKey = `${scope.provider}\0${scope.model}`;
    let model = this.#models.get(modelKey);
    if (!model) {
      model = { provider: scope.provider, model: scope.model, bucket: new Bucket() };
      this.#models.set(modelKey, model);
    }
    const buckets = [this.#total, workspace, model.bucket];
    for (const bucket of buckets) addTotals(bucket.totals, delta);
    if (this.#logDirectory() && !UNBILLED_PROVIDERS.has(scope.provider)) {
      const day = localDay(this.#now());
      const key = pendingKey({ day, ...scope });
      let record = this.#pending.get(key);
      if (!record) {
        record = { day, provider: scope.provider, model: scope.model, ...emptyTotals() };
        this.#pending.set(key, record);
      }
      addTotals(record, delta);
    }
    return buckets;
  }
}

function pendingKey(record: { day: string; provider: string; model: string }): string {
  return `${record.day}\0${record.provider}\0${record.model}`;
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
