import { setTimeout as delay } from "node:timers/promises";

/** How often a condition is polled, in ms. */
const POLL_MS = 50;

/**
 * Poll `probe` until it returns something other than `undefined`, and return that. On timeout, fail with `what`,
 * the last value `describe` makes of the probe's state, and `context()` (e.g. a log tail), so the failure
 * explains itself.
 */
export async function waitUntil<T>(
  what: string,
  probe: () => Promise<T | undefined>,
  options: { timeoutMs?: number; describe?: () => Promise<string> } = {},
): Promise<T> {
  const deadline = Date.now() + (options.timeoutMs ?? 10_000);
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) break;
    await delay(POLL_MS);
  }
  const details = options.describe ? `\n${await options.describe()}` : "";
  throw new Error(`timed out after ${options.timeoutMs ?? 10_000} ms waiting for ${what}${details}`);
}
