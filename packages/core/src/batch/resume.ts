import { createReadStream } from "node:fs";
import { truncate } from "node:fs/promises";
import { idKey, isBatchId } from "./batch-record.js";
import { type Line, readLines } from "./jsonl-lines.js";
import { replaceFile } from "./replace-file.js";

// Resuming a batch from its results file: which ids OUT already answers, which it has errors for, and where a
// line torn by a crash starts. The index is built from lines (pure, table-tested); the file edge streams OUT, cuts
// the torn line off, and for --retry-errors rewrites OUT without its error records (a new file renamed over it),
// so that every id stays in OUT exactly once.

/** What a results file holds. */
export interface ResumeIndex {
  /** Keys (see {@link recordKey}) of the records with an answer. */
  answered: Set<string>;
  /** Keys of the records with an error. */
  errors: Set<string>;
  /** Byte offset where a torn last line starts (one no `\n` ends), if there is one. */
  tornAt: number | undefined;
}

/**
 * The key a result is known by when resuming: its id's ({@link idKey}), or `line:N` for an error record of an
 * input line that had no id to read.
 */
export function recordKey(record: unknown): string | undefined {
  if (typeof record !== "object" || record === null) return undefined;
  const { id, line } = record as { id?: unknown; line?: unknown };
  if (typeof id === "string" || typeof id === "number") return idKey(id);
  if (id === null && typeof line === "number") return `line:${line}`;
  return undefined;
}

/**
 * The key of an input record's result (see {@link recordKey}): its id's, or `line:N` when it has no usable id (its
 * error record has `"id": null` and its line). A shard's records are those whose key hashes to it (shard.ts).
 *
 * @param line the record's input line (1-based).
 */
export function inputKey(record: unknown, line: number): string {
  const id = typeof record === "object" && record !== null ? (record as { id?: unknown }).id : undefined;
  return isBatchId(id) && !Array.isArray(record) ? idKey(id) : `line:${line}`;
}

/** Builds a {@link ResumeIndex} from OUT's lines, in order. */
export class ResumeScan {
  readonly #index: ResumeIndex = { answered: new Set(), errors: new Set(), tornAt: undefined };

  /** Counts one line: a result, an error, a torn last line; a line that is none of these is kept and ignored. */
  add(line: Line): void {
    if (!line.terminated) {
      this.#index.tornAt = line.start;
      return;
    }
    const record = parse(line.text);
    const key = recordKey(record);
    if (key === undefined) return;
    if (isError(record)) this.#index.errors.add(key);
    else this.#index.answered.add(key);
  }

  /** The index. An id with both an answer and an error (an error sent again and answered) counts as answered. */
  index(): ResumeIndex {
    for (const key of this.#index.answered) this.#index.errors.delete(key);
    return this.#index;
  }
}

/** Streams a results file into its index; undefined when the file does not exist. */
export async function scanResults(path: string): Promise<ResumeIndex | undefined> {
  const scan = new ResumeScan();
  try {
    for await (const line of readLines(createReadStream(path))) scan.add(line);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
  return scan.index();
}

/**
 * Makes OUT ready to be appended to: cuts a torn last line off, and with `dropErrors` rewrites it without its error
 * records (into a file beside it, synced, renamed over it: a crash leaves the old file or the new one whole).
 * @returns the index of what OUT holds now.
 */
export async function repairResults(
  path: string,
  index: ResumeIndex,
  dropErrors: boolean,
): Promise<ResumeIndex> {
  if (index.tornAt !== undefined) await truncate(path, index.tornAt);
  if (!dropErrors || index.errors.size === 0) return { ...index, tornAt: undefined };
  await replaceFile(path, async (handle) => {
    let chunk = "";
    for await (const line of readLines(createReadStream(path))) {
      if (!line.terminated || isError(parse(line.text))) continue;
      chunk += `${line.text}\n`;
      if (chunk.length >= 1 << 16) {
        await handle.write(chunk);
        chunk = "";
      }
    }
    await handle.write(chunk);
  });
  return { answered: index.answered, errors: new Set(), tornAt: undefined };
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function isError(record: unknown): boolean {
  return typeof record === "object" && record !== null && "error" in record;
}
