// Retry policy as pure functions; the loop that uses them is in client.ts.
//
// Why our own small loop, like openai-node's, rather than a library: undici's RetryAgent has no jitter and tries
// to resume a POST body with Range requests, and p-retry cannot wait for a delay the server gives (Retry-After).

/** First backoff ceiling: attempt 0 waits up to this long (ms). */
export const BASE_DELAY_MS = 500;
/** Backoff ceiling never grows past this (ms). */
export const MAX_BACKOFF_MS = 8_000;
/** A server-given Retry-After is honoured up to this (ms); longer ones are clamped. */
export const MAX_RETRY_AFTER_MS = 60_000;

/** Statuses DeepSeek documents as transient: 429 Rate Limit Reached, 500 Server Error, 503 Server Overloaded. */
export function isRetryableStatus(status: number): boolean {
  return status === 429 || status === 500 || status === 503;
}

const RETRYABLE_CODES = new Set([
  "ECONNRESET",
  "ECONNREFUSED",
  "ECONNABORTED",
  "EPIPE",
  "ETIMEDOUT",
  "EAI_AGAIN",
  "ENETUNREACH",
  "EHOSTUNREACH",
  "UND_ERR_SOCKET", // undici: "other side closed" before the response head
  "UND_ERR_CONNECT_TIMEOUT",
  "UND_ERR_HEADERS_TIMEOUT",
  "UND_ERR_CLOSED",
]);

/** Whether a connection error code (Node's or undici's) is worth another attempt when no response byte came. */
export function isRetryableErrorCode(code: unknown): boolean {
  return typeof code === "string" && RETRYABLE_CODES.has(code);
}

/**
 * Exponential backoff with full jitter: uniform in [0, min(MAX_BACKOFF_MS, BASE_DELAY_MS · 2^attempt)).
 *
 * @param attempt 0 for the wait after the first failure.
 * @param random a number in [0, 1), `Math.random()` in production.
 * @returns milliseconds to wait.
 */
export function backoffDelay(attempt: number, random: number): number {
  const ceiling = Math.min(MAX_BACKOFF_MS, BASE_DELAY_MS * 2 ** attempt);
  return Math.floor(ceiling * random);
}

/**
 * Parses a `Retry-After` header: delta-seconds (`"2"`, `"0.5"`) or an HTTP date.
 *
 * @param nowMs the current time (ms since the epoch), for dates.
 * @returns milliseconds to wait (≥ 0, a past date gives 0), or undefined when absent or unparsable.
 */
export function parseRetryAfter(value: string | undefined, nowMs: number): number | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
  if (!/[a-z]/i.test(text)) return undefined; // "-1", "": not a delay, and Date.parse would accept some
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, date - nowMs);
}

/**
 * How long to wait before the next attempt, or undefined to give up and rethrow the error at hand.
 *
 * Gives up when the retries are used up, or when the wait would not end before the call's deadline: waiting only
 * to fail with a TimeoutError would hide the server's actual answer.
 *
 * @param attempt how many attempts have failed so far, minus one (0 after the first failure).
 * @param maxRetries retries allowed after the first attempt.
 * @param retryAfterMs the server's `Retry-After`, already parsed (ms), if any; clamped to MAX_RETRY_AFTER_MS.
 * @param remainingMs time left before the call's deadline (ms).
 * @param random a number in [0, 1).
 */
export function nextRetryDelay(
  attempt: number,
  maxRetries: number,
  retryAfterMs: number | undefined,
  remainingMs: number,
  random: number,
): number | undefined {
  if (attempt >= maxRetries) return undefined;
  const delay =
    retryAfterMs === undefined ? backoffDelay(attempt, random) : Math.min(retryAfterMs, MAX_RETRY_AFTER_MS);
  return delay < remainingMs ? delay : undefined;
}
