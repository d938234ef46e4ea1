import { PassThrough } from "node:stream";
import { expect, it } from "vitest";
import { StreamMessageReader } from "vscode-languageserver/node";
import { FramedMessageWriter } from "../../src/protocol/message-writer.js";

it("writes the messages of one turn as one chunk that a JSON-RPC reader parses back, in order", async () => {
  const pipe = new PassThrough();
  const chunks: Buffer[] = [];
  pipe.on("data", (chunk: Buffer) => chunks.push(chunk));
  const writer = new FramedMessageWriter(pipe);
  const messages = [
    { jsonrpc: "2.0", id: 1, result: { items: [{ insertText: "naïve 𝒳 “quotes”" }] } },
    { jsonrpc: "2.0", method: "window/logMessage", params: { type: 4, message: "x".repeat(100_000) } },
    { jsonrpc: "2.0", id: 2, result: null },
  ];
  // Two in one turn (a notification, then the answer after a few promise hops), one in the next turn.
  const first = writer.write(messages[0]!);
  await Promise.resolve();
  await Promise.all([first, writer.write(messages[1]!)]);
  await writer.write(messages[2]!);
  expect(chunks).toHaveLength(2);

  const replay = new PassThrough();
  const read: unknown[] = [];
  const reader = new StreamMessageReader(replay);
  const done = new Promise<void>((resolve) =>
    reader.listen((message) => {
      read.push(message);
      if (read.length === messages.length) resolve();
    }),
  );
  for (const chunk of chunks) replay.write(chunk);
  await done;
  expect(read).toEqual(messages);
});
