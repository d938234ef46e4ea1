import { type FileHandle, open, rename, rm } from "node:fs/promises";

// A file written whole or not at all: into a file beside it, synced, then renamed over it, so that a crash leaves
// the old file or the new one, never half of one.

/**
 * Writes `path` anew with what `write` writes to the handle it is given.
 * @throws what `write` throws (the file beside is removed; `path` is left as it was).
 */
export async function replaceFile(path: string, write: (handle: FileHandle) => Promise<void>): Promise<void> {
  const temporary = `${path}.${process.pid}.tmp`;
  const handle = await open(temporary, "w");
  try {
    await write(handle);
    await handle.sync();
  } catch (error) {
    await handle.close();
    await rm(temporary, { force: true });
    throw error;
  }
  await handle.close();
  await rename(temporary, path);
}
