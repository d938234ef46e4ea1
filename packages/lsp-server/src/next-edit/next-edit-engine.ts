import type { CancellationToken, Position } from "vscode-languageserver";
import type { OpenDocument } from "../documents/documents.js";
import { type AppliedChange, advance } from "../documents/position-map.js";
import type { Logger } from "../log/logger.js";
import type { FailureNotice } from "../upstream/failure-notice.js";
import type { UpstreamHealth } from "../upstream/health.js";
import type { EditCompletion, EditUpstream, UpstreamEnd } from "../upstream/upstream.js";
import { followAnswer, type NextEdit, nearestFirst, type RememberedAnswer } from "./answer-memory.js";
import { carriedEdit } from "./carried-edit.js";
import { type AnswerRules, documentEdits, editRequest, readAnswer } from "./exchange.js";
import { type Clock, Pauses, SYSTEM_CLOCK } from "./pause.js";
import type { EditEvent } from "./prompt/excerpt.js";
import { excerptAt } from "./region-excerpt.js";

/** The settings the engine reads, at each event. */
export interface NextEditSettings {
  enabled: boolean;
  /** The longest pause wait, ms. */
  debounceMs: number;
  /** Learn the wait from the document's edit cadence (completion's `adaptiveDebounce`). */
  adaptive: boolean;
  maxRegionLines: number;
}

/** Where requests go for the current settings and how answers are read; undefined when they cannot go (told). */
export type EditTarget = AnswerRules & { readonly upstream: EditUpstream };

/** Told what happens to next edits, for the counts. */
export interface NextEditHooks {
  /** An upstream request for `uri` starts; the function returned is told how it ended. */
  upstream?(uri: string): (end: UpstreamEnd) => void;
  /** An answer was not what its format says. */
  malformed?(problem: string): void;
  /** Edits `uri` now holds, put there by the client (however it got there), each with its range where its text is now. */
  applied?(uri: string, edits: readonly NextEdit[]): void;
  /** Edits of an answer for `uri` dropped by a change that applied none of them (or the document closed). */
  dropped?(uri: string, edits: readonly NextEdit[]): void;
}

/** Collaborators of a {@link NextEditEngine}. */
export interface NextEditEngineOptions {
  documents: { get(uri: string): OpenDocument | undefined };
  /** The edit history's events, as a prompt carries them. */
  events: () => Promise<EditEvent[]>;
  settings: () => NextEditSettings;
  /** The upstream and format of the current settings; undefined when there is none (the user was told). */
  target: () => EditTarget | undefined;
  health: UpstreamHealth;
  onFailure: (notice: FailureNotice) => void;
  /** Whether the context policy excludes a document (secrets, `.gitignore`, `context.exclude`). */
  excluded: (uri: string) => Promise<boolean>;
  /** How a document is named in prompts. */
  pathOf: (uri: string) => string;
  /** Whether a completion at this place is showing or in flight (next edits then wait their turn). */
  completionBusy: (uri: string, position: Position) => boolean;
  hooks?: NextEditHooks;
  clock?: Clock;
  log: Logger;
}

/** The upstream request of one version of a document: in flight, or done (its answer, if any, remembered). */
interface Ask {
  readonly version: number;
  readonly controller: AbortController;
  readonly done: Promise<void>;
  /** Whether it was never sent because a completion was showing or in flight there. */
  readonly deferred: () => boolean;
}

/** How an upstream request is made. */
interface AskMode {
  /** The user asked (an invoked code action): it goes despite a backoff that lets such requests through. */
  invoked: boolean;
  /** It goes even while a completion is showing or in flight there. */
  despiteCompletion: boolean;
}

/** What {@link NextEditEngine.settled} waits for, and may ask. */
export interface SettleOptions {
  token?: CancellationToken | undefined;
  /** Ask at once, from `position`, for a version nobody asked for; `invoked` when the user asked. */
  ask?: { position: Position; invoked: boolean } | undefined;
  /**
   * Ask again when the pause's request of this version was not sent because a completion was in the way (a code
   * action request is the turn it waited for); `position` when no edit says where. Implied by an invoked `ask`.
   */
  deferred?: { position: Position } | undefined;
}

/** What the engine keeps per document. */
interface DocState {
  ask: Ask | undefined;
  answer: RememberedAnswer | undefined;
  /** Where the last edit ended: the cursor the pause asks at. */
  lastEdit: Position | undefined;
}

/**
 * Next-edit suggestions: when to ask (once the user pauses after an edit, at most one upstream request per version of
 * a document; or when the editor asks at a version nobody asked for), answers remembered per version (moving the
 * cursor back and forth costs nothing), the rest of an answer served from memory once an edit of it is applied, a
 * request made stale by typing aborted upstream. Answers to the editor are the edits nearest its cursor first; none
 * for a version that is not the document's.
 */
export class NextEditEngine {
  readonly #states = new Map<string, DocState>();
  readonly #pauses: Pauses;
  readonly #clock: Clock;
  #ids = 0;

  constructor(private readonly options: NextEditEngineOptions) {
    this.#clock = options.clock ?? SYSTEM_CLOCK;
    this.#pauses = new Pauses(this.#clock);
  }

  /** A `didChange` of `uri` was applied (its changes, in order), making `version`. */
  didChange(uri: string, version: number, changes: readonly AppliedChange[]): void {
    const doc = this.options.documents.get(uri);
    if (!doc || changes.length === 0) return;
    const state = this.#state(uri);
    let rest = false;
    if (state.answer) {
      const followed = followAnswer(state.answer, version, changes, doc.buffer);
      if (followed.kind === "advanced") {
        this.options.hooks?.applied?.(uri, followed.applied);
        rest = followed.answer.edits.length > 0;
        state.answer = rest ? followed.answer : undefined;
      } else {
        this.options.hooks?.dropped?.(uri, followed.dropped);
        state.answer = undefined;
      }
    }
    if (state.ask && state.ask.version !== version) {
      // Made stale by typing: aborted upstream, its answer would be for a text that is gone.
      state.ask.controller.abort("superseded");
      state.ask = undefined;
    }
    state.lastEdit = endOf(changes);
    const settings = this.options.settings();
    // The rest of an answer is served from memory: nothing to ask after this edit.
    if (rest || !settings.enabled) this.#pauses.cut(uri);
    else
      this.#pauses.start(uri, version, settings.debounceMs, settings.adaptive, () =>
        this.#paused(uri, version),
      );
  }

  /**
   * The edits to show for `uri` at `position` (UTF-16), nearest first; none when next edits are off, `version` is
   * not the document's (the editor is behind or ahead), the request is cancelled, or there is no suggestion. Waits
   * for the pause and the request of this version; asks at once when nobody asked for it.
   */
  async editsAt(
    uri: string,
    version: number | undefined,
    position: Position,
    token?: CancellationToken,
    invoked = false,
  ): Promise<NextEdit[]> {
    if (!this.options.settings().enabled) return [];
    const doc = this.options.documents.get(uri);
    if (!doc || (version !== undefined && version !== doc.version)) return [];
    const answer = await this.settled(uri, { token, ask: { position, invoked } });
    return answer ? nearestFirst(answer.edits, position) : [];
  }

  /**
   * The answer for the document as it is now, once the pause after its last edit and the request of this version
   * are over; undefined when there is none, the document moved on meanwhile, or `token` is cancelled first. Asks
   * only as `options` say (see {@link SettleOptions}): at most the one request of this version.
   */
  async settled(uri: string, options: SettleOptions = {}): Promise<RememberedAnswer | undefined> {
    const { token, ask } = options;
    const current = this.options.documents.get(uri)?.version;
    if (current === undefined || !this.options.settings().enabled) return undefined;
    const state = this.#state(uri);
    const pause = this.#pauses.running(uri);
    if (!state.answer && !state.ask && pause?.version === current) {
      if (!(await untilCancelled(pause.over, token))) return undefined;
    }
    if (this.options.documents.get(uri)?.version !== current) return undefined;
    if (!state.answer && !state.ask && ask) {
      this.#ask(uri, current, ask.position, { invoked: ask.invoked, despiteCompletion: ask.invoked });
    }
    const pending = state.ask;
    if (!state.answer && pending?.version === current && !(await untilCancelled(pending.done, token)))
      return undefined;
    // The pause's request gave way to a completion (Helix shows its menu while the user types the rename); the user
    // has turned to code actions since: it goes now, the one request of this version.
    const retry = ask?.invoked ? ask : options.deferred;
    if (
      retry &&
      !state.answer &&
      state.ask === pending &&
      pending?.deferred() &&
      this.options.documents.get(uri)?.version === current
    ) {
      const position = state.lastEdit ?? retry.position;
      this.#ask(uri, current, position, { invoked: ask?.invoked ?? false, despiteCompletion: true });
      if (!(await untilCancelled(state.ask!.done, token))) return undefined;
    }
    const answer = state.answer;
    return answer?.version === current && this.options.documents.get(uri)?.version === current
      ? answer
      : undefined;
  }

  /** The answer remembered for the document as it is now, without asking or waiting (an automatic code action). */
  remembered(uri: string): RememberedAnswer | undefined {
    const doc = this.options.documents.get(uri);
    const answer = this.#states.get(uri)?.answer;
    return doc && answer?.version === doc.version ? answer : undefined;
  }

  /** Forget a closed document: its request aborted, its answer dropped. */
  forget(uri: string): void {
    this.#pauses.forget(uri);
    const state = this.#states.get(uri);
    if (!state) return;
    state.ask?.controller.abort("cancelled");
    if (state.answer) this.options.hooks?.dropped?.(uri, state.answer.edits);
    this.#states.delete(uri);
  }

  /** Stop everything (shutdown). */
  dispose(): void {
    for (const uri of [...this.#states.keys()]) this.forget(uri);
  }

  /** The pause after the edit that made `version` is over: ask, unless something already answers this version. */
  #paused(uri: string, version: number): void {
    const state = this.#state(uri);
    const doc = this.options.documents.get(uri);
    if (doc?.version !== version || state.answer || state.ask || !state.lastEdit) return;
    this.#ask(uri, version, state.lastEdit, { invoked: false, despiteCompletion: false });
  }

  /**
   * Start the request of `version` (once per version: the ask stays, answered or not, until the next edit), unless
   * it gives way to a completion showing or in flight there (then it is done at once, and `deferred`).
   */
  #ask(uri: string, version: number, position: Position, mode: AskMode): void {
    const state = this.#state(uri);
    const controller = new AbortController();
    const gaveWay = !mode.despiteCompletion && this.options.completionBusy(uri, position);
    if (gaveWay) this.options.log.debug("next edit: a completion is showing there");
    const done = gaveWay
      ? Promise.resolve()
      : this.#exchange(uri, version, position, mode.invoked, controller.signal).catch((error: unknown) => {
          this.options.log.error(`next edit: ${error instanceof Error ? error.message : String(error)}`);
        });
    state.ask = { version, controller, done, deferred: () => gaveWay };
  }

  /** One request upstream and its answer, remembered for `version` when it holds edits. Never rejects on failure. */
  async #exchange(
    uri: string,
    version: number,
    position: Position,
    invoked: boolean,
    signal: AbortSignal,
  ): Promise<void> {
    const { options } = this;
    const log = options.log;
    if (await options.excluded(uri)) return log.debug("next edit: the file is excluded");
    const doc = options.documents.get(uri);
    if (!doc || doc.version !== version || signal.aborted) return;
    if (options.health.isBlocked(invoked)) return log.debug("next edit: backing off");
    const target = options.target();
    if (!target) return;
    const events = await options.events();
    // Any edit since aborted this request: the document is still the version asked about.
    if (signal.aborted) return;
    const last = events.at(-1);
    const maxLines = options.settings().maxRegionLines;
    const excerpt = excerptAt(doc, position, options.pathOf(uri), maxLines, last && carriedEdit(last));
    const input = { excerpt, events, related: [] };
    const prompt = target.format.prompt(input);
    const counted = options.hooks?.upstream?.(uri);
    const started = this.#clock.now();
    let completion: EditCompletion;
    try {
      completion = await target.upstream.complete(editRequest(prompt), { signal });
    } catch (error) {
      const ms = this.#clock.now() - started;
      if (signal.aborted) {
        counted?.({ outcome: signal.reason === "cancelled" ? "cancelled" : "superseded", ms });
        return;
      }
      counted?.({ outcome: "failed", error, ms });
      const notice = options.health.failure(error);
      if (notice) options.onFailure(notice);
      return;
    }
    options.health.success();
    const ms = this.#clock.now() - started;
    counted?.(
      completion.usage ? { outcome: "completed", usage: completion.usage, ms } : { outcome: "completed", ms },
    );
    const reading = readAnswer(completion.text, completion.finish_reason, prompt, input, target);
    if (reading.kind === "malformed") {
      options.hooks?.malformed?.(reading.problem);
      return log.debug(`next edit: malformed answer (${reading.problem})`);
    }
    if (reading.kind === "none") return log.debug(`next edit: no suggestion (${reading.reason})`);
    // A suggestion made for an older version is never shown.
    if (options.documents.get(uri)?.version !== version || signal.aborted) return;
    const edits = documentEdits(
      excerpt.region,
      excerpt.regionStartLine,
      reading.edits,
      () => `ne${++this.#ids}`,
    );
    const start = excerpt.regionStartLine;
    const region = { start, end: Math.max(start, start + lineCount(excerpt.region) - 1) };
    this.#state(uri).answer = { uri, version, edits, region };
  }

  #state(uri: string): DocState {
    let state = this.#states.get(uri);
    if (!state) {
      state = { ask: undefined, answer: undefined, lastEdit: undefined };
      this.#states.set(uri, state);
    }
    return state;
  }
}

/** How many lines whole lines of text hold (each ends with a line break but the document's last). */
function lineCount(text: string): number {
  let count = text.endsWith("\n") || text === "" ? 0 : 1;
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) count++;
  return count;
}

/** Where the last of a notification's changes ended, in the text after them all. */
function endOf(changes: readonly AppliedChange[]): Position {
  const last = changes.at(-1)!;
  return advance(last.range.start, last.text);
}

/** Wait for `promise`; false when `token` is cancelled first. */
async function untilCancelled(
  promise: Promise<unknown>,
  token: CancellationToken | undefined,
): Promise<boolean> {
  if (!token) {
    await promise;
    return true;
  }
  if (token.isCancellationRequested) return false;
  let listener: { dispose(): void } | undefined;
  const cancelled = new Promise<false>((resolve) => {
    listener = token.onCancellationRequested(() => resolve(false));
  });
  try {
    return await Promise.race([promise.then(() => true as const), cancelled]);
  } finally {
    listener?.dispose();
  }
}
