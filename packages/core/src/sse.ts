import type { ErrorSource } from "./errors.js";
import { parseChunkData } from "./response-body.js";
import type { CompletionChunk } from "./schemas.js";
import { decodeStream, type StreamFormat } from "./stream-decoder.js";

const DEEPSEEK: ErrorSource = { name: "deepseek" };

/** DeepSeek's stream: SSE `data:` chunks ended by `data: [DONE]`; errors carry `status` and have the key cut out. */
export function deepseekChunks(status: number, secret: string | undefined): StreamFormat<CompletionChunk> {
  return {
    framing: "sse",
    end: "[DONE]",
    read: (data) =>
      data === "[DONE]"
        ? { item: undefined, done: true }
        : { item: parseChunkData(data, status, secret, DEEPSEEK), done: false },
  };
}

/**
 * Decodes a DeepSeek completion stream: server-sent events whose `data:` fields are JSON chunks, ended by
 * `data: [DONE]`. See decodeStream for what it guarantees (split bytes, comments, no read past the end).
 *
 * @param source the response body.
 * @param secret the API key, cut out of any error the server sends inside the stream.
 * @returns how much of `source` it read (bytes; characters for strings), `[DONE]` included.
 * @throws {ResponseValidationError} for a `data:` that is not JSON or not a chunk.
 * @throws {ApiError} for a `data: {"error": …}` event (with the response's HTTP status).
 * @throws {ConnectionError} when the body ends before `[DONE]`: a cut stream is never a silent success.
 */
export function decodeChunks(
  source: AsyncIterable<Uint8Array | string>,
  secret?: string,
  status = 200,
): AsyncGenerator<CompletionChunk, number, undefined> {
  return decodeStream(source, deepseekChunks(status, secret), secret);
}
