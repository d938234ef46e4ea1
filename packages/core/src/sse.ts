import { createParser } from "eventsource-parser";
import { ConnectionError, describeCause, FimError, redactCause } from "./errors.js";
import { parseChunkData } from "./response-body.js";
import type { CompletionChunk } from "./schemas.js";

/**
 * Decodes a completion stream: server-sent events whose `data:` fields are JSON chunks, ended by `data: [DONE]`.
 *
 * Byte boundaries do not matter (UTF-8 sequences and lines may be split anywhere); comments such as DeepSeek's
 * `: keep-alive` and blank lines are skipped by eventsource-parser. It returns at `[DONE]` without reading further:
 * a proxy may hold the connection open after it, and the caller decides what to do with the rest of the body.
 *
 * @param source the response body.
 * @param secret the API key, cut out of any error the server sends inside the stream.
 * @returns how much of `source` it read (bytes; characters for strings), `[DONE]` included.
 * @throws {ResponseValidationError} for a `data:` that is not JSON or not a chunk.
 * @throws {ApiError} for a `data: {"error": …}` event (with the response's HTTP status).
 * @throws {ConnectionError} when the body ends before `[DONE]`: a cut stream is never a silent success.
 */
export async function* decodeChunks(
  source: AsyncIterable<Uint8Array | string>,
  secret?: string,
  status = 200,
): AsyncGenerator<CompletionChunk, number, undefined> {
  const pending: string[] = [];
  let done = false;
  let count = 0;
  let read = 0;
  const parser = createParser({
    onEvent(event) {
      if (done) return;
      if (event.data === "[DONE]") done = true;
      else pending.push(event.data);
    },
  });
  const decoder = new TextDecoder();
  try {
    for await (const bytes of source) {
      read += bytes.length;
      parser.feed(typeof bytes === "string" ? bytes : decoder.decode(bytes, { stream: true }));
      for (let i = 0; i < pending.length; i++) {
        const chunk = parseChunkData(pending[i] as string, status, secret);
        count++;
        yield chunk;
      }
      pending.length = 0;
      if (done) return read;
    }
  } catch (error) {
    if (error instanceof FimError) throw error;
    // The socket went away mid-body (a chunked stream cut short): the same failure as a clean early end.
    throw new ConnectionError(`${endedEarly(count)}: ${describeCause(error)}`, {
      cause: redactCause(error, secret),
    });
  }
  throw new ConnectionError(endedEarly(count));
}

function endedEarly(count: number): string {
  return `stream ended before [DONE] (after ${count} chunk${count === 1 ? "" : "s"})`;
}
