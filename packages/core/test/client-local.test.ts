// Client behaviour against shapes @infill/sim does not produce: DeepSeek quirks and broken servers.
import { once } from "node:events";
import { createServer } from "node:net";
import { inspect } from "node:util";
import { Agent } from "undici";
import { afterEach, describe, expect, it } from "vitest";
import {
  ApiError,
  type CompletionChunk,
  ConnectionError,
  FimClient,
  ResponseValidationError,
  ServiceUnavailableError,
} from "../src/index.js";
import {
  completionBody,
  type LocalServer,
  rejection,
  startLocalServer,
  within,
} from "./support/local-server.js";

const request = { model: "deepseek-v4-flash", prompt: "def add(a, b):\n    ", suffix: "\n" };
let server: LocalServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

function client(extra: ConstructorParameters<typeof FimClient>[0] = {}): FimClient {
  return new FimClient({ apiKey: "sk-local", baseURL: server?.url, maxRetries: 0, ...extra });
}

async function texts(stream: AsyncIterable<CompletionChunk>): Promise<Array<string | undefined>> {
  const out: Array<string | undefined> = [];
  for await (const chunk of stream) out.push(chunk.choices[0]?.text);
  return out;
}

/** Every view of an error a log might show: message, stack, JSON, util.inspect with its cause chain. */
function views(error: unknown): string[] {
  return [
    String(error),
    (error as Error).stack ?? "",
    JSON.stringify(error),
    inspect(error, { depth: 20, showHidden: true }),
  ];
}

describe("non-streamed response leniency", () => {
  it("skips keep-alive blank lines before the JSON body", async () => {
    server = await startLocalServer((res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.write("\n");
      res.write("\n\r\n  \t");
      res.end(JSON.stringify(completionBody()));
    });
    const response = await client().complete(request);
    expect(response.choices[0]?.text).toBe("return a + b");
  });

  it("keeps extra fields, fractional and null logprobs", async () => {
    const logprobs = {
      tokens: ["def", " add", "return"],
      token_logprobs: [null, -0.25, -3.5918827],
      top_logprobs: [null, { " add": -0.25, " sum": -1.7 }, {}],
      text_offset: [0, 3, 7],
    };
    server = await startLocalServer((res) => {
      res.end(
        JSON.stringify(
          completionBody("return", {
            choices: [{ text: "return", index: 0, logprobs, finish_reason: "stop", extra_choice_field: 1 }],
            new_top_level: { x: 1 },
          }),
        ),
      );
    });
    const response = await client().complete({ ...request, logprobs: 2, echo: true });
    expect(response.choices[0]?.logprobs).toEqual(logprobs);
    expect(response.usage.prompt_tokens_details).toEqual({ cached_tokens: 0 });
    expect(response.new_top_level).toEqual({ x: 1 });
    expect(response.choices[0]?.extra_choice_field).toBe(1);
  });

  it.each(["stop", "length", "content_filter", "insufficient_system_resource", "aborted"])(
    "accepts finish_reason %s",
    async (reason) => {
      server = await startLocalServer((res) => {
        res.end(
          JSON.stringify(completionBody("x", { choices: [{ text: "x", index: 0, finish_reason: reason }] })),
        );
      });
      expect((await client().complete(request)).choices[0]?.finish_reason).toBe(reason);
    },
  );

  it.each([
    ["choices missing", JSON.stringify({ ...completionBody(), choices: undefined }), "choices"],
    [
      "text a number",
      JSON.stringify(completionBody("x", { choices: [{ text: 3, index: 0 }] })),
      "choices.0.text",
    ],
    ["usage missing", JSON.stringify({ ...completionBody(), usage: undefined }), "usage"],
    ["an array", "[]", "(root)"],
    ["HTML", "<html>gateway</html>", "not JSON: an HTML page: gateway"],
    ["empty", "", "not JSON: (empty)"],
  ])("a 200 with %s → ResponseValidationError with cause", async (_name, body, hint) => {
    server = await startLocalServer((res) => res.end(body));
    const error = await rejection(() => client().complete(request));
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect(error.message).toContain(hint);
    expect(error.cause).toBeDefined();
  });

  it("accepts choices without index (the spec requires none of a choice's fields)", async () => {
    server = await startLocalServer((res) => {
      res.end(JSON.stringify(completionBody("x", { choices: [{ text: "x", finish_reason: "stop" }] })));
    });
    expect((await client().complete(request)).choices[0]?.text).toBe("x");
  });

  it("a 200 carrying an error object → ApiError", async () => {
    server = await startLocalServer((res) => res.end('{"error":{"message":"Model Not Exist","type":"x"}}'));
    const error = await rejection(() => client().complete(request));
    expect(error).toBeInstanceOf(ApiError);
    expect(error.message).toBe("200 Model Not Exist");
  });
});

describe("error responses", () => {
  it("a non-JSON error body still gives a useful message, and x-request-id is the fallback id", async () => {
    server = await startLocalServer((res) => {
      res.writeHead(502, { "content-type": "text/html", "x-request-id": "req-42" });
      res.end("<html><h1>502 Bad Gateway</h1></html>");
    });
    const error = (await rejection(() => client().complete(request))) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error.status).toBe(502);
    expect(error.retryable).toBe(false);
    expect(error.requestId).toBe("req-42");
    expect(error.message).toBe("502 Bad Gateway");
  });

  it("x-ds-trace-id wins over x-request-id", async () => {
    server = await startLocalServer((res) => {
      res.writeHead(503, { "x-ds-trace-id": "ds-1", "x-request-id": "req-1" });
      res.end(JSON.stringify({ error: { message: "Server Overloaded", type: "x", param: null, code: "y" } }));
    });
    const error = (await rejection(() => client().complete(request))) as ApiError;
    expect(error).toBeInstanceOf(ServiceUnavailableError);
    expect(error.requestId).toBe("ds-1");
  });

  it("an error status on a stream request is an ApiError too", async () => {
    server = await startLocalServer((res) => {
      res.writeHead(422, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: { message: "Invalid Parameters", type: "invalid_request_error" } }));
    });
    const error = (await rejection(async () => {
      for await (const _ of client().stream(request)) {
        // nothing arrives
      }
    })) as ApiError;
    expect(error.status).toBe(422);
    expect(error.message).toBe("422 Invalid Parameters");
  });
});

describe("streams", () => {
  it("takes usage from the last content chunk when there is no choices: [] chunk", async () => {
    const usage = { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 };
    server = await startLocalServer((res) => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.write(`data: ${JSON.stringify(completionBody("", { usage: null }))}\n\n`);
      res.write(": keep-alive\n\n");
      res.write(`data: ${JSON.stringify(completionBody("ab", { usage }))}\n\n`);
      res.end("data: [DONE]\n\n");
    });
    const chunks: CompletionChunk[] = [];
    for await (const c of client().stream({ ...request, stream_options: { include_usage: true } }))
      chunks.push(c);
    expect(chunks.map((c) => c.choices[0]?.text)).toEqual(["", "ab"]);
    expect(chunks[0]?.usage).toBeNull();
    expect(chunks[1]?.usage).toMatchObject(usage);
    expect(JSON.parse(server.requests[0]?.body ?? "")).toMatchObject({
      stream: true,
      stream_options: { include_usage: true },
    });
    expect(server.requests[0]?.headers.accept).toBe("text/event-stream");
  });

  it("a connection lost mid-stream is a ConnectionError, not a retry", async () => {
    server = await startLocalServer((res) => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.write(`data: ${JSON.stringify(completionBody("a"))}\n\n`, () => {
        setImmediate(() => res.socket?.destroy());
      });
    });
    const received: string[] = [];
    const error = await rejection(async () => {
      for await (const c of client({ maxRetries: 3 }).stream(request))
        received.push(c.choices[0]?.text ?? "");
    });
    expect(received).toEqual(["a"]);
    expect(error).toBeInstanceOf(ConnectionError);
    expect(server.requests).toHaveLength(1);
  });
});

describe("a stream request answered with something other than text/event-stream", () => {
  it("an {error} body → ApiError, not a stream ended before [DONE]", async () => {
    server = await startLocalServer((res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end('{"error":{"message":"Model Not Exist","type":"invalid_request_error"}}');
    });
    const error = (await rejection(() => texts(client().stream(request)))) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error.message).toBe("200 Model Not Exist");
    expect(error.type).toBe("invalid_request_error");
  });

  it("a whole completion (stream: true ignored) → yielded as the single chunk", async () => {
    server = await startLocalServer((res) => {
      res.writeHead(200, { "content-type": "application/json; charset=utf-8" });
      res.end(JSON.stringify(completionBody("return a + b")));
    });
    const chunks: CompletionChunk[] = [];
    for await (const chunk of client().stream(request)) chunks.push(chunk);
    expect(chunks).toEqual([completionBody("return a + b")]);
  });

  it("anything else → ResponseValidationError", async () => {
    server = await startLocalServer((res) => {
      res.writeHead(200, { "content-type": "text/html" });
      res.end("<html>captive portal</html>");
    });
    const error = await rejection(() => texts(client().stream(request)));
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect(error.message).toBe("response body is not JSON: an HTML page: captive portal");
  });
});

describe("after [DONE]", () => {
  const events = `data: ${JSON.stringify(completionBody("ab"))}\n\ndata: [DONE]\n\n`;

  it("the stream ends at once though the server holds the connection open", async () => {
    server = await startLocalServer((res) => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.write(events); // and never ends the body
    });
    // Reading on to the end of the body, the stream would only end at its timeout (or never, with Infinity).
    const stream = texts(client({ timeoutMs: Number.POSITIVE_INFINITY }).stream(request));
    expect(await within(stream, 2_000, "the stream ending")).toEqual(["ab"]);
  });

  it("the socket is not thrown away: once the body ends, the next request reuses it", async () => {
    let release = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const ports: Array<number | undefined> = [];
    server = await startLocalServer(async (res, _seen, index) => {
      ports.push(res.socket?.remotePort);
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.write(events);
      if (index === 0) await released; // the body ends only after the client's stream has
      res.end(": bye\n\n");
    });
    // One socket: the second request gets the first one's only if it went back to the pool.
    const dispatcher = new Agent({ connections: 1 });
    try {
      const pooled = client({ dispatcher });
      expect(await within(texts(pooled.stream(request)), 2_000, "the first stream")).toEqual(["ab"]);
      release();
      expect(await texts(pooled.stream(request))).toEqual(["ab"]);
      expect(ports).toHaveLength(2);
      expect(ports[1]).toBe(ports[0]);
    } finally {
      await dispatcher.close();
    }
  });

  it("a connection held open is closed after a while, with no unhandled rejection", async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on("unhandledRejection", onUnhandled);
    try {
      server = await startLocalServer((res) => {
        res.writeHead(200, { "content-type": "text/event-stream" });
        res.write(events);
      });
      expect(await texts(client().stream(request))).toEqual(["ab"]);
      const closed = server.requests[0]?.closed ?? Promise.reject(new Error("no request"));
      await within(closed, 5_000, "the drain giving up on the socket");
      expect(unhandled).toEqual([]);
    } finally {
      process.off("unhandledRejection", onUnhandled);
    }
  });
});

describe("the API key in what a server sends back", () => {
  const key = "sk-9f8e7d6c5b4a39281706f5e4d3c2b1a0";

  it.each([
    ["complete()", key, "application/json", (c: FimClient) => c.complete(request)],
    ["complete()", `<html>${key}</html>`, "text/html", (c: FimClient) => c.complete(request)],
    ["stream()", `data: ${key}\n\n`, "text/event-stream", (c: FimClient) => texts(c.stream(request))],
  ])(
    "%s: a 200 body %j that is not JSON shows no part of it, cause included",
    async (_, body, type, call) => {
      server = await startLocalServer((res) => {
        res.writeHead(200, { "content-type": type });
        res.end(body);
      });
      const error = await rejection(() => call(client({ apiKey: key })));
      expect(error).toBeInstanceOf(ResponseValidationError);
      expect(error.message).toContain("[redacted]");
      expect(error.cause).toBeInstanceOf(SyntaxError);
      // V8 quotes the text's first 10 characters: "<html>sk-9" holds a part of the key that redacting misses.
      for (const view of views(error)) expect(view).not.toContain(key.slice(0, 4));
    },
  );

  it("a malformed response echoing it: not in the ConnectionError's cause (undici keeps the bytes)", async () => {
    const raw = createServer((socket) => {
      socket.once("data", () => {
        const head =
          "HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ntransfer-encoding: chunked\r\n\r\n";
        socket.end(`${head}zz\r\nAuthorization: Bearer ${key}\r\n`);
      });
    });
    raw.listen(0, "127.0.0.1");
    await once(raw, "listening");
    try {
      const { port } = raw.address() as { port: number };
      const broken = client({ apiKey: key, baseURL: `http://127.0.0.1:${port}/beta` });
      for (const call of [() => broken.complete(request), () => texts(broken.stream(request))]) {
        const error = await rejection(call);
        expect(error).toBeInstanceOf(ConnectionError);
        expect(inspect(error.cause)).toContain("[redacted]");
        for (const view of views(error)) expect(view).not.toContain(key);
      }
    } finally {
      raw.close();
    }
  });
});

describe("complete() body cut after the head", () => {
  it("is a ConnectionError and is not retried (the server may have done the work)", async () => {
    server = await startLocalServer((res) => {
      res.writeHead(200, { "content-type": "application/json", "content-length": "1000" });
      res.write('{"id":"x",', () => setImmediate(() => res.socket?.destroy()));
    });
    const error = await rejection(() => client({ maxRetries: 3 }).complete(request));
    expect(error).toBeInstanceOf(ConnectionError);
    expect(server.requests).toHaveLength(1);
    await within(server.requests[0]?.closed ?? Promise.reject(new Error("no request")), 2000, "close");
  });
});
