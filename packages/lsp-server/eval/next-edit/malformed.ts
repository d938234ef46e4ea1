// Malformed answers: a proxy in front of the sim's DeepSeek dialect that spoils the next-edit answers of a case as
// a misbehaving model or connection would, so that the eval can check that none of them is shown.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { Sim } from "@infill/sim";
import { request } from "undici";

/** How an answer is spoilt. */
export interface Spoiler {
  readonly name: string;
  /** What the model wrote (`content`) and why it stopped, changed; undefined for a fault of the connection. */
  readonly answer?: (content: string) => { content: string; finishReason: string };
  /** A broken transport instead, for every request of the case (retries included). */
  readonly transport?: "garbage" | "cut" | "error";
}

/** The spoilers each corpus is checked with: answers out of the format, then broken transports. */
export const SPOILERS: readonly Spoiler[] = [
  {
    name: "region opened twice",
    answer: (content) => ({ content: `<|editable_region_start|>\n${content}`, finishReason: "stop" }),
  },
  {
    name: "stray marker",
    answer: (content) => ({ content: `<|start_of_file|>\n${content}`, finishReason: "stop" }),
  },
  {
    name: "cut at max_tokens",
    answer: (content) => ({
      content: content.slice(0, Math.ceil(content.length / 2)),
      finishReason: "length",
    }),
  },
  { name: "a body that is not JSON", transport: "garbage" },
  { name: "the connection cut mid-body", transport: "cut" },
  { name: "an error body under 200", transport: "error" },
];

/** A proxy to a DeepSeek-dialect sim whose next-edit answers `spoil` changes while it is set. */
export interface SpoilingProxy {
  /** The base URL to give the server (`http://127.0.0.1:PORT/beta`). */
  readonly url: string;
  spoil(spoiler: Spoiler | undefined): void;
  close(): Promise<void>;
}

/** Start a proxy in front of `sim` (DeepSeek's dialect). */
export async function spoilingProxy(sim: Sim): Promise<SpoilingProxy> {
  const origin = new URL(sim.url).origin;
  let current: Spoiler | undefined;
  const server = createServer((req, res) => {
    void forward(req, res).catch(() => res.destroy());
  });
  async function forward(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const upstream = await request(`${origin}${req.url}`, {
      method: req.method as "POST",
      headers: { "content-type": "application/json", authorization: req.headers.authorization ?? "" },
      body: Buffer.concat(chunks),
    });
    let text = await upstream.body.text();
    const jsonType = { "content-type": "application/json" };
    if (current?.transport === "garbage") return void res.writeHead(200, jsonType).end("{not json");
    if (current?.transport === "error") {
      const error = { error: { message: "Internal error", type: "server_error", code: "internal_error" } };
      return void res.writeHead(200, jsonType).end(JSON.stringify(error));
    }
    if (current?.transport === "cut") {
      res.writeHead(200, { ...jsonType, "content-length": String(Buffer.byteLength(text)) });
      res.write(text.slice(0, text.length >> 1));
      return void res.destroy();
    }
    const spoil = current?.answer;
    if (spoil && req.url?.endsWith("/chat/completions") && upstream.statusCode === 200) {
      try {
        const json = JSON.parse(text) as {
          choices: { message: { content: string }; finish_reason: string }[];
        };
        const choice = json.choices[0]!;
        const spoilt = spoil(choice.message.content);
        choice.message.content = spoilt.content;
        choice.finish_reason = spoilt.finishReason;
        text = JSON.stringify(json);
      } catch {
        // Not an answer to spoil (a fault's body): passed on as it came.
      }
    }
    res.writeHead(upstream.statusCode, { "content-type": String(upstream.headers["content-type"] ?? "") });
    res.end(text);
  }
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/beta`,
    spoil(spoiler) {
      current = spoiler;
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
