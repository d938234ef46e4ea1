/** The kinds of upstream trouble the user is told about, each at most once until it clears. */
export type FailureKind = "no-key" | "auth" | "balance" | "rate-limit" | "unavailable" | "rejected" | "model";

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

const BACKOFF_BASE_MS = 1_000;
const BACKOFF_CAP_MS = 60_000;
/** An empty balance is rechecked now and then (the user may top up) instead of on every keystroke. */
const BALANCE_RECHECK_MS = 5 * 60_000;

/**
 * Tracks whether going upstream is worth it. A rejected key or model blocks until the settings change; an empty
 * balance, a model not pulled yet, rate limits and outages back off exponentially (or as long as `Retry-After`
 * says). Each kind of failure is reported once; a success clears the slate so a later outage is reported again.
 */
export class UpstreamHealth {
  #blockedUntil = 0;
  #consecutiveFailures = 0;
  readonly #told = new Set<FailureKind>();

  /**
   * @param now the clock, ms. Default `Date.now`.
   * @param subject the provider in use, named in the notices. Default DeepSeek.
   */
  constructor(
    private readonly now: () => number = Date.now,
    private readonly subject: () => FailureSubject = () => DEEPSEEK,
  ) {}

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
    const notice = describeFailure(error, this.subject());
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
  reason?: unknown;
}

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
          message: `infill: ${label} does not know ${model} (${message}). Check the model setting.`,
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
    if (status === 400 || status === 404 || status === 422) {
      return {
        kind: "rejected",
        severity: "error",
        message: `infill: ${label} refused the request: ${message}. Check the model and baseUrl settings.`,
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
