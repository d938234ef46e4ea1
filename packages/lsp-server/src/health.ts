/** The kinds of upstream trouble the user is told about, each at most once until it clears. */
export type FailureKind = "no-key" | "auth" | "balance" | "rate-limit" | "unavailable" | "rejected";

/** What to tell the user about a failure, and how. */
export interface FailureNotice {
  kind: FailureKind;
  severity: "error" | "warning";
  message: string;
}

const BACKOFF_BASE_MS = 1_000;
const BACKOFF_CAP_MS = 60_000;
/** An empty balance is rechecked now and then (the user may top up) instead of on every keystroke. */
const BALANCE_RECHECK_MS = 5 * 60_000;

/**
 * Tracks whether going upstream is worth it. A rejected key or model blocks until the settings change; an empty
 * balance, rate limits and outages back off exponentially (or as long as `Retry-After` says). Each kind of
 * failure is reported once; a success clears the slate so a later outage is reported again.
 */
export class UpstreamHealth {
  #blockedUntil = 0;
  #consecutiveFailures = 0;
  readonly #told = new Set<FailureKind>();

  constructor(private readonly now: () => number = Date.now) {}

  /** True while requests should not go upstream. */
  isBlocked(): boolean {
    return this.now() < this.#blockedUntil;
  }

  /** Milliseconds until the block lifts (0 when not blocked; Infinity until the settings change). */
  blockedForMs(): number {
    return Math.max(0, this.#blockedUntil - this.now());
  }

  /** Block for good (until `reset`), e.g. no API key. Returns the notice when this kind was not told yet. */
  block(notice: FailureNotice): FailureNotice | undefined {
    this.#blockedUntil = Number.POSITIVE_INFINITY;
    return this.#tell(notice);
  }

  /** Record a failed upstream request; returns the notice to show if this kind was not told yet. */
  failure(error: unknown): FailureNotice | undefined {
    const notice = describeFailure(error);
    if (!notice) return undefined;
    this.#consecutiveFailures++;
    const backoff = Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** (this.#consecutiveFailures - 1));
    let blockMs: number;
    switch (notice.kind) {
      case "auth":
      case "rejected":
        blockMs = Number.POSITIVE_INFINITY;
        break;
      case "balance":
        blockMs = BALANCE_RECHECK_MS;
        break;
      case "rate-limit":
        blockMs = Math.max(backoff, retryAfterMs(error) ?? 0);
        break;
      default:
        blockMs = backoff;
    }
    this.#blockedUntil = this.now() + blockMs;
    return this.#tell(notice);
  }

  /** Record a successful upstream request. */
  success(): void {
    this.#consecutiveFailures = 0;
    this.#blockedUntil = 0;
    this.#told.clear();
  }

  /** Forget everything (the settings changed: a new key, model or base URL deserves a fresh try). */
  reset(): void {
    this.success();
  }

  #tell(notice: FailureNotice): FailureNotice | undefined {
    if (this.#told.has(notice.kind)) return undefined;
    this.#told.add(notice.kind);
    return notice;
  }
}

/**
 * What an error from `@infill/core` looks like from here. Classified by shape (`status`, `name`) rather than with
 * `instanceof`, so that this module does not load the HTTP client at start-up (and works across bundles).
 */
interface ErrorShape {
  name?: unknown;
  message?: unknown;
  status?: unknown;
  retryAfterMs?: unknown;
}

/** Errors that mean "the service is not answering properly" rather than "the request is wrong". */
const UNAVAILABLE = new Set(["ConnectionError", "TimeoutError", "ResponseValidationError"]);

function retryAfterMs(error: unknown): number | undefined {
  const value = (error as ErrorShape | null)?.retryAfterMs;
  return typeof value === "number" ? value : undefined;
}

/**
 * Classify an upstream error. Aborts are not failures (`undefined`). Messages never include the key: the
 * client already scrubs it from server text, and nothing here adds it.
 */
export function describeFailure(error: unknown): FailureNotice | undefined {
  if (typeof error !== "object" || error === null) return undefined;
  const { name, status } = error as ErrorShape;
  const message =
    typeof (error as ErrorShape).message === "string" ? ((error as ErrorShape).message as string) : "";
  if (typeof status === "number") {
    if (status === 401) {
      return {
        kind: "auth",
        severity: "error",
        message: `infill: DeepSeek rejected the API key (${message}). Set a valid DEEPSEEK_API_KEY and restart the server.`,
      };
    }
    if (status === 402) {
      return {
        kind: "balance",
        severity: "error",
        message:
          "infill: the DeepSeek account has no balance left (402). Top it up at platform.deepseek.com; completions resume by themselves.",
      };
    }
    if (status === 429) {
      return {
        kind: "rate-limit",
        severity: "warning",
        message: "infill: DeepSeek is rate limiting requests (429); backing off.",
      };
    }
    if (status === 400 || status === 404 || status === 422) {
      return {
        kind: "rejected",
        severity: "error",
        message: `infill: DeepSeek refused the request: ${message}. Check the model and baseUrl settings.`,
      };
    }
  } else if (name === "ValidationError") {
    // The client refused the request or its own options (a plain-http baseUrl, a key it cannot send): a
    // settings problem, reported once and blocking until the settings change.
    return {
      kind: "rejected",
      severity: "error",
      message: `infill: ${message}. Check the settings and the environment.`,
    };
  } else if (typeof name !== "string" || !UNAVAILABLE.has(name)) {
    return undefined;
  }
  return {
    kind: "unavailable",
    severity: "warning",
    message: `infill: DeepSeek is unavailable (${message}); retrying with backoff.`,
  };
}
