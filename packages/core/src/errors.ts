import { STATUS_CODES } from "node:http";
import { isRetryableStatus } from "./retry.js";

/**
 * Base class of every error `@infill/core` throws, so callers can tell ours from theirs with one `instanceof`.
 *
 * None of them ever carries the API key: not in `message`, not in a property, not in `cause`.
 */
export class FimError extends Error {
  override readonly name: string = "FimError";
}

/** The `error` object DeepSeek puts in a non-2xx body: `{"error":{"message","type","param","code"}}`. */
export interface ApiErrorBody {
  message?: unknown;
  type?: unknown;
  param?: unknown;
  code?: unknown;
  [key: string]: unknown;
}

/**
 * What an API error means beyond its status, where a provider says more than the status does. The server and the
 * CLI turn these into advice (`ollama pull <model>`, pick another model).
 *
 * - `model-not-found`: the model is not available there (Ollama: not pulled; Codestral: no such model).
 * - `fim-unsupported`: the model or host cannot fill in the middle (Ollama: the model's template has no suffix;
 *   llama.cpp: 501, the model has no FIM tokens; an OpenAI-compatible host that refuses `suffix`).
 */
export type ErrorReason = "model-not-found" | "fim-unsupported";

/**
 * The server answered with a non-2xx status (or put an `error` object in a stream).
 *
 * `message` reads like `401 Authentication Fails, Your api key: ****abcd is invalid`.
 */
export class ApiError extends FimError {
  override readonly name: string = "ApiError";
  /** HTTP status code of the response. */
  readonly status: number;
  /** The `x-ds-trace-id` (or `x-request-id`) response header, to quote when reporting a problem. */
  readonly requestId: string | undefined;
  /** True when the client retries this status (429, 500, 503). */
  readonly retryable: boolean;
  /** `error.type` of the body, e.g. `authentication_error`. */
  readonly type: string | undefined;
  /** `error.code` of the body, e.g. `invalid_request_error`. */
  readonly code: string | undefined;
  /** `error.param` of the body: the request field at fault, when the server says. */
  readonly param: string | undefined;
  /** The parsed `error` object of the body, when it had one. */
  readonly error: ApiErrorBody | undefined;
  /** The response's `Retry-After` in milliseconds (delta-seconds or HTTP date), when it sent one. */
  readonly retryAfterMs: number | undefined;
  /** The provider that answered (`deepseek`, `ollama`…), when known. */
  readonly provider: string | undefined;
  /** What the error means beyond its status, when the provider says (see ErrorReason). */
  readonly reason: ErrorReason | undefined;

  constructor(
    status: number,
    message: string,
    details: {
      requestId?: string | undefined;
      error?: ApiErrorBody | undefined;
      retryAfterMs?: number | undefined;
      provider?: string | undefined;
      reason?: ErrorReason | undefined;
    } = {},
  ) {
    super(message);
    this.status = status;
    this.requestId = details.requestId;
    this.retryAfterMs = details.retryAfterMs;
    this.provider = details.provider;
    this.reason = details.reason;
    this.retryable = isRetryableStatus(status);
    this.error = details.error;
    this.type = stringOrUndefined(details.error?.type);
    this.code = stringOrUndefined(details.error?.code);
    this.param = stringOrUndefined(details.error?.param);
  }
}

/** 400 Invalid Format: the body did not parse as a request. */
export class BadRequestError extends ApiError {
  override readonly name: string = "BadRequestError";
}
/** 401 Authentication Fails: wrong or missing API key. */
export class AuthenticationError extends ApiError {
  override readonly name: string = "AuthenticationError";
}
/** 402 Insufficient Balance: the account has run out of balance. */
export class InsufficientBalanceError extends ApiError {
  override readonly name: string = "InsufficientBalanceError";
}
/** 404 Not Found: a wrong base URL, or (Ollama) a model that is not pulled. */
export class NotFoundError extends ApiError {
  override readonly name: string = "NotFoundError";
}
/** 422 Invalid Parameters. */
export class UnprocessableEntityError extends ApiError {
  override readonly name: string = "UnprocessableEntityError";
}
/** 429 Rate Limit Reached (also: account concurrency exceeded). Retried. */
export class RateLimitError extends ApiError {
  override readonly name: string = "RateLimitError";
}
/** 500 Server Error. Retried. */
export class InternalServerError extends ApiError {
  override readonly name: string = "InternalServerError";
}
/** 503 Server Overloaded. Retried. */
export class ServiceUnavailableError extends ApiError {
  override readonly name: string = "ServiceUnavailableError";
}

/** A request or option failed validation before anything was sent. */
export class ValidationError extends FimError {
  override readonly name: string = "ValidationError";
  /** Path of the offending field, e.g. `logprobs`, `stop[3]`, `baseURL`. */
  readonly field: string;

  constructor(field: string, message: string, options?: ErrorOptions) {
    super(message, options);
    this.field = field;
  }
}

/** A 2xx response (or a stream chunk) whose body does not fit the completion schema. `cause` says why. */
export class ResponseValidationError extends FimError {
  override readonly name: string = "ResponseValidationError";
}

/** The connection failed, or a stream ended before `data: [DONE]`. */
export class ConnectionError extends FimError {
  override readonly name: string = "ConnectionError";
}

/** The call (all attempts and backoff sleeps included) outlived `timeoutMs`. */
export class TimeoutError extends FimError {
  override readonly name: string = "TimeoutError";
}

/** The caller's `AbortSignal` fired. `cause` is the signal's reason. */
export class AbortError extends FimError {
  override readonly name: string = "AbortError";
}

type ApiErrorClass = new (...args: ConstructorParameters<typeof ApiError>) => ApiError;

const CLASS_BY_STATUS: Readonly<Record<number, ApiErrorClass>> = {
  400: BadRequestError,
  401: AuthenticationError,
  402: InsufficientBalanceError,
  404: NotFoundError,
  422: UnprocessableEntityError,
  429: RateLimitError,
  500: InternalServerError,
  503: ServiceUnavailableError,
};

/** Who answered, for an ApiError: the provider's name and how it says what an error means. */
export interface ErrorSource {
  /** Provider name, e.g. `ollama`; becomes `ApiError.provider`. */
  readonly name: string;
  /** The reason an error has beyond its status, from its status and message; undefined when none. */
  reason?(status: number, message: string): ErrorReason | undefined;
}

/**
 * Builds the ApiError subclass for a non-2xx response. `secret` (the API key) is cut out of the body first, so
 * a server or proxy that echoes it back cannot leak it into `message` or `error`.
 *
 * Bodies understood: DeepSeek's and OpenAI's `{"error":{"message",…}}`, llama.cpp's (the same with a numeric
 * code), Ollama's `{"error":"…"}`, Mistral's top-level `{"object":"error","message":…}` (whose message may be a
 * validation `{"detail":[…]}`), and a bare `{"message":"…"}`; anything else is quoted, cut short.
 */
export function apiErrorFromResponse(
  status: number,
  bodyText: string,
  requestId: string | undefined,
  secret: string | undefined,
  retryAfterMs?: number,
  source?: ErrorSource,
): ApiError {
  const text = redact(bodyText, secret);
  const error = parseErrorBody(text);
  const reason = STATUS_CODES[status] ?? "Error";
  let message: string;
  if (typeof error?.message === "string" && error.message !== "") {
    message = `${status} ${error.message}`;
  } else {
    const snippet = snip(text);
    // A proxy's page that only says the status again ("502 Bad Gateway") adds nothing.
    const repeats =
      snippet.startsWith("an HTML page") && snippet.toLowerCase().includes(reason.toLowerCase());
    message = snippet === "" || repeats ? `${status} ${reason}` : `${status} ${reason}: ${snippet}`;
  }
  const Class = CLASS_BY_STATUS[status] ?? ApiError;
  return new Class(status, message, {
    requestId: requestId && redact(requestId, secret),
    error,
    retryAfterMs,
    provider: source?.name,
    reason: source?.reason?.(status, message),
  });
}

/** Replaces every occurrence of `secret` in `text`; a no-op when there is no secret. */
export function redact(text: string, secret: string | undefined): string {
  return secret && text.includes(secret) ? text.split(secret).join("[redacted]") : text;
}

/**
 * Makes an error Node or undici threw fit to be a `cause`: undici's HTTPParserError keeps the unparsable rest of
 * the response in `data`, server bytes that may echo the key, and util.inspect shows it. Returns `error`.
 */
export function redactCause(error: unknown, secret: string | undefined): unknown {
  if (typeof error === "object" && error !== null && "data" in error && typeof error.data === "string") {
    error.data = redact(error.data, secret);
  }
  return error;
}

/**
 * First 200 characters of `text` on one line, for messages about bodies we could not use. An HTML page (a proxy's
 * or a captive portal's) is named by its title, or its text without the tags: what a user can read in a message.
 */
export function snip(text: string): string {
  const trimmed = text.trim();
  let line: string;
  if (/^<(!doctype|html|head|body)\b/i.test(trimmed)) {
    const title = /<title[^>]*>([^<]*)<\/title>/i.exec(trimmed)?.[1]?.trim();
    const words = (title || trimmed.replace(/<[^>]*>/g, " ")).replace(/\s+/g, " ").trim();
    line = words === "" ? "an HTML page" : `an HTML page: ${words}`;
  } else line = trimmed.replace(/\s+/g, " ");
  return line.length > 200 ? `${line.slice(0, 200)}…` : line;
}

/** `connect ECONNREFUSED 127.0.0.1:1`, `other side closed (UND_ERR_SOCKET)`: what Node or undici threw, briefly. */
export function describeCause(error: unknown): string {
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    return typeof code === "string" && !error.message.includes(code)
      ? `${error.message} (${code})`
      : error.message;
  }
  return String(error);
}

function parseErrorBody(text: string): ApiErrorBody | undefined {
  try {
    const body: unknown = JSON.parse(text);
    const error = isRecord(body) ? body.error : undefined;
    if (isRecord(error)) return error;
    // Ollama answers `{"error": "..."}`, some proxies `{"message": "..."}`; keep the text as the message.
    if (typeof error === "string") return { message: error };
    if (isRecord(body) && typeof body.message === "string") return topLevel(body, body.message);
    // Mistral's validation errors: `{"object":"error","message":{"detail":[{"loc":[…],"msg":"…"}]},…}`.
    const details = isRecord(body) && isRecord(body.message) ? body.message.detail : undefined;
    if (Array.isArray(details)) return topLevel(body as Record<string, unknown>, describeDetails(details));
  } catch {
    // Not JSON (an HTML page from a proxy, an empty body): the caller falls back to a snippet.
  }
  return undefined;
}

/** A top-level error body (Mistral's `{"object":"error","message","type","code"}`) with its message. */
function topLevel(body: Record<string, unknown>, message: string): ApiErrorBody {
  const { object: _object, ...rest } = body;
  return { ...rest, message };
}

/** `prompt: Field required; max_tokens: Input should be a valid integer`, from pydantic-style details. */
function describeDetails(details: readonly unknown[]): string {
  return details
    .slice(0, 3)
    .map((detail) => {
      if (!isRecord(detail)) return String(detail);
      const loc = Array.isArray(detail.loc) ? detail.loc.filter((part) => part !== "body").join(".") : "";
      const msg = typeof detail.msg === "string" ? detail.msg : "invalid";
      return loc === "" ? msg : `${loc}: ${msg}`;
    })
    .join("; ");
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function stringOrUndefined(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}
