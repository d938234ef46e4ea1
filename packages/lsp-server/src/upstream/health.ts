import { classify } from "@infill/core/failure";
import { DEEPSEEK, type FailureNotice, type FailureSubject, noticeFor } from "./failure-notice.js";
import {
  type FailureKind,
  type FailurePolicy,
  holdMs,
  PERSISTENT_FOR_MS,
  PERSISTENT_IN_A_ROW,
  policyFor,
  RETELL_AFTER_MS,
} from "./failure-policy.js";

/**
 * Tracks whether going upstream is worth it, by the policy table of `failure-policy.ts`: configuration that cannot
 * work blocks until the settings change; an empty balance, a model not pulled yet, rate limits, outages and refused
 * requests back off, longer with each failure of the kind in a row (or as long as `Retry-After` says). What the user
 * is told follows the table's `tell`: configuration failures at once (each kind once, until a success or a settings
 * change), transient ones only once they persist, and at most once every ten minutes.
 */
export class UpstreamHealth {
  #blockedUntil = 0;
  /** What the current block is for. */
  #blockedBy: FailureKind | undefined;
  /** Failures in a row, per kind, since the last success, and when the first of them was. */
  readonly #inARow = new Map<FailureKind, { count: number; since: number }>();
  /** Configuration failures told since the last success. */
  readonly #told = new Set<FailureKind>();
  /** When each kind of transient failure was last told (not cleared by a success). */
  readonly #toldAt = new Map<FailureKind, number>();
  #last: FailureNotice | undefined;

  /**
   * @param now the clock, ms. Default `Date.now`.
   * @param subject the provider in use, named in the notices. Default DeepSeek.
   */
  constructor(
    private readonly now: () => number = Date.now,
    private readonly subject: () => FailureSubject = () => DEEPSEEK,
  ) {}

  /**
   * True while requests should not go upstream. A request the user invoked (`invoked`) is held back only by what
   * a settings or environment change alone can fix (no key, a rejected key, configuration that cannot work).
   */
  isBlocked(invoked = false): boolean {
    if (this.now() >= this.#blockedUntil) return false;
    return !(
      invoked &&
      this.#blockedBy !== undefined &&
      policyFor(this.#blockedBy, this.subject().provider).invokedTries
    );
  }

  /** Milliseconds until the block lifts (0 when not blocked; Infinity until the settings change). */
  blockedForMs(): number {
    return Math.max(0, this.#blockedUntil - this.now());
  }

  /** Block for good (until `reset`), e.g. no API key. Returns the notice when this kind was not told yet. */
  block(notice: FailureNotice): FailureNotice | undefined {
    this.#last = notice;
    this.#blockedUntil = Number.POSITIVE_INFINITY;
    this.#blockedBy = notice.kind;
    return this.#tellOnce(notice);
  }

  /** Record a failed upstream request; returns the notice to show if this kind was not told yet. */
  failure(error: unknown): FailureNotice | undefined {
    const failure = classify(error);
    if (!failure) return undefined;
    const subject = this.subject();
    const notice = noticeFor(failure, subject);
    this.#last = notice;
    const now = this.now();
    const streak = this.#inARow.get(notice.kind) ?? { count: 0, since: now };
    streak.count++;
    this.#inARow.set(notice.kind, streak);
    const policy = policyFor(notice.kind, subject.provider);
    const until = now + holdMs(policy.hold, streak.count, failure.retryAfterMs);
    // A request that went upstream despite a longer block (one the user invoked) does not shorten it.
    if (until >= this.#blockedUntil || this.now() >= this.#blockedUntil) {
      this.#blockedUntil = until;
      this.#blockedBy = notice.kind;
    }
    return this.#tell(notice, policy, streak, now);
  }

  /** Record a successful upstream request. */
  success(): void {
    this.#inARow.clear();
    this.#blockedUntil = 0;
    this.#blockedBy = undefined;
    this.#told.clear();
    this.#last = undefined;
  }

  /** The last failure since the last success (told or not), for `:checkhealth`. */
  get last(): FailureNotice | undefined {
    return this.#last;
  }

  /** Forget everything (the settings changed: a new key, model or base URL deserves a fresh try). */
  reset(): void {
    this.success();
    this.#toldAt.clear();
  }

  #tell(
    notice: FailureNotice,
    policy: FailurePolicy,
    streak: { count: number; since: number },
    now: number,
  ): FailureNotice | undefined {
    if (policy.tell === "at-once") return this.#tellOnce(notice);
    const persists = streak.count >= PERSISTENT_IN_A_ROW || now - streak.since >= PERSISTENT_FOR_MS;
    const toldAt = this.#toldAt.get(notice.kind);
    if (!persists || (toldAt !== undefined && now - toldAt < RETELL_AFTER_MS)) return undefined;
    this.#toldAt.set(notice.kind, now);
    return notice;
  }

  #tellOnce(notice: FailureNotice): FailureNotice | undefined {
    if (this.#told.has(notice.kind)) return undefined;
    this.#told.add(notice.kind);
    return notice;
  }
}
