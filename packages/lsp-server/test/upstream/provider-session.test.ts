import { AuthenticationError, ServiceUnavailableError } from "@infill/core";
import { afterEach, describe, expect, it } from "vitest";
import { defaultSettings, type Settings } from "../../src/settings/settings.js";
import type { FailureNotice } from "../../src/upstream/failure-notice.js";
import { ProviderSession } from "../../src/upstream/provider-session.js";

const KEY = "sk-test-0123456789abcdef";
const sessions: ProviderSession[] = [];

function session(overrides: Partial<Settings> = {}, env: NodeJS.ProcessEnv = {}) {
  const settings: Settings = { ...defaultSettings({}), ...overrides };
  const told: FailureNotice[] = [];
  const s = new ProviderSession({
    env,
    settings: () => settings,
    userAgent: "infill-lsp/test",
    tell: (notice) => told.push(notice),
  });
  sessions.push(s);
  return { session: s, settings, told };
}

afterEach(async () => {
  await Promise.all(sessions.splice(0).map((s) => s.close()));
});

describe("ProviderSession", () => {
  it("without the provider's key: no client, told once which variable to set, and the probe says so", async () => {
    const { session: s, told } = session();
    expect(s.upstream()).toBeUndefined();
    s.checkKey();
    s.checkKey();
    expect(told).toHaveLength(1);
    expect(told[0]).toMatchObject({
      kind: "no-key",
      message: expect.stringContaining("DEEPSEEK_API_KEY is not set"),
    });
    expect(s.health.isBlocked(true)).toBe(true);
    const probe = await s.probe();
    expect(probe).toMatchObject({ ok: false, kind: "no-key", apiKeyEnv: "DEEPSEEK_API_KEY" });
    expect(probe.lastFailure).toMatchObject({ kind: "no-key" });
  });

  it("with a key: one client per provider, base URL, model, key variable and timeout", () => {
    const { session: s, settings } = session({}, { DEEPSEEK_API_KEY: ` ${KEY} ` });
    const first = s.upstream();
    expect(first).toBeDefined();
    expect(s.upstream()).toBe(first);
    settings.maxTokens = 12;
    expect(s.upstream()).toBe(first);
    settings.model = "deepseek-v4-pro";
    expect(s.upstream()).not.toBe(first);
  });

  it("redacts every key it has read from whatever is sent", () => {
    const { session: s, settings } = session(
      {},
      { DEEPSEEK_API_KEY: KEY, CODESTRAL_API_KEY: "cs-987654321" },
    );
    s.upstream();
    settings.provider = "codestral";
    s.upstream();
    expect(s.redact(`401: ${KEY} and cs-987654321`)).toBe("401: *** and ***");
  });

  it.each<[Partial<Settings>, string, string]>([
    [{}, "deepseek-v4-flash", "DeepSeek"],
    [{ model: "deepseek-v4-pro" }, "deepseek-v4-pro", "DeepSeek"],
    [{ provider: "ollama" }, "qwen2.5-coder:1.5b-base", "Ollama"],
    [{ provider: "llamacpp" }, "(llamacpp's own model)", "llama.cpp"],
    [{ provider: "sim" }, "deepseek-v4-flash", "the embedded simulator"],
  ])("%j: model %s, named %s", (overrides, model, label) => {
    const { session: s } = session(overrides);
    expect(s.model()).toBe(model);
    expect(s.subject().label).toBe(label);
  });

  it("a settings change forgets the failures: a new key or model deserves a fresh try", () => {
    const { session: s, told } = session({}, { DEEPSEEK_API_KEY: KEY });
    s.health.failure(new AuthenticationError(401, "401"));
    expect(s.health.isBlocked()).toBe(true);
    s.settingsChanged();
    expect(s.health.isBlocked()).toBe(false);
    expect(told).toEqual([]);
  });

  it("probes the embedded simulator, clears the backoff, and reports the failure it cleared", async () => {
    const { session: s } = session({ provider: "sim" });
    s.health.failure(new ServiceUnavailableError(503, "503 Server Overloaded"));
    expect(s.health.isBlocked()).toBe(true);
    const probe = await s.probe();
    expect(probe).toMatchObject({ ok: true, kind: null, apiKeyEnv: null, provider: "sim" });
    expect(probe.lastFailure).toEqual({ kind: "unavailable", message: expect.stringContaining("503") });
    expect(s.health.isBlocked()).toBe(false);
    expect((await s.probe()).lastFailure).toBeNull();
  });
});
