// `@infill/core/failure`: what a failed call means, as data. Beside the error tree (errors.ts) and read by shape
// (`name`, `status`, `reason`), not with `instanceof`, so that it loads nothing (a language server classifies
// failures before it has loaded the HTTP client) and works across bundles that each carry their own classes.

/**
 * What went wrong with a call, as the caller acts on it:
 *
 * - `auth`: the key was refused (401).
 * - `balance`: the account cannot pay (402).
 * - `rate-limit`: too many requests or tokens (429); `retryAfterMs` says how long to wait when the server did.
 * - `model-not-found`: the model does not exist there (Ollama: not pulled yet).
 * - `fim-unsupported`: the model or host cannot fill in the middle.
 * - `no-endpoint`: the base URL serves no FIM completions (404, 405).
 * - `bad-request`: the server refused this request (400, 422): often its content only, not the setup.
 * - `invalid-request`: the client refused the request or its own options before sending (`ValidationError`).
 * - `unavailable`: the service did not answer properly (5xx, a refused or reset connection, a timeout, a body
 *   that is not a completion).
 */
export type FailureKind =
  | "auth"
  | "balance"
  | "rate-limit"
  | "model-not-found"
  | "fim-unsupported"
  | "no-endpoint"
  | "bad-request"
  | "invalid-request"
  | "unavailable";

/** Every {@link FailureKind}, in the order the list above gives them. */
export const FAILURE_KINDS: readonly FailureKind[] = [
  "auth",
  "balance",
  "rate-limit",
  "model-not-found",
  "fim-unsupported",
  "no-endpoint",
  "bad-request",
  "invalid-request",
  "unavailable",
];

/** A classified failure. */
export interface Failure {
  kind: FailureKind;
  /** The error's message (never holds the key: core's errors are redacted when made). */
  message: string;
  /** HTTP status, for an error the server answered. */
  status?: number;
  /** The server's `Retry-After`, in ms, when it sent one. */
  retryAfterMs?: number;
  /** The connection was refused: nothing listens at the base URL (a local server that is not running). */
  refused?: boolean;
}

/** The shape of core's errors that classification reads. */
interface ErrorShape {
  name?: unknown;
  message?: unknown;
  status?: unknown;
  retryAfterMs?: unknown;
  reason?: unknown;
}

/** The kind of an answer with an HTTP status; any other status is `unavailable` (5xx, 403, a proxy's 502…). */
const KIND_BY_STATUS: Readonly<Record<number, FailureKind>> = {
  400: "bad-request",
  401: "auth",
  402: "balance",
  404: "no-endpoint",
  405: "no-endpoint",
  422: "bad-request",
  429: "rate-limit",
};

/** The kind of each of core's errors that carry no status. */
const KIND_BY_NAME: Readonly<Record<string, FailureKind>> = {
  ValidationError: "invalid-request",
  ConnectionError: "unavailable",
  TimeoutError: "unavailable",
  ResponseValidationError: "unavailable",
};

/** How DeepSeek (and OpenAI-style servers) say a model does not exist, when no adapter named the reason. */
const UNKNOWN_MODEL =
  /model[^a-z]*(not exist|does not exist|not found)|unknown model|no such model|invalid model/i;

/**
 * Classify an error thrown by `@infill/core` (`FimClient`, `ProviderClient`). An abort, and anything that is not
 * one of core's errors, is not a failure of the service: `undefined`.
 */
export function classify(error: unknown): Failure | undefined {
  if (typeof error !== "object" || error === null) return undefined;
  const { name, status, reason, retryAfterMs } = error as ErrorShape;
  const message =
    typeof (error as ErrorShape).message === "string" ? String((error as ErrorShape).message) : "";
  const kind = kindOf(name, typeof status === "number" ? status : undefined, reason, message);
  if (!kind) return undefined;
  return {
    kind,
    message,
    ...(typeof status === "number" ? { status } : {}),
    ...(typeof retryAfterMs === "number" ? { retryAfterMs } : {}),
    ...(name === "ConnectionError" && /ECONNREFUSED/.test(message) ? { refused: true } : {}),
  };
}

function kindOf(
  name: unknown,
  status: number | undefined,
  reason: unknown,
  message: string,
): FailureKind | undefined {
  if (reason === "model-not-found" || reason === "fim-unsupported") return reason;
  if (status === undefined) return typeof name === "string" ? KIND_BY_NAME[name] : undefined;
  const kind = KIND_BY_STATUS[status] ?? "unavailable";
  // DeepSeek says an unknown model with a 400 (or 422): the setup is wrong, not this request.
  return kind === "bad-request" && UNKNOWN_MODEL.test(message) ? "model-not-found" : kind;
}
