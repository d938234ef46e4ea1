import { createParser, type ParseError } from "eventsource-parser";
import { ConnectionError, describeCause, FimError, redactCause } from "./errors.js";

/**
 * How a stream is framed: server-sent events (DeepSeek, OpenAI-compatible hosts, llama.cpp, Codestral) or one JSON
 * object per line (Ollama's NDJSON).
 */
export type Framing = "sse" | "ndjson";

/** What one item of a stream gave: something to yield (or not), and whether the stream ends with it. */
export interface StreamStep<T> {
  item: T | undefined;
  done: boolean;
}

/** How to read the items of one kind of stream. */
export interface StreamFormat<T> {
  readonly framing: Framing;
  /** What ends the stream, for messages: `[DONE]`, `stop: true`, `done: true`. */
  readonly end: string;
  /**
   * Reads one item: an SSE event's data, or one NDJSON line (never blank).
   *
   * @throws {ApiError} for an error item; {ResponseValidationError} for one that does not fit.
   */
  read(data: string): StreamStep<T>;
  /**
   * An error sent as an SSE `error:` field rather than a `data:` one (llama.cpp's server did so until 2025):
   * returns the error to throw. Only for SSE.
   */
  fieldError?(value: string): FimError;
}

/**
 * Decodes a stream into items, whatever its framing. Byte boundaries do not matter (UTF-8 sequences and lines may
 * be split anywhere); SSE comments such as `: keep-alive` and blank lines are skipped. It returns as soon as
 * `format.read` says the stream is done, without reading further: a proxy may hold the connection open after it,
 * and the caller decides what to do with the rest of the body.
 *
 * @param source the response body.
 * @param secret the API key, cut out of any error the server sends inside the stream.
 * @returns how much of `source` it read (bytes; characters for strings), the end included.
 * @throws what `format.read` throws, and ConnectionError when the body ends (or breaks) before the end: a cut
 *   stream is never a silent success.
 */
export async function* decodeStream<T>(
  source: AsyncIterable<Uint8Array | string>,
  format: StreamFormat<T>,
  secret?: string,
): AsyncGenerator<T, number, undefined> {
  const pending: string[] = [];
  let failure: FimError | undefined;
  const feed =
    format.framing === "sse"
      ? sseFeeder(pending, format, (error) => {
          failure = error;
        })
      : ndjsonFeeder(pending);
  const decoder = new TextDecoder();
  let count = 0;
  let read = 0;
  try {
    for await (const bytes of source) {
      read += bytes.length;
      feed(typeof bytes === "string" ? bytes : decoder.decode(bytes, { stream: true }));
      for (let i = 0; i < pending.length; i++) {
        const step = format.read(pending[i] as string);
        if (step.item !== undefined) {
          count++;
          yield step.item;
        }
        if (step.done) return read;
      }
      pending.length = 0;
      if (failure) throw failure;
    }
    // NDJSON: a last line without its line break still counts (an SSE event without its blank line does not).
    if (format.framing === "ndjson") feed("\n");
    for (const data of pending) {
      const step = format.read(data);
      if (step.item !== undefined) {
        count++;
        yield step.item;
      }
      if (step.done) return read;
    }
  } catch (error) {
    if (error instanceof FimError) throw error;
    // The socket went away mid-body (a chunked stream cut short): the same failure as a clean early end.
    throw new ConnectionError(`${endedEarly(format.end, count)}: ${describeCause(error)}`, {
      cause: redactCause(error, secret),
    });
  }
  throw new ConnectionError(endedEarly(format.end, count));
}

/** Collects the data of each SSE event into `pending`; an `error:` field becomes a failure when the format says. */
function sseFeeder(
  pending: string[],
  format: StreamFormat<unknown>,
  fail: (error: FimError) => void,
): (text: string) => void {
  let failed = false;
  const parser = createParser({
    onEvent(event) {
      // Nothing after an error counts: the items before it are yielded, then the error is thrown.
      if (!failed) pending.push(event.data);
    },
    onError(error: ParseError) {
      if (error.type === "unknown-field" && error.field === "error" && format.fieldError && !failed) {
        failed = true;
        fail(format.fieldError(error.value ?? ""));
      }
    },
  });
  return (text) => parser.feed(text);
}

/** Splits text into lines, keeping a partial last line until its break arrives; blank lines are skipped. */
function ndjsonFeeder(pending: string[]): (text: string) => void {
  let rest = "";
  return (text) => {
    const lines = (rest + text).split("\n");
    rest = lines.pop() as string;
    for (const line of lines) {
      const trimmed = line.trim();
      if (trimmed !== "") pending.push(trimmed);
    }
  };
}

function endedEarly(end: string, count: number): string {
  return `stream ended before ${end} (after ${count} chunk${count === 1 ? "" : "s"})`;
}
