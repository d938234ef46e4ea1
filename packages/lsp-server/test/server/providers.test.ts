// The server with each provider, through a real JSON-RPC connection, against the sim speaking that provider.
import { inspect } from "node:util";
import type { DialectName } from "@infill/sim";
import { describe, expect, it } from "vitest";
import type { ProbeAnswer } from "../../src/upstream/provider-session.js";
import { ADD_TS, type Session, type SessionOptions, sessions } from "../support/session.js";

const start = sessions();

const shown = (s: Session) =>
  s.messages("window/showMessage").map((m) => (m.params as { message: string }).message);

/** A session whose sim speaks `dialect`, with `provider` set and no DeepSeek key in the environment. */
function withProvider(
  provider: string,
  dialect: DialectName,
  settings: Record<string, unknown> = {},
  options: SessionOptions = {},
): Promise<Session> {
  return start({
    ...options,
    sim: { dialect, ...options.sim },
    env: { DEEPSEEK_API_KEY: "", ...options.env },
    initializationOptions: { provider, debounceMs: 0, ...settings },
  });
}

async function ask(s: Session, uri: string, trigger: "automatic" | "invoked" = "automatic") {
  const at = await s.open(uri, ADD_TS);
  return s.inline(uri, at, undefined, trigger);
}

const PROVIDERS: Array<[string, DialectName, Record<string, unknown>, Record<string, string>]> = [
  ["ollama", "ollama", {}, {}],
  ["llamacpp", "llamacpp", {}, {}],
  ["codestral", "codestral", {}, { CODESTRAL_API_KEY: "csk-test" }],
  ["openai-compatible", "openai-compatible", { model: "Qwen/Qwen2.5-Coder-7B" }, {}],
];

describe.each(PROVIDERS)("provider %s", (provider, dialect, settings, env) => {
  it("answers ghost text from the provider, with no DeepSeek key and no notice", async () => {
    const s = await withProvider(provider, dialect, settings, { env });
    const answer = await ask(s, `file:///${provider}.ts`);
    expect(answer.items[0]?.insertText).toBe("return a + b;");
    expect(s.sim.requests).toHaveLength(1);
    expect(shown(s)).toEqual([]);
  });
});

describe("keys", () => {
  it("codestral without CODESTRAL_API_KEY: told once, nothing sent", async () => {
    const s = await withProvider("codestral", "codestral");
    for (let i = 0; i < 3; i++) expect((await ask(s, `file:///c${i}.ts`)).items).toEqual([]);
    await s.until(() => shown(s).length > 0, "a message");
    expect(shown(s)).toEqual([
      'infill: CODESTRAL_API_KEY is not set, so there are no completions from Codestral. Set it in the environment that starts the editor (or set the "provider" setting to "sim" to try infill offline).',
    ]);
    expect(s.sim.requests).toHaveLength(0);
  });

  it("apiKeyEnv names the variable: its key is sent, and never shown", async () => {
    const key = "sk-host-secret-0123456789";
    const s = await withProvider(
      "openai-compatible",
      "openai-compatible",
      { model: "m", apiKeyEnv: "HOST_KEY" },
      { sim: { apiKey: "sk-other" }, env: { HOST_KEY: key } },
    );
    await ask(s, "file:///named.ts");
    await s.until(() => shown(s).length > 0, "a message");
    expect(s.sim.requests[0]?.headers.authorization).toBe(`Bearer ${key}`);
    expect(shown(s)[0]).toMatch(
      /^infill: the OpenAI-compatible host rejected the API key .* Set a valid HOST_KEY/,
    );
    expect(inspect([s.notifications, s.requests], { depth: 10 })).not.toContain(key);
  });

  it("an apiKeyEnv set for a keyless provider whose variable is empty: told once", async () => {
    const s = await withProvider("ollama", "ollama", { apiKeyEnv: "OLLAMA_KEY" });
    expect((await ask(s, "file:///k.ts")).items).toEqual([]);
    await s.until(() => shown(s).length > 0, "a message");
    expect(shown(s)[0]).toMatch(/^infill: OLLAMA_KEY is not set, so there are no completions from Ollama/);
  });

  it("a key pasted as apiKeyEnv is refused without being quoted", async () => {
    const key = "sk-live-0123456789abcdef";
    const s = await withProvider("ollama", "ollama", { apiKeyEnv: key });
    await s.until(() => shown(s).length > 0, "a message");
    expect(shown(s)[0]).toMatch(/apiKeyEnv: must be an environment variable's name/);
    expect(JSON.stringify(s.notifications)).not.toContain(key);
  });
});

describe("failure notices name the provider and say what to do", () => {
  it("ollama: a model that is not pulled says `ollama pull`, and backs off instead of blocking for good", async () => {
    const s = await withProvider("ollama", "ollama", { model: "mistral" });
    expect((await ask(s, "file:///pull.ts")).items).toEqual([]);
    await s.until(() => shown(s).length > 0, "a message");
    expect(shown(s)).toEqual([
      'infill: Ollama has no model "mistral" (404 model "mistral" not found, try pulling it first). Run `ollama pull mistral`; completions resume by themselves.',
    ]);
  });

  it("ollama: a model whose template has no suffix: pick another model", async () => {
    const s = await withProvider("ollama", "ollama", { model: "llama3.2" });
    await ask(s, "file:///insert.ts");
    await s.until(() => shown(s).length > 0, "a message");
    expect(shown(s)[0]).toMatch(
      /^infill: the Ollama model "llama3.2" cannot fill in the middle .*qwen2.5-coder/,
    );
  });

  it("llamacpp: a model without FIM tokens (501): start llama-server with a FIM-capable model", async () => {
    const s = await withProvider("llamacpp", "llamacpp", {}, { sim: { fim: false } });
    await ask(s, "file:///501.ts");
    await s.until(() => shown(s).length > 0, "a message");
    expect(shown(s)[0]).toMatch(
      /^infill: llama.cpp's model has no fill-in-the-middle tokens \(501 .*FIM-capable model/,
    );
    await ask(s, "file:///501-again.ts");
    expect(s.sim.requests).toHaveLength(1);
  });

  it("a local server that is not running: unavailable, and what to start", async () => {
    const s = await withProvider("ollama", "ollama", { baseUrl: "http://127.0.0.1:9" });
    // Refused three times in a row (the user asks again through the backoff): it is down, not a blip.
    for (const n of [1, 2, 3]) await ask(s, `file:///down-${n}.ts`, "invoked");
    await s.until(() => shown(s).length > 0, "a message");
    expect(shown(s)[0]).toMatch(
      /^infill: Ollama is unavailable \(.*ECONNREFUSED.*\); retrying with backoff\. Is Ollama running/,
    );
  });

  it("plain http to another machine needs allowInsecureHttp", async () => {
    const s = await withProvider("ollama", "ollama", { baseUrl: "http://192.168.1.20:11434" });
    await ask(s, "file:///lan.ts");
    await s.until(() => shown(s).length > 0, "a message");
    expect(shown(s)[0]).toMatch(/refusing plain http to 192\.168\.1\.20:11434/);
    expect(s.sim.requests).toHaveLength(0);
  });
});

/** The usage of the first `$/infill/metrics` notification, once it came. */
async function firstUsage(s: Session): Promise<Record<string, number>> {
  await s.until(() => s.messages("$/infill/metrics").length > 0, "metrics");
  const [first] = s.messages("$/infill/metrics");
  return (first!.params as { usage: Record<string, number> }).usage;
}

describe("usage", () => {
  it("metrics carry each provider's counts in one shape, cache fields only where reported", async () => {
    const ollama = await withProvider("ollama", "ollama", { metrics: true });
    await ask(ollama, "file:///m.ts");
    const usage = await firstUsage(ollama);
    expect(Object.keys(usage).sort()).toEqual(["completion_tokens", "prompt_tokens", "total_tokens"]);

    const llama = await withProvider("llamacpp", "llamacpp", { metrics: true });
    await ask(llama, "file:///m.ts");
    const counts = await firstUsage(llama);
    expect(counts.prompt_cache_hit_tokens).toBe(0);
    expect(counts.prompt_cache_miss_tokens).toBe(counts.prompt_tokens);
  });
});

describe("infill/probe", () => {
  const probe = (s: Session) => s.client.sendRequest("infill/probe", {}) as Promise<ProbeAnswer>;

  it("names the provider, its base URL and model, and says a tiny request succeeded", async () => {
    const s = await withProvider("ollama", "ollama");
    const result = await probe(s);
    expect(result).toEqual({
      provider: "ollama",
      label: "Ollama",
      baseUrl: s.sim.url,
      model: "qwen2.5-coder:1.5b-base",
      ok: true,
      latencyMs: expect.any(Number),
      error: null,
      kind: null,
      apiKeyEnv: null,
      lastFailure: null,
    });
    expect(s.sim.requests[0]?.body).toMatchObject({
      prompt: "def add(a, b):\n    return ",
      options: { num_predict: 1 },
    });
  });

  it("says what is wrong and what to do when it fails", async () => {
    const s = await withProvider("ollama", "ollama", { model: "mistral" });
    const failed = await probe(s);
    expect(failed).toMatchObject({
      ok: false,
      model: "mistral",
      baseUrl: s.sim.url,
      kind: "model-not-found",
    });
    expect(failed.error).toContain("Run `ollama pull mistral`");
  });

  it("a success lifts the backoff of an earlier outage: the next keystroke goes upstream at once", async () => {
    const s = await withProvider(
      "ollama",
      "ollama",
      {},
      { sim: { faults: [{ type: "status", status: 503, times: 2 }] } },
    );
    expect((await ask(s, "file:///outage.ts")).items).toEqual([]);
    // Held back by the backoff: no request.
    expect((await ask(s, "file:///outage-2.ts")).items).toEqual([]);
    expect(s.sim.requests).toHaveLength(2);
    const probed = await probe(s);
    expect(probed.ok).toBe(true);
    // The failure that held completions back, as data for :checkhealth's hint.
    expect(probed.lastFailure).toMatchObject({
      kind: "unavailable",
      message: expect.stringContaining("503"),
    });
    expect((await ask(s, "file:///outage-3.ts")).items[0]?.insertText).toBe("return a + b;");
  });

  it("without the key the provider needs: not sent, and what to set", async () => {
    const s = await withProvider("codestral", "codestral");
    const result = await probe(s);
    expect(result).toMatchObject({ provider: "codestral", label: "Codestral", ok: false, latencyMs: null });
    expect(result.baseUrl).toBe(s.sim.url);
    expect(result.error).toMatch(/^infill: CODESTRAL_API_KEY is not set/);
    expect(s.sim.requests).toHaveLength(0);
  });

  it("the embedded sim works offline", async () => {
    const s = await start({ env: { DEEPSEEK_API_KEY: "" }, initializationOptions: { provider: "sim" } });
    expect(await probe(s)).toMatchObject({
      provider: "sim",
      ok: true,
      baseUrl: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/beta$/),
    });
  });
});

describe("infill/providers", () => {
  it("lists the providers the server knows, with their defaults and key variables", async () => {
    const s = await withProvider("ollama", "ollama");
    const { providers } = (await s.client.sendRequest("infill/providers", {})) as {
      providers: Array<{ name: string; apiKeyEnv: string | null; local: boolean; baseUrl: string | null }>;
    };
    expect(providers.map((p) => p.name)).toEqual([
      "sim",
      "deepseek",
      "openai-compatible",
      "ollama",
      "llamacpp",
      "codestral",
    ]);
    expect(providers.find((p) => p.name === "deepseek")).toMatchObject({
      apiKeyEnv: "DEEPSEEK_API_KEY",
      local: false,
      baseUrl: "https://api.deepseek.com/beta",
    });
    expect(providers.find((p) => p.name === "ollama")).toMatchObject({ apiKeyEnv: null, local: true });
  });
});
