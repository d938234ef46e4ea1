import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { type Status, StatusSchema } from "../../src/stats/status-schema.js";
import { BUILT_SERVER, type Session } from "./session.js";

/** The built `infill` CLI of @infill/core (`infill usage`). */
export const BUILT_CLI = fileURLToPath(new URL("../../../core/dist/cli.js", import.meta.url));

/** Fail early, saying what to do, when the built server or CLI is missing. */
export function requireBuilt(): void {
  for (const built of [BUILT_SERVER, BUILT_CLI]) {
    if (!existsSync(built)) throw new Error(`${built} is missing: build first (npx --yes pnpm@10 build)`);
  }
}

/** `infill.status`, checked against its schema, without the message for people. */
export async function status(s: Session): Promise<Status> {
  const answer = await s.client.sendRequest("workspace/executeCommand", {
    command: "infill.status",
    arguments: [{ message: false }],
  });
  return StatusSchema.parse(answer);
}

/** Wait until `check` holds, asking again every 20 ms, for at most 10 s. */
export async function eventually<T>(
  what: string,
  probe: () => Promise<T>,
  check: (value: T) => boolean,
): Promise<T> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const value = await probe();
    if (check(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
