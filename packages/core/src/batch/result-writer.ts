import type { FileHandle } from "node:fs/promises";
import type { Writable } from "node:stream";

// Results go out as they finish, one JSON line each, in small groups: a group is one write (and, to a file, one
// fdatasync) so that a crash loses at most the group not yet written, and never leaves half a record but the last
// line, which the next run cuts off.

/** Where results go: a file opened for appending (synced after each group), or a stream (stdout). */
export type ResultSink = { file: FileHandle } | { stream: Writable };

/** Options of {@link ResultWriter}. */
export interface ResultWriterOptions {
  /** Records in a group: written when this many are waiting. Default 64. */
  groupSize?: number;
  /** Milliseconds a record waits at most before its group is written. Default 200. */
  intervalMs?: number;
}

/** Groups being written at once before write() waits. */
const MAX_GROUPS_WRITING = 4;

/** Appends JSON lines to a sink in groups; `close()` writes what is left. */
export class ResultWriter {
  readonly #sink: ResultSink;
  readonly #groupSize: number;
  readonly #intervalMs: number;
  #pending: string[] = [];
  #timer: NodeJS.Timeout | undefined;
  #writing: Promise<void> = Promise.resolve();
  #failure: unknown;
  #groupsWriting = 0;

  constructor(sink: ResultSink, options: ResultWriterOptions = {}) {
    this.#sink = sink;
    this.#groupSize = options.groupSize ?? 64;
    this.#intervalMs = options.intervalMs ?? 200;
  }

  /**
   * Queues one record. Resolves at once, unless several groups are still being written (a slow disk, a reader of
   * stdout that does not keep up): then once they are, so that results do not pile up in memory.
   * @throws what a write failed with, if one did.
   */
  async write(record: unknown): Promise<void> {
    if (this.#failure !== undefined) throw this.#failure;
    this.#pending.push(`${JSON.stringify(record)}\n`);
    if (this.#pending.length >= this.#groupSize) this.#flush();
    else this.#timer ??= setTimeout(() => this.#flush(), this.#intervalMs);
    if (this.#groupsWriting > MAX_GROUPS_WRITING) await this.#writing;
  }

  /** Writes what is waiting and waits for every write (and sync) to finish. @throws what a write failed with. */
  async close(): Promise<void> {
    this.#flush();
    await this.#writing;
    if (this.#failure !== undefined) throw this.#failure;
  }

  #flush(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    if (this.#pending.length === 0) return;
    const group = this.#pending.join("");
    this.#pending = [];
    // One group at a time, in order.
    this.#groupsWriting += 1;
    this.#writing = this.#writing
      .then(() => this.#put(group))
      .catch((error: unknown) => {
        this.#failure ??= error;
      })
      .finally(() => {
        this.#groupsWriting -= 1;
      });
  }

  async #put(group: string): Promise<void> {
    if (this.#failure !== undefined) return;
    const sink = this.#sink;
    if ("file" in sink) {
      await sink.file.write(group);
      await sink.file.datasync();
      return;
    }
    if (!sink.stream.write(group)) {
      await new Promise<void>((resolve, reject) => {
        const done = (error?: Error) => {
          sink.stream.off("drain", done);
          sink.stream.off("error", done);
          if (error) reject(error);
          else resolve();
        };
        sink.stream.on("drain", done);
        sink.stream.on("error", done);
      });
    }
  }
}
