import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ApiError, type CompletionChunk, ConnectionError, ResponseValidationError } from "../src/index.js";
import { decodeChunks } from "../src/sse.js";

const encoder = new TextEncoder();

function chunk(text: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: "fb50cff8",
    choices: [{ text, index: 0, logprobs: null, finish_reason: null }],
    created: 1779503544,
    model: "deepseek-v4-flash",
    system_fingerprint: "fp_8b330d02d0_prod0820_fp8_kvcache_20260402",
    object: "text_completion",
    ...extra,
  };
}

async function* from(parts: Array<Uint8Array | string>): AsyncGenerator<Uint8Array | string> {
  for (const part of parts) yield part;
}

async function collect(parts: Array<Uint8Array | string>): Promise<CompletionChunk[]> {
  const out: CompletionChunk[] = [];
  for await (const c of decodeChunks(from(parts))) out.push(c);
  return out;
}

async function failure(parts: Array<Uint8Array | string>): Promise<unknown> {
  try {
    await collect(parts);
  } catch (error) {
    return error;
  }
  throw new Error("expected the stream to fail");
}

// A DeepSeek-like stream: keep-alive comments, an empty first chunk, multi-byte text, CRLF on one event, usage
// on a final choices: [] chunk, then [DONE].
const texts = ["", "18", "-year", "-old 😀 ünïcödé", "\n", "}"];
const wire =
  ": keep-alive\n\n" +
  texts.map((text, i) => `data: ${JSON.stringify(chunk(text))}${i === 2 ? "\r\n\r\n" : "\n\n"}`).join("") +
  ": keep-alive\n\n" +
  `data: ${JSON.stringify(chunk("", { choices: [], usage: { prompt_tokens: 5, completion_tokens: 6, total_tokens: 11 } }))}\n\n` +
  "data: [DONE]\n\n";
const bytes = encoder.encode(wire);

describe("decodeChunks", () => {
  it("yields each data event as a chunk, skips comments, stops at [DONE]", async () => {
    const chunks = await collect([bytes]);
    expect(chunks.map((c) => c.choices[0]?.text)).toEqual([...texts, undefined]);
    expect(chunks.at(-1)?.usage?.total_tokens).toBe(11);
    expect(chunks.at(-1)?.choices).toEqual([]);
  });

  it("yields the same chunks for any split of the byte stream", async () => {
    const expected = await collect([bytes]);
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(fc.integer({ min: 1, max: bytes.length - 1 }), { maxLength: 40 }),
        async (cuts) => {
          const sorted = [...cuts].sort((a, b) => a - b);
          const parts: Uint8Array[] = [];
          let start = 0;
          for (const cut of [...sorted, bytes.length]) {
            parts.push(bytes.subarray(start, cut));
            start = cut;
          }
          expect(await collect(parts)).toEqual(expected);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("splits byte by byte, through the middle of every UTF-8 sequence", async () => {
    const parts = Array.from(bytes, (byte) => Uint8Array.of(byte));
    expect(await collect(parts)).toEqual(await collect([bytes]));
  });

  it("returns at [DONE] without reading on (a held-open body must not delay the end), saying how much it read", async () => {
    const head = encoder.encode(
      `data: ${JSON.stringify(chunk("a"))}\n\ndata: [DONE]\n\ndata: {"ignored":1}\n\n`,
    );
    let pulledPastDone = false;
    let released = false;
    async function* source() {
      try {
        yield head;
        pulledPastDone = true;
        yield encoder.encode(`data: ${JSON.stringify(chunk("after"))}\n\n`);
      } finally {
        released = true;
      }
    }
    const out: CompletionChunk[] = [];
    const stream = decodeChunks(source());
    let result = await stream.next();
    for (; !result.done; result = await stream.next()) out.push(result.value);
    expect(out.map((c) => c.choices[0]?.text)).toEqual(["a"]);
    expect(result.value).toBe(head.length);
    expect(pulledPastDone).toBe(false);
    expect(released).toBe(true);
  });

  it("throws when the body ends before [DONE]", async () => {
    const error = await failure([`data: ${JSON.stringify(chunk("a"))}\n\n`]);
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as Error).message).toBe("stream ended before [DONE] (after 1 chunk)");
    expect(await failure([])).toBeInstanceOf(ConnectionError);
    // An unterminated [DONE] line is not an event: the stream was cut mid-line.
    expect(await failure([`data: ${JSON.stringify(chunk("a"))}\n\ndata: [DONE]`])).toBeInstanceOf(
      ConnectionError,
    );
  });

  it("throws ResponseValidationError for non-JSON or misshapen data, with a cause", async () => {
    const notJson = await failure(["data: {oops\n\n"]);
    expect(notJson).toBeInstanceOf(ResponseValidationError);
    expect((notJson as Error).message).toContain("stream event is not JSON: {oops");
    expect((notJson as Error).cause).toBeInstanceOf(SyntaxError);
    const misshapen = await failure([
      `data: ${JSON.stringify({ ...chunk("a"), choices: [{ text: 1, index: 0 }] })}\n\n`,
    ]);
    expect(misshapen).toBeInstanceOf(ResponseValidationError);
    expect((misshapen as Error).message).toContain("choices.0.text");
    expect((misshapen as Error).cause).toBeDefined();
  });

  it("turns an error event into an ApiError", async () => {
    const error = await failure([
      'data: {"error":{"message":"Insufficient Balance","type":"unknown_error","param":null,"code":"invalid_request_error"}}\n\n',
    ]);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).message).toBe("200 Insufficient Balance");
    expect((error as ApiError).type).toBe("unknown_error");
  });

  it("accepts strings as well as bytes", async () => {
    expect(await collect([wire.slice(0, 100), wire.slice(100)])).toEqual(await collect([bytes]));
  });
});
