// ProviderClient with each adapter against @infill/sim speaking that provider's dialect, over real HTTP.
import { inspect } from "node:util";
import type { DialectName, Sim, SimOptions } from "@infill/sim";
import { Agent } from "undici";
import { describe, expect, it } from "vitest";
import {
  AbortError,
  ApiError,
  AuthenticationError,
  BadRequestError,
  ConnectionError,
  type FimChunk,
  type FimRequest,
  InternalServerError,
  NotFoundError,
  ProviderClient,
  type ProviderClientOptions,
  type ProviderName,
  TimeoutError,
  ValidationError,
} from "../src/index.js";
import { rejection, startLocalServer, within } from "./support/local-server.js";
import { drain, trackedSim } from "./support/sims.js";

const PROMPT = "function add(a, b) {\n  return a + b;\n}\nfunction sub(a, b) {\n  ";

interface Case {
  provider: ProviderName;
  dialect: DialectName;
  model: string | undefined;
  /** The key the sim accepts and the client sends; none for local servers. */
  key: string | undefined;
  /** What ends its stream, as ConnectionError's message names it. */
  end: string;
  /** Whether its usage carries the prompt cache (DeepSeek's units, llama.cpp's slot). */
  cache: boolean;
}

const CASES: Case[] = [
  {
    provider: "deepseek",
    dialect: "deepseek",
    model: "deepseek-v4-flash",
    key: "sk-deepseek-0123456789",
    end: "[DONE]",
    cache: true,
  },
  {
    provider: "openai-compatible",
    dialect: "openai-compatible",
    model: "Qwen/Qwen2.5-Coder-7B",
    key: "sk-host-0123456789",
    end: "[DONE]",
    cache: false,
  },
  {
    provider: "ollama",
    dialect: "ollama",
    model: "qwen2.5-coder:1.5b-base",
    key: undefined,
    end: "done: true",
    cache: false,
  },
  {
    provider: "llamacpp",
    dialect: "llamacpp",
    model: undefined,
    key: undefined,
    end: "stop: true",
    cache: true,
  },
  {
    provider: "codestral",
    dialect: "codestral",
    model: "codestral-latest",
    key: "csk-codestral-0123456789",
    end: "[DONE]",
    cache: false,
  },
];

async function setup(
  c: Case,
  simOptions: SimOptions = {},
  clientOptions: ProviderClientOptions = {},
): Promise<{ sim: Sim; client: ProviderClient; request: FimRequest }> {
  const sim = await trackedSim({ dialect: c.dialect, ...(c.key ? { apiKey: c.key } : {}), ...simOptions });
  const client = new ProviderClient({
    provider: c.provider,
    baseURL: sim.url,
    apiKey: c.key ?? "",
    ...clientOptions,
  });
  const request: FimRequest = { prompt: PROMPT, suffix: "\n}\n", max_tokens: 32 };
  if (c.model) request.model = c.model;
  return { sim, client, request };
}

describe.each(CASES)("$provider against the sim's $dialect dialect", (c) => {
  it("completes, with usage in one shape (cache fields only where the provider reports them)", async () => {
    const { sim, client, request } = await setup(c);
    const completion = await client.complete(request);
    expect(completion.text).toBe("return a + b;");
    expect(completion.finish_reason).toBe("stop");
    const usage = completion.usage;
    expect(usage?.prompt_tokens).toBeGreaterThan(0);
    expect(usage?.completion_tokens).toBeGreaterThan(0);
    expect(usage?.total_tokens).toBe((usage?.prompt_tokens ?? 0) + (usage?.completion_tokens ?? 0));
    expect(usage?.prompt_cache_hit_tokens !== undefined).toBe(c.cache);
    expect(sim.requests).toHaveLength(1);
    expect(sim.requests[0]?.status).toBe(200);
  });

  it("streams the same text; the counts and the finish reason come at the end", async () => {
    const { client, request } = await setup(c);
    const chunks = await drain(client.stream(request));
    expect(chunks.map((chunk) => chunk.text).join("")).toBe("return a + b;");
    const withUsage = chunks.filter((chunk) => chunk.usage !== undefined);
    expect(withUsage).toHaveLength(1);
    expect(withUsage[0]?.usage?.completion_tokens).toBeGreaterThan(0);
    expect(
      chunks.filter((chunk) => chunk.finish_reason !== null).map((chunk) => chunk.finish_reason),
    ).toEqual(["stop"]);
  });

  it("a stream that ends before its end throws ConnectionError after what arrived", async () => {
    const { client, request } = await setup(c, { faults: [{ type: "cut", afterChunks: 2 }] });
    const received: FimChunk[] = [];
    const error = await rejection(async () => {
      for await (const chunk of client.stream(request)) received.push(chunk);
    });
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error.message.startsWith(`stream ended before ${c.end} (after 2 chunks)`)).toBe(true);
    expect(received).toHaveLength(2);
  });

  it("an error inside a stream that answered 200 throws ApiError with the provider's message", async () => {
    const { client, request } = await setup(c, { faults: [{ type: "stream-error", afterChunks: 1 }] });
    const received: FimChunk[] = [];
    const error = (await rejection(async () => {
      for await (const chunk of client.stream(request)) received.push(chunk);
    })) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error.provider).toBe(c.provider);
    expect(error.message).not.toMatch(/Internal Server Error: \{/);
    expect(received).toHaveLength(1);
  });

  it("an error body under 200 (not streaming) throws ApiError, not a schema error", async () => {
    const { client, request } = await setup(c, { faults: [{ type: "stream-error" }] });
    const error = await rejection(() => client.complete(request));
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(200);
  });

  it("a 500 in the provider's error shape is InternalServerError with its message", async () => {
    const { client, request } = await setup(
      c,
      { faults: [{ type: "status", status: 500 }] },
      { maxRetries: 0 },
    );
    const error = await rejection(() => client.complete(request));
    expect(error).toBeInstanceOf(InternalServerError);
    expect(error.message).toMatch(/^500 [A-Za-z]/);
    expect(error.message).not.toContain("{");
  });

  it("503 with Retry-After, then success: retried once after the given delay", async () => {
    const { sim, client, request } = await setup(c, {
      faults: [{ type: "status", status: 503, retryAfter: "0.05" }],
    });
    const started = performance.now();
    expect((await client.complete(request)).text).toBe("return a + b;");
    expect(performance.now() - started).toBeGreaterThanOrEqual(45);
    expect(sim.requests.map((r) => r.status)).toEqual([503, 200]);
  });

  it("an abort mid-stream rejects at once and closes the connection", async () => {
    const { sim, client, request } = await setup(c, { tokenMs: 100 });
    const controller = new AbortController();
    const received: FimChunk[] = [];
    const error = await rejection(async () => {
      for await (const chunk of client.stream(request, { signal: controller.signal })) {
        received.push(chunk);
        controller.abort();
      }
    });
    expect(error).toBeInstanceOf(AbortError);
    expect(received).toHaveLength(1);
    await within(sim.requests[0]?.closed ?? Promise.reject(new Error("no request")), 1_000, "close");
    expect(sim.requests[0]?.aborted).toBe(true);
  });

  it("timeoutMs bounds the call: TimeoutError", async () => {
    const { client, request } = await setup(c, { latencyMs: 5_000 }, { timeoutMs: 100 });
    const error = await rejection(() => client.complete(request));
    expect(error).toBeInstanceOf(TimeoutError);
  });

  it("refuses a bad request before any I/O, naming the field", async () => {
    const { sim, client, request } = await setup(c);
    const unknown = await rejection(() => client.complete({ ...request, top_k: 5 } as FimRequest));
    expect(unknown).toBeInstanceOf(ValidationError);
    expect((unknown as ValidationError).field).toBe("top_k");
    const bound = await rejection(() => drain(client.stream({ ...request, max_tokens: 0 })));
    expect((bound as ValidationError).field).toBe("max_tokens");
    const none = await rejection(() => client.complete(null as unknown as FimRequest));
    expect(none.message).toBe("the request must be an object with at least prompt");
    expect(sim.requests).toHaveLength(0);
  });

  it("keeps connections alive: completions share one, and a finished stream does not drop its own", async () => {
    const dispatcher = new Agent();
    let connections = 0;
    let disconnections = 0;
    dispatcher.on("connect", () => connections++);
    dispatcher.on("disconnect", () => disconnections++);
    try {
      const { client, request } = await setup(c, {}, { dispatcher });
      for (let i = 0; i < 5; i++) {
        await client.complete(request);
        await drain(client.stream(request));
      }
      // undici may open a second socket when a call starts while the last one is finishing; ten calls on at
      // most two sockets, and none closed, is reuse.
      expect(connections).toBeLessThanOrEqual(2);
      expect(disconnections).toBe(0);
    } finally {
      await dispatcher.close();
    }
  });

  it("never shows the key: not in errors (even one a server echoes), nor in the client", async () => {
    const secret = "sk-secret-leak-check-7777";
    const sim = await trackedSim({ dialect: c.dialect, apiKey: "the-right-one" });
    const client = new ProviderClient({
      provider: c.provider,
      baseURL: sim.url,
      apiKey: secret,
      maxRetries: 0,
    });
    const error = await rejection(() =>
      client.complete({ prompt: "x", ...(c.model ? { model: c.model } : {}) }),
    );
    expect(error).toBeInstanceOf(AuthenticationError);
    for (const view of [
      String(error),
      JSON.stringify(error),
      inspect(error, { depth: 20, showHidden: true }),
    ]) {
      expect(view).not.toContain(secret);
    }
    expect(inspect(client, { depth: 20, showHidden: true })).not.toContain(secret);
    expect(sim.requests[0]?.headers.authorization).toBe(`Bearer ${secret}`);
  });

  it("sends repository context its way: llama.cpp as input_extra, the others in the prompt", async () => {
    const { sim, client, request } = await setup(c);
    const context = {
      snippets: [
        { path: "src/math.ts", text: "export const two = 2;" },
        { path: "src/math.ts", text: "export const three = 3;" },
        { path: "src/util.ts", text: "export const id = (x) => x;" },
      ],
      text:
        "// src/math.ts\nexport const two = 2;\n\nexport const three = 3;\n// src/util.ts\nexport const id = (x) => x;\n" +
        "// src/app.ts\n",
      pathLine: "// src/app.ts\n",
    };
    await client.complete({ ...request, context });
    const body = sim.requests[0]?.body as Record<string, unknown>;
    if (c.provider === "llamacpp") {
      // One chunk per file: the server names each chunk's file once.
      expect(body.input_extra).toEqual([
        { filename: "src/math.ts", text: "export const two = 2;\n\nexport const three = 3;" },
        { filename: "src/util.ts", text: "export const id = (x) => x;" },
      ]);
      expect(body.input_prefix).toBe(`// src/app.ts\n${PROMPT}`);
    } else {
      expect(body.prompt).toBe(context.text + PROMPT);
      expect(JSON.stringify(body)).not.toContain("snippets");
    }
  });
});

describe("what each provider is sent", () => {
  it("deepseek: DeepSeek's fields in its spec's order; streams ask for the usage chunk", async () => {
    const { sim, client, request } = await setup(CASES[0] as Case);
    await client.complete({ ...request, temperature: 0, stop: ["\n\n"] });
    await drain(client.stream(request));
    expect(Object.keys(sim.requests[0]?.body as object)).toEqual([
      "model",
      "prompt",
      "max_tokens",
      "stop",
      "suffix",
      "temperature",
    ]);
    expect(sim.requests[1]?.body).toMatchObject({ stream: true, stream_options: { include_usage: true } });
  });

  it("deepseek: logprobs asked for come back as the sampled tokens' log probabilities, whole and streamed", async () => {
    const { sim, client, request } = await setup(CASES[0] as Case);
    const whole = await client.complete({ ...request, logprobs: 1 });
    expect(Object.keys(sim.requests[0]?.body as object)).toContain("logprobs");
    expect(whole.logprobs?.length).toBeGreaterThan(0);
    for (const value of whole.logprobs ?? []) expect(value).toBeLessThanOrEqual(0);
    const chunks = await drain(client.stream({ ...request, logprobs: 1 }));
    const streamed = chunks.flatMap((chunk) => chunk.logprobs ?? []);
    expect(streamed).toEqual(whole.logprobs);
    // Not asked: none.
    expect((await client.complete(request)).logprobs).toBeUndefined();
  });

  it("ollama: options.num_predict/temperature/stop, stream: false when not streaming, keep_alive 30m", async () => {
    const { sim, client, request } = await setup(CASES[2] as Case);
    await client.complete({ ...request, temperature: 0, stop: "\n\n" });
    expect(sim.requests[0]?.body).toEqual({
      model: "qwen2.5-coder:1.5b-base",
      prompt: PROMPT,
      suffix: "\n}\n",
      stream: false,
      options: { num_predict: 32, temperature: 0, stop: ["\n\n"] },
      keep_alive: "30m",
    });
    expect(sim.requests[0]?.headers.authorization).toBeUndefined();
    const keepNone = new ProviderClient({ provider: "ollama", baseURL: sim.url, keepAlive: null });
    await keepNone.complete(request);
    expect(sim.requests[1]?.body).not.toHaveProperty("keep_alive");
  });

  it("llamacpp: input_prefix, input_suffix, n_predict, cache_prompt; no model unless given", async () => {
    const { sim, client, request } = await setup(CASES[3] as Case);
    await client.complete({ ...request, suffix: undefined });
    expect(sim.requests[0]?.body).toEqual({
      input_prefix: PROMPT,
      input_suffix: "",
      n_predict: 32,
      stream: false,
      cache_prompt: true,
    });
    await client.complete({ ...request, model: "qwen" });
    expect(sim.requests[1]?.body).toMatchObject({ model: "qwen" });
  });

  it("codestral and openai-compatible: only their own fields (Codestral refuses others with 422)", async () => {
    for (const c of [CASES[4], CASES[1]] as Case[]) {
      const { sim, client, request } = await setup(c);
      await client.complete({ ...request, temperature: 0.2, stop: ["\n\n"] });
      expect(Object.keys(sim.requests[0]?.body as object).sort()).toEqual(
        ["max_tokens", "model", "prompt", "stop", "stream", "suffix", "temperature"].sort(),
      );
    }
  });
});

describe("what each provider's errors mean", () => {
  it("ollama: a model not pulled is NotFoundError with reason model-not-found", async () => {
    const { client, request } = await setup(CASES[2] as Case);
    const error = (await rejection(() => client.complete({ ...request, model: "mistral" }))) as ApiError;
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error.message).toBe('404 model "mistral" not found, try pulling it first');
    expect(error.reason).toBe("model-not-found");
  });

  it("ollama: a model whose template has no suffix is BadRequestError with reason fim-unsupported", async () => {
    const { client, request } = await setup(CASES[2] as Case);
    const error = (await rejection(() => client.complete({ ...request, model: "llama3.2" }))) as ApiError;
    expect(error).toBeInstanceOf(BadRequestError);
    expect(error.message).toBe('400 "llama3.2" does not support insert');
    expect(error.reason).toBe("fim-unsupported");
  });

  it("llamacpp: a model without FIM tokens is a 501 with reason fim-unsupported, not retried", async () => {
    const { sim, client, request } = await setup(CASES[3] as Case, { fim: false });
    const error = (await rejection(() => client.complete(request))) as ApiError;
    expect(error.status).toBe(501);
    expect(error.type).toBe("not_supported_error");
    expect(error.message).toMatch(/^501 Infill is not supported by this model/);
    expect(error.reason).toBe("fim-unsupported");
    expect(sim.requests).toHaveLength(1);
  });

  it("llamacpp: an error sent as an SSE `error:` field (servers before 2025) ends the stream", async () => {
    const server = await startLocalServer((res) => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.write('data: {"content":"ret","stop":false}\n\n');
      res.end('error: {"code":500,"message":"slot unavailable","type":"server_error"}\n\n');
    });
    try {
      const client = new ProviderClient({ provider: "llamacpp", baseURL: server.url.replace(/\/beta$/, "") });
      const received: FimChunk[] = [];
      const error = (await rejection(async () => {
        for await (const chunk of client.stream({ prompt: "x" })) received.push(chunk);
      })) as ApiError;
      expect(received.map((chunk) => chunk.text)).toEqual(["ret"]);
      expect(error).toBeInstanceOf(InternalServerError);
      expect(error.message).toBe("500 slot unavailable");
    } finally {
      await server.close();
    }
  });

  it("openai-compatible: a host that refuses suffix is reason fim-unsupported", async () => {
    const { client, request } = await setup(CASES[1] as Case, { fim: false });
    const error = (await rejection(() => client.complete(request))) as ApiError;
    expect(error).toBeInstanceOf(BadRequestError);
    expect(error.param).toBe("suffix");
    expect(error.reason).toBe("fim-unsupported");
  });

  it("codestral: an unknown model is reason model-not-found; a wrong key says Unauthorized", async () => {
    const { sim, client, request } = await setup(CASES[4] as Case);
    const model = (await rejection(() =>
      client.complete({ ...request, model: "codestral-9000" }),
    )) as ApiError;
    expect(model).toBeInstanceOf(BadRequestError);
    expect(model.message).toBe("400 Invalid model: codestral-9000");
    expect(model.reason).toBe("model-not-found");
    const wrong = new ProviderClient({ provider: "codestral", baseURL: sim.url, apiKey: "csk-wrong" });
    const auth = await rejection(() => wrong.complete(request));
    expect(auth).toBeInstanceOf(AuthenticationError);
    expect(auth.message).toBe("401 Unauthorized");
  });
});

describe("options", () => {
  it("reads the key from the provider's variable, or the one apiKeyEnv names", async () => {
    const saved = { ...process.env };
    try {
      process.env.CODESTRAL_API_KEY = "csk-from-env";
      process.env.MY_HOST_KEY = "sk-named";
      const sim = await trackedSim({ dialect: "codestral" });
      await new ProviderClient({ provider: "codestral", baseURL: sim.url }).complete({
        model: "codestral-latest",
        prompt: "x",
      });
      expect(sim.requests[0]?.headers.authorization).toBe("Bearer csk-from-env");
      const named = new ProviderClient({ provider: "codestral", baseURL: sim.url, apiKeyEnv: "MY_HOST_KEY" });
      expect(named.apiKeyEnv).toBe("MY_HOST_KEY");
      await named.complete({ model: "codestral-latest", prompt: "x" });
      expect(sim.requests[1]?.headers.authorization).toBe("Bearer sk-named");
      process.env.CODESTRAL_API_KEY = "csk with space";
      expect(() => new ProviderClient({ provider: "codestral", baseURL: sim.url })).toThrow(
        /^CODESTRAL_API_KEY contains characters that cannot go in an HTTP header/,
      );
    } finally {
      process.env = saved;
    }
  });

  it("refuses an apiKeyEnv that is not a variable name, without quoting it", () => {
    const key = "sk-0123456789abcdef";
    const error = (() => {
      try {
        new ProviderClient({ provider: "ollama", apiKeyEnv: key });
      } catch (caught) {
        return caught as ValidationError;
      }
      throw new Error("expected a throw");
    })();
    expect(error.field).toBe("apiKeyEnv");
    expect(inspect(error, { showHidden: true })).not.toContain(key);
  });

  it("uses the model option, else the provider's default, for requests that name none", async () => {
    const sim = await trackedSim({ dialect: "ollama" });
    await new ProviderClient({ provider: "ollama", baseURL: sim.url }).complete({ prompt: "x" });
    await new ProviderClient({ provider: "ollama", baseURL: sim.url, model: "starcoder2:3b" }).complete({
      prompt: "x",
    });
    await new ProviderClient({ provider: "ollama", baseURL: sim.url, model: "starcoder2:3b" }).complete({
      prompt: "x",
      model: "codellama:7b-code",
    });
    expect(sim.requests.map((r) => (r.body as { model: string }).model)).toEqual([
      "qwen2.5-coder:1.5b-base",
      "starcoder2:3b",
      "codellama:7b-code",
    ]);
  });

  it("an OpenAI-compatible host has no default model: a request must name one", async () => {
    const client = new ProviderClient({ provider: "openai-compatible", baseURL: "http://127.0.0.1:9/v1" });
    expect(client.model).toBeUndefined();
    const error = await rejection(() => client.complete({ prompt: "x" }));
    expect(error).toBeInstanceOf(ValidationError);
    expect(error.message).toBe(
      "invalid request: model is required for openai-compatible (e.g. the model id the host serves)",
    );
  });

  it("refuses an unknown provider, and an OpenAI-compatible host without a base URL", () => {
    const saved = process.env.INFILL_BASE_URL;
    delete process.env.INFILL_BASE_URL;
    try {
      expect(() => new ProviderClient({ provider: "gpt" as ProviderName })).toThrow(
        /provider must be one of/,
      );
      expect(() => new ProviderClient({ provider: "openai-compatible" })).toThrow(/needs a baseURL/);
    } finally {
      if (saved !== undefined) process.env.INFILL_BASE_URL = saved;
    }
  });

  it.each<[ProviderName, string, string]>([
    ["ollama", "http://localhost:11434/", "http://localhost:11434"],
    ["ollama", "http://127.0.0.1:11434", "http://127.0.0.1:11434"],
    ["ollama", "https://gpu.example/ollama", "https://gpu.example/ollama"],
    ["llamacpp", "http://127.0.0.1:8080", "http://127.0.0.1:8080"],
    ["llamacpp", "http://127.0.0.1:8080/prefix/", "http://127.0.0.1:8080/prefix"],
    ["codestral", "https://codestral.mistral.ai", "https://codestral.mistral.ai/v1"],
    ["codestral", "https://api.mistral.ai/v1", "https://api.mistral.ai/v1"],
    ["openai-compatible", "https://api.siliconflow.cn", "https://api.siliconflow.cn/v1"],
    ["openai-compatible", "http://localhost:11434/v1/", "http://localhost:11434/v1"],
    ["deepseek", "https://api.deepseek.com", "https://api.deepseek.com/beta"],
  ])("%s: base %s → %s", (provider, input, expected) => {
    expect(new ProviderClient({ provider, baseURL: input }).baseURL).toBe(expected);
  });

  it.each<[ProviderName, string, string]>([
    ["ollama", "http://localhost:11434/api/generate", "pass http://localhost:11434, not"],
    [
      "ollama",
      "http://localhost:11434/v1",
      'pass http://localhost:11434 (or use provider "openai-compatible"',
    ],
    ["ollama", "http://localhost:11434/api", "pass http://localhost:11434"],
    ["llamacpp", "http://127.0.0.1:8080/infill", "pass http://127.0.0.1:8080, not"],
    ["llamacpp", "http://127.0.0.1:8080/v1", "not its /v1 API"],
    [
      "codestral",
      "https://codestral.mistral.ai/v1/fim/completions",
      "pass https://codestral.mistral.ai/v1, not",
    ],
    ["openai-compatible", "https://api.siliconflow.cn/v1/completions", "pass https://api.siliconflow.cn/v1"],
  ])("%s: refuses %s", (provider, input, hint) => {
    expect(() => new ProviderClient({ provider, baseURL: input })).toThrow(hint);
  });

  it.each<ProviderName>(["ollama", "llamacpp", "openai-compatible"])(
    "%s: plain http off loopback only with allowInsecureHttp",
    (provider) => {
      expect(() => new ProviderClient({ provider, baseURL: "http://10.0.0.7:11434" })).toThrow(
        /refusing plain http to 10\.0\.0\.7:11434.*allowInsecureHttp: true/,
      );
      expect(
        new ProviderClient({ provider, baseURL: "http://10.0.0.7:11434", allowInsecureHttp: true }).baseURL,
      ).toMatch(/^http:\/\/10\.0\.0\.7:11434/);
    },
  );
});
