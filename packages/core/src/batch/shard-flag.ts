import type { BatchShard } from "./shard.js";

// `infill batch --shard K/N`: which shard of N this run takes, K counted from 0; `auto/N` takes K from
// JOB_COMPLETION_INDEX, which Kubernetes sets in each pod of an Indexed Job (0 to completions − 1). Pure: the text
// and the environment in, the shard or a message naming the option out.

/** The environment variable `--shard auto/N` reads K from. */
export const SHARD_INDEX_ENV = "JOB_COMPLETION_INDEX";

const FORM = `K/N (shard K of N, K from 0 to N-1) or auto/N (K from ${SHARD_INDEX_ENV}, as in a Kubernetes Indexed Job)`;

/**
 * Reads `--shard`'s value.
 * @throws {RangeError} with a message that names `--shard` and says what is wrong.
 */
export function parseShardFlag(text: string, env: Readonly<Record<string, string | undefined>>): BatchShard {
  const match = /^(\d+|auto)\/(\d+)$/.exec(text.trim());
  if (match === null) {
    const hint = /^(auto|\d+)$/.test(text.trim()) ? ` (the count of shards is missing: ${text}/N)` : "";
    throw new RangeError(`--shard must be ${FORM}, got "${text}"${hint}`);
  }
  const [, given, counted] = match as unknown as [string, string, string];
  const count = Number(counted);
  if (!Number.isSafeInteger(count) || count < 1) {
    throw new RangeError(`--shard ${text}: N (the count of shards) must be at least 1`);
  }
  if (given !== "auto") {
    const index = Number(given);
    if (!(index < count)) {
      throw new RangeError(`--shard ${text}: K must be below N (shards are numbered 0 to ${count - 1})`);
    }
    return { index, count };
  }
  const fromEnv = env[SHARD_INDEX_ENV];
  if (fromEnv === undefined || fromEnv.trim() === "") {
    throw new RangeError(
      `--shard ${text}: ${SHARD_INDEX_ENV} is not set (Kubernetes sets it in each pod of an Indexed Job); ` +
        `give K/${count} instead`,
    );
  }
  if (!/^\d+$/.test(fromEnv.trim())) {
    throw new RangeError(`--shard ${text}: ${SHARD_INDEX_ENV} must be a whole number, got "${fromEnv}"`);
  }
  const index = Number(fromEnv.trim());
  if (!(index < count)) {
    throw new RangeError(
      `--shard ${text}: ${SHARD_INDEX_ENV} is ${index}, not below ${count} (is the Job's completions ${count}?)`,
    );
  }
  return { index, count };
}
