import type { FailureKind as ClientFailureKind } from "@infill/core/failure";

/**
 * The kinds of upstream trouble the server acts on: those of `@infill/core/failure`, and `no-key` (the provider
 * takes a key and none is set), which the server knows before any request.
 */
export type FailureKind = ClientFailureKind | "no-key";

/** How a kind of upstream failure holds later requests back. */
export type HoldPolicy =
  /** Until the settings or the environment change: retrying cannot help. */
  | { until: "settings" }
  /**
   * For `baseMs` after the first failure in a row of this kind, doubling with each one after, up to `capMs`; with
   * `retryAfter`, at least as long as the server's `Retry-After` says.
   */
  | { until: "backoff"; baseMs: number; capMs: number; retryAfter?: boolean };

/**
 * When the user is told about a kind of failure:
 * - `at-once`: the first time (configuration that only the user can fix: a missing or rejected key, an unknown
 *   model, a base URL without FIM, an empty balance); again only after a success or a settings change;
 * - `when-persistent`: a transient failure (an outage, a reset, a malformed body, rate limiting, a refused request)
 *   only once it persists — {@link PERSISTENT_IN_A_ROW} failures of the kind in a row, or failures of the kind for
 *   {@link PERSISTENT_FOR_MS} without a success — and at most once every {@link RETELL_AFTER_MS}, successes or not:
 *   a short blip goes by unannounced (`infill.status` counts it).
 */
export type TellPolicy = "at-once" | "when-persistent";

/** Transient failures of one kind in a row before the user is told. */
export const PERSISTENT_IN_A_ROW = 3;
/** How long transient failures of one kind go on, with no success, before the user is told, in ms. */
export const PERSISTENT_FOR_MS = 10_000;
/** The least time between two messages about one kind of transient failure, in ms. */
export const RETELL_AFTER_MS = 10 * 60_000;

/** What each kind of failure does to the requests after it, and when the user hears of it. */
export interface FailurePolicy {
  hold: HoldPolicy;
  tell: TellPolicy;
  /**
   * Whether a completion the user asks for (`triggerKind: Invoked`) goes upstream anyway while requests are held
   * back: true unless only a settings or environment change can fix the failure.
   */
  invokedTries: boolean;
}

const UNTIL_SETTINGS: FailurePolicy = { hold: { until: "settings" }, tell: "at-once", invokedTries: false };
const OUTAGE: FailurePolicy = {
  hold: { until: "backoff", baseMs: 1_000, capMs: 60_000 },
  tell: "when-persistent",
  invokedTries: true,
};

/**
 * The policy table. Only failures that are certainly configuration block for good: no key, a rejected key, an
 * unknown model, a model or base URL that cannot fill in the middle, options the HTTP client refuses. A 400 or 422
 * may belong to one request (its text, its position), so it backs off like an outage instead of ending completion
 * for the day. An empty balance is rechecked after 30 s, then less and less often (the user may top up any time).
 */
export const FAILURE_POLICIES: Readonly<Record<FailureKind, FailurePolicy>> = {
  "no-key": UNTIL_SETTINGS,
  auth: UNTIL_SETTINGS,
  "model-not-found": UNTIL_SETTINGS,
  "fim-unsupported": UNTIL_SETTINGS,
  "no-endpoint": UNTIL_SETTINGS,
  "invalid-request": UNTIL_SETTINGS,
  balance: {
    hold: { until: "backoff", baseMs: 30_000, capMs: 5 * 60_000 },
    tell: "at-once",
    invokedTries: true,
  },
  "rate-limit": {
    hold: { until: "backoff", baseMs: 1_000, capMs: 60_000, retryAfter: true },
    tell: "when-persistent",
    invokedTries: true,
  },
  unavailable: OUTAGE,
  "bad-request": OUTAGE,
};

/** Where a provider's own setup differs from the table. */
const PROVIDER_POLICIES: Readonly<Record<string, Partial<Record<FailureKind, FailurePolicy>>>> = {
  // Ollama's model is not pulled yet: the user pulls it (told at once), and completions resume by themselves.
  ollama: { "model-not-found": { ...OUTAGE, tell: "at-once" } },
};

/** The policy for a kind of failure of `provider`. */
export function policyFor(kind: FailureKind, provider: string): FailurePolicy {
  return PROVIDER_POLICIES[provider]?.[kind] ?? FAILURE_POLICIES[kind];
}

/**
 * How long requests are held back after a failure, in ms (`Infinity`: until the settings change).
 *
 * @param inARow how many failures of this kind in a row, this one included (1 for the first).
 * @param retryAfterMs the server's `Retry-After`, in ms, when it sent one.
 */
export function holdMs(policy: HoldPolicy, inARow: number, retryAfterMs?: number): number {
  if (policy.until === "settings") return Number.POSITIVE_INFINITY;
  const backoff = Math.min(policy.capMs, policy.baseMs * 2 ** Math.max(0, inARow - 1));
  return policy.retryAfter && retryAfterMs !== undefined ? Math.max(backoff, retryAfterMs) : backoff;
}
