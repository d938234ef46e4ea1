import { PassThrough } from "node:stream";
import { describe, expect, it, vi } from "vitest";
import { FramedMessageReader } from "../../src/protocol/message-reader.js";

const frame = (body: string, headers = "") =>
  `Content-Length: ${Buffer.byteLength(body)}\r\n${headers}\r\n${body}`;
const message = (id: number) =>
  JSON.stringify({ jsonrpc: "2.0", id, method: "m", params: { text: "naïve 𝒳" } });

/** Feed `input` to a reader in chunks of `size` bytes (all at once by default); the messages and errors it gave. */
function read(input: string, size = Number.POSITIVE_INFINITY) {
  const stream = new PassThrough();
  const reader = new FramedMessageReader(stream);
  const messages: unknown[] = [];
  const errors: string[] = [];
  reader.onError((error) => errors.push(error.message));
  reader.listen((m) => messages.push((m as { id?: unknown }).id));
  const bytes = Buffer.from(input);
  for (let at = 0; at < bytes.length; at += size) stream.write(bytes.subarray(at, at + size));
  return { messages, errors };
}

describe("FramedMessageReader", () => {
  it.each([1, 7, 64, Number.POSITIVE_INFINITY])("reads frames split into chunks of %s bytes", (size) => {
    const input =
      frame(message(1)) + frame(message(2), "Content-Type: application/vscode-jsonrpc; charset=utf-8\r\n");
    expect(read(input, size)).toEqual({ messages: [1, 2], errors: [] });
  });

  it.each([
    ["a header block without a length", "X-Nonsense: 1\r\n\r\n", /no Content-Length/],
    ["a length that is not one", "Content-Length: many\r\n\r\n", /not a length: many/],
    ["a negative length", "Content-Length: -4\r\n\r\n", /not a length/],
    ["a body that is not JSON", frame("{ this is not json"), /not JSON/],
    ["JSON that is not an object", frame("[1, 2]"), /not a JSON object/],
    [
      "another charset",
      frame(message(9), "Content-Type: application/vscode-jsonrpc; charset=latin1\r\n"),
      /utf-8/,
    ],
  ])("drops %s, says so, and reads the message written right after it", (_, bad, error) => {
    const { messages, errors } = read(bad + frame(message(1)));
    expect(messages).toEqual([1]);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(error);
  });

  it("finds the length after stray bytes, losing only the message they hid", () => {
    // A frame cut short: its body's tail is glued to the next header.
    const cut = frame(message(1)).slice(0, -10);
    const { messages, errors } = read(`${cut}${frame(message(2))}${frame(message(3))}`);
    // 1 is cut, and its length swallows the start of 2's header; 2's body then hides 3's header, which is found.
    expect(messages).toEqual([3]);
    expect(errors).toHaveLength(2);
  });

  it("joins a body that comes in many chunks once, not once per chunk", () => {
    // A 5 MB didOpen comes in 64 KB chunks; joined on every arrival, it copied the sum of the growing prefixes.
    const body = JSON.stringify({
      jsonrpc: "2.0",
      id: 7,
      method: "m",
      params: { text: "x".repeat(1 << 20) },
    });
    const concat = vi.spyOn(Buffer, "concat");
    try {
      const { messages, errors } = read(frame(body) + frame(message(8)), 1024);
      expect(messages).toEqual([7, 8]);
      expect(errors).toEqual([]);
      const copied = concat.mock.results.reduce((sum, result) => sum + (result.value as Buffer).length, 0);
      expect(copied).toBeLessThan(2 * body.length);
    } finally {
      concat.mockRestore();
    }
  });

  it("goes on after a message the connection throws on", () => {
    const stream = new PassThrough();
    const reader = new FramedMessageReader(stream);
    const seen: unknown[] = [];
    const errors: string[] = [];
    reader.onError((error) => errors.push(error.message));
    reader.listen((m) => {
      const id = (m as unknown as { id: number }).id;
      if (id === 1) throw new TypeError("bad id");
      seen.push(id);
    });
    stream.write(frame(message(1)) + frame(message(2)));
    expect(seen).toEqual([2]);
    expect(errors).toEqual(["dropped a message: TypeError: bad id"]);
  });
});
