// Client behaviour against shapes @infill/sim does not produce: DeepSeek quirks and broken servers.
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
    ["HTML", "<html>gateway</html>", "not JSON: <html>gateway</html>"],
    ["empty", "", "not JSON: (empty)"],
  ])("a 200 with %s → ResponseValidationError with cause", async (_name, body, hint) => {
    server = await startLocalServer((res) => res.end(body));
    const error = await rejection(() => client().complete(request));
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect(error.message).toContain(hint);
    expect(error.cause).toBeDefined();
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
    expect(error.message).toBe("502 Bad Gateway: <html><h1>502 Bad Gateway</h1></html>");
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
