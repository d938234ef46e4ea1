// The client against @infill/sim over real HTTP.
import { getEventListeners } from "node:events";
import { inspect } from "node:util";
import { type Fault, type Sim, startSim } from "@infill/sim";
import { afterEach, describe, expect, it } from "vitest";
import {
  AbortError,
  ApiError,
  AuthenticationError,
  BadRequestError,
  type CompletionChunk,
  type CompletionRequest,
  ConnectionError,
  FimClient,
  type FimClientOptions,
  InsufficientBalanceError,
  InternalServerError,
  NotFoundError,
  RateLimitError,
  ResponseValidationError,
  ServiceUnavailableError,
  TimeoutError,
  UnprocessableEntityError,
  ValidationError,
  VERSION,
} from "../src/index.js";
import { rejection, until, within } from "./support/local-server.js";

const KEY = "sk-test-key-0123456789abcdef";
const request = {
  model: "deepseek-v4-flash",
  prompt: "def add(a, b):\n    return a + b\n\ndef sub(a, b):\n    ",
  suffix: "\n",
  max_tokens: 20,
} satisfies CompletionRequest;

let sim: Sim | undefined;
afterEach(async () => {
  await sim?.close();
  sim = undefined;
});

async function setup(
  simOptions: Parameters<typeof startSim>[0] = {},
  clientOptions: FimClientOptions = {},
): Promise<{ sim: Sim; client: FimClient }> {
  sim = await startSim({ apiKey: KEY, ...simOptions });
  return { sim, client: new FimClient({ apiKey: KEY, baseURL: sim.url, ...clientOptions }) };
}

async function drain(stream: AsyncIterable<CompletionChunk>): Promise<CompletionChunk[]> {
  const chunks: CompletionChunk[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return chunks;
}

const textOf = (chunks: CompletionChunk[]) => chunks.map((c) => c.choices[0]?.text ?? "").join("");

describe("complete()", () => {
  it("returns the completion with usage", async () => {
    const { client } = await setup();
    const response = await client.complete(request);
    expect(response.object).toBe("text_completion");
    expect(response.choices[0]?.text).toBe("return a + b");
    expect(response.choices[0]?.finish_reason).toBe("stop");
    expect(response.usage.total_tokens).toBe(response.usage.prompt_tokens + response.usage.completion_tokens);
    // DeepSeek V4's extra usage field survives the lenient schema.
    expect(response.usage.prompt_tokens_details).toEqual({ cached_tokens: 0 });
  });

  it("sends the headers: Bearer key, JSON types, User-Agent infill/<version>", async () => {
    const { sim, client } = await setup();
    await client.complete(request);
    const headers = sim.requests[0]?.headers;
    expect(headers?.authorization).toBe(`Bearer ${KEY}`);
    expect(headers?.["content-type"]).toBe("application/json");
    expect(headers?.accept).toBe("application/json");
    expect(headers?.["user-agent"]).toBe(`infill/${VERSION}`);
  });

  it("puts a caller's userAgent before its own token", async () => {
    const { sim, client } = await setup({}, { userAgent: "infill-lsp/1.2.3" });
    await client.complete(request);
    expect(sim.requests[0]?.headers["user-agent"]).toBe(`infill-lsp/1.2.3 infill/${VERSION}`);
  });

  it("sends no Authorization without a key, and lets the server decide", async () => {
    sim = await startSim();
    const keyless = new FimClient({ apiKey: "", baseURL: sim.url });
    expect((await keyless.complete(request)).choices[0]?.text).toBe("return a + b");
    expect(sim.requests[0]?.headers.authorization).toBeUndefined();

    const { client } = await setup();
    const strict = new FimClient({ apiKey: "  ", baseURL: client.baseURL });
    const error = await rejection(() => strict.complete(request));
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error.message).toBe("401 Authentication Fails (auth header format should be Bearer sk-...)");
  });

  it("sends only the spec's fields, in the spec's order", async () => {
    const { sim, client } = await setup();
    await client.complete({
      top_p: 1,
      temperature: 0,
      suffix: "\n",
      stop: ["\n\n"],
      presence_penalty: 0,
      max_tokens: 16,
      logprobs: 2,
      frequency_penalty: 0,
      echo: false,
      prompt: "x = ",
      model: "deepseek-v4-flash",
    });
    expect(Object.keys(sim.requests[0]?.body as object)).toEqual([
      "model",
      "prompt",
      "echo",
      "frequency_penalty",
      "logprobs",
      "max_tokens",
      "presence_penalty",
      "stop",
      "suffix",
      "temperature",
      "top_p",
    ]);
  });

  it("returns logprobs when asked", async () => {
    const { client } = await setup();
    const response = await client.complete({ ...request, logprobs: 3 });
    const logprobs = response.choices[0]?.logprobs;
    expect(logprobs?.tokens.length).toBeGreaterThan(0);
    expect(logprobs?.token_logprobs.length).toBe(logprobs?.tokens.length);
  });

  it("handles many concurrent calls over the keep-alive pool", async () => {
    const { sim, client } = await setup();
    const responses = await Promise.all(Array.from({ length: 100 }, () => client.complete(request)));
    expect(new Set(responses.map((r) => r.choices[0]?.text))).toEqual(new Set(["return a + b"]));
    expect(sim.requests).toHaveLength(100);
  });
});

describe("validation happens before any I/O", () => {
  it.each<[string, Record<string, unknown>, string]>([
    ["logprobs", { logprobs: 21 }, "logprobs must be an integer between 0 and 20 (got 21)"],
    ["max_tokens", { max_tokens: 4097 }, "max_tokens must be an integer between 1 and 4096 (got 4097)"],
    ["temperature", { temperature: 3 }, "temperature must be a number between 0 and 2 (got 3)"],
    ["top_p", { top_p: 2 }, "top_p must be a number between 0 and 1 (got 2)"],
    ["frequency_penalty", { frequency_penalty: -3 }, "between -2 and 2 (got -3)"],
    ["presence_penalty", { presence_penalty: 2.5 }, "between -2 and 2 (got 2.5)"],
    ["stop[3]", { stop: ["a", "b", "c", 4] }, "stop[3] must be a string"],
    ["stop", { stop: Array(17).fill("x") }, "at most 16 strings"],
    ["model", { model: "" }, "model must be a non-empty string"],
    ["stream_options", { stream_options: { include_usage: true } }, "only allowed when streaming"],
    ["stream", { stream: true }, "use client.stream()"],
    ["user", { user: "u1" }, "unknown field user"],
  ])("%s", async (field, patch, message) => {
    const { sim, client } = await setup();
    const error = (await rejection(() =>
      client.complete({ ...request, ...patch } as CompletionRequest),
    )) as ValidationError;
    expect(error).toBeInstanceOf(ValidationError);
    expect(error.field).toBe(field);
    expect(error.message).toContain(message);
    expect(sim.requests).toHaveLength(0);
  });

  it("in stream() too", async () => {
    const { sim, client } = await setup();
    const error = (await rejection(() =>
      drain(client.stream({ ...request, max_tokens: 0 })),
    )) as ValidationError;
    expect(error).toBeInstanceOf(ValidationError);
    expect(error.field).toBe("max_tokens");
    expect(sim.requests).toHaveLength(0);
  });

  it("bad options are refused by the constructor", () => {
    for (const [options, field] of [
      [{ baseURL: "http://example.com/beta" }, "baseURL"],
      [{ baseURL: "https://api.deepseek.com/beta/completions" }, "baseURL"],
      [{ timeoutMs: 0 }, "timeoutMs"],
      [{ timeoutMs: Number.NaN }, "timeoutMs"],
      [{ maxRetries: -1 }, "maxRetries"],
      [{ maxRetries: 1.5 }, "maxRetries"],
      [{ apiKey: "sk-with space" }, "apiKey"],
      [{ apiKey: "sk-ünïcode" }, "apiKey"],
      [{ userAgent: "bad\nagent" }, "userAgent"],
    ] as const) {
      let error: unknown;
      try {
        new FimClient({ apiKey: KEY, ...options });
      } catch (caught) {
        error = caught;
      }
      expect(error, JSON.stringify(options)).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).field).toBe(field);
      expect((error as ValidationError).message).not.toContain("sk-with");
    }
  });

  it("a bad value from the environment is named by its variable and not quoted", () => {
    const saved = { key: process.env.DEEPSEEK_API_KEY, url: process.env.INFILL_BASE_URL };
    const construct = (options: FimClientOptions = {}) => {
      try {
        new FimClient(options);
      } catch (error) {
        return error as ValidationError;
      }
      throw new Error("expected a throw");
    };
    try {
      // The two variables swapped: the key lands in INFILL_BASE_URL.
      process.env.INFILL_BASE_URL = KEY;
      const swapped = construct({ apiKey: "sk-ok" });
      expect(swapped.field).toBe("baseURL");
      expect(swapped.message).toBe(
        "INFILL_BASE_URL is not a valid URL; pass the API base as an http(s) URL, e.g. https://api.deepseek.com/beta",
      );
      expect(inspect(swapped, { depth: 20, showHidden: true })).not.toContain(KEY);
      expect(construct({ apiKey: "sk-ok", baseURL: "nope" }).message).toMatch(/^baseURL is not a valid URL;/);

      delete process.env.INFILL_BASE_URL;
      process.env.DEEPSEEK_API_KEY = "sk-with space";
      const key = construct();
      expect(key.field).toBe("apiKey");
      expect(key.message).toMatch(/^DEEPSEEK_API_KEY contains characters that cannot go in an HTTP header/);
      expect(construct({ apiKey: "sk-with space" }).message).toMatch(/^apiKey contains/);
    } finally {
      restoreEnv("DEEPSEEK_API_KEY", saved.key);
      restoreEnv("INFILL_BASE_URL", saved.url);
    }
  });

  it.each([Number.NaN, -1, 0, "100"])(
    "a per-call timeoutMs of %s is refused before anything is sent",
    async (timeoutMs) => {
      const { sim, client } = await setup();
      const options = { timeoutMs: timeoutMs as number };
      for (const call of [
        () => client.complete(request, options),
        () => drain(client.stream(request, options)),
      ]) {
        const error = (await rejection(call)) as ValidationError;
        expect(error).toBeInstanceOf(ValidationError);
        expect(error.field).toBe("timeoutMs");
        expect(error.message).toMatch(/^timeoutMs must be a positive number of milliseconds, or Infinity/);
      }
      expect(sim.requests).toHaveLength(0);
    },
  );

  it("plain http to another host needs allowInsecureHttp", () => {
    expect(() => new FimClient({ baseURL: "http://10.1.2.3:8080" })).toThrow(/allowInsecureHttp: true/);
    expect(new FimClient({ baseURL: "http://10.1.2.3:8080", allowInsecureHttp: true }).baseURL).toBe(
      "http://10.1.2.3:8080/beta",
    );
    expect(new FimClient({ baseURL: "http://localhost:8080" }).baseURL).toBe("http://localhost:8080/beta");
  });

  it("reads DEEPSEEK_API_KEY and INFILL_BASE_URL when no option is given", async () => {
    const { sim } = await setup();
    const saved = { key: process.env.DEEPSEEK_API_KEY, url: process.env.INFILL_BASE_URL };
    process.env.DEEPSEEK_API_KEY = KEY;
    process.env.INFILL_BASE_URL = sim.url.replace(/\/beta$/, "");
    try {
      const client = new FimClient();
      expect(client.baseURL).toBe(sim.url);
      await client.complete(request);
      expect(sim.requests[0]?.headers.authorization).toBe(`Bearer ${KEY}`);
    } finally {
      restoreEnv("DEEPSEEK_API_KEY", saved.key);
      restoreEnv("INFILL_BASE_URL", saved.url);
    }
    delete process.env.INFILL_BASE_URL;
    expect(new FimClient({ apiKey: "k" }).baseURL).toBe("https://api.deepseek.com/beta");
    restoreEnv("INFILL_BASE_URL", saved.url);
  });
});

describe("error statuses", () => {
  it.each([
    [400, BadRequestError, false],
    [401, AuthenticationError, false],
    [402, InsufficientBalanceError, false],
    [422, UnprocessableEntityError, false],
    [429, RateLimitError, true],
    [500, InternalServerError, true],
    [503, ServiceUnavailableError, true],
    [404, NotFoundError, false],
    [502, ApiError, false],
  ])("status %i", async (status, Class, retryable) => {
    const { sim, client } = await setup({ faults: [{ type: "status", status }] }, { maxRetries: 0 });
    const error = (await rejection(() => client.complete(request))) as ApiError;
    expect(error).toBeInstanceOf(Class);
    expect(error.constructor).toBe(Class);
    expect(error.status).toBe(status);
    expect(error.retryable).toBe(retryable);
    expect(error.requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(error.message).toMatch(new RegExp(`^${status} \\S`));
    expect(error.code).toBe("invalid_request_error");
    expect(sim.requests).toHaveLength(1);
  });

  it("401 says what DeepSeek says, masking the key as DeepSeek does", async () => {
    sim = await startSim({ apiKey: KEY });
    const client = new FimClient({ apiKey: "sk-wrong-key-99999abcd", baseURL: sim.url });
    const error = (await rejection(() => client.complete(request))) as AuthenticationError;
    expect(error.message).toBe("401 Authentication Fails, Your api key: ****abcd is invalid");
    expect(error.type).toBe("authentication_error");
  });
});

describe("retries", () => {
  it("503 twice then success: 3 requests", async () => {
    const { sim, client } = await setup({ faults: [{ type: "status", status: 503, times: 2 }] });
    expect((await client.complete(request)).choices[0]?.text).toBe("return a + b");
    expect(sim.requests.map((r) => r.status)).toEqual([503, 503, 200]);
  });

  it("honours Retry-After on a 429", async () => {
    // Backoff alone would wait under 0.5 s before the first retry; Retry-After: 1 makes it a full second.
    const { sim, client } = await setup({ faults: [{ type: "status", status: 429, retryAfter: "1" }] });
    const started = performance.now();
    await client.complete(request);
    expect(performance.now() - started).toBeGreaterThanOrEqual(990);
    expect(sim.requests.map((r) => r.status)).toEqual([429, 200]);
  });

  it("exposes Retry-After on the error as retryAfterMs", async () => {
    const { client } = await setup(
      {
        faults: [
          { type: "status", status: 429, retryAfter: "7" },
          { type: "status", status: 503 },
        ],
      },
      { maxRetries: 0 },
    );
    expect(((await rejection(() => client.complete(request))) as ApiError).retryAfterMs).toBe(7_000);
    expect(((await rejection(() => client.complete(request))) as ApiError).retryAfterMs).toBeUndefined();
  });

  it("retryRateLimited: false throws a 429 at once but still retries a 503", async () => {
    const { sim, client } = await setup({
      faults: [
        { type: "status", status: 429, retryAfter: "0" },
        { type: "status", status: 503 },
      ],
    });
    const error = await rejection(() => client.complete(request, { retryRateLimited: false }));
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).retryAfterMs).toBe(0);
    expect(sim.requests.map((r) => r.status)).toEqual([429]);
    await client.complete(request, { retryRateLimited: false });
    expect(sim.requests.map((r) => r.status)).toEqual([429, 503, 200]);
  });

  it("gives up at once with the server's error when Retry-After outlasts the timeout", async () => {
    const { sim, client } = await setup(
      { faults: [{ type: "status", status: 503, retryAfter: "30" }] },
      { timeoutMs: 5_000 },
    );
    const error = await rejection(() => client.complete(request));
    // Not a TimeoutError: it did not sleep until the timeout.
    expect(error).toBeInstanceOf(ServiceUnavailableError);
    expect(sim.requests).toHaveLength(1);
  });

  it.each([400, 401, 402, 422])("never retries %i", async (status) => {
    const { sim, client } = await setup(
      { faults: [{ type: "status", status, times: 3 }] },
      { maxRetries: 2 },
    );
    const error = (await rejection(() => client.complete(request))) as ApiError;
    expect(error.status).toBe(status);
    expect(sim.requests).toHaveLength(1);
  });

  it("retries a connection reset before the response", async () => {
    const { sim, client } = await setup({ faults: [{ type: "reset" }] });
    expect((await client.complete(request)).choices[0]?.text).toBe("return a + b");
    expect(sim.requests).toHaveLength(2);
    expect(sim.requests[0]?.status).toBe(0);
  });

  it("a reset without retries left is a ConnectionError", async () => {
    const { client } = await setup({ faults: [{ type: "reset" }] }, { maxRetries: 0 });
    const error = await rejection(() => client.complete(request));
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error.cause).toBeDefined();
  });

  it("retries a refused connection, then reports it", async () => {
    const closed = await startSim();
    const url = closed.url;
    await closed.close();
    const client = new FimClient({ apiKey: KEY, baseURL: url, maxRetries: 1 });
    const error = await rejection(() => client.complete(request));
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error.message).toContain("ECONNREFUSED");
  });

  it("throws the last error when retries run out", async () => {
    const faults: Fault[] = [
      { type: "status", status: 500 },
      { type: "status", status: 503 },
      { type: "status", status: 429, retryAfter: "0" },
    ];
    const { sim, client } = await setup({ faults }, { maxRetries: 2 });
    const error = await rejection(() => client.complete(request));
    expect(error).toBeInstanceOf(RateLimitError);
    expect(sim.requests).toHaveLength(3);
  });

  it("does not retry once the caller aborts, even in the backoff sleep", async () => {
    const { sim, client } = await setup({ faults: [{ type: "status", status: 503, retryAfter: "5" }] });
    const controller = new AbortController();
    const call = client.complete(request, { signal: controller.signal });
    await until(() => sim.requests[0]?.status === 503, 5_000, "the 503");
    const started = performance.now();
    controller.abort();
    const error = await rejection(() => call);
    expect(error).toBeInstanceOf(AbortError);
    expect(performance.now() - started).toBeLessThan(5_000); // before the sleep would have ended
    expect(sim.requests).toHaveLength(1);
  });

  it("retries a stream that failed before its first chunk", async () => {
    const { sim, client } = await setup({ faults: [{ type: "status", status: 503 }] });
    const chunks = await drain(client.stream(request));
    expect(textOf(chunks)).toBe("return a + b");
    expect(sim.requests).toHaveLength(2);
  });

  it("never retries a stream after its first chunk was delivered", async () => {
    const { sim, client } = await setup({ faults: [{ type: "cut", afterChunks: 2 }] }, { maxRetries: 2 });
    const received: CompletionChunk[] = [];
    const error = await rejection(async () => {
      for await (const chunk of client.stream(request)) received.push(chunk);
    });
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error.message).toMatch(/^stream ended before \[DONE\] \(after 2 chunks\)/);
    expect(received).toHaveLength(2);
    expect(sim.requests).toHaveLength(1);
  });
});

describe("streams", () => {
  it("yields the same text as complete(), starting with an empty chunk", async () => {
    const { sim, client } = await setup();
    const chunks = await drain(client.stream(request));
    expect(chunks[0]?.choices[0]?.text).toBe("");
    expect(textOf(chunks)).toBe((await client.complete(request)).choices[0]?.text);
    expect(chunks.at(-1)?.choices[0]?.finish_reason).toBe("stop");
    expect(sim.requests[0]?.body).toMatchObject({ stream: true });
    expect(sim.requests[0]?.headers.accept).toBe("text/event-stream");
  });

  it("delivers usage on a final choices: [] chunk with include_usage", async () => {
    const { client } = await setup();
    const chunks = await drain(client.stream({ ...request, stream_options: { include_usage: true } }));
    const last = chunks.at(-1);
    expect(last?.choices).toEqual([]);
    expect(last?.usage?.completion_tokens).toBeGreaterThan(0);
    expect(chunks.slice(0, -1).every((c) => c.usage === null)).toBe(true);
  });

  it("ignores keep-alive comments while waiting", async () => {
    const { sim, client } = await setup({ latencyMs: 150, keepAlive: true, keepAliveIntervalMs: 10 });
    expect(textOf(await drain(client.stream(request)))).toBe("return a + b");
    expect(sim.requests[0]?.status).toBe(200);
  });

  it("a stream cut before [DONE] throws instead of ending quietly", async () => {
    const { client } = await setup({ faults: [{ type: "cut", afterChunks: 0 }] }, { maxRetries: 0 });
    const error = await rejection(() => drain(client.stream(request)));
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error.message).toContain("stream ended before [DONE]");
  });

  it("breaking out of the loop aborts the request at once", async () => {
    const { sim, client } = await setup({ tokenMs: 200 });
    for await (const chunk of client.stream({ ...request, max_tokens: 50 })) {
      if (chunk.choices[0]?.text) break;
    }
    const seen = sim.requests[0];
    await within(
      seen?.closed ?? Promise.reject(new Error("no request")),
      1_000,
      "the server seeing the close",
    );
    expect(seen?.aborted).toBe(true);
  });

  it("throwing inside the loop aborts the request too", async () => {
    const { sim, client } = await setup({ tokenMs: 200 });
    const error = await rejection(async () => {
      for await (const _ of client.stream(request)) throw new Error("consumer failed");
    });
    expect(error.message).toBe("consumer failed");
    await within(sim.requests[0]?.closed ?? Promise.reject(new Error("no request")), 5_000, "close");
    expect(sim.requests[0]?.aborted).toBe(true);
  });

  it("reuses the connection after a complete stream", async () => {
    const { sim, client } = await setup();
    await drain(client.stream(request));
    await drain(client.stream(request));
    expect(sim.requests.map((r) => r.aborted)).toEqual([false, false]);
  });
});

describe("non-streamed bodies", () => {
  it("skip keep-alive blank lines", async () => {
    const { client } = await setup({ latencyMs: 150, keepAlive: true, keepAliveIntervalMs: 10 });
    expect((await client.complete(request)).choices[0]?.text).toBe("return a + b");
  });

  it("a 200 that is not JSON → ResponseValidationError", async () => {
    const { client } = await setup({ faults: [{ type: "garbage" }] });
    const error = await rejection(() => client.complete(request));
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect(error.message).toContain("not JSON: an HTML page");
    expect(error.cause).toBeInstanceOf(SyntaxError);
  });

  it("a body cut in half → ConnectionError, not retried", async () => {
    const { sim, client } = await setup({ faults: [{ type: "cut" }] });
    const error = await rejection(() => client.complete(request));
    expect(error).toBeInstanceOf(ConnectionError);
    expect(sim.requests).toHaveLength(1);
  });
});

describe("cancellation and timeouts", () => {
  it("an abort during the server's latency rejects at once and closes the connection", async () => {
    const { sim, client } = await setup({ latencyMs: 10_000 });
    const controller = new AbortController();
    const call = client.complete(request, { signal: controller.signal });
    await until(() => sim.requests.length === 1, 5_000, "the request reaching the sim");
    controller.abort(new Error("user typed"));
    const error = await rejection(() => call);
    expect(error).toBeInstanceOf(AbortError);
    // Not the answer the server gives after 10 s: the call rejected on the abort.
    expect((error.cause as Error).message).toBe("user typed");
    await within(sim.requests[0]?.closed ?? Promise.reject(new Error("no request")), 5_000, "close");
    expect(sim.requests[0]?.aborted).toBe(true);
    expect(sim.requests).toHaveLength(1);
  });

  it("aborts a stream mid-way", async () => {
    const { sim, client } = await setup({ tokenMs: 100 });
    const controller = new AbortController();
    const received: CompletionChunk[] = [];
    const error = await rejection(async () => {
      for await (const chunk of client.stream(request, { signal: controller.signal })) {
        received.push(chunk);
        if (received.length === 2) controller.abort();
      }
    });
    expect(error).toBeInstanceOf(AbortError);
    expect(received).toHaveLength(2);
    await within(sim.requests[0]?.closed ?? Promise.reject(new Error("no request")), 5_000, "close");
    expect(sim.requests[0]?.aborted).toBe(true);
  });

  it("an already aborted signal sends nothing", async () => {
    const { sim, client } = await setup();
    const error = await rejection(() => client.complete(request, { signal: AbortSignal.abort() }));
    expect(error).toBeInstanceOf(AbortError);
    expect(sim.requests).toHaveLength(0);
  });

  it("timeoutMs → TimeoutError, and the server sees the close", async () => {
    const { sim, client } = await setup({ latencyMs: 10_000 }, { timeoutMs: 300 });
    const started = performance.now();
    const error = await rejection(() => client.complete(request));
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error.message).toBe("request timed out after 300 ms");
    // Not before the timeout; and not the answer the server gives after 10 s.
    expect(performance.now() - started).toBeGreaterThanOrEqual(290);
    await within(sim.requests[0]?.closed ?? Promise.reject(new Error("no request")), 5_000, "close");
    expect(sim.requests[0]?.aborted).toBe(true);
  });

  it("a stream advanced once and dropped lets go of the caller's signal at its deadline", async () => {
    const { sim, client } = await setup({ tokenMs: 200 });
    const controller = new AbortController();
    const stream = client.stream(request, { signal: controller.signal, timeoutMs: 300 });
    await stream.next(); // then dropped without return(): the generator's finally never runs
    expect(getEventListeners(controller.signal, "abort")).toHaveLength(1);
    const closed = sim.requests[0]?.closed ?? Promise.reject(new Error("no request"));
    await within(closed, 3_000, "the deadline closing the connection");
    expect(getEventListeners(controller.signal, "abort")).toHaveLength(0);
  });

  it("a per-call timeoutMs overrides the client's, and also bounds streams", async () => {
    const { client } = await setup({ tokenMs: 100 }, { timeoutMs: 60_000 });
    const error = await rejection(() => drain(client.stream(request, { timeoutMs: 250 })));
    expect(error).toBeInstanceOf(TimeoutError);
  });

  it("the timeout covers backoff sleeps: a retry that would end past it is not attempted", async () => {
    const { sim, client } = await setup(
      { faults: [{ type: "status", status: 500, times: 5 }] },
      { maxRetries: 5, timeoutMs: 400 },
    );
    const error = await rejection(() => client.complete(request));
    // Either the server's error (when the next wait would pass the deadline) or a timeout mid-attempt.
    expect(error instanceof InternalServerError || error instanceof TimeoutError).toBe(true);
    expect(sim.requests.length).toBeLessThan(6);
  });
});

describe("the API key never leaks", () => {
  it("not in messages, JSON, util.inspect or causes of any error", async () => {
    const secret = "sk-secret-leak-check-7777";
    sim = await startSim({ apiKey: KEY });
    const errors: unknown[] = [];
    const client = new FimClient({ apiKey: secret, baseURL: sim.url, maxRetries: 0, timeoutMs: 300 });
    errors.push(await rejection(() => client.complete(request))); // 401
    sim.inject({ type: "reset" });
    errors.push(await rejection(() => client.complete(request))); // ConnectionError
    sim.inject({ type: "garbage" });
    errors.push(await rejection(() => client.complete(request))); // ResponseValidationError
    const slow = await startSim({ latencyMs: 5_000 });
    try {
      const slowClient = new FimClient({ apiKey: secret, baseURL: slow.url, timeoutMs: 100 });
      errors.push(await rejection(() => slowClient.complete(request))); // TimeoutError
      errors.push(await rejection(() => slowClient.complete(request, { signal: AbortSignal.abort() })));
    } finally {
      await slow.close();
    }
    expect(errors.map((e) => (e as Error).name)).toEqual([
      "AuthenticationError",
      "ConnectionError",
      "ResponseValidationError",
      "TimeoutError",
      "AbortError",
    ]);
    for (const error of errors) {
      const views = [
        String(error),
        (error as Error).stack ?? "",
        JSON.stringify(error),
        inspect(error, { depth: 20, showHidden: true }),
        inspect((error as Error).cause, { depth: 20, showHidden: true }),
      ];
      for (const view of views) expect(view).not.toContain(secret);
    }
    expect(inspect(client, { depth: 20, showHidden: true })).not.toContain(secret);
    expect(JSON.stringify(client)).not.toContain(secret);
  });
});

function restoreEnv(name: string, value: string | undefined): void {
  if (value === undefined) delete process.env[name];
  else process.env[name] = value;
}
