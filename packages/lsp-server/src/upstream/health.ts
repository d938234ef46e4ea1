import { FAILURE_POLICIES, holdMs } from "./failure-policy.js";

/** The kinds of upstream trouble the user is told about, each at most once until it clears. */
export type FailureKind =
  | "no-key"
  | "auth"
  | "balance"
  | "rate-limit"
  | "unavailable"
  | "rejected"
  | "bad-request"
  | "model";

/** Who the notices are about: the provider in use, for its name and what to tell the user to do. */
export interface FailureSubject {
  /** `deepseek`, `ollama`, `llamacpp`, `codestral`, `openai-compatible`, `sim`. */
  provider: string;
  /** How people call it: `DeepSeek`, `Ollama`, `llama.cpp`… */
  label: string;
  /** The model requests use, when there is one. */
  model: string | undefined;
  /** The environment variable the key comes from, when the provider takes one. */
  apiKeyEnv: string | undefined;
}

/** The default subject: DeepSeek with its key variable. */
export const DEEPSEEK: FailureSubject = {
  provider: "deepseek",
  label: "DeepSeek",
  model: undefined,
  apiKeyEnv: "DEEPSEEK_API_KEY",
};

/** What serves each local provider, for a connection that was refused. */
const LOCAL_SERVER: Readonly<Record<string, string>> = {
  ollama: "Is Ollama running (`ollama serve`)?",
  llamacpp: "Is llama-server running?",
};

/** What to tell the user about a failure, and how. */
export interface FailureNotice {
  kind: FailureKind;
  severity: "error" | "warning";
  message: string;
}

/**
 * Tracks whether going upstream is worth it, by the policy table of `health-policy.ts`: configuration that cannot
 * work blocks until the settings change; an empty balance, a model not pulled yet, rate limits, outages and refused
 * requests back off, longer with each failure of the kind in a row (or as long as `Retry-After` says). Each kind of
 * failure is reported once; a success clears the slate so a later outage is reported again.
 */
export class UpstreamHealth {
  #blockedUntil = 0;
  /** What the current block is for. */
  #blockedBy: FailureKind | undefined;
  /** Failures in a row, per kind, since the last success. */
  readonly #inARow = new Map<FailureKind, number>();
  readonly #told = new Set<FailureKind>();

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
    return !(invoked && this.#blockedBy !== undefined && FAILURE_POLICIES[this.#blockedBy].invokedTries);
  }

  /** Milliseconds until the block lifts (0 when not blocked; Infinity until the settings change). */
  blockedForMs(): number {
    return Math.max(0, this.#blockedUntil - this.now());
  }

  /** Block for good (until `reset`), e.g. no API key. Returns the notice when this kind was not told yet. */
  block(notice: FailureNotice): FailureNotice | undefined {
    this.#blockedUntil = Number.POSITIVE_INFINITY;
    this.#blockedBy = notice.kind;
    return this.#tell(notice);
  }

  /** Record a failed upstream request; returns the notice to show if this kind was not told yet. */
  failure(error: unknown): FailureNotice | undefined {
    const notice = describeFailure(error, this.subject());
    if (!notice) return undefined;
    const inARow = (this.#inARow.get(notice.kind) ?? 0) + 1;
    this.#inARow.set(notice.kind, inARow);
    const until = this.now() + holdMs(FAILURE_POLICIES[notice.kind].hold, inARow, retryAfterMs(error));
    // A request that went upstream despite a longer block (one the user invoked) does not shorten it.
    if (until >= this.#blockedUntil || this.now() >= this.#blockedUntil) {
      this.#blockedUntil = until;
      this.#blockedBy = notice.kind;
    }
    return this.#tell(notice);
  }

  /** Record a successful upstream request. */
  success(): void {
    this.#inARow.clear();
    this.#blockedUntil = 0;
    this.#blockedBy = undefined;
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
  reason?: unknown;
}

/** How DeepSeek (and OpenAI-style servers) say a model does not exist, when no adapter named the reason. */
const UNKNOWN_MODEL =
  /model[^a-z]*(not exist|does not exist|not found)|unknown model|no such model|invalid model/i;

/** Errors that mean "the service is not answering properly" rather than "the request is wrong". */
const UNAVAILABLE = new Set(["ConnectionError", "TimeoutError", "ResponseValidationError"]);

function retryAfterMs(error: unknown): number | undefined {
  const value = (error as ErrorShape | null)?.retryAfterMs;
  return typeof value === "number" ? value : undefined;
}

/** The notice for a provider that needs a key whose variable is not set. */
export function missingKeyNotice(subject: FailureSubject): FailureNotice {
  const variable = subject.apiKeyEnv ?? "the key's variable";
  return {
    kind: "no-key",
    severity: "warning",
    message:
      `infill: ${variable} is not set, so there are no completions from ${subject.label}. Set it in the ` +
      'environment that starts the editor (or set the "provider" setting to "sim" to try infill offline).',
  };
}

/**
 * Classify an upstream error, naming the provider and saying what to do. Aborts are not failures (`undefined`).
 * Messages never include the key: the client already scrubs it from server text, and nothing here adds it.
 */
export function describeFailure(
  error: unknown,
  subject: FailureSubject = DEEPSEEK,
): FailureNotice | undefined {
  if (typeof error !== "object" || error === null) return undefined;
  const { name, status, reason } = error as ErrorShape;
  const message =
    typeof (error as ErrorShape).message === "string" ? ((error as ErrorShape).message as string) : "";
  const { label } = subject;
  const model = subject.model === undefined ? "the model" : `"${subject.model}"`;
  if (reason === "model-not-found") {
    // Ollama: the user pulls it, and completions resume by themselves; elsewhere the setting is wrong.
    return subject.provider === "ollama"
      ? {
          kind: "model",
          severity: "error",
          message: `infill: Ollama has no model ${model} (${message}). Run \`ollama pull ${subject.model ?? "<model>"}\`; completions resume by themselves.`,
        }
      : {
          kind: "rejected",
          severity: "error",
          message: `infill: ${label} does not know ${model} (${message}). Check the model setting; completions are off until the settings change.`,
        };
  }
  if (reason === "fim-unsupported") {
    return { kind: "rejected", severity: "error", message: fimUnsupported(subject, model, message) };
  }
  if (typeof status === "number") {
    if (status === 401) {
      return {
        kind: "auth",
        severity: "error",
        message: `infill: ${label} rejected the API key (${message}). Set a valid ${subject.apiKeyEnv ?? "key (see the apiKeyEnv setting)"} and restart the server.`,
      };
    }
    if (status === 402) {
      return {
        kind: "balance",
        severity: "error",
        message:
          subject.provider === "deepseek"
            ? "infill: the DeepSeek account has no balance left (402). Top it up at platform.deepseek.com; completions resume by themselves."
            : `infill: ${label} says payment is required (${message}); completions resume by themselves once it is settled.`,
      };
    }
    if (status === 429) {
      return {
        kind: "rate-limit",
        severity: "warning",
        message: `infill: ${label} is rate limiting requests (429); backing off.`,
      };
    }
    if (status === 404 || status === 405) {
      return {
        kind: "rejected",
        severity: "error",
        message: `infill: the base URL serves no FIM completions (${message}). Check the baseUrl setting (or INFILL_BASE_URL); completions are off until the settings change.`,
      };
    }
    if ((status === 400 || status === 422) && UNKNOWN_MODEL.test(message)) {
      return {
        kind: "rejected",
        severity: "error",
        message: `infill: ${label} does not know ${model} (${message}). Check the model setting (or INFILL_MODEL); completions are off until the settings change.`,
      };
    }
    if (status === 400 || status === 422) {
      // Often one request's content or position, not the setup: later requests still go, with backoff.
      return {
        kind: "bad-request",
        severity: "warning",
        message: `infill: ${label} refused a request (${message}). It may be this request only; completions go on, backing off while it happens.`,
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
  const start = LOCAL_SERVER[subject.provider];
  const hint = start && /ECONNREFUSED/.test(message) ? ` ${start}` : "";
  return {
    kind: "unavailable",
    severity: "warning",
    message: `infill: ${label} is unavailable (${message}); retrying with backoff.${hint}`,
  };
}

/** What to say when the provider cannot fill in the middle with this model. */
function fimUnsupported(subject: FailureSubject, model: string, message: string): string {
  switch (subject.provider) {
    case "ollama":
      return `infill: the Ollama model ${model} cannot fill in the middle (${message}). Set the model setting to one whose template takes a suffix, e.g. qwen2.5-coder:1.5b-base.`;
    case "llamacpp":
      return `infill: llama.cpp's model has no fill-in-the-middle tokens (${message}). Start llama-server with a FIM-capable model, e.g. Qwen2.5-Coder.`;
    default:
      return `infill: ${subject.label} cannot fill in the middle with ${model} (${message}). Use a host and model that take a suffix.`;
  }
}
